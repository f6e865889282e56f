// FullReplicaCatalog fed hand-made "1:" topic deltas in catalogd's exact
// forms, and DDL results.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "coordinator-sim/catalog/local_catalog.h"
#include "tests/localcatalog/topic_builder.h"

namespace ics::lctest {
namespace {

using coord::LocalCatalog;
using coord::LocalPartition;
using coord::LocalTable;

class LocalCatalogFullReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override { cat_ = coord::MakeFullReplicaCatalog(); }

  // Applies a delta; returns the publications.
  std::vector<impala::TTopicDelta> Apply(const impala::TTopicDelta& d) {
    std::vector<impala::TTopicDelta> pubs;
    cat_->OnTopicUpdate(d, &pubs);
    return pubs;
  }

  // A full initial topic: db "db" (v1), table db.t with partitions 1, 2 (v2),
  // function db.f (v3).
  void ApplyInitial() {
    std::vector<impala::TTopicItem> items;
    items.push_back(Item("1:", catalog::DatabaseObject(MakeDb("db", 1))));
    auto t = MakeTable("db", "t", 2, {{1, "year=2020", -1, 2, 10}, {2, "year=2021", -1, 1, 20}});
    for (auto& i : TableItemsV1(t)) items.push_back(i);
    items.push_back(Item("1:", catalog::FunctionObject(MakeFn("db", "f", 3))));
    EXPECT_TRUE(Apply(Delta("1:", items, Id(1), 3, /*is_delta=*/false)).empty());
  }

  std::shared_ptr<const LocalTable> Table(const std::string& db, const std::string& t) {
    auto r = cat_->GetTable(db, t);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  std::unique_ptr<LocalCatalog> cat_;
};

TEST_F(LocalCatalogFullReplicaTest, AppliesCatalogdTopicForms) {
  EXPECT_EQ(cat_->topic_prefix(), "1:");
  EXPECT_FALSE(cat_->service_id().has_value());
  ApplyInitial();
  EXPECT_EQ(cat_->catalog_version(), 3);
  ASSERT_TRUE(cat_->service_id().has_value());
  EXPECT_EQ(*cat_->service_id(), Id(1));

  auto dbs = cat_->DatabaseNames();
  ASSERT_TRUE(dbs.ok());
  EXPECT_EQ(*dbs, std::vector<std::string>{"db"});
  auto db = cat_->GetDatabase("DB");
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(db->locationUri, "/wh/db.db");
  auto tables = cat_->TableNames("db");
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(*tables, std::vector<std::string>{"t"});

  auto t = Table("db", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, 2);
  EXPECT_TRUE(t->loaded);
  EXPECT_FALSE(t->is_view);
  ASSERT_EQ(t->clustering_columns.size(), 1u);
  EXPECT_EQ(t->clustering_columns[0].columnName, "year");
  ASSERT_EQ(t->columns.size(), 2u);
  EXPECT_EQ(t->num_rows, 99);
  EXPECT_EQ(t->partition_names.ToMap(),
            (std::map<int64_t, std::string>{{1, "year=2020"}, {2, "year=2021"}}));

  auto parts = cat_->GetPartitions(*t, {2, 1}, false, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 2u);
  const LocalPartition& p2 = *(*parts)[0];
  EXPECT_EQ(p2.id, 2);
  EXPECT_EQ(p2.name, "year=2021");
  EXPECT_EQ(p2.values, std::vector<std::string>{"2021"});
  EXPECT_EQ(p2.location, "/wh/db.db/t/year=2021");
  EXPECT_EQ(p2.num_rows, 20);
  EXPECT_TRUE(p2.files_loaded);
  ASSERT_EQ(p2.file_descs.size(), 1u);
  auto fd = ReadFileDesc(p2.file_descs[0]);  // FlatBuffer bytes kept as published
  ASSERT_TRUE(fd.ok());
  EXPECT_EQ((*fd)->length(), 1000);
  EXPECT_EQ((*parts)[1]->file_descs.size(), 2u);
  EXPECT_EQ((*parts)[1]->total_file_bytes, 2001);

  auto all = cat_->GetPartitions(*t, {}, true, true);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
  EXPECT_EQ(cat_->GetPartitions(*t, {77}, false, false).status().code(), ErrorCode::kNotFound);

  auto fns = cat_->Functions("db");
  ASSERT_TRUE(fns.ok());
  ASSERT_EQ(fns->size(), 1u);
  EXPECT_EQ((*fns)[0].name.function_name, "f");

  EXPECT_EQ(cat_->GetTable("db", "nope").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->GetTable("nodb", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->TableNames("nodb").status().code(), ErrorCode::kNotFound);

  auto stats = cat_->Stats();
  EXPECT_EQ(stats.objects, 5);  // db, table, 2 partitions, function
  EXPECT_GT(stats.cached_bytes, 0);
  EXPECT_EQ(stats.catalog_version, 3);
}

// A replica configured for an uncompacted topic (--compact_catalog_topic=false).
TEST_F(LocalCatalogFullReplicaTest, UncompressedValuesAndEscapedPartitionNames) {
  cat_ = coord::MakeFullReplicaCatalog(CatalogTopicFormat{/*compact=*/false});
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("1:", catalog::DatabaseObject(MakeDb("db", 1)), false, /*compact=*/false));
  auto t = MakeTable("db", "t", 2,
                     {{5, "year=a%2Fb%3Dc", -1, 1, 1}, {6, "year=__HIVE_DEFAULT_PARTITION__"}});
  items.push_back(Item("1:", catalog::TableObjectV1(t), false, /*compact=*/false));
  for (const auto& [id, p] : t.partitions) {
    items.push_back(Item("1:", catalog::PartitionObject(t, *p), false, /*compact=*/false));
  }
  Apply(Delta("1:", items, Id(1), 2, false, 0, /*compact=*/false));
  auto table = Table("db", "t");
  ASSERT_NE(table, nullptr);
  auto parts = cat_->GetPartitions(*table, {5, 6}, false, false);
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ((*parts)[0]->values, std::vector<std::string>{"a/b=c"});
  EXPECT_EQ((*parts)[1]->values, std::vector<std::string>{kDefaultPartitionName});
}

TEST_F(LocalCatalogFullReplicaTest, AppliesOnlyNewerObjects) {
  ApplyInitial();
  // An older TABLE (v1, one column fewer) does not replace v2.
  auto older = MakeTable("db", "t", 1, {{1, "year=2020"}, {2, "year=2021"}});
  older.columns.pop_back();
  Apply(Delta("1:", {Item("1:", catalog::TableObjectV1(older))}, Id(1), 4));
  EXPECT_EQ(Table("db", "t")->version, 2);
  EXPECT_EQ(Table("db", "t")->columns.size(), 2u);
  // Same version: also ignored.
  auto same = MakeTable("db", "t", 2, {{1, "year=2020"}});
  Apply(Delta("1:", {Item("1:", catalog::TableObjectV1(same))}, Id(1), 4));
  EXPECT_EQ(Table("db", "t")->partition_names.size(), 2u);
  // A newer one does.
  auto newer = MakeTable("db", "t", 5, {{1, "year=2020"}, {2, "year=2021"}});
  newer.columns.pop_back();
  Apply(Delta("1:", {Item("1:", catalog::TableObjectV1(newer))}, Id(1), 5));
  EXPECT_EQ(Table("db", "t")->version, 5);
  EXPECT_EQ(Table("db", "t")->columns.size(), 1u);
  // Deletion older than the local copy: kept. At/after: removed.
  Apply(Delta("1:", {Item("1:", catalog::TableInvalidation(newer, 4), true)}, Id(1), 6));
  EXPECT_TRUE(cat_->GetTable("db", "t").ok());
  Apply(Delta("1:", {Item("1:", catalog::TableInvalidation(newer, 6), true)}, Id(1), 6));
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->catalog_version(), 6);
}

TEST_F(LocalCatalogFullReplicaTest, PartitionsAttachAndDrop) {
  ApplyInitial();
  auto before = cat_->GetPartitions(*Table("db", "t"), {2}, false, false);
  ASSERT_TRUE(before.ok());
  // v4: partition 1 replaced by 3 (prev_id 1), 2 unchanged; catalogd sends
  // the TABLE, the new partition, and the deletion of the old id.
  auto t = MakeTable("db", "t", 4, {{2, "year=2021", -1, 1, 20}, {3, "year=2020", 1, 3, 11}});
  auto old = MakeTable("db", "t", 2, {{1, "year=2020"}});
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("1:", catalog::TableObjectV1(t)));
  items.push_back(Item("1:", catalog::PartitionObject(t, *t.partitions.at(3))));
  // A partition the table does not list is not attached.
  auto stray = MakeTable("db", "t", 4, {{9, "year=1999"}});
  items.push_back(Item("1:", catalog::PartitionObject(stray, *stray.partitions.at(9))));
  items.push_back(Item("1:", catalog::PartitionInvalidation(old, *old.partitions.at(1), 4), true));
  Apply(Delta("1:", items, Id(1), 4));

  auto table = Table("db", "t");
  EXPECT_EQ(table->partition_names.ToMap(),
            (std::map<int64_t, std::string>{{2, "year=2021"}, {3, "year=2020"}}));
  auto parts = cat_->GetPartitions(*table, {}, true, false);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].get(), (*before)[0].get()) << "unchanged partition object is kept";
  EXPECT_EQ((*parts)[1]->id, 3);
  EXPECT_EQ((*parts)[1]->file_descs.size(), 3u);
  EXPECT_EQ(cat_->GetPartitions(*table, {9}, false, false).status().code(), ErrorCode::kNotFound);
}

TEST_F(LocalCatalogFullReplicaTest, StaleTableViewGetsRecoverableError) {
  ApplyInitial();
  auto v2 = Table("db", "t");
  auto t = MakeTable("db", "t", 4, {{2, "year=2021"}, {3, "year=2020", 1}});
  auto items = TableItemsV1(t);
  Apply(Delta("1:", items, Id(1), 4));
  auto r = cat_->GetPartitions(*v2, {1}, false, false);
  EXPECT_EQ(r.status().code(), ErrorCode::kRecoverableError) << r.status().ToString();
}

TEST_F(LocalCatalogFullReplicaTest, DroppedObjectsAreNotRevived) {
  ApplyInitial();
  auto t = MakeTable("db", "t", 2, {});
  // Our own DROP TABLE at version 10.
  impala::TCatalogUpdateResult drop;
  drop.catalog_service_id = Id(1);
  drop.version = 10;
  drop.__set_removed_catalog_objects({catalog::TableInvalidation(t, 10)});
  cat_->ApplyUpdateResult(drop);
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->catalog_version(), 10);
  // A lagging topic delta still carries an ALTER of the table at v7 (and
  // its partition): it must not bring the table back.
  auto alter = MakeTable("db", "t", 7, {{4, "year=2022"}});
  Apply(Delta("1:", TableItemsV1(alter), Id(1), 8));
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  // The topic catches up with the drop ...
  Apply(Delta("1:", {Item("1:", catalog::TableInvalidation(t, 10), true)}, Id(1), 10));
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  // ... and a later CREATE of the same name is applied.
  auto recreated = MakeTable("db", "t", 12, {{5, "year=2023"}});
  Apply(Delta("1:", TableItemsV1(recreated), Id(1), 12));
  ASSERT_TRUE(cat_->GetTable("db", "t").ok());
  EXPECT_EQ(Table("db", "t")->version, 12);

  // A dropped database also blocks its stale tables.
  impala::TCatalogUpdateResult drop_db;
  drop_db.catalog_service_id = Id(1);
  drop_db.version = 20;
  drop_db.__set_removed_catalog_objects({catalog::DatabaseInvalidation("db", 20)});
  cat_->ApplyUpdateResult(drop_db);
  EXPECT_EQ(cat_->GetDatabase("db").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  std::vector<impala::TTopicItem> stale;
  stale.push_back(Item("1:", catalog::DatabaseObject(MakeDb("db", 15))));
  for (auto& i : TableItemsV1(MakeTable("db", "t", 16, {}))) stale.push_back(i);
  Apply(Delta("1:", stale, Id(1), 16));
  EXPECT_EQ(cat_->GetDatabase("db").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
}

TEST_F(LocalCatalogFullReplicaTest, FullUpdateReplacesContents) {
  ApplyInitial();
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("1:", catalog::DatabaseObject(MakeDb("other", 30))));
  for (auto& i : TableItemsV1(MakeTable("other", "x", 31, {}))) items.push_back(i);
  Apply(Delta("1:", items, Id(1), 31, /*is_delta=*/false));
  EXPECT_EQ(*cat_->DatabaseNames(), std::vector<std::string>{"other"});
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_TRUE(cat_->Functions("db").status().code() == ErrorCode::kNotFound);
  EXPECT_TRUE(cat_->GetTable("other", "x").ok());
}

TEST_F(LocalCatalogFullReplicaTest, ServiceIdChangeClearsAndAsksForFullTopic) {
  ApplyInitial();
  // A delta from a restarted catalogd.
  auto t = MakeTable("db", "new_t", 2, {});
  auto pubs = Apply(Delta("1:", TableItemsV1(t), Id(2), 2));
  ASSERT_EQ(pubs.size(), 1u);
  EXPECT_EQ(pubs[0].topic_name, "catalog-update");
  EXPECT_FALSE(pubs[0].is_delta);
  ASSERT_TRUE(pubs[0].__isset.from_version);
  EXPECT_EQ(pubs[0].from_version, 0);
  EXPECT_TRUE(pubs[0].topic_entries.empty());
  EXPECT_EQ(*cat_->service_id(), Id(2));
  EXPECT_EQ(cat_->Stats().objects, 0);
  EXPECT_TRUE(cat_->DatabaseNames()->empty());
  EXPECT_EQ(cat_->catalog_version(), 0);
  // The full topic that follows rebuilds the replica.
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("1:", catalog::DatabaseObject(MakeDb("db", 1))));
  for (auto& i : TableItemsV1(t)) items.push_back(i);
  EXPECT_TRUE(Apply(Delta("1:", items, Id(2), 2, /*is_delta=*/false)).empty());
  EXPECT_TRUE(cat_->GetTable("db", "new_t").ok());
  EXPECT_EQ(cat_->catalog_version(), 2);
  // A full topic from a new service id is complete: applied, nothing asked.
  std::vector<impala::TTopicItem> items3;
  items3.push_back(Item("1:", catalog::DatabaseObject(MakeDb("db3", 1))));
  EXPECT_TRUE(Apply(Delta("1:", items3, Id(3), 1, /*is_delta=*/false)).empty());
  EXPECT_EQ(*cat_->DatabaseNames(), std::vector<std::string>{"db3"});
}

TEST_F(LocalCatalogFullReplicaTest, DdlResultsInstallFullObjects) {
  ApplyInitial();
  // CREATE TABLE result: the full table with full partitions and files.
  auto t = MakeTable("db", "c", 40, {{11, "year=1", -1, 2}, {12, "year=2", -1, 1}});
  impala::TCatalogUpdateResult res;
  res.catalog_service_id = Id(1);
  res.version = 40;
  res.__set_updated_catalog_objects({catalog::TableObjectFull(t)});
  cat_->ApplyUpdateResult(res);
  EXPECT_EQ(cat_->catalog_version(), 40);
  auto table = Table("db", "c");
  ASSERT_NE(table, nullptr);
  auto parts = cat_->GetPartitions(*table, {11, 12}, true, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ((*parts)[0]->file_descs.size(), 2u);
  // The topic brings the same version later: nothing is replaced.
  Apply(Delta("1:", TableItemsV1(t), Id(1), 40));
  auto again = cat_->GetPartitions(*Table("db", "c"), {11}, true, false);
  EXPECT_EQ((*again)[0].get(), (*parts)[0].get());
  EXPECT_EQ(Table("db", "c").get(), table.get());

  // A result from another catalog service is ignored.
  impala::TCatalogUpdateResult foreign = res;
  foreign.catalog_service_id = Id(9);
  foreign.version = 99;
  cat_->ApplyUpdateResult(foreign);
  EXPECT_EQ(cat_->catalog_version(), 40);
}

TEST_F(LocalCatalogFullReplicaTest, MinimalDdlResultLeavesPlaceholderUntilTopic) {
  ApplyInitial();
  auto t = MakeTable("db", "m", 50, {{21, "year=1"}});
  impala::TCatalogUpdateResult res;
  res.catalog_service_id = Id(1);
  res.version = 50;
  res.__set_updated_catalog_objects({catalog::TableInvalidation(t, 50)});
  cat_->ApplyUpdateResult(res);
  auto placeholder = Table("db", "m");
  ASSERT_NE(placeholder, nullptr);
  EXPECT_FALSE(placeholder->loaded);
  EXPECT_EQ(*cat_->TableNames("db"), (std::vector<std::string>{"m", "t"}));
  // The topic's entry of the same version replaces the placeholder.
  Apply(Delta("1:", TableItemsV1(t), Id(1), 50));
  auto loaded = Table("db", "m");
  EXPECT_TRUE(loaded->loaded);
  EXPECT_EQ(loaded->partition_names.size(), 1u);
  EXPECT_TRUE(cat_->GetPartitions(*loaded, {21}, true, false).ok());
}

TEST_F(LocalCatalogFullReplicaTest, WaitForCatalogVersion) {
  ApplyInitial();
  EXPECT_TRUE(cat_->WaitForCatalogVersion(3, 0).ok());
  EXPECT_EQ(cat_->WaitForCatalogVersion(4, 50).code(), ErrorCode::kTimedOut);
  std::thread feeder([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Apply(Delta("1:", {}, Id(1), 7));
  });
  Status s = cat_->WaitForCatalogVersion(7, 10000);
  feeder.join();
  EXPECT_TRUE(s.ok()) << s.ToString();
  // A service id change ends the wait too.
  std::thread restarter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Apply(Delta("1:", {}, Id(5), 1));
  });
  s = cat_->WaitForCatalogVersion(1000, 10000);
  restarter.join();
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(LocalCatalogFullReplicaTest, IgnoresOtherPrefixesAndBadValues) {
  ApplyInitial();
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("2:", catalog::DatabaseInvalidation("v2only", 9)));
  impala::TTopicItem bad;
  bad.key = "1:DATABASE:bad";
  // Neither a valid LZ4 block nor a TCatalogObject. (Bytes that are not a
  // valid Thrift field type make Thrift's own reader trip UBSan, so the
  // garbage starts with T_STOP.)
  bad.value = std::string("\x00\x00\x00\x05\xff\xff", 6);
  items.push_back(bad);
  Apply(Delta("1:", items, Id(1), 9));
  EXPECT_EQ(*cat_->DatabaseNames(), std::vector<std::string>{"db"});
  EXPECT_EQ(cat_->catalog_version(), 9);
}

TEST_F(LocalCatalogFullReplicaTest, DatabaseDeletionTakesItsObjects) {
  ApplyInitial();
  Apply(Delta("1:", {Item("1:", catalog::DatabaseInvalidation("db", 8), true)}, Id(1), 8));
  EXPECT_TRUE(cat_->DatabaseNames()->empty());
  EXPECT_EQ(cat_->Stats().objects, 0);
}

}  // namespace
}  // namespace ics::lctest
