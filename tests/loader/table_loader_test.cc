#include "catalogd/loader/table_loader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/loader/table_load_manager.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "common/types/column_type.h"
#include "tests/loader/fake_file_system.h"
#include "tests/loader/fake_metastore.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using ::ics::testing::TempDir;

void WriteFile(const std::string& path, size_t bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << std::string(bytes, 'x');
}

hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

impala::TPartitionStats SampleStats(size_t ndv_bytes) {
  impala::TPartitionStats stats;
  stats.stats.num_rows = 42;
  impala::TIntermediateColumnStats col;
  col.__set_num_nulls(3);
  col.__set_max_width(8);
  col.__set_intermediate_ndv(std::string(ndv_bytes, '\x05'));
  col.__set_is_ndv_encoded(false);
  stats.__set_intermediate_col_stats({{"id", col}});
  return stats;
}

class TableLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    table_dir_ = tmp_.path() + "/wh/db1.db/sales";
    hive::Table t;
    t.dbName = "db1";
    t.tableName = "sales";
    t.tableType = "MANAGED_TABLE";
    t.sd.location = table_dir_;
    t.sd.cols = {Field("id", "bigint"), Field("amount", "decimal(10,2)"),
                 Field("tags", "array<string>")};
    t.sd.cols[0].comment = "row id";
    t.partitionKeys = {Field("year", "int"), Field("month", "string")};
    t.parameters["numRows"] = "1000";
    t.parameters["totalSize"] = "999999";
    ms_.PutTable(t);

    // year=2024/month=01: files in the default location.
    hive::Partition p1 = Partition({"2024", "01"});
    p1.parameters["numRows"] = "600";
    ASSERT_TRUE(SetStatsParams(SampleStats(5000), &p1.parameters).ok());
    ASSERT_TRUE(ms_.PutPartition(p1).ok());
    WriteFile(table_dir_ + "/year=2024/month=01/000000_0", 300);
    WriteFile(table_dir_ + "/year=2024/month=01/000001_0.gz", 100);
    WriteFile(table_dir_ + "/year=2024/month=01/_SUCCESS", 0);
    WriteFile(table_dir_ + "/year=2024/month=01/.000000_0.crc", 12);

    // year=2024/month=02: an explicit location outside the table directory.
    external_dir_ = tmp_.path() + "/ext/y/m2";
    hive::Partition p2 = Partition({"2024", "02"});
    p2.sd.location = external_dir_;
    ASSERT_TRUE(ms_.PutPartition(p2).ok());
    WriteFile(external_dir_ + "/data.snappy", 50);

    // year=2025/month=a/b: value needing escaping; its directory is missing.
    ASSERT_TRUE(ms_.PutPartition(Partition({"2025", "a/b"})).ok());

    hive::ColumnStatisticsObj cs;
    cs.colName = "id";
    cs.colType = "bigint";
    ms_.PutTableColumnStats("db1", "sales", {cs});
  }

  hive::Partition Partition(std::vector<std::string> values) {
    hive::Partition p;
    p.dbName = "db1";
    p.tableName = "sales";
    p.values = std::move(values);
    return p;
  }

  LoaderOptions Options() {
    LoaderOptions o;
    o.num_threads = 3;
    o.block_size = 128;
    o.host = "node1";
    return o;
  }

  TempDir tmp_;
  std::string table_dir_;
  std::string external_dir_;
  FakeMetastore ms_;
  // The test files, seen as an HDFS-like store would be (with blocks);
  // local_ alone is what catalogd lists on a local warehouse.
  LocalFileSystem local_;
  WithBlockLocations fs_{&local_};
  std::atomic<int64_t> next_id_{1};
};

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

TEST_F(TableLoaderTest, ReloadKeepsUnchangedPartitions) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto a = loader.Load("db1", "sales");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  // Nothing changed: every partition is the previous state itself.
  auto b = loader.Load("db1", "sales", a->get());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*b)->partitions.size(), 3u);
  for (const auto& [id, p] : (*b)->partitions) {
    ASSERT_EQ((*a)->partitions.count(id), 1u) << p->name();
    EXPECT_EQ((*a)->partitions.at(id).get(), p.get()) << p->name();
  }
  // A new file in one partition, a new parameter on another: those two get
  // new ids that point back at the old ones; the third is kept.
  WriteFile(table_dir_ + "/year=2024/month=01/000002_0", 7);
  hive::Partition p2 = Partition({"2024", "02"});
  p2.sd.location = external_dir_;
  p2.parameters["owner_note"] = "x";
  ASSERT_TRUE(ms_.PutPartition(p2).ok());
  auto c = loader.Load("db1", "sales", b->get());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const PartitionState* jan_old = (*b)->FindPartition("year=2024/month=01");
  const PartitionState* jan = (*c)->FindPartition("year=2024/month=01");
  const PartitionState* feb_old = (*b)->FindPartition("year=2024/month=02");
  const PartitionState* feb = (*c)->FindPartition("year=2024/month=02");
  const PartitionState* ab_old = (*b)->FindPartition("year=2025/month=a%2Fb");
  const PartitionState* ab = (*c)->FindPartition("year=2025/month=a%2Fb");
  ASSERT_TRUE(jan && jan_old && feb && feb_old && ab && ab_old);
  EXPECT_NE(jan->id, jan_old->id);
  EXPECT_EQ(jan->prev_id, jan_old->id);
  EXPECT_EQ(jan->file_descs.size(), jan_old->file_descs.size() + 1);
  EXPECT_NE(feb->id, feb_old->id);
  EXPECT_EQ(feb->prev_id, feb_old->id);
  EXPECT_EQ(ab, ab_old);
  // An unloaded previous state is no base.
  auto unloaded = MakeUnloadedTable("db1", "sales");
  auto d = loader.Load("db1", "sales", unloaded.get());
  ASSERT_TRUE(d.ok());
  for (const auto& [id, p] : (*d)->partitions) EXPECT_EQ((*c)->partitions.count(id), 0u);
}

// With a metastore that names and digests partitions before decoding them
// (as the SQL metastores do), a reload decodes only the partitions whose
// stored form changed; the others are re-listed only, and a changed
// listing still gives a new state.
TEST_F(TableLoaderTest, ReloadDecodesOnlyChangedStoredPartitions) {
  ms_.UseStoredForm(true);
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto a = loader.Load("db1", "sales");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ms_.decodes(), 3);
  for (const auto& [id, p] : (*a)->partitions) EXPECT_NE(p->source_digest(), 0u) << p->name();

  auto b = loader.Load("db1", "sales", a->get());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(ms_.decodes(), 3) << "an unchanged table is not decoded again";
  for (const auto& [id, p] : (*b)->partitions) {
    EXPECT_EQ((*a)->partitions.at(id).get(), p.get()) << p->name();
  }

  // A new file in January (metastore unchanged), a new parameter on
  // February (stored form changed).
  WriteFile(table_dir_ + "/year=2024/month=01/000002_0", 7);
  hive::Partition feb = Partition({"2024", "02"});
  feb.sd.location = external_dir_;
  feb.parameters["owner_note"] = "x";
  ASSERT_TRUE(ms_.PutPartition(feb).ok());
  auto c = loader.Load("db1", "sales", b->get());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(ms_.decodes(), 4) << "only February is decoded";
  const PartitionState* jan_old = (*b)->FindPartition("year=2024/month=01");
  const PartitionState* jan = (*c)->FindPartition("year=2024/month=01");
  const PartitionState* feb_old = (*b)->FindPartition("year=2024/month=02");
  const PartitionState* feb_new = (*c)->FindPartition("year=2024/month=02");
  ASSERT_TRUE(jan && jan_old && feb_old && feb_new);
  EXPECT_EQ(jan->prev_id, jan_old->id);
  EXPECT_EQ(jan->file_descs.size(), jan_old->file_descs.size() + 1);
  EXPECT_EQ(jan->source_digest(), jan_old->source_digest());
  EXPECT_EQ(feb_new->prev_id, feb_old->id);
  EXPECT_EQ(feb_new->hms_parameters().ToMap().at("owner_note"), "x");
  EXPECT_NE(feb_new->source_digest(), feb_old->source_digest());
  EXPECT_EQ((*c)->table_stats.total_file_bytes, (*b)->table_stats.total_file_bytes + 7);

  // A copy made to be changed (a DDL) carries no digest, so the next
  // reload decodes it rather than trusting what it was built from.
  EXPECT_EQ(NewPartition(*jan)->source_digest(), 0u);

  // A partition added by a DDL has no digest yet: the reload decodes it,
  // keeps its id and version, and remembers the digest for the next one.
  WriteFile(table_dir_ + "/year=2030/month=12/x.lz4", 5);
  ASSERT_TRUE(ms_.PutPartition(Partition({"2030", "12"})).ok());
  std::shared_ptr<TableState> d = std::make_shared<TableState>(**c);
  auto added = loader.LoadPartition(*d, Partition({"2030", "12"}));
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  (*added)->added_version = 9;
  d->partitions.emplace((*added)->id, *added);
  loader.FinishTableState(d.get(), c->get());
  EXPECT_EQ((*added)->source_digest(), 0u);
  const int64_t before = ms_.decodes();
  auto e = loader.Load("db1", "sales", d.get());
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1);
  const PartitionState* dec = (*e)->FindPartition("year=2030/month=12");
  ASSERT_NE(dec, nullptr);
  EXPECT_EQ(dec->id, (*added)->id);
  EXPECT_EQ(dec->added_version, 9);
  EXPECT_NE(dec->source_digest(), 0u);
  EXPECT_EQ((*e)->partitions.size(), 4u);
  auto f = loader.Load("db1", "sales", e->get());
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1);
  EXPECT_EQ((*f)->FindPartition("year=2030/month=12"), dec);

  // A moved table: partitions derive their directories from its location,
  // so everything is decoded again.
  hive::Table moved = ms_.GetTable("db1", "sales").value();
  moved.sd.location = table_dir_ + "/../moved";
  ms_.PutTable(moved);
  auto g = loader.Load("db1", "sales", f->get());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(ms_.decodes(), before + 1 + 4);
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

TEST_F(TableLoaderTest, LoadPartitionAndRefresh) {
  TableLoader loader(&ms_, &fs_, Options(), &next_id_);
  auto r = loader.Load("db1", "sales");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::shared_ptr<TableState> t = *r;

  // A new partition (ADD PARTITION / INSERT).
  WriteFile(table_dir_ + "/year=2030/month=12/x.lz4", 5);
  auto added = loader.LoadPartition(*t, Partition({"2030", "12"}));
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ((*added)->name(), "year=2030/month=12");
  EXPECT_EQ((*added)->prev_id, -1);
  EXPECT_EQ((*added)->file_descs.size(), 1u);
  EXPECT_EQ(t->partitions.count((*added)->id), 0u);
  t->partitions.emplace((*added)->id, *added);
  loader.FinishTableState(t.get());
  EXPECT_EQ(t->FindPartition("year=2030/month=12"), added->get());
  EXPECT_EQ(t->table_stats.total_file_bytes, 455);

  // Unchanged directory: the same object comes back.
  const int64_t old_id = t->partitions_by_name.Find("year=2024/month=01")->id;
  PartitionPtr old = t->partitions.at(old_id);
  auto same = loader.RefreshPartition(old);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->get(), old.get());

  // A new file: a new partition object replacing the old one.
  WriteFile(old->location() + "/000002_0", 20);
  auto changed = loader.RefreshPartition(old);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  const PartitionState& np = **changed;
  EXPECT_NE(&np, old.get());
  EXPECT_NE(np.id, old->id);
  EXPECT_EQ(np.prev_id, old->id);
  EXPECT_EQ(np.added_version, 0);
  EXPECT_EQ(np.name(), old->name());
  EXPECT_EQ(np.file_descs.size(), 3u);
  EXPECT_EQ(np.total_file_bytes(), 420);
  EXPECT_EQ(np.partition_stats(), old->partition_stats());
  EXPECT_TRUE(np.has_incremental_stats());
  EXPECT_EQ(np.num_rows(), old->num_rows());

  // A rewritten file (same name, new size) is a change too.
  auto again = loader.RefreshPartition(*changed);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), changed->get());
  WriteFile(old->location() + "/000002_0", 21);
  auto rewritten = loader.RefreshPartition(*changed);
  ASSERT_TRUE(rewritten.ok());
  EXPECT_NE(rewritten->get(), changed->get());
  EXPECT_EQ((*rewritten)->total_file_bytes(), 421);

  // Writing back: the stripped stats chunks are restored.
  auto written = PartitionForMetastore(**rewritten);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->values, old->values());
  EXPECT_EQ(written->parameters.at("numRows"), "600");
  auto back = GetStatsFromParams(written->parameters);
  ASSERT_TRUE(back.ok() && back->has_value());
  EXPECT_EQ(**back, SampleStats(5000));
  auto plain = PartitionForMetastore(**added);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->parameters.count(kStatsNumChunksParam), 0u);
}

// As Impala describes files of a store without block locations (a local
// filesystem): no blocks, no hosts; lengths and times as listed.
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
