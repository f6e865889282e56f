// TableLoaderTest: the loader tests' fixture. A FakeMetastore holding
// db1.sales, partitioned by (year int, month string), with three partitions:
//  - year=2024/month=01: two data files (300 and 100 bytes) and two hidden
//    ones in the default location, a numRows and incremental stats;
//  - year=2024/month=02: an explicit location outside the table directory,
//    one 50-byte file;
//  - year=2025/month=a%2Fb: a value that needs escaping; no directory.
// Files are real (a temp dir) and seen as a store with block locations
// (fs_), or as the local filesystem (local_).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/loader/table_loader.h"
#include "tests/loader/fake_file_system.h"
#include "tests/loader/fake_metastore.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {

inline void WriteFile(const std::string& path, size_t bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << std::string(bytes, 'x');
}

inline hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

inline impala::TPartitionStats SampleStats(size_t ndv_bytes) {
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

  // A new 7-byte file in January's directory (its metastore form
  // unchanged) and a new parameter on February (its metastore form changed).
  void AddJanuaryFileAndFebruaryParameter() {
    WriteFile(table_dir_ + "/year=2024/month=01/000002_0", 7);
    hive::Partition feb = Partition({"2024", "02"});
    feb.sd.location = external_dir_;
    feb.parameters["owner_note"] = "x";
    ASSERT_TRUE(ms_.PutPartition(feb).ok());
  }

  LoaderOptions Options() {
    LoaderOptions o;
    o.num_threads = 3;
    o.block_size = 128;
    o.host = "node1";
    return o;
  }

  ::ics::testing::TempDir tmp_;
  std::string table_dir_;
  std::string external_dir_;
  FakeMetastore ms_;
  // The test files, seen as an HDFS-like store would be (with blocks);
  // local_ alone is what catalogd lists on a local warehouse.
  LocalFileSystem local_;
  WithBlockLocations fs_{&local_};
  std::atomic<int64_t> next_id_{1};
};

}  // namespace ics::catalog
