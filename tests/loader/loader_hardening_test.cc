// Hardening of the loader: the listing pool's exception barrier, a file
// system that throws, and size arithmetic on hostile listings (huge files,
// negative lengths, tiny or absurd block sizes, extreme timestamps).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <thread>

#include "catalogd/catalog/catalog.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/loader/thread_pool.h"
#include "catalogd/metastore/forwarding_metastore.h"
#include "common/codec/file_desc.h"
#include "tests/loader/fake_file_system.h"
#include "tests/loader/fake_metastore.h"

namespace ics::catalog {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

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

// A metastore whose partition rows are given by the test: what a damaged
// store could return (two rows with the same values, rows out of order).
class PlantedPartitions final : public ForwardingMetastore {
 public:
  PlantedPartitions(Metastore* inner, std::vector<std::vector<std::string>> values)
      : ForwardingMetastore(inner), values_(std::move(values)) {}
  Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                          const std::string& table) override {
    std::vector<hive::Partition> parts;
    for (const auto& v : values_) {
      hive::Partition p;
      p.dbName = db;
      p.tableName = table;
      p.values = v;
      parts.push_back(std::move(p));
    }
    return ReaderOf(std::move(parts));
  }

 private:
  const std::vector<std::vector<std::string>> values_;
};

TEST_F(LoaderHardeningTest, PartitionsWithTheSameNameAreCorruption) {
  PutTable("t", 0);
  hive::Table t = *ms_.GetTable("d", "t");
  t.partitionKeys = {Field("p", "int")};
  ms_.PutTable(t);
  const std::vector<std::vector<std::vector<std::string>>> cases = {
      {{"1"}, {"1"}, {"2"}},  // in name order: neighbours
      {{"3"}, {"1"}, {"2"}, {"3"}},  // out of order
  };
  for (const auto& values : cases) {
    PlantedPartitions planted(&ms_, values);
    TableLoader loader(&planted, &fs_, Options(), &next_id_);
    auto r = loader.Load("d", "t");
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().Is(ErrorCode::kCorruption)) << r.status().ToString();
    EXPECT_NE(r.status().message().find("duplicate partition"), std::string::npos)
        << r.status().ToString();
  }
  PlantedPartitions distinct(&ms_, {{"2"}, {"1"}, {"3"}});  // out of order, distinct: fine
  TableLoader loader(&distinct, &fs_, Options(), &next_id_);
  auto r = loader.Load("d", "t");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->partitions.size(), 3u);
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

TEST_F(LoaderHardeningTest, HugeFilesGiveBoundedBlocksAndSaturatedTotals) {
  PutTable("big", 2);
  for (int i = 0; i < 2; ++i) {
    fs_.SetFiles(PartDir("big", i),
                 {{"a", kMax, 1}, {"b", kMax - 1, 2}, {"c", kMax / 2 + 1, 3}, {"d", 0, 4}});
  }
  for (int64_t block_size : {int64_t{1}, int64_t{0}, int64_t{-5}, kMax, kMax / 2 + 1}) {
    SCOPED_TRACE("block_size " + std::to_string(block_size));
    TableLoader loader(&ms_, &fs_, Options(block_size), &next_id_);
    auto r = loader.Load("d", "big");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const TableState& t = **r;
    EXPECT_EQ(t.table_stats.total_file_bytes, kMax);  // saturated, not wrapped
    for (const auto& [id, p] : t.partitions) {
      EXPECT_EQ(p->total_file_bytes(), kMax);
      ASSERT_EQ(p->file_descs.size(), 4u);
      int64_t blocks = 0;
      for (std::string_view bytes : p->file_descs) {
        auto fd = ReadFileDesc(bytes);
        ASSERT_TRUE(fd.ok());
        FileDescInfo info = ToFileDescInfo(**fd);
        EXPECT_LE(static_cast<int64_t>(info.blocks.size()), kMaxBlocksPerFile);
        int64_t next = 0;
        for (const FileBlockInfo& b : info.blocks) {
          ASSERT_EQ(b.offset, next);
          ASSERT_GT(b.length, 0);
          next += b.length;
        }
        EXPECT_EQ(next, info.length);  // the blocks cover the file exactly
        blocks += static_cast<int64_t>(info.blocks.size());
      }
      EXPECT_EQ(p->num_blocks(), blocks);
    }
  }
}

TEST_F(LoaderHardeningTest, NegativeFileLengthFailsThePartition) {
  PutTable("neg", 3);
  fs_.SetFiles(PartDir("neg", 1), {{"ok", 10, 1}, {"bad", -7, 1}});
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("d", "neg");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kCorruption)) << r.status().ToString();
  EXPECT_NE(r.status().message().find("'bad'"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("p=1"), std::string::npos) << r.status().ToString();
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

// ---- size arithmetic helpers ----

TEST(SplitIntoBlocksTest, NoOverflowAndBoundedCount) {
  // (length + block_size - 1) would overflow here; so would off += block_size.
  auto a = SplitIntoBlocks(kMax, kMax / 2 + 1, 0);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].offset, 0);
  EXPECT_EQ(a[0].length, kMax / 2 + 1);
  EXPECT_EQ(a[1].offset, kMax / 2 + 1);
  EXPECT_EQ(a[0].length + a[1].length, kMax);

  auto one = SplitIntoBlocks(kMax, kMax, 0);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].length, kMax);

  // A tiny block size on a huge file: clamped to kMaxBlocksPerFile blocks.
  auto tiny = SplitIntoBlocks(kMax, 1, 3);
  ASSERT_EQ(static_cast<int64_t>(tiny.size()), kMaxBlocksPerFile);
  int64_t covered = 0;
  for (const auto& b : tiny) {
    EXPECT_EQ(b.offset, covered);
    covered += b.length;
    EXPECT_EQ(b.replica_host_idxs, std::vector<uint16_t>{3});
  }
  EXPECT_EQ(covered, kMax);

  // Exactly at the cap keeps the block size; one byte more regroups.
  EXPECT_EQ(static_cast<int64_t>(SplitIntoBlocks(kMaxBlocksPerFile * 100, 100, 0).size()),
            kMaxBlocksPerFile);
  auto over = SplitIntoBlocks(kMaxBlocksPerFile * 100 + 1, 100, 0);
  EXPECT_LE(static_cast<int64_t>(over.size()), kMaxBlocksPerFile);
  EXPECT_TRUE(SplitIntoBlocks(-1, 100, 0).empty());
  EXPECT_TRUE(SplitIntoBlocks(100, -1, 0).empty());
  EXPECT_TRUE(SplitIntoBlocks(std::numeric_limits<int64_t>::min(), 1, 0).empty());
}

TEST(FileSystemSizeTest, StatTimesSaturate) {
  EXPECT_EQ(StatTimeToMillis(1, 500'000'000), 1500);
  EXPECT_EQ(StatTimeToMillis(kMax, 999'999'999), kMax);
  EXPECT_EQ(StatTimeToMillis(kMax / 1000, 999'999'999), kMax);
  EXPECT_EQ(StatTimeToMillis(std::numeric_limits<int64_t>::min(), 0),
            std::numeric_limits<int64_t>::min());
}

TEST(FileSystemSizeTest, SyntheticExtremesStayInRange) {
  SyntheticFileSystemOptions o;
  o.files_per_dir = 50;
  o.min_file_bytes = std::numeric_limits<int64_t>::min();
  o.max_file_bytes = kMax;
  o.base_mtime_ms = kMax;
  o.mtime_spread_ms = kMax;
  SyntheticFileSystem fs(o);
  auto files = fs.ListFiles("/x");
  ASSERT_TRUE(files.ok());
  for (const FileStatus& f : *files) {
    EXPECT_GE(f.length, 0);
    EXPECT_EQ(f.mtime_ms, kMax);
  }
}

}  // namespace
}  // namespace ics::catalog
