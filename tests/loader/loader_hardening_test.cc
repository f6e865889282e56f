// Hardening of the loader: the listing pool's exception barrier, a file
// system or metastore that throws.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "catalogd/catalog/catalog.h"
#include "catalogd/catalog/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/loader/thread_pool.h"
#include "catalogd/metastore/forwarding_metastore.h"
#include "tests/loader/fake_file_system.h"
#include "tests/loader/fake_metastore.h"

namespace ics::catalog {
namespace {

// ---- ThreadPool exception barrier ----

TEST(ThreadPoolBarrierTest, ThrowingTaskIsReturnedAndTheCallEnds) {
  ThreadPool pool(3);
  std::atomic<int> ran{0};
  Status s = pool.ParallelFor(1000, [&](size_t i) {
    ran++;
    if (i == 10) throw std::runtime_error("boom at ten");
  });
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.Is(ErrorCode::kInternalError)) << s.ToString();
  EXPECT_NE(s.message().find("boom at ten"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("task 10 of 1000"), std::string::npos) << s.ToString();
  EXPECT_GE(ran.load(), 1);
  EXPECT_EQ(pool.escaped_exceptions(), 0);

  // The pool is intact: every worker is still there and serves the next call.
  std::vector<std::atomic<int>> hits(500);
  ASSERT_TRUE(pool.ParallelFor(hits.size(), [&](size_t i) { hits[i]++; }).ok());
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(ThreadPoolBarrierTest, EveryTaskThrowingStillReturns) {
  ThreadPool pool(4);
  for (int round = 0; round < 20; ++round) {
    Status s = pool.ParallelFor(64, [&](size_t) { throw 42; });  // not a std::exception
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("non-standard exception"), std::string::npos) << s.ToString();
  }
}

TEST(ThreadPoolBarrierTest, InlinePoolStopsAtTheFirstException) {
  ThreadPool inline_pool(0);
  int ran = 0;
  Status s = inline_pool.ParallelFor(10, [&](size_t i) {
    ++ran;
    if (i == 3) throw std::logic_error("three");
  });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(ran, 4);  // 0..3, then stopped early
  ThreadPool pool(2);
  EXPECT_FALSE(pool.ParallelFor(1, [](size_t) { throw std::runtime_error("one"); }).ok());
}

TEST(ThreadPoolBarrierTest, StopsEarlyAfterAFailure) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  Status s = pool.ParallelFor(100000, [&](size_t i) {
    ran++;
    if (i == 0) throw std::runtime_error("first");
  });
  EXPECT_FALSE(s.ok());
  EXPECT_LT(ran.load(), 100000);  // the rest were skipped
}

// ---- the loader over a fake file system ----

hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

class LoaderHardeningTest : public ::testing::Test {
 protected:
  void PutTable(const std::string& name, int num_partitions) {
    hive::Table t;
    t.dbName = "d";
    t.tableName = name;
    t.tableType = "MANAGED_TABLE";
    t.sd.location = "/wh/d.db/" + name;
    t.sd.cols = {Field("c", "int")};
    if (num_partitions > 0) t.partitionKeys = {Field("p", "int")};
    ms_.PutTable(t);
    for (int i = 0; i < num_partitions; ++i) {
      hive::Partition p;
      p.dbName = "d";
      p.tableName = name;
      p.values = {std::to_string(i)};
      ASSERT_TRUE(ms_.PutPartition(p).ok());
    }
  }
  static std::string PartDir(const std::string& table, int i) {
    return "/wh/d.db/" + table + "/p=" + std::to_string(i);
  }
  LoaderOptions Options(int64_t block_size = 128LL << 20) {
    LoaderOptions o;
    o.num_threads = 3;
    o.block_size = block_size;
    return o;
  }

  FakeMetastore ms_;
  FakeFileSystem fs_;
  std::atomic<int64_t> next_id_{1};
};

TEST_F(LoaderHardeningTest, ThrowingListingFailsTheLoadWithAClearError) {
  PutTable("t", 20);
  fs_.ThrowOnList(PartDir("t", 7), "disk on fire");
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("d", "t");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kInternalError)) << r.status().ToString();
  EXPECT_NE(r.status().message().find("disk on fire"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find(PartDir("t", 7)), std::string::npos)
      << r.status().ToString();
}

TEST_F(LoaderHardeningTest, ThrowingListingOfOnePartitionOrAnUnpartitionedTable) {
  PutTable("one", 1);
  PutTable("flat", 0);
  fs_.ThrowOnList(PartDir("one", 0), "one throws");
  fs_.ThrowOnList("/wh/d.db/flat", "flat throws");
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto one = loader.Load("d", "one");
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.status().message().find("one throws"), std::string::npos);
  auto flat = loader.Load("d", "flat");
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.status().message().find("flat throws"), std::string::npos);
}

// A metastore whose GetTable throws for one table (everything else forwarded).
class ThrowingMetastore final : public ForwardingMetastore {
 public:
  using ForwardingMetastore::ForwardingMetastore;
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override {
    if (table == "boom") throw std::runtime_error("metastore exploded");
    return ForwardingMetastore::GetTable(db, table);
  }
};

TEST_F(LoaderHardeningTest, BackgroundLoadThatThrowsIsALoadErrorAndTheWorkerSurvives) {
  PutTable("boom", 2);
  PutTable("fine", 2);
  ThrowingMetastore throwing(&ms_);
  Catalog catalog;
  TableLoader loader(&throwing, &fs_, Options(), catalog.partition_id_allocator());
  TableLoadManager loads(&catalog, &loader, 1);
  ChangeSet cs;
  auto db = std::make_shared<DatabaseState>();
  db->name = "d";
  db->hms.name = "d";
  cs.put_databases.push_back(db);
  cs.put_tables.push_back(MakeUnloadedTable("d", "boom"));
  cs.put_tables.push_back(MakeUnloadedTable("d", "fine"));
  catalog.Install(std::move(cs));

  loads.Prioritize({{"d", "boom"}, {"d", "fine"}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    TablePtr fine = catalog.GetTable("d", "fine");
    if (fine != nullptr && fine->loaded) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  TablePtr boom = catalog.GetTable("d", "boom");
  ASSERT_NE(boom, nullptr);
  EXPECT_FALSE(boom->loaded);
  EXPECT_TRUE(boom->load_status.Is(ErrorCode::kInternalError)) << boom->load_status.ToString();
  EXPECT_NE(boom->load_status.message().find("metastore exploded"), std::string::npos);
  EXPECT_TRUE(catalog.GetTable("d", "fine")->loaded);  // the same worker went on

  // A foreground load answers with the error instead of throwing.
  auto again = loads.GetLoaded("d", "boom");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("loading d.boom"), std::string::npos);
  loads.Shutdown();
}

}  // namespace
}  // namespace ics::catalog
