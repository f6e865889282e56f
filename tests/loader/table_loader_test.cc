#include "catalogd/loader/table_loader.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "catalogd/loader/table_load_manager.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "common/types/column_type.h"
#include "tests/loader/table_loader_fixture.h"

namespace ics::catalog {
namespace {

TEST_F(TableLoaderTest, LoadsPartitionedTable) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "sales");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const TableState& t = **r;
  EXPECT_TRUE(t.loaded);
  EXPECT_EQ(t.version, 0);
  EXPECT_EQ(t.db, "db1");
  EXPECT_EQ(t.name, "sales");
  EXPECT_EQ(t.table_type, impala::TTableType::HDFS_TABLE);

  ASSERT_EQ(t.clustering_columns.size(), 2u);
  EXPECT_EQ(t.clustering_columns[0].columnName, "year");
  EXPECT_EQ(t.clustering_columns[0].position, 0);
  EXPECT_EQ(t.clustering_columns[1].position, 1);
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].columnName, "id");
  EXPECT_EQ(t.columns[0].position, 2);
  EXPECT_EQ(t.columns[0].comment, "row id");
  EXPECT_EQ(PrimitiveOf(t.columns[0].columnType), impala::TPrimitiveType::BIGINT);
  EXPECT_EQ(TypeToString(t.columns[1].columnType), "decimal(10,2)");
  EXPECT_EQ(TypeToString(t.columns[2].columnType), "array<string>");
  EXPECT_EQ(t.columns[2].position, 4);
  ASSERT_EQ(t.column_stats.count("id"), 1u);

  // Partitions: unique ids, names matching the index.
  ASSERT_EQ(t.partitions.size(), 3u);
  std::set<int64_t> ids;
  for (const auto& [id, p] : t.partitions) {
    EXPECT_EQ(id, p->id);
    EXPECT_EQ(p->prev_id, -1);
    EXPECT_EQ(p->added_version, 0);
    ids.insert(id);
    EXPECT_EQ(t.partitions_by_name.Find(p->name())->id, id);
  }
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(next_id_.load(), 4);

  const PartitionState* p1 = t.FindPartition("year=2024/month=01");
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(p1->values(), (std::vector<std::string>{"2024", "01"}));
  EXPECT_EQ(p1->location(), table_dir_ + "/year=2024/month=01");
  EXPECT_EQ(p1->num_rows(), 600);
  EXPECT_GT(p1->listed_at_s, 0u);
  ASSERT_EQ(p1->file_descs.size(), 2u);  // _SUCCESS and .crc are hidden
  EXPECT_EQ(p1->total_file_bytes(), 400);
  EXPECT_EQ(p1->num_blocks(), 3 + 1);  // 300 bytes = 128+128+44; 100 bytes = 1 block

  const std::string fd0_bytes = p1->file_descs.Copy(0);
  auto fd0 = ReadFileDesc(fd0_bytes);
  ASSERT_TRUE(fd0.ok());
  FileDescInfo f0 = ToFileDescInfo(**fd0);
  EXPECT_EQ(f0.relative_path, "000000_0");
  EXPECT_TRUE(f0.absolute_path.empty());
  EXPECT_EQ(f0.length, 300);
  EXPECT_GT(f0.mtime_ms, 0);
  EXPECT_EQ(f0.compression, fb::FbCompression::NONE);
  ASSERT_EQ(f0.blocks.size(), 3u);
  EXPECT_EQ(f0.blocks[2].offset, 256);
  EXPECT_EQ(f0.blocks[2].length, 44);
  EXPECT_EQ(f0.blocks[0].replica_host_idxs, std::vector<uint16_t>{0});
  FileDescInfo f1 = ToFileDescInfo(**ReadFileDesc(p1->file_descs.Copy(1)));
  EXPECT_EQ(f1.relative_path, "000001_0.gz");
  EXPECT_EQ(f1.compression, fb::FbCompression::GZIP);
  EXPECT_EQ(f1.blocks.size(), 1u);

  // Incremental stats: decoded from >1 chunk, kept compressed, chunks stripped.
  EXPECT_TRUE(p1->has_incremental_stats());
  auto stats = DecodePartitionStats(p1->partition_stats());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(*stats, SampleStats(5000));
  EXPECT_EQ(p1->Hms().parameters.count(kStatsNumChunksParam), 0u);
  EXPECT_EQ(p1->Hms().parameters.count(std::string(kStatsChunkParamPrefix) + "0"), 0u);
  EXPECT_EQ(p1->Hms().parameters.at("numRows"), "600");

  const PartitionState* p2 = t.FindPartition("year=2024/month=02");
  ASSERT_NE(p2, nullptr);
  EXPECT_EQ(p2->location(), external_dir_);
  ASSERT_EQ(p2->file_descs.size(), 1u);
  EXPECT_EQ(ToFileDescInfo(**ReadFileDesc(p2->file_descs.Copy(0))).compression,
            fb::FbCompression::SNAPPY);
  EXPECT_EQ(p2->num_rows(), -1);
  EXPECT_FALSE(p2->has_incremental_stats());
  EXPECT_TRUE(p2->partition_stats().empty());

  const PartitionState* p3 = t.FindPartition("year=2025/month=a%2Fb");
  ASSERT_NE(p3, nullptr);
  EXPECT_EQ(p3->location(), table_dir_ + "/year=2025/month=a%2Fb");
  EXPECT_TRUE(p3->file_descs.empty());  // missing directory = no files
  EXPECT_EQ(t.FindPartition("year=1/month=1"), nullptr);

  // Table-level figures.
  EXPECT_EQ(t.table_stats.num_rows, 1000);
  EXPECT_EQ(t.table_stats.total_file_bytes, 450);
  EXPECT_EQ(t.NumFiles(), 3);
  ASSERT_EQ(t.network_addresses.size(), 1u);
  EXPECT_EQ(t.network_addresses[0].hostname, "node1");
  EXPECT_EQ(t.network_addresses[0].port, 0);
  EXPECT_EQ(t.partition_prefixes,
            (std::vector<std::string>{table_dir_, tmp_.path() + "/ext"}));
  impala::THdfsPartitionLocation loc =
      CompressPartitionLocation(t.partition_prefixes, p1->location(), 2);
  EXPECT_EQ(loc.prefix_index, 0);
  EXPECT_EQ(loc.suffix, "/year=2024/month=01");
  EXPECT_EQ(t.partition_prefixes[loc.prefix_index] + loc.suffix, p1->location());
  EXPECT_EQ(CompressPartitionLocation(t.partition_prefixes, "/else/where", 2).prefix_index, -1);
  EXPECT_GT(t.load_time_ms, 0);
  EXPECT_GT(t.storage_load_time_ns, 0);
  EXPECT_GT(t.EstimateBytes(), p1->EstimateBytes() + p2->EstimateBytes());
  EXPECT_GT(p1->EstimateBytes(), p3->EstimateBytes());
}

TEST_F(TableLoaderTest, IdsAreNeverReusedAcrossLoads) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto a = loader.Load("db1", "sales");
  auto b = loader.Load("db1", "sales");
  ASSERT_TRUE(a.ok() && b.ok());
  std::set<int64_t> ids;
  for (const auto& [id, p] : (*a)->partitions) ids.insert(id);
  for (const auto& [id, p] : (*b)->partitions) ids.insert(id);
  EXPECT_EQ(ids.size(), 6u);
}

TEST_F(TableLoaderTest, UnpartitionedTable) {
  hive::Table t;
  t.dbName = "db1";
  t.tableName = "flat";
  t.tableType = "EXTERNAL_TABLE";
  t.sd.location = tmp_.path() + "/flat";
  t.sd.cols = {Field("s", "string")};
  t.parameters["numRows"] = "7";
  ASSERT_TRUE(SetStatsParams(SampleStats(10), &t.parameters).ok());
  ms_.PutTable(t);
  WriteFile(t.sd.location + "/f1.zst", 10);

  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "flat");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const TableState& ts = **r;
  EXPECT_FALSE(ts.is_partitioned());
  ASSERT_EQ(ts.partitions.size(), 1u);
  const PartitionState& p = *ts.partitions.begin()->second;
  EXPECT_EQ(std::string(p.name()), "");
  EXPECT_TRUE(p.values().empty());
  EXPECT_EQ(p.location(), t.sd.location);
  EXPECT_EQ(p.num_rows(), 7);
  EXPECT_EQ(p.Hms().tableName, "flat");
  EXPECT_EQ(p.Hms().sd.location, t.sd.location);
  ASSERT_EQ(p.file_descs.size(), 1u);
  EXPECT_EQ(ToFileDescInfo(**ReadFileDesc(p.file_descs.Copy(0))).compression, fb::FbCompression::ZSTD);
  EXPECT_TRUE(p.has_incremental_stats());
  EXPECT_EQ(*DecodePartitionStats(p.partition_stats()), SampleStats(10));
  EXPECT_EQ(ts.hms.parameters.count(kStatsNumChunksParam), 0u);
  EXPECT_EQ(ts.FindPartition(""), &p);
  EXPECT_EQ(ts.partition_prefixes, std::vector<std::string>{t.sd.location});
}

TEST_F(TableLoaderTest, View) {
  hive::Table v;
  v.dbName = "db1";
  v.tableName = "v";
  v.tableType = "VIRTUAL_VIEW";
  v.viewExpandedText = "SELECT 1";
  v.sd.cols = {Field("c", "int")};
  ms_.PutTable(v);
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "v");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE((*r)->loaded);
  EXPECT_TRUE((*r)->is_view());
  EXPECT_TRUE((*r)->partitions.empty());
  EXPECT_TRUE((*r)->network_addresses.empty());
  EXPECT_EQ((*r)->columns.size(), 1u);
  EXPECT_EQ((*r)->hms.viewExpandedText, "SELECT 1");
  EXPECT_EQ(next_id_.load(), 1);  // no ids spent
}

TEST_F(TableLoaderTest, Errors) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto missing = loader.Load("db1", "nope");
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);

  ms_.FailNext(Status::IoError("disk on fire"));
  auto failed = loader.Load("db1", "sales");
  EXPECT_EQ(failed.status().code(), ErrorCode::kIoError);

  hive::Table bad;
  bad.dbName = "db1";
  bad.tableName = "bad";
  bad.sd.location = tmp_.path() + "/bad";
  bad.sd.cols = {Field("ok", "int"), Field("price", "decimal(50,2)")};
  ms_.PutTable(bad);
  auto r = loader.Load("db1", "bad");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("column 'price'"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("precision 50"), std::string::npos);

  // A partition directory that is a file cannot be listed.
  hive::Table t2;
  t2.dbName = "db1";
  t2.tableName = "t2";
  t2.sd.location = tmp_.path() + "/t2";
  t2.partitionKeys = {Field("k", "int")};
  ms_.PutTable(t2);
  hive::Partition p;
  p.dbName = "db1";
  p.tableName = "t2";
  p.values = {"1"};
  ASSERT_TRUE(ms_.PutPartition(p).ok());
  WriteFile(tmp_.path() + "/t2/k=1", 3);
  auto listing = loader.Load("db1", "t2");
  ASSERT_FALSE(listing.ok());
  EXPECT_EQ(listing.status().code(), ErrorCode::kIoError);
  EXPECT_NE(listing.status().message().find("k=1"), std::string::npos);

  // Values not matching the keys (sales has two).
  auto table = loader.Load("db1", "sales");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(loader.LoadPartition(**table, Partition({"1"})).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(loader.LoadPartition(**table, Partition({"1", "2", "3"})).status().code(),
            ErrorCode::kInvalidArgument);
  // Values for an unpartitioned table.
  hive::Table flat = t2;
  flat.tableName = "flat2";
  flat.partitionKeys.clear();
  flat.sd.location = tmp_.path() + "/flat2";
  ms_.PutTable(flat);
  EXPECT_EQ(loader.LoadPartition(**loader.Load("db1", "flat2"), Partition({"x"})).status().code(),
            ErrorCode::kInvalidArgument);
}

TEST_F(TableLoaderTest, CorruptStatsAreDroppedNotFatal) {
  hive::Partition p = Partition({"2026", "01"});
  p.parameters[kStatsNumChunksParam] = "2";
  p.parameters[std::string(kStatsChunkParamPrefix) + "0"] = "AAAA";
  ASSERT_TRUE(ms_.PutPartition(p).ok());
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "sales");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PartitionState* part = (*r)->FindPartition("year=2026/month=01");
  ASSERT_NE(part, nullptr);
  EXPECT_FALSE(part->has_incremental_stats());
  EXPECT_TRUE(part->partition_stats().empty());
  EXPECT_EQ(part->Hms().parameters.count(kStatsNumChunksParam), 0u);
}

TEST_F(TableLoaderTest, LocalFilesHaveNoBlocks) {
  TableLoader loader(&ms_, &local_, Options(), &next_id_);
  auto r = loader.Load("db1", "sales");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PartitionState* p1 = (*r)->FindPartition("year=2024/month=01");
  ASSERT_NE(p1, nullptr);
  ASSERT_EQ(p1->file_descs.size(), 2u);
  EXPECT_EQ(p1->num_blocks(), 0);
  EXPECT_EQ(p1->total_file_bytes(), 400);
  const std::string fd0_bytes = p1->file_descs.Copy(0);
  auto fd0 = ReadFileDesc(fd0_bytes);
  ASSERT_TRUE(fd0.ok());
  FileDescInfo f0 = ToFileDescInfo(**fd0);
  EXPECT_EQ(f0.relative_path, "000000_0");
  EXPECT_EQ(f0.length, 300);
  EXPECT_TRUE(f0.blocks.empty());
  EXPECT_TRUE((*r)->network_addresses.empty());
  EXPECT_EQ((*r)->num_blocks, 0);
  // The same files seen with block locations are described with blocks.
  TableLoader with_blocks(&ms_, &fs_, Options(), &next_id_);
  auto b = with_blocks.Load("db1", "sales");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b.value()->FindPartition("year=2024/month=01")->num_blocks(), 4);
  EXPECT_EQ(b.value()->network_addresses.size(), 1u);
}

TEST_F(TableLoaderTest, TrailingSlashInTableLocation) {
  hive::Table t;
  t.dbName = "db1";
  t.tableName = "slash";
  t.sd.location = tmp_.path() + "/slash/";
  t.partitionKeys = {Field("k", "string")};
  ms_.PutTable(t);
  hive::Partition p;
  p.dbName = "db1";
  p.tableName = "slash";
  p.values = {""};  // empty value: Hive's default partition name
  ASSERT_TRUE(ms_.PutPartition(p).ok());
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "slash");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PartitionState* part = (*r)->FindPartition("k=__HIVE_DEFAULT_PARTITION__");
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->location(), tmp_.path() + "/slash/k=__HIVE_DEFAULT_PARTITION__");
  EXPECT_TRUE((*r)->network_addresses.empty());  // no files, no blocks
}

TEST_F(TableLoaderTest, ConcurrentLoadsShareThePool) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 5; ++j) {
        auto r = loader.Load("db1", "sales");
        if (r.ok() && (*r)->partitions.size() == 3) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 20);
  EXPECT_EQ(next_id_.load(), 1 + 20 * 3);
}

TEST(LoaderStatsParamsTest, RoundTripAndErrors) {
  std::map<std::string, std::string> params{{"other", "x"}};
  const impala::TPartitionStats stats = SampleStats(9000);
  ASSERT_TRUE(SetStatsParams(stats, &params).ok());
  const int chunks = std::stoi(params.at(kStatsNumChunksParam));
  EXPECT_GE(chunks, 3);
  EXPECT_EQ(params.at(std::string(kStatsChunkParamPrefix) + "0").size(), kStatsChunkChars);
  auto back = GetStatsFromParams(params);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ(**back, stats);

  // Rewriting with smaller stats leaves no stale chunks behind.
  ASSERT_TRUE(SetStatsParams(SampleStats(1), &params).ok());
  EXPECT_EQ(params.at(kStatsNumChunksParam), "1");
  EXPECT_EQ(params.count(std::string(kStatsChunkParamPrefix) + "1"), 0u);

  auto missing = params;
  missing.erase(std::string(kStatsChunkParamPrefix) + "0");
  EXPECT_EQ(GetStatsFromParams(missing).status().code(), ErrorCode::kCorruption);
  auto bad_count = params;
  bad_count[kStatsNumChunksParam] = "x";
  EXPECT_EQ(GetStatsFromParams(bad_count).status().code(), ErrorCode::kCorruption);

  RemoveStatsParams(&params);
  EXPECT_EQ(params, (std::map<std::string, std::string>{{"other", "x"}}));
  auto none = GetStatsFromParams(params);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST(LoaderThreadPoolTest, ParallelForRunsEveryItemOnce) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> hits(1000);
  ASSERT_TRUE(pool.ParallelFor(hits.size(), [&](size_t i) { hits[i]++; }).ok());
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);

  // Concurrent callers share the workers.
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      EXPECT_TRUE(pool.ParallelFor(500, [&](size_t i) { sum += int64_t(i); }).ok());
    });
  }
  for (auto& th : callers) th.join();
  EXPECT_EQ(sum.load(), 4 * (499 * 500 / 2));

  ThreadPool inline_pool(0);
  int n = 0;
  ASSERT_TRUE(inline_pool.ParallelFor(10, [&](size_t) { ++n; }).ok());
  EXPECT_EQ(n, 10);
}

}  // namespace
}  // namespace ics::catalog
