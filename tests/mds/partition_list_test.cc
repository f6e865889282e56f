// PartitionService listing (filters, pagination) and partition indexes
// (create / get / delete, states, use by List, maintenance, restart).
#include <gtest/gtest.h>

#include "common/util/base64.h"
#include "tests/mds/partition_test_util.h"
#include "tests/util/eventually.h"

namespace ics::catalog::mds::testing {
namespace {

using thrift::TMetastorePartition;
using V = std::vector<std::vector<std::string>>;

class PartitionListTest : public PartitionServiceTest {
 protected:
  // sales.t with years 2020..2023 x regions {eu, us, apac} x dt in Jan 1..3,
  // plus one partition with a NULL region.
  void Fill() {
    MakeSalesTable();
    std::vector<TMetastorePartition> parts;
    for (int y = 2020; y <= 2023; ++y) {
      for (const char* r : {"eu", "us", "apac"}) {
        for (int d = 1; d <= 3; ++d) {
          parts.push_back(Part({std::to_string(y), r, "2024-01-0" + std::to_string(d)}));
        }
      }
    }
    parts.push_back(Part({"2021", "", "2024-01-01"}));  // "" is the NULL partition
    auto r = svc_->BatchCreate(CreateReq("sales", "t", parts));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  Status CreateIndex(const std::string& name, std::vector<std::string> keys,
                     const std::string& table = "t") {
    thrift::TCreatePartitionIndexRequest req;
    req.table = TableName("sales", table);
    req.index_name = name;
    req.keys = std::move(keys);
    return svc_->CreateIndex(req).status();
  }

  std::vector<thrift::TPartitionIndexDescriptor> Indexes() {
    thrift::TGetPartitionIndexesRequest req;
    req.table = TableName("sales", "t");
    auto r = svc_->GetIndexes(req);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->indexes : std::vector<thrift::TPartitionIndexDescriptor>();
  }

  void WaitActive(const std::string& name) {
    ASSERT_EVENTUALLY(std::chrono::milliseconds(20000), {
      bool active = false;
      for (const auto& d : Indexes()) {
        if (d.index_name == name) active = d.state == thrift::TPartitionIndexState::ACTIVE;
      }
      ASSERT_TRUE(active) << name;
    });
  }

  Status DeleteIndex(const std::string& name) {
    thrift::TDeletePartitionIndexRequest req;
    req.table = TableName("sales", "t");
    req.index_name = name;
    return svc_->DeleteIndex(req).status();
  }
};

TEST_F(PartitionListTest, Filters) {
  Fill();
  EXPECT_EQ(ListAll("sales", "t", "").size(), 37u);
  EXPECT_EQ(ListAll("sales", "t", "year = 2021").size(), 10u);
  EXPECT_EQ(ListAll("sales", "t", "year = 2021 AND region = 'eu'").size(), 3u);
  EXPECT_EQ(ListAll("sales", "t", "region IS NULL"), (V{{"2021", "__HIVE_DEFAULT_PARTITION__", "2024-01-01"}}));
  EXPECT_EQ(ListAll("sales", "t", "region IS NOT NULL").size(), 36u);
  EXPECT_EQ(ListAll("sales", "t", "region NOT IN ('eu', 'us')").size(), 12u);  // NULL is not listed
  EXPECT_EQ(ListAll("sales", "t", "dt = CAST('2024-1-2' AS DATE) AND year BETWEEN 2021 AND 2022").size(), 6u);
  EXPECT_EQ(ListAll("sales", "t", "dt > DATE '2024-01-02' OR (year = 2020 AND NOT region = 'apac')").size(),
            12u + 4u);
  EXPECT_TRUE(ListAll("sales", "t", "year = 1999").empty());
  // Sorted by name.
  auto all = ListAll("sales", "t", "year = 2020 AND dt = '2024-01-01'");
  EXPECT_EQ(all, (V{{"2020", "apac", "2024-01-01"}, {"2020", "eu", "2024-01-01"}, {"2020", "us", "2024-01-01"}}));
  // A malformed filter is a clear error.
  auto bad = List("sales", "t", "year = ");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("at position 7"), std::string::npos);
  auto too_big = List("sales", "t", std::string((1 << 20) + 1, ' '));
  ASSERT_FALSE(too_big.ok());
  EXPECT_NE(too_big.status().message().find("over the limit"), std::string::npos);
}

TEST_F(PartitionListTest, Pagination) {
  Fill();
  auto first = List("sales", "t", "year = 2022", 4);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->partitions.size(), 4u);
  EXPECT_FALSE(first->next_page_token.empty());
  EXPECT_EQ(ListAll("sales", "t", "year = 2022", 4).size(), 9u);
  EXPECT_EQ(ListAll("sales", "t", "year = 2022", 4), ListAll("sales", "t", "year = 2022"));
  EXPECT_EQ(ListAll("sales", "t", "", 1).size(), 37u);
  // The last page has no token.
  auto exact = List("sales", "t", "year = 2022", 9);
  ASSERT_TRUE(exact.ok());
  EXPECT_TRUE(exact->next_page_token.empty());
  // A page survives a change in between: a new partition after the cursor
  // shows up, nothing is repeated.
  auto page = List("sales", "t", "year = 2023", 5);
  ASSERT_TRUE(page.ok());
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", {Part({"2023", "zz", "2024-01-01"})})).ok());
  auto rest = List("sales", "t", "year = 2023", 100, page->next_page_token);
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(page->partitions.size() + rest->partitions.size(), 10u);
  // Bad tokens and sizes.
  EXPECT_MDS_FAILS(List("sales", "t", "", 0, "!!!"), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(List("sales", "t", "", 0, Base64Encode("x:foo")), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(List("sales", "t", "", 10001), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(List("sales", "t", "", -1), ErrorCode::kInvalidArgument);
}

TEST_F(PartitionListTest, IndexLifecycleAndUse) {
  Fill();
  const int64_t v = catalog_->version();
  ASSERT_TRUE(CreateIndex("by_year_region", {"year", "REGION"}).ok());
  EXPECT_EQ(catalog_->version(), v + 1);  // the definition is a table change
  WaitActive("by_year_region");
  auto idx = Indexes();
  ASSERT_EQ(idx.size(), 1u);
  EXPECT_EQ(idx[0].keys.size(), 2u);
  EXPECT_EQ(idx[0].keys[1].name, "region");
  EXPECT_EQ(idx[0].keys[1].type, "string");

  for (const std::string f : {"year = 2021", "year = 2021 AND region = 'eu'",
                              "year IN (2020, 2023) AND region > 'b'", "year >= 2022",
                              "year = 2021 AND region IS NULL", "year = 2021 AND dt = '2024-01-03'"}) {
    auto r = List("sales", "t", f);
    ASSERT_TRUE(r.ok()) << f;
    EXPECT_EQ(r->index_used, "by_year_region") << f;
  }
  auto no_index = List("sales", "t", "region = 'eu'");
  ASSERT_TRUE(no_index.ok());
  EXPECT_EQ(no_index->index_used, "");

  // Results with the index equal results without it.
  const std::string f = "year IN (2020, 2023) AND region > 'b'";
  const V with_index = ListAll("sales", "t", f, 2);
  ASSERT_TRUE(DeleteIndex("by_year_region").ok());
  EXPECT_TRUE(Indexes().empty());
  EXPECT_EQ(ListAll("sales", "t", f, 2), with_index);
  EXPECT_EQ(with_index.size(), 12u);
  EXPECT_MDS_FAILS(DeleteIndex("by_year_region"), ErrorCode::kNotFound);
}

TEST_F(PartitionListTest, IndexFollowsPartitionChanges) {
  Fill();
  ASSERT_TRUE(CreateIndex("by_year", {"year"}).ok());
  WaitActive("by_year");
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", {Part({"2030", "eu", "2024-01-01"}),
                                                          Part({"2030", "us", "2024-01-01"})}))
                  .ok());
  thrift::TBatchDeletePartitionsRequest del;
  del.table = TableName("sales", "t");
  del.partition_values = {{"2021", "eu", "2024-01-01"}};
  ASSERT_TRUE(svc_->BatchDelete(del).ok());
  auto r = List("sales", "t", "year = 2030");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index_used, "by_year");
  EXPECT_EQ(r->partitions.size(), 2u);
  r = List("sales", "t", "year = 2021 AND region = 'eu'");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index_used, "by_year");
  EXPECT_EQ(r->partitions.size(), 2u);  // dt 02 and 03 are left
  // A change made through plain DDL (not this service) is seen as well.
  impala::TDdlExecRequest add;
  add.protocol_version = impala::CatalogServiceVersion::V2;
  add.ddl_type = impala::TDdlType::ALTER_TABLE;
  add.__isset.alter_table_params = true;
  add.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
  add.alter_table_params.table_name.db_name = "sales";
  add.alter_table_params.table_name.table_name = "t";
  add.alter_table_params.__isset.add_partition_params = true;
  impala::TPartitionDef def;
  for (auto [k, val] : std::vector<std::pair<std::string, std::string>>{
           {"year", "2030"}, {"region", "apac"}, {"dt", "2024-01-01"}}) {
    impala::TPartitionKeyValue kv;
    kv.name = k;
    kv.value = val;
    def.partition_spec.push_back(kv);
  }
  add.alter_table_params.add_partition_params.partitions = {def};
  ASSERT_TRUE(ExecImpalaDdl(core_.get(), ImpalaCaller(add), add).ok());
  r = List("sales", "t", "year = 2030");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->partitions.size(), 3u);
}

TEST_F(PartitionListTest, IndexErrorsAndLimits) {
  Fill();
  EXPECT_MDS_FAILS(CreateIndex("bad name", {"year"}), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(CreateIndex(std::string(256, 'i'), {"year"}), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(CreateIndex("i", {}), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(CreateIndex("i", {"id"}), ErrorCode::kInvalidArgument);  // a data column
  EXPECT_MDS_FAILS(CreateIndex("i", {"year", "year"}), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(CreateIndex("i", {"year"}, "missing"), ErrorCode::kNotFound);
  ASSERT_TRUE(CreateIndex("i1", {"year"}).ok());
  EXPECT_MDS_FAILS(CreateIndex("i1", {"region"}), ErrorCode::kAlreadyExists);
  ASSERT_TRUE(CreateIndex("i2", {"region"}).ok());
  ASSERT_TRUE(CreateIndex("i3", {"dt", "year"}).ok());
  EXPECT_MDS_FAILS(CreateIndex("i4", {"region"}), ErrorCode::kLimitExceeded);
  EXPECT_EQ(Indexes().size(), 3u);
  WaitActive("i1");
  WaitActive("i2");
  WaitActive("i3");
  EXPECT_EQ(List("sales", "t", "dt = '2024-01-02' AND year < 2022")->index_used, "i3");
  EXPECT_EQ(List("sales", "t", "region = 'eu'")->index_used, "i2");
  EXPECT_MDS_FAILS(DeleteIndex("nope"), ErrorCode::kNotFound);
  EXPECT_MDS_FAILS(DeleteIndex("bad/name"), ErrorCode::kInvalidArgument);
  thrift::TGetPartitionIndexesRequest req;
  req.table = TableName("sales", "t");
  req.__set_page_token("???");
  EXPECT_MDS_FAILS(svc_->GetIndexes(req), ErrorCode::kInvalidArgument);
  req.__set_page_token(Base64Encode("i:i1"));
  auto after = svc_->GetIndexes(req);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->indexes.size(), 2u);
}

TEST_F(PartitionListTest, IndexDefinitionsSurviveRestart) {
  Fill();
  ASSERT_TRUE(CreateIndex("by_year", {"year"}).ok());
  WaitActive("by_year");
  CloseStack();
  OpenStack();
  auto idx = Indexes();
  ASSERT_EQ(idx.size(), 1u);
  EXPECT_EQ(idx[0].index_name, "by_year");
  WaitActive("by_year");
  auto r = List("sales", "t", "year = 2022");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index_used, "by_year");
  EXPECT_EQ(r->partitions.size(), 9u);
}

}  // namespace
}  // namespace ics::catalog::mds::testing
