// TableService: GetTable, UpdateTable and table versions, against the real
// SQLite metastore and catalog.
#include <chrono>
#include <set>
#include <thread>

#include "catalogd/mds/service_status.h"
#include "tests/mds/table_test_util.h"

namespace ics::catalog::testing {
namespace {

thrift::TGetTableVersionsRequest VersionsReq(const std::string& db, const std::string& table,
                                             int max = 0, const std::string& token = "") {
  thrift::TGetTableVersionsRequest r;
  r.db_name = db;
  r.table_name = table;
  if (max != 0) r.__set_max_results(max);
  if (!token.empty()) r.__set_next_token(token);
  return r;
}

TEST_F(TableServiceTest, NewTableIsVersionOne) {
  MakeDbAndTables("db", {"t"});
  thrift::TTableInfo t = Get("DB", "T");  // names are case-insensitive
  EXPECT_EQ(t.version_id, "1");
  EXPECT_EQ(t.table.tableName, "t");
  EXPECT_EQ(t.table.dbName, "db");
  EXPECT_GT(t.update_time_ms, 0);
}

TEST_F(TableServiceTest, UpdateArchivesPreviousVersionInOneCatalogVersion) {
  MakeDbAndTables("db", {"t"});
  const int64_t before = catalog_->version();
  auto r = Update("db", "t", "k", "v1");
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->version_id, "2");
  EXPECT_EQ(r->catalog_version, before + 1);  // exactly one new catalog version
  EXPECT_EQ(catalog_->version(), before + 1);
  // The catalog's table state carries the change at that version.
  TablePtr state = catalog_->GetTable("db", "t");
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->version, before + 1);
  EXPECT_EQ(state->hms.parameters.at("k"), "v1");

  thrift::TTableInfo cur = Get("db", "t");
  EXPECT_EQ(cur.version_id, "2");
  EXPECT_EQ(cur.table.parameters.at("k"), "v1");
  // Version 1 is archived without the parameter.
  thrift::TGetTableVersionRequest vr;
  vr.db_name = "db";
  vr.table_name = "t";
  vr.__set_version_id("1");
  auto v1 = service_->GetTableVersion(vr);
  ASSERT_RESULT_OK(v1);
  EXPECT_EQ(v1->version_id, "1");
  EXPECT_EQ(v1->table.table.parameters.count("k"), 0u);
  EXPECT_GT(v1->archived_time_ms, 0);
  // GetTable by version id too.
  thrift::TGetTableRequest gr;
  gr.db_name = "db";
  gr.table_name = "t";
  gr.__set_version_id("1");
  auto g = service_->GetTable(gr);
  ASSERT_RESULT_OK(g);
  EXPECT_EQ(g->table.parameters.count("k"), 0u);
}

TEST_F(TableServiceTest, SkipArchiveAdvancesVersionWithoutKeepingIt) {
  MakeDbAndTables("db", {"t"});
  ASSERT_RESULT_OK(Update("db", "t", "k", "a", /*skip_archive=*/true));
  EXPECT_EQ(Get("db", "t").version_id, "2");
  thrift::TGetTableVersionRequest vr;
  vr.db_name = "db";
  vr.table_name = "t";
  vr.__set_version_id("1");
  EXPECT_CODE(service_->GetTableVersion(vr), ErrorCode::kNotFound);
  auto all = service_->GetTableVersions(VersionsReq("db", "t"));
  ASSERT_RESULT_OK(all);
  ASSERT_EQ(all->table_versions.size(), 1u);
  EXPECT_EQ(all->table_versions[0].version_id, "2");
}

TEST_F(TableServiceTest, VersionsArePagedNewestFirst) {
  MakeDbAndTables("db", {"t"});
  for (int i = 0; i < 5; ++i) ASSERT_RESULT_OK(Update("db", "t", "i", std::to_string(i)));
  std::vector<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    auto page = service_->GetTableVersions(VersionsReq("db", "t", 2, token));
    ASSERT_RESULT_OK(page);
    EXPECT_LE(page->table_versions.size(), 2u);
    for (const auto& v : page->table_versions) seen.push_back(v.version_id);
    token = page->__isset.next_token ? page->next_token : "";
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(seen, (std::vector<std::string>{"6", "5", "4", "3", "2", "1"}));
  EXPECT_EQ(pages, 3);
  // Limits and bad tokens.
  EXPECT_CODE(service_->GetTableVersions(VersionsReq("db", "t", 101)), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTableVersions(VersionsReq("db", "t", -1)), ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTableVersions(VersionsReq("db", "t", 5, "x1")),
              ErrorCode::kInvalidArgument);
  EXPECT_CODE(service_->GetTableVersions(VersionsReq("db", "nope")), ErrorCode::kNotFound);
}

TEST_F(TableServiceTest, DeleteVersions) {
  MakeDbAndTables("db", {"t"});
  for (int i = 0; i < 3; ++i) ASSERT_RESULT_OK(Update("db", "t", "i", std::to_string(i)));
  // Versions 1..3 archived, 4 current.
  thrift::TDeleteTableVersionRequest d;
  d.db_name = "db";
  d.table_name = "t";
  d.version_id = "2";
  const int64_t before = catalog_->version();
  EXPECT_STATUS_CODE(service_->DeleteTableVersion(d), ErrorCode::kOk);
  EXPECT_EQ(catalog_->version(), before + 1);
  EXPECT_STATUS_CODE(service_->DeleteTableVersion(d), ErrorCode::kNotFound);
  d.version_id = "4";  // the current one
  EXPECT_STATUS_CODE(service_->DeleteTableVersion(d), ErrorCode::kInvalidArgument);
  d.version_id = "abc";
  EXPECT_STATUS_CODE(service_->DeleteTableVersion(d), ErrorCode::kInvalidArgument);

  thrift::TBatchDeleteTableVersionRequest b;
  b.db_name = "db";
  b.table_name = "t";
  b.version_ids = {"1", "2", "4", "zz", "3", "1"};
  auto errors = service_->BatchDeleteTableVersion(b);
  ASSERT_RESULT_OK(errors);
  ASSERT_EQ(errors->size(), 3u);  // 2 (gone), 4 (current), zz (not an id)
  std::map<std::string, TTS::type> codes;
  for (const auto& e : *errors) codes[e.version_id] = e.error.code;
  EXPECT_EQ(codes["2"], TTS::NOT_FOUND);
  EXPECT_EQ(codes["4"], TTS::INVALID_ARGUMENT);
  EXPECT_EQ(codes["zz"], TTS::INVALID_ARGUMENT);
  auto all = service_->GetTableVersions(VersionsReq("db", "t"));
  ASSERT_RESULT_OK(all);
  ASSERT_EQ(all->table_versions.size(), 1u);  // only the current one is left

  b.version_ids.assign(101, "1");
  EXPECT_CODE(service_->BatchDeleteTableVersion(b), ErrorCode::kLimitExceeded);
}

TEST_F(TableServiceTest, GetTableAsOfTime) {
  MakeDbAndTables("db", {"t"});
  const int64_t created_ms = Get("db", "t").update_time_ms;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // distinct ms stamps
  ASSERT_RESULT_OK(Update("db", "t", "k", "v2"));
  const int64_t v2_ms = Get("db", "t").update_time_ms;
  ASSERT_GT(v2_ms, created_ms);
  thrift::TGetTableRequest r;
  r.db_name = "db";
  r.table_name = "t";
  r.__set_query_as_of_time_ms(v2_ms - 1);
  auto old = service_->GetTable(r);
  ASSERT_RESULT_OK(old);
  EXPECT_EQ(old->version_id, "1");
  r.__set_query_as_of_time_ms(v2_ms);
  auto now = service_->GetTable(r);
  ASSERT_RESULT_OK(now);
  EXPECT_EQ(now->version_id, "2");
  r.__set_query_as_of_time_ms(created_ms - 1000);
  EXPECT_CODE(service_->GetTable(r), ErrorCode::kNotFound);  // before the table existed
  r.__set_version_id("1");
  EXPECT_CODE(service_->GetTable(r), ErrorCode::kInvalidArgument);  // not both
}

TEST_F(TableServiceTest, UpdateValidatesInputAndChangesNothingOnError) {
  MakeDbAndTables("db", {"t"});
  thrift::TTableInput good = InputFrom(Get("db", "t"));
  auto attempt = [&](thrift::TTableInput in) {
    thrift::TUpdateTableRequest r;
    r.db_name = "db";
    r.table_input = std::move(in);
    return service_->UpdateTable(r);
  };
  const int64_t before = catalog_->version();
  auto in = good;
  in.__set_description(std::string(2049, 'd'));
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.parameters["k"] = std::string(512001, 'v');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.parameters[std::string(256, 'k')] = "v";
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.parameters["a\nb"] = "v";
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.sd.cols[0].type = "no_such_type";
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.sd.cols[0].comment = std::string(256, 'c');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.sd.inputFormat = std::string(129, 'f');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.sd.location = "/" + std::string(2056, 'l');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.__set_owner("");
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.name = std::string(256, 'n');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.name = "nope";
  EXPECT_CODE(attempt(in), ErrorCode::kNotFound);
  in = good;
  in.__set_partition_keys({hive::FieldSchema()});
  in.partition_keys[0].name = "p";
  in.partition_keys[0].type = "int";
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);  // partition keys are fixed
  in = good;
  in.__set_table_type("VIRTUAL_VIEW");
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  in = good;
  in.view_expanded_text = std::string(409601, 'x');
  EXPECT_CODE(attempt(in), ErrorCode::kInvalidArgument);
  EXPECT_EQ(catalog_->version(), before);
  EXPECT_EQ(Get("db", "t").version_id, "1");
  auto all = service_->GetTableVersions(VersionsReq("db", "t"));
  ASSERT_RESULT_OK(all);
  EXPECT_EQ(all->table_versions.size(), 1u);
}

TEST_F(TableServiceTest, UpdateLowerCasesColumnsAndSetsDescription) {
  MakeDbAndTables("db", {"t"});
  thrift::TTableInput in = InputFrom(Get("db", "t"));
  hive::FieldSchema c;
  c.name = "NewCol";
  c.type = "BIGINT";
  in.sd.cols.push_back(c);
  in.__set_description("multi\nline description");
  thrift::TUpdateTableRequest r;
  r.db_name = "db";
  r.table_input = in;
  ASSERT_RESULT_OK(service_->UpdateTable(r));
  thrift::TTableInfo t = Get("db", "t");
  ASSERT_EQ(t.table.sd.cols.size(), 3u);
  EXPECT_EQ(t.table.sd.cols[2].name, "newcol");
  EXPECT_EQ(t.table.parameters.at("comment"), "multi\nline description");
  // The catalog sees the new column at once.
  TablePtr state = Loaded("db", "t");
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->columns.size(), 3u);
}

TEST_F(TableServiceTest, ExpectedVersionGuardsConcurrentUpdates) {
  MakeDbAndTables("db", {"t"});
  thrift::TUpdateTableRequest r;
  r.db_name = "db";
  r.table_input = InputFrom(Get("db", "t"));
  r.__set_expected_version_id("1");
  ASSERT_RESULT_OK(service_->UpdateTable(r));
  const int64_t before = catalog_->version();
  EXPECT_CODE(service_->UpdateTable(r), ErrorCode::kRecoverableError);  // now at 2
  EXPECT_EQ(catalog_->version(), before);
  EXPECT_EQ(mds::ToServiceStatus(Status(ErrorCode::kRecoverableError, "x")).code,
            TTS::FAILED_PRECONDITION);
}

TEST_F(TableServiceTest, VersionsSurviveRestart) {
  MakeDbAndTables("db", {"t"});
  ASSERT_RESULT_OK(Update("db", "t", "k", "v2"));
  ASSERT_RESULT_OK(Update("db", "t", "k", "v3"));
  Restart();
  EXPECT_EQ(Get("db", "t").version_id, "3");
  auto all = service_->GetTableVersions(VersionsReq("db", "t"));
  ASSERT_RESULT_OK(all);
  ASSERT_EQ(all->table_versions.size(), 3u);
  EXPECT_EQ(all->table_versions[1].table.table.parameters.at("k"), "v2");
  // Updates continue the numbering.
  auto r = Update("db", "t", "k", "v4");
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->version_id, "4");
}

TEST_F(TableServiceTest, DroppedTableTakesItsVersions) {
  MakeDbAndTables("db", {"t"});
  ASSERT_RESULT_OK(Update("db", "t", "k", "v2"));
  ASSERT_DDL_OK(drop, Exec(DropTableReq("db", "t")));
  ASSERT_DDL_OK(again, CreateTable("db", "t"));
  EXPECT_EQ(Get("db", "t").version_id, "1");
  auto all = service_->GetTableVersions(VersionsReq("db", "t"));
  ASSERT_RESULT_OK(all);
  EXPECT_EQ(all->table_versions.size(), 1u);
}

}  // namespace
}  // namespace ics::catalog::testing

namespace ics::catalog::testing {
namespace {

// Concurrent UpdateTables of one table are serialized by the table's DDL
// lock: every update gets its own version id and archives its predecessor,
// and none is lost.
TEST_F(TableServiceTest, ConcurrentUpdatesGetDistinctVersions) {
  MakeDbAndTables("db", {"t"});
  const thrift::TTableInput base = InputFrom(Get("db", "t"));
  const int64_t before = catalog_->version();
  constexpr int kThreads = 4;
  constexpr int kUpdates = 8;
  std::vector<std::vector<std::string>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int j = 0; j < kUpdates; ++j) {
        thrift::TUpdateTableRequest r;
        r.db_name = "db";
        r.table_input = base;
        r.table_input.parameters["writer"] = std::to_string(i) + "/" + std::to_string(j);
        auto res = service_->UpdateTable(r);
        if (res.ok()) ids[i].push_back(res->version_id);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> all;
  for (const auto& v : ids) {
    EXPECT_EQ(v.size(), static_cast<size_t>(kUpdates));
    all.insert(v.begin(), v.end());
  }
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kUpdates));
  EXPECT_EQ(Get("db", "t").version_id, std::to_string(kThreads * kUpdates + 1));
  EXPECT_EQ(catalog_->version(), before + kThreads * kUpdates);
  thrift::TGetTableVersionsRequest vr;
  vr.db_name = "db";
  vr.table_name = "t";
  size_t count = 0;
  for (int page = 0; page < 10; ++page) {
    auto res = service_->GetTableVersions(vr);
    ASSERT_RESULT_OK(res);
    count += res->table_versions.size();
    if (!res->__isset.next_token) break;
    vr.__set_next_token(res->next_token);
  }
  EXPECT_EQ(count, static_cast<size_t>(kThreads * kUpdates + 1));
}

}  // namespace
}  // namespace ics::catalog::testing
