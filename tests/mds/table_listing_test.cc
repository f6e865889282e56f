// TableService: GetTables, BatchDeleteTable and SearchTables.
#include <chrono>
#include <thread>

#include "tests/mds/table_test_util.h"

namespace ics::catalog::testing {
namespace {

thrift::TGetTablesRequest TablesReq(const std::string& db, const std::string& expr = "",
                                    int max = 0, const std::string& token = "") {
  thrift::TGetTablesRequest r;
  r.db_name = db;
  if (!expr.empty()) r.__set_expression(expr);
  if (max != 0) r.__set_max_results(max);
  if (!token.empty()) r.__set_next_token(token);
  return r;
}

std::vector<std::string> Names(const std::vector<thrift::TTableInfo>& tables) {
  std::vector<std::string> out;
  for (const auto& t : tables) out.push_back(t.table.tableName);
  return out;
}

using V = std::vector<std::string>;

TEST_F(TableServiceTest, GetTablesPatternsAndPaging) {
  MakeDbAndTables("db", {"customer_link", "customer", "orders", "order_items", "web_sales"});
  auto all = service_->GetTables(TablesReq("DB"));
  ASSERT_RESULT_OK(all);
  EXPECT_EQ(Names(all->tables), (V{"customer", "customer_link", "order_items", "orders",
                                   "web_sales"}));
  EXPECT_FALSE(all->__isset.next_token);
  EXPECT_EQ(all->tables[0].version_id, "1");

  auto r = service_->GetTables(TablesReq("db", "cust*"));
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(Names(r->tables), (V{"customer", "customer_link"}));
  r = service_->GetTables(TablesReq("db", "ORDER.*|web_sales"));
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(Names(r->tables), (V{"order_items", "orders", "web_sales"}));
  r = service_->GetTables(TablesReq("db", "order."));
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(Names(r->tables), (V{"orders"}));
  r = service_->GetTables(TablesReq("db", "nothing"));
  ASSERT_RESULT_OK(r);
  EXPECT_TRUE(r->tables.empty());

  // Pages of 2 cover everything once.
  V seen;
  std::string token;
  int pages = 0;
  do {
    auto page = service_->GetTables(TablesReq("db", "", 2, token));
    ASSERT_RESULT_OK(page);
    for (const auto& n : Names(page->tables)) seen.push_back(n);
    token = page->__isset.next_token ? page->next_token : "";
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(seen, Names(all->tables));
  EXPECT_EQ(pages, 3);
}

TEST_F(TableServiceTest, GetTablesAsOfTime) {
  MakeDbAndTables("db", {"a"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // distinct ms stamps
  ASSERT_RESULT_OK(Update("db", "a", "k", "new"));
  const int64_t updated_ms = Get("db", "a").update_time_ms;
  thrift::TGetTablesRequest r = TablesReq("db");
  r.__set_query_as_of_time_ms(updated_ms - 1);
  auto old = service_->GetTables(r);
  ASSERT_RESULT_OK(old);
  ASSERT_EQ(old->tables.size(), 1u);
  EXPECT_EQ(old->tables[0].version_id, "1");
  EXPECT_EQ(old->tables[0].table.parameters.count("k"), 0u);
  r.__set_query_as_of_time_ms(updated_ms);
  auto now = service_->GetTables(r);
  ASSERT_RESULT_OK(now);
  ASSERT_EQ(now->tables.size(), 1u);
  EXPECT_EQ(now->tables[0].version_id, "2");
  r.__set_query_as_of_time_ms(0);  // before any table existed
  auto none = service_->GetTables(r);
  ASSERT_RESULT_OK(none);
  EXPECT_TRUE(none->tables.empty());
  r.__set_query_as_of_time_ms(-1);
  EXPECT_CODE(service_->GetTables(r), ErrorCode::kInvalidArgument);
}

TEST_F(TableServiceTest, GetTablesErrors) {
  MakeDbAndTables("db", {"t"});
  EXPECT_CODE(service_->GetTables(TablesReq("nodb")), ErrorCode::kNotFound);
  EXPECT_CODE(service_->GetTables(TablesReq("db", "", 101)), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq("db", "", -5)), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq("db", std::string(2049, 'a'))),
              ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq("db", "a\nb")), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq("db", "", 10, "bad.token")),
              ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq("")), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTables(TablesReq(std::string(256, 'd'))), ErrorCode::kInvalidArgument);
}

TEST_F(TableServiceTest, BatchDeleteTableReportsPerTableErrors) {
  MakeDbAndTables("db", {"a", "b", "c"});
  const int64_t before = catalog_->version();
  thrift::TBatchDeleteTableRequest r;
  r.db_name = "db";
  r.tables_to_delete = {"A", "missing", "b", "bad.name", "a"};
  auto errors = service_->BatchDeleteTable(r);
  ASSERT_RESULT_OK(errors);
  ASSERT_EQ(errors->size(), 2u);
  EXPECT_EQ((*errors)[0].table_name, "missing");
  EXPECT_EQ((*errors)[0].error.code, TTS::NOT_FOUND);
  EXPECT_EQ((*errors)[1].error.code, TTS::INVALID_ARGUMENT);
  EXPECT_EQ(catalog_->version(), before + 2);  // one version per dropped table
  EXPECT_EQ(catalog_->GetTable("db", "a"), nullptr);
  EXPECT_EQ(catalog_->GetTable("db", "b"), nullptr);
  EXPECT_NE(catalog_->GetTable("db", "c"), nullptr);
  EXPECT_CODE(metastore_->GetTable("db", "a"), ErrorCode::kNotFound);

  r.tables_to_delete.assign(101, "c");
  EXPECT_CODE(service_->BatchDeleteTable(r), ErrorCode::kLimitExceeded);
  EXPECT_NE(catalog_->GetTable("db", "c"), nullptr);
  r.db_name = "nodb";
  r.tables_to_delete = {"c"};
  EXPECT_CODE(service_->BatchDeleteTable(r), ErrorCode::kNotFound);
}

// ---- SearchTables ----

class SearchTest : public TableServiceTest {
 protected:
  void SetUp() override {
    TableServiceTest::SetUp();
    MakeDbAndTables("sales", {"customer_link", "xxlinkyy", "orders"});
    MakeDbAndTables("hr", {"employees"});
    // Parameters and a description through UpdateTable.
    thrift::TTableInput in = InputFrom(Get("hr", "employees"));
    in.parameters["classification"] = "parquet";
    in.__set_description("People who work here");
    in.__set_owner("bob");
    thrift::TUpdateTableRequest u;
    u.db_name = "hr";
    u.table_input = in;
    ASSERT_RESULT_OK(service_->UpdateTable(u));
  }

  V Search(const std::string& text, std::vector<thrift::TPropertyPredicate> filters = {},
           const std::string& sort_field = "", bool desc = false) {
    thrift::TSearchTablesRequest r;
    if (!text.empty()) r.__set_search_text(text);
    if (!filters.empty()) r.__set_filters(filters);
    if (!sort_field.empty()) {
      thrift::TSortCriterion c;
      c.field_name = sort_field;
      c.__set_sort(desc ? thrift::TSortDirection::DESCENDING : thrift::TSortDirection::ASCENDING);
      r.__set_sort_criteria({c});
    }
    auto res = service_->SearchTables(r);
    EXPECT_TRUE(res.ok()) << res.status().ToString();
    V out;
    if (res.ok()) {
      for (const auto& t : res->tables) out.push_back(t.table.dbName + "." + t.table.tableName);
    }
    return out;
  }

  static thrift::TPropertyPredicate Pred(
      const std::string& k, const std::string& v,
      thrift::TPropertyComparator::type c = thrift::TPropertyComparator::EQUALS) {
    thrift::TPropertyPredicate p;
    p.key = k;
    p.value = v;
    p.__set_comparator(c);
    return p;
  }
};

TEST_F(SearchTest, FreeText) {
  EXPECT_EQ(Search(""), (V{"hr.employees", "sales.customer_link", "sales.orders",
                           "sales.xxlinkyy"}));
  EXPECT_EQ(Search("LINK"), (V{"sales.customer_link", "sales.xxlinkyy"}));
  EXPECT_EQ(Search("parquet"), (V{"hr.employees"}));     // parameter value
  EXPECT_EQ(Search("classif"), (V{"hr.employees"}));     // parameter key
  EXPECT_EQ(Search("who work"), (V{"hr.employees"}));    // description
  EXPECT_EQ(Search("name"), (V{"hr.employees", "sales.customer_link", "sales.orders",
                               "sales.xxlinkyy"}));      // column "name"
  EXPECT_EQ(Search("\"orders\""), (V{"sales.orders"}));  // quoted: exact
  EXPECT_EQ(Search("\"order\""), V{});
}

TEST_F(SearchTest, PropertyFilters) {
  // Name tokens: customer_link -> {customer, link}; xxlinkyy has no token "link".
  EXPECT_EQ(Search("", {Pred("Name", "link")}), (V{"sales.customer_link"}));
  EXPECT_EQ(Search("", {Pred("DatabaseName", "HR")}), (V{"hr.employees"}));
  EXPECT_EQ(Search("", {Pred("Owner", "bob")}), (V{"hr.employees"}));
  EXPECT_EQ(Search("", {Pred("Description", "people")}), (V{"hr.employees"}));
  EXPECT_EQ(Search("", {Pred("classification", "parquet")}), (V{"hr.employees"}));
  EXPECT_EQ(Search("", {Pred("classification", "csv")}), V{});
  EXPECT_EQ(Search("", {Pred("UpdateTime", "0", thrift::TPropertyComparator::GREATER_THAN),
                        Pred("DatabaseName", "sales")}),
            (V{"sales.customer_link", "sales.orders", "sales.xxlinkyy"}));
  EXPECT_EQ(Search("", {Pred("CreateTime", "0", thrift::TPropertyComparator::LESS_THAN)}), V{});
  // Bad filters.
  thrift::TSearchTablesRequest r;
  r.__set_filters({Pred("Name", "x", thrift::TPropertyComparator::GREATER_THAN)});
  EXPECT_CODE(service_->SearchTables(r), ErrorCode::kInvalidArgument);
  r.__set_filters({Pred("CreateTime", "yesterday")});
  EXPECT_CODE(service_->SearchTables(r), ErrorCode::kInvalidArgument);
  r.__set_filters({Pred("", "x")});
  EXPECT_CODE(service_->SearchTables(r), ErrorCode::kInvalidArgument);
}

TEST_F(SearchTest, SortAndPaging) {
  EXPECT_EQ(Search("", {}, "Name", true), (V{"sales.xxlinkyy", "sales.orders", "hr.employees",
                                             "sales.customer_link"}));
  EXPECT_EQ(Search("", {}, "UpdateTime", true).front(), "hr.employees");  // updated last
  V seen;
  thrift::TSearchTablesRequest r;
  r.__set_max_results(3);
  for (int i = 0; i < 5; ++i) {
    auto page = service_->SearchTables(r);
    ASSERT_RESULT_OK(page);
    for (const auto& t : page->tables) seen.push_back(t.table.tableName);
    if (!page->__isset.next_token) break;
    r.__set_next_token(page->next_token);
  }
  EXPECT_EQ(seen, (V{"employees", "customer_link", "orders", "xxlinkyy"}));
  // Limits and bad input.
  thrift::TSearchTablesRequest bad;
  bad.__set_max_results(1001);
  EXPECT_CODE(service_->SearchTables(bad), ErrorCode::kInvalidArgument);
  bad = {};
  bad.__set_search_text(std::string(1025, 's'));
  EXPECT_CODE(service_->SearchTables(bad), ErrorCode::kInvalidArgument);
  bad = {};
  bad.__set_next_token("-3");
  EXPECT_CODE(service_->SearchTables(bad), ErrorCode::kInvalidArgument);
  bad = {};
  thrift::TSortCriterion c;
  c.field_name = "Name";
  bad.__set_sort_criteria({c, c});
  EXPECT_CODE(service_->SearchTables(bad), ErrorCode::kLimitExceeded);
  c.field_name = "Colour";
  bad.__set_sort_criteria({c});
  EXPECT_CODE(service_->SearchTables(bad), ErrorCode::kInvalidArgument);
  bad = {};
  bad.__set_resource_share_type(thrift::TResourceShareType::FOREIGN);
  auto foreign = service_->SearchTables(bad);
  ASSERT_RESULT_OK(foreign);
  EXPECT_TRUE(foreign->tables.empty());
}

TEST_F(SearchTest, SeesEveryInstalledChange) {
  EXPECT_EQ(Search("freshtable"), V{});
  ASSERT_DDL_OK(created, CreateTable("sales", "freshtable"));
  EXPECT_EQ(Search("freshtable"), (V{"sales.freshtable"}));
  ASSERT_RESULT_OK(Update("sales", "freshtable", "flavour", "mint"));
  EXPECT_EQ(Search("mint"), (V{"sales.freshtable"}));
  ASSERT_DDL_OK(dropped, Exec(DropTableReq("sales", "freshtable")));
  EXPECT_EQ(Search("freshtable"), V{});
  EXPECT_EQ(tables_->directory()->size(), 4u);  // the dropped table's entry is pruned
}

}  // namespace
}  // namespace ics::catalog::testing
