// OnDemandCatalog against a fake catalogd (fake_catalog_service.h) and
// hand-made "2:" invalidation deltas in catalogd's exact forms.
#include <gtest/gtest.h>

#include <set>

#include "coordinator-sim/catalog/local_catalog.h"
#include "tests/localcatalog/fake_catalog_service.h"
#include "tests/localcatalog/topic_builder.h"

namespace ics::lctest {
namespace {

using coord::LocalCatalog;
using coord::LocalTable;
using impala::CatalogLookupStatus;
using Clock = std::chrono::steady_clock;

class LocalCatalogOnDemandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    fake()->SetServiceId(Id(1));
    fake()->AddDatabase("db", 1);
    fake()->PutTable(MakeFakeTable("db", "t", 5, {1, 2, 3}));
    opts_.catalogd_host = "127.0.0.1";
    opts_.catalogd_port = server_.port();
    opts_.max_retries = 3;
    opts_.retry_backoff_initial_ms = 1;
    opts_.retry_backoff_max_ms = 4;
    opts_.rpc_timeout_ms = 10000;
    now_ = Clock::now();
    opts_.clock = [this] { return now_; };
    Make();
  }

  void Make() { cat_ = coord::MakeOnDemandCatalog(opts_); }
  FakeCatalogService* fake() { return server_.service(); }

  void Topic(std::vector<impala::TTopicItem> items, const impala::TUniqueId& id, int64_t version,
             int64_t last_reset = 0) {
    std::vector<impala::TTopicDelta> pubs;
    cat_->OnTopicUpdate(Delta("2:", std::move(items), id, version, true, last_reset), &pubs);
    EXPECT_TRUE(pubs.empty());
  }

  std::shared_ptr<const LocalTable> Table(const std::string& db, const std::string& t) {
    auto r = cat_->GetTable(db, t);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  impala::TGetPartialCatalogObjectRequest LastRequest() {
    auto reqs = fake()->requests();
    return reqs.empty() ? impala::TGetPartialCatalogObjectRequest() : reqs.back();
  }

  FakeCatalogServer server_;
  coord::OnDemandOptions opts_;
  Clock::time_point now_;
  std::unique_ptr<LocalCatalog> cat_;
};

TEST_F(LocalCatalogOnDemandTest, FetchesWithPreciseSelectorsAndCaches) {
  EXPECT_EQ(cat_->topic_prefix(), "2:");
  auto t = Table("db", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, 5);
  ASSERT_EQ(t->clustering_columns.size(), 1u);
  EXPECT_EQ(t->clustering_columns[0].columnName, "year");
  EXPECT_EQ(t->columns.size(), 2u);
  EXPECT_EQ(t->partition_names.size(), 3u);
  EXPECT_EQ(t->column_stats.count("a"), 1u);
  EXPECT_EQ(t->num_rows, 42);
  EXPECT_EQ(fake()->calls(), 1);
  const auto tr = LastRequest();
  EXPECT_EQ(tr.object_desc.type, impala::TCatalogObjectType::TABLE);
  EXPECT_TRUE(tr.table_info_selector.want_hms_table);
  EXPECT_TRUE(tr.table_info_selector.want_partition_names);
  EXPECT_TRUE(tr.table_info_selector.want_stats_for_all_columns);
  EXPECT_FALSE(tr.table_info_selector.want_partition_files);
  EXPECT_FALSE(tr.table_info_selector.__isset.partition_ids);

  EXPECT_EQ(Table("DB", "T").get(), t.get());  // a hit, same snapshot
  EXPECT_EQ(fake()->calls(), 1);

  auto parts = cat_->GetPartitions(*t, {3, 1}, false, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(fake()->calls(), 2);
  const auto pr = LastRequest();
  EXPECT_EQ(pr.table_info_selector.partition_ids, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(pr.table_info_selector.want_partition_metadata);
  EXPECT_FALSE(pr.table_info_selector.want_partition_files);
  EXPECT_FALSE(pr.table_info_selector.want_partition_stats);
  EXPECT_FALSE(pr.table_info_selector.want_hms_table);
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0]->id, 3);
  EXPECT_EQ((*parts)[0]->name, "year=3");
  EXPECT_EQ((*parts)[0]->values, std::vector<std::string>{"3"});
  EXPECT_EQ((*parts)[0]->num_rows, 30);
  EXPECT_EQ((*parts)[0]->location, "/warehouse/db.db/t/year=3");
  EXPECT_FALSE((*parts)[0]->files_loaded);
  EXPECT_TRUE((*parts)[0]->has_incremental_stats);
  EXPECT_TRUE((*parts)[0]->partition_stats.empty());

  ASSERT_TRUE(cat_->GetPartitions(*t, {1}, false, false).ok());
  EXPECT_EQ(fake()->calls(), 2);
  // Files were not fetched: asking for them fetches only that partition.
  auto with_files = cat_->GetPartitions(*t, {1, 3}, true, true);
  ASSERT_TRUE(with_files.ok());
  EXPECT_EQ(fake()->calls(), 3);
  EXPECT_TRUE(LastRequest().table_info_selector.want_partition_files);
  EXPECT_TRUE(LastRequest().table_info_selector.want_partition_stats);
  EXPECT_EQ((*with_files)[0]->file_descs.size(), 1u);
  EXPECT_EQ((*with_files)[0]->total_file_bytes, 100);
  EXPECT_EQ((*with_files)[0]->partition_stats, "stats-1");
  ASSERT_TRUE(cat_->GetPartitions(*t, {1, 3}, false, false).ok());
  ASSERT_TRUE(cat_->GetPartitions(*t, {3}, true, true).ok());
  EXPECT_EQ(fake()->calls(), 3);

  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(*cat_->DatabaseNames(), std::vector<std::string>{"db"});
    EXPECT_EQ(cat_->GetDatabase("db")->name, "db");
    EXPECT_EQ(*cat_->TableNames("db"), std::vector<std::string>{"t"});
  }
  EXPECT_EQ(fake()->calls(), 6);
  auto reqs = fake()->requests();
  EXPECT_TRUE(reqs[3].catalog_info_selector.want_db_names);
  EXPECT_TRUE(reqs[4].db_info_selector.want_hms_database);
  EXPECT_FALSE(reqs[4].db_info_selector.want_brief_meta_of_tables);
  EXPECT_TRUE(reqs[5].db_info_selector.want_brief_meta_of_tables);

  auto s = cat_->Stats();
  EXPECT_EQ(s.fetches, 6);
  EXPECT_GT(s.hits, 0);
  EXPECT_GT(s.cached_bytes, 0);
  EXPECT_EQ(s.objects, 6);  // table, partitions 1 and 3, db list, db, table list
}

TEST_F(LocalCatalogOnDemandTest, TopicEntriesInvalidate) {
  Topic({}, Id(1), 10);
  EXPECT_EQ(cat_->catalog_version(), 10);
  ASSERT_NE(Table("db", "t"), nullptr);
  ASSERT_TRUE(cat_->TableNames("db").ok());
  ASSERT_TRUE(cat_->GetDatabase("db").ok());
  ASSERT_TRUE(cat_->DatabaseNames().ok());
  const int base = fake()->calls();

  // An invalidation for the version we hold changes nothing.
  auto t5 = MakeTable("db", "t", 5, {});
  Topic({Item("2:", catalog::TableInvalidation(t5, 5))}, Id(1), 11);
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), base);
  // A newer one drops the table (not the table list: the table is known).
  fake()->SetTableVersion("db", "t", 12);
  Topic({Item("2:", catalog::TableInvalidation(t5, 12))}, Id(1), 12);
  EXPECT_EQ(Table("db", "t")->version, 12);
  ASSERT_TRUE(cat_->TableNames("db").ok());
  EXPECT_EQ(fake()->calls(), base + 1);

  // A new table invalidates the db's table list.
  fake()->PutTable(MakeFakeTable("db", "u", 13, {}));
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "u", 13, {}), 13))}, Id(1), 13);
  EXPECT_EQ(*cat_->TableNames("db"), (std::vector<std::string>{"t", "u"}));
  EXPECT_EQ(fake()->calls(), base + 2);
  ASSERT_NE(Table("db", "u"), nullptr);
  // A deleted table too, and its entry.
  fake()->DropTable("db", "u");
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "u", 14, {}), 14), true)}, Id(1),
        14);
  EXPECT_EQ(*cat_->TableNames("db"), std::vector<std::string>{"t"});
  EXPECT_EQ(cat_->GetTable("db", "u").status().code(), ErrorCode::kNotFound);

  // DATABASE: the db and the db list.
  const int before_db = fake()->calls();
  fake()->AddDatabase("db", 15);
  fake()->AddDatabase("db2", 15);
  Topic({Item("2:", catalog::DatabaseInvalidation("db2", 15)),
         Item("2:", catalog::DatabaseInvalidation("db", 15))},
        Id(1), 15);
  EXPECT_EQ(*cat_->DatabaseNames(), (std::vector<std::string>{"db", "db2"}));
  ASSERT_TRUE(cat_->GetDatabase("db").ok());
  EXPECT_EQ(fake()->calls(), before_db + 2);
  ASSERT_NE(Table("db", "t"), nullptr);  // tables of a changed db stay
  EXPECT_EQ(fake()->calls(), before_db + 2);

  // FUNCTION: the db's functions.
  ASSERT_TRUE(cat_->Functions("db").ok());
  const int before_fn = fake()->calls();
  auto f = MakeFn("db", "f", 16);
  fake()->AddFunction("db", f.fn);
  Topic({Item("2:", catalog::FunctionInvalidation(f, 16))}, Id(1), 16);
  auto fns = cat_->Functions("db");
  ASSERT_TRUE(fns.ok());
  EXPECT_EQ(fns->size(), 1u);
  EXPECT_EQ(fake()->calls(), before_fn + 2);  // function names, then f
  EXPECT_EQ(cat_->catalog_version(), 16);
  EXPECT_GT(cat_->Stats().invalidations, 0);
}

// A fetch in flight is still cached when the invalidations that arrive
// meanwhile are of other tables; one of its own table (or a reset) makes it
// fetch again.
TEST_F(LocalCatalogOnDemandTest, FetchSurvivesInvalidationsOfOtherTables) {
  Topic({}, Id(1), 10);
  fake()->PutTable(MakeFakeTable("db", "u", 11, {}));
  const auto u = MakeTable("db", "u", 11, {});
  fake()->DuringNextRequest(
      [&] { Topic({Item("2:", catalog::TableInvalidation(u, 11))}, Id(1), 11); });
  ASSERT_NE(Table("db", "t"), nullptr);
  const int after_fetch = fake()->calls();
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), after_fetch) << "db.t was not cached";

  // An invalidation of db.t itself, newer than what its fetch returns,
  // during the fetch: not cached.
  fake()->SetTableVersion("db", "t", 12);
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 5, {}), 12))}, Id(1), 12);
  fake()->DuringNextRequest([&] {
    Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 5, {}), 13))}, Id(1), 13);
  });
  ASSERT_EQ(Table("db", "t")->version, 12);
  const int raced = fake()->calls();
  fake()->SetTableVersion("db", "t", 13);
  EXPECT_EQ(Table("db", "t")->version, 13);
  EXPECT_GT(fake()->calls(), raced) << "a fetch raced by its own table's invalidation was cached";

  // One at the very version the fetch returns (after a REFRESH, the
  // invalidations of its partitions may still be arriving): cached.
  fake()->SetTableVersion("db", "t", 14);
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 5, {}), 14))}, Id(1), 14);
  const int before_current = fake()->calls();
  fake()->DuringNextRequest([&] {
    Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 5, {}), 14))}, Id(1), 14);
  });
  ASSERT_EQ(Table("db", "t")->version, 14);
  const int current = fake()->calls();
  ASSERT_GT(current, before_current) << "db.t was not fetched";
  ASSERT_EQ(Table("db", "t")->version, 14);
  EXPECT_EQ(fake()->calls(), current) << "a fetch as new as the invalidation was not cached";

  // A partition invalidation of db.t counts as db.t's.
  const int before_part = fake()->calls();
  fake()->DuringNextRequest([&] {
    impala::TCatalogObject part;
    part.__set_type(impala::TCatalogObjectType::HDFS_PARTITION);
    part.__set_catalog_version(16);
    part.hdfs_partition.__set_db_name("db");
    part.hdfs_partition.__set_tbl_name("t");
    part.hdfs_partition.__set_id(2);
    part.__isset.hdfs_partition = true;
    Topic({Item("2:", part)}, Id(1), 16);
  });
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 5, {}), 15))}, Id(1), 15);
  fake()->SetTableVersion("db", "t", 15);
  ASSERT_NE(Table("db", "t"), nullptr);
  const int part_raced = fake()->calls();
  EXPECT_GT(part_raced, before_part);
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_GT(fake()->calls(), part_raced);

  // The table list is refetched after any invalidation during its fetch.
  fake()->DuringNextRequest(
      [&] { Topic({Item("2:", catalog::TableInvalidation(u, 11))}, Id(1), 17); });
  ASSERT_TRUE(cat_->TableNames("db").ok());
  const int list_raced = fake()->calls();
  ASSERT_TRUE(cat_->TableNames("db").ok());
  EXPECT_GT(fake()->calls(), list_raced);
}

TEST_F(LocalCatalogOnDemandTest, PartitionInvalidationByPrevId) {
  auto t5 = Table("db", "t");
  ASSERT_TRUE(cat_->GetPartitions(*t5, {}, true, false).ok());
  // Partition 1 is modified: it becomes id 4 with prev_id 1 at version 6.
  FakeTable changed = MakeFakeTable("db", "t", 6, {2, 3, 4});
  fake()->PutTable(changed);
  auto state = MakeTable("db", "t", 6, {{4, "year=4", /*prev_id=*/1}});
  Topic({Item("2:", catalog::TableInvalidation(state, 6)),
         Item("2:", catalog::PartitionInvalidation(state, *state.partitions.at(4), 6))},
        Id(1), 6);
  const int base = fake()->calls();
  // Partition 2 is still cached; 1 is gone from the cache.
  ASSERT_TRUE(cat_->GetPartitions(*t5, {2, 3}, true, false).ok());
  EXPECT_EQ(fake()->calls(), base);
  // The old table view asks for id 1: catalogd no longer has it.
  auto stale = cat_->GetPartitions(*t5, {1}, true, false);
  EXPECT_EQ(stale.status().code(), ErrorCode::kRecoverableError) << stale.status().ToString();
  // The new table lists 2, 3, 4: only 4 is fetched.
  auto t6 = Table("db", "t");
  EXPECT_EQ(t6->version, 6);
  fake()->ClearRequests();
  auto parts = cat_->GetPartitions(*t6, {}, true, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[2]->id, 4);
  ASSERT_EQ(fake()->calls(), 1);
  EXPECT_EQ(LastRequest().table_info_selector.partition_ids, std::vector<int64_t>{4});
}

TEST_F(LocalCatalogOnDemandTest, LruEvictionUnderByteLimit) {
  for (int i = 0; i < 10; ++i)
    fake()->PutTable(MakeFakeTable("db", "t" + std::to_string(i), 2, {}));
  ASSERT_NE(Table("db", "t0"), nullptr);
  const int64_t one = cat_->Stats().cached_bytes;
  ASSERT_GT(one, 0);
  opts_.cache_bytes = 3 * one + one / 2;  // room for three tables
  Make();
  for (int i = 0; i < 3; ++i) ASSERT_NE(Table("db", "t" + std::to_string(i)), nullptr);
  EXPECT_EQ(cat_->Stats().evictions, 0);
  ASSERT_NE(Table("db", "t0"), nullptr);  // t0 becomes most recently used
  int calls = fake()->calls();
  ASSERT_NE(Table("db", "t3"), nullptr);  // evicts t1, the least recently used
  EXPECT_EQ(cat_->Stats().evictions, 1);
  ASSERT_NE(Table("db", "t0"), nullptr);
  EXPECT_EQ(fake()->calls(), calls + 1);
  ASSERT_NE(Table("db", "t1"), nullptr);
  EXPECT_EQ(fake()->calls(), calls + 2);
  for (int i = 0; i < 10; ++i) ASSERT_NE(Table("db", "t" + std::to_string(i)), nullptr);
  auto s = cat_->Stats();
  EXPECT_LE(s.cached_bytes, opts_.cache_bytes);
  EXPECT_LE(s.objects, 3);
  EXPECT_GE(s.evictions, 8);
  // Something larger than the whole cache is returned but not kept.
  opts_.cache_bytes = one / 2;
  Make();
  ASSERT_NE(Table("db", "t0"), nullptr);
  EXPECT_EQ(cat_->Stats().objects, 0);
}

TEST_F(LocalCatalogOnDemandTest, EntriesExpireAfterAccess) {
  opts_.cache_expiry_s = 10;
  Make();
  ASSERT_NE(Table("db", "t"), nullptr);
  now_ += std::chrono::seconds(6);
  ASSERT_NE(Table("db", "t"), nullptr);
  now_ += std::chrono::seconds(6);  // 12 s since fetch, 6 since last access
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), 1);
  now_ += std::chrono::seconds(11);
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), 2);
  EXPECT_EQ(cat_->Stats().evictions, 1);
}

TEST_F(LocalCatalogOnDemandTest, RetriesTableNotLoaded) {
  fake()->ScriptLookup(CatalogLookupStatus::TABLE_NOT_LOADED, 2);
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), 3);
  // Bounded: 1 + max_retries attempts.
  fake()->PutTable(MakeFakeTable("db", "slow", 1, {}));
  fake()->ScriptLookup(CatalogLookupStatus::TABLE_NOT_LOADED, 4);
  auto r = cat_->GetTable("db", "slow");
  EXPECT_EQ(r.status().code(), ErrorCode::kRecoverableError) << r.status().ToString();
  EXPECT_EQ(fake()->calls(), 7);
  // A load failure is reported at once, not retried.
  FakeTable broken = MakeFakeTable("db", "broken", 1, {});
  broken.load_error = "cannot list /warehouse/db.db/broken";
  fake()->PutTable(broken);
  r = cat_->GetTable("db", "broken");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot list"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(fake()->calls(), 8);
}

TEST_F(LocalCatalogOnDemandTest, RetriesOnVersionMismatch) {
  auto t5 = Table("db", "t");
  // The table changes in catalogd (same partitions) after we cached it.
  fake()->SetTableVersion("db", "t", 6);
  fake()->ClearRequests();
  auto parts = cat_->GetPartitions(*t5, {1, 2}, false, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->size(), 2u);
  // partitions (mismatch: 6 != 5), table again, partitions.
  auto reqs = fake()->requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_TRUE(reqs[0].table_info_selector.__isset.partition_ids);
  EXPECT_TRUE(reqs[1].table_info_selector.want_hms_table);
  EXPECT_TRUE(reqs[2].table_info_selector.__isset.partition_ids);
  EXPECT_EQ(Table("db", "t")->version, 6);  // the refetched table is cached
  EXPECT_EQ(fake()->calls(), 3);
}

TEST_F(LocalCatalogOnDemandTest, ServiceIdChangeClearsCache) {
  Topic({}, Id(1), 3);
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_GT(cat_->Stats().objects, 0);
  // catalogd restarted: the topic carries a new service id.
  fake()->SetServiceId(Id(2));
  Topic({}, Id(2), 1);
  EXPECT_EQ(cat_->Stats().objects, 0);
  EXPECT_EQ(*cat_->service_id(), Id(2));
  EXPECT_EQ(cat_->catalog_version(), 1);
  const int base = fake()->calls();
  ASSERT_NE(Table("db", "t"), nullptr);
  EXPECT_EQ(fake()->calls(), base + 1);

  // catalogd restarted again; a response says so before the topic does.
  fake()->SetServiceId(Id(3));
  fake()->PutTable(MakeFakeTable("db", "u", 1, {}));
  ASSERT_NE(Table("db", "u"), nullptr);
  EXPECT_EQ(fake()->calls(), base + 3);  // answer from Id(3): cache cleared, asked again
  EXPECT_EQ(*cat_->service_id(), Id(3));
  ASSERT_NE(Table("db", "t"), nullptr);  // was dropped with the cache
  EXPECT_EQ(fake()->calls(), base + 4);

  // CATALOG_SERVICE_CHANGED from catalogd: clear and retry.
  fake()->ScriptLookup(CatalogLookupStatus::CATALOG_SERVICE_CHANGED, 1);
  fake()->PutTable(MakeFakeTable("db", "v", 1, {}));
  ASSERT_NE(Table("db", "v"), nullptr);
  EXPECT_EQ(fake()->calls(), base + 6);
  EXPECT_EQ(cat_->Stats().objects, 1);
}

TEST_F(LocalCatalogOnDemandTest, LastResetVersionChangeClearsCache) {
  Topic({}, Id(1), 3, /*last_reset=*/0);
  ASSERT_NE(Table("db", "t"), nullptr);
  Topic({}, Id(1), 4, /*last_reset=*/0);
  EXPECT_EQ(cat_->Stats().objects, 1);
  Topic({}, Id(1), 9, /*last_reset=*/9);
  EXPECT_EQ(cat_->Stats().objects, 0);
}

TEST_F(LocalCatalogOnDemandTest, ContinuesAfterCappedResponses) {
  fake()->PutTable(MakeFakeTable("db", "big2", 3, {1, 2, 3, 4, 5}, 3));
  fake()->SetMaxPartitionsPerResponse(2);
  auto t = Table("db", "big2");
  ASSERT_EQ(t->partition_names.size(), 5u);  // names are never capped
  fake()->ClearRequests();
  auto parts = cat_->GetPartitions(*t, {}, true, false);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ((*parts)[i]->id, static_cast<int64_t>(i + 1));
    EXPECT_EQ((*parts)[i]->file_descs.size(), 3u);
  }
  auto reqs = fake()->requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].table_info_selector.partition_ids, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(reqs[1].table_info_selector.partition_ids, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(reqs[2].table_info_selector.partition_ids, (std::vector<int64_t>{5}));
}

TEST_F(LocalCatalogOnDemandTest, MapsNotFound) {
  EXPECT_EQ(cat_->GetTable("db", "nope").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->GetTable("nodb", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->GetDatabase("nodb").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->TableNames("nodb").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(cat_->Functions("nodb").status().code(), ErrorCode::kNotFound);
  // A table dropped behind our back: its partitions' fetch says so, the
  // cache forgets it.
  auto t = Table("db", "t");
  ASSERT_EQ(*cat_->TableNames("db"), std::vector<std::string>{"t"});
  fake()->DropTable("db", "t");
  EXPECT_EQ(cat_->GetPartitions(*t, {1}, false, false).status().code(), ErrorCode::kNotFound);
  const int base = fake()->calls();
  EXPECT_EQ(cat_->GetTable("db", "t").status().code(), ErrorCode::kNotFound);
  EXPECT_TRUE(cat_->TableNames("db")->empty());
  EXPECT_EQ(fake()->calls(), base + 2);
  // An id the table does not list is refused locally.
  EXPECT_EQ(cat_->GetPartitions(*t, {99}, false, false).status().code(), ErrorCode::kNotFound);
}

TEST_F(LocalCatalogOnDemandTest, DdlResultsInvalidate) {
  Topic({}, Id(1), 5);
  ASSERT_NE(Table("db", "t"), nullptr);
  ASSERT_TRUE(cat_->TableNames("db").ok());
  fake()->SetTableVersion("db", "t", 7);
  impala::TCatalogUpdateResult res;
  res.catalog_service_id = Id(1);
  res.version = 7;
  res.__set_updated_catalog_objects({catalog::TableInvalidation(MakeTable("db", "t", 7, {}), 7)});
  cat_->ApplyUpdateResult(res);
  EXPECT_EQ(cat_->catalog_version(), 7);
  EXPECT_EQ(Table("db", "t")->version, 7);  // refetched, never installed from the result

  impala::TCatalogUpdateResult drop;
  drop.catalog_service_id = Id(1);
  drop.version = 8;
  drop.__set_removed_catalog_objects({catalog::DatabaseInvalidation("db", 8)});
  cat_->ApplyUpdateResult(drop);
  EXPECT_EQ(cat_->Stats().objects, 0);

  ASSERT_NE(Table("db", "t"), nullptr);
  impala::TCatalogUpdateResult inval;
  inval.catalog_service_id = Id(1);
  inval.version = 9;
  inval.is_invalidate = true;
  cat_->ApplyUpdateResult(inval);
  EXPECT_EQ(cat_->Stats().objects, 0);
  EXPECT_EQ(cat_->catalog_version(), 9);
  EXPECT_TRUE(cat_->WaitForCatalogVersion(9, 0).ok());
  EXPECT_EQ(cat_->WaitForCatalogVersion(10, 20).code(), ErrorCode::kTimedOut);
}

// A minimal DDL result naming the partitions it added and removed, and the
// table version it was applied to, patches a cached table of that version
// without a fetch; any other cached version is invalidated and refetched.
// A minimal DDL result for db.t: version `version` from `base`, partitions
// (year=<id>) added and removed.
impala::TCatalogUpdateResult DdlResult(int64_t base, int64_t version, std::vector<int64_t> added,
                                       std::vector<int64_t> removed) {
  impala::TCatalogUpdateResult res;
  res.catalog_service_id = Id(1);
  res.version = version;
  impala::TCatalogObject table =
      catalog::TableInvalidation(MakeTable("db", "t", version, {}), version);
  table.__set_base_catalog_version(base);
  std::vector<impala::TCatalogObject> updated = {table}, gone;
  for (int64_t id : added) {
    updated.push_back(
        catalog::PartitionInvalidation("db", "t", "year=" + std::to_string(id), id, -1, version));
  }
  for (int64_t id : removed) {
    gone.push_back(
        catalog::PartitionInvalidation("db", "t", "year=" + std::to_string(id), id, -1, version));
  }
  res.__set_updated_catalog_objects(updated);
  res.__set_removed_catalog_objects(gone);
  return res;
}

TEST_F(LocalCatalogOnDemandTest, DdlResultPatchesPartitionListOfTheBaseVersion) {
  Topic({}, Id(1), 5);
  ASSERT_NE(Table("db", "t"), nullptr);
  const int64_t fetches = cat_->Stats().fetches;
  auto result = DdlResult;
  cat_->ApplyUpdateResult(result(5, 7, {4}, {2}));
  auto t = Table("db", "t");
  EXPECT_EQ(t->version, 7);
  EXPECT_EQ(t->partition_names.ToMap(),
            (std::map<int64_t, std::string>{{1, "year=1"}, {3, "year=3"}, {4, "year=4"}}));
  EXPECT_EQ(t->partition_names.FindByValues({"04"}), (std::vector<int64_t>{4}));
  EXPECT_EQ(cat_->Stats().fetches, fetches);
  EXPECT_EQ(cat_->Stats().partition_list_patches, 1);
  // The topic's news of the same version changes nothing.
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 7, {}), 7))}, Id(1), 7);
  EXPECT_EQ(Table("db", "t")->version, 7);
  EXPECT_EQ(cat_->Stats().fetches, fetches);

  // Applied to version 8, which this coordinator never saw: refetched.
  fake()->SetTableVersion("db", "t", 9);
  cat_->ApplyUpdateResult(result(8, 9, {6}, {}));
  EXPECT_EQ(cat_->Stats().partition_list_patches, 1);
  EXPECT_EQ(Table("db", "t")->version, 9);
  EXPECT_EQ(Table("db", "t")->partition_names.size(), 3u);  // the fake's list
  EXPECT_EQ(cat_->Stats().fetches, fetches + 1);
}

// The topic's news of a change can come before the result of the DDL that
// made it (a publisher that pushes): the table it evicted is kept for the
// result to patch, unless newer news came in between.
TEST_F(LocalCatalogOnDemandTest, DdlResultPatchesTheTableItsOwnNewsEvicted) {
  Topic({}, Id(1), 5);
  ASSERT_NE(Table("db", "t"), nullptr);
  const int64_t fetches = cat_->Stats().fetches;
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 7, {}), 7))}, Id(1), 7);
  cat_->ApplyUpdateResult(DdlResult(5, 7, {4}, {2}));
  EXPECT_EQ(cat_->Stats().partition_list_patches, 1);
  auto t = Table("db", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version, 7);
  EXPECT_EQ(t->partition_names.ToMap(),
            (std::map<int64_t, std::string>{{1, "year=1"}, {3, "year=3"}, {4, "year=4"}}));
  EXPECT_EQ(cat_->Stats().fetches, fetches);

  // News of version 9 evicts it; the result of version 8 (based on 7) is
  // older than that news, so it patches nothing: the table is fetched.
  fake()->SetTableVersion("db", "t", 9);
  Topic({Item("2:", catalog::TableInvalidation(MakeTable("db", "t", 9, {}), 9))}, Id(1), 9);
  cat_->ApplyUpdateResult(DdlResult(7, 8, {5}, {}));
  EXPECT_EQ(cat_->Stats().partition_list_patches, 1);
  EXPECT_EQ(Table("db", "t")->version, 9);
  EXPECT_EQ(cat_->Stats().fetches, fetches + 1);
}

TEST_F(LocalCatalogOnDemandTest, FunctionsOfADatabase) {
  fake()->AddFunction("db", MakeFn("db", "f", 2).fn);
  auto f2 = MakeFn("db", "f", 3);
  f2.fn.__set_arg_types({MakeScalarType(impala::TPrimitiveType::STRING)});
  fake()->AddFunction("db", f2.fn);
  fake()->AddFunction("db", MakeFn("db", "g", 4).fn);
  auto fns = cat_->Functions("db");
  ASSERT_TRUE(fns.ok()) << fns.status().ToString();
  EXPECT_EQ(fns->size(), 3u);
  EXPECT_EQ(fake()->calls(), 3);
  ASSERT_TRUE(cat_->Functions("db").ok());
  EXPECT_EQ(fake()->calls(), 3);
}

TEST_F(LocalCatalogOnDemandTest, UnreachableCatalogdFailsAfterRetries) {
  opts_.catalogd_port = 1;  // nothing listens there
  Make();
  auto r = cat_->GetTable("db", "t");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(cat_->Stats().fetches, opts_.max_retries + 1);
}

}  // namespace
}  // namespace ics::lctest
