// COMPUTE [INCREMENTAL] STATS: scans real text files and sends
// ALTER TABLE UPDATE_STATS (ExecComputeStats* suites).
#include <filesystem>

#include "common/codec/partition_stats.h"
#include "coordinator-sim/exec/stats_scanner.h"
#include "coordinator-sim/exec/text_data.h"
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

namespace fs = std::filesystem;

class ExecComputeStatsTest : public ExecTest {
 protected:
  ExecComputeStatsTest() {
    root_ = tmp_.path();
    cat().AddTable("db1", "p", {{"id", "int"}, {"s", "string"}}, {{"year", "int"}}, root_ + "/p");
    AddPartitionWithData("year=2024", {"2024"},
                         {{"1", "aa"}, {"2", "bbbb"}, {"3", std::nullopt}});
    AddPartitionWithData("year=2025", {"2025"}, {{"4", "aa"}, {"5", "c"}});
    cat().AddTable("db1", "t", {{"a", "bigint"}, {"flag", "boolean"}}, {}, root_ + "/t");
    const std::string name =
        WriteTextDataFile(root_ + "/t", "test", {{"1", "true"}, {"2", "false"}, {"2", "true"}}).value();
    LocalPartition* rootp = cat().FindPartition("db1", "t", "");
    FileDescInfo info;
    info.relative_path = name;
    info.length = static_cast<int64_t>(fs::file_size(root_ + "/t/" + name));
    rootp->file_descs.push_back(BuildFileDesc(info));
  }

  LocalPartition& AddPartitionWithData(const std::string& name, std::vector<std::string> values,
                                       const std::vector<TextRow>& rows) {
    const std::string dir = root_ + "/p/" + name;
    const std::string file = WriteTextDataFile(dir, "test", rows).value();
    return cat().AddPartition("db1", "p", name, std::move(values), dir,
                              {{file, static_cast<int64_t>(fs::file_size(dir + "/" + file))}});
  }

  const impala::TAlterTableUpdateStatsParams& LastUpdate() {
    const auto& req = backend_.ddl_requests.back();
    EXPECT_EQ(req.ddl_type, impala::TDdlType::ALTER_TABLE);
    EXPECT_EQ(req.alter_table_params.alter_type, impala::TAlterTableType::UPDATE_STATS);
    EXPECT_TRUE(req.alter_table_params.__isset.update_stats_params);
    return req.alter_table_params.update_stats_params;
  }

  TempDir tmp_;
  std::string root_;
};

TEST_F(ExecComputeStatsTest, FullStatsOfPartitionedTable) {
  backend_.summary = "Updated 2 partition(s) and 2 column(s).";
  StatementResult r = MustRun("COMPUTE STATS db1.p");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Updated 2 partition(s) and 2 column(s)."});
  const auto& u = LastUpdate();
  EXPECT_EQ(u.table_name.db_name, "db1");
  EXPECT_EQ(u.table_name.table_name, "p");
  EXPECT_EQ(u.table_stats.num_rows, 5);
  EXPECT_TRUE(u.expect_all_partitions);
  EXPECT_FALSE(u.is_incremental);
  ASSERT_EQ(u.partition_stats.size(), 2u);
  const auto& p24 = u.partition_stats.at({"2024"});
  EXPECT_EQ(p24.stats.num_rows, 3);
  EXPECT_TRUE(p24.intermediate_col_stats.empty());  // non-incremental: row counts only
  EXPECT_EQ(u.partition_stats.at({"2025"}).stats.num_rows, 2);
  ASSERT_EQ(u.column_stats.size(), 2u);  // no stats for the partition column
  const impala::TColumnStats& id = u.column_stats.at("id");
  EXPECT_EQ(id.num_distinct_values, 5);
  EXPECT_EQ(id.num_nulls, 0);
  EXPECT_EQ(id.max_size, 4);
  const impala::TColumnStats& s = u.column_stats.at("s");
  EXPECT_EQ(s.num_distinct_values, 3);  // aa, bbbb, c
  EXPECT_EQ(s.num_nulls, 1);
  EXPECT_EQ(s.max_size, 4);
  EXPECT_DOUBLE_EQ(s.avg_size, 9.0 / 4.0);
}

TEST_F(ExecComputeStatsTest, UnpartitionedTableAndColumnList) {
  MustRun("COMPUTE STATS db1.t (flag)");
  const auto& u = LastUpdate();
  EXPECT_EQ(u.table_stats.num_rows, 3);
  EXPECT_FALSE(u.__isset.partition_stats);
  ASSERT_EQ(u.column_stats.size(), 1u);
  EXPECT_EQ(u.column_stats.at("flag").num_trues, 2);
  EXPECT_EQ(u.column_stats.at("flag").num_falses, 1);
}

TEST_F(ExecComputeStatsTest, IncrementalReusesStoredStats) {
  // year=2024 already has incremental stats (as a previous run stored them).
  LocalPartition* p24 = cat().FindPartition("db1", "p", "year=2024");
  std::vector<ScanColumn> cols = {{"id", ParseHiveType("int").value()},
                                  {"s", ParseHiveType("string").value()}};
  impala::TPartitionStats stored =
      ComputePartitionScan({p24->location + "/" + ToFileDescInfo(*ReadFileDesc(p24->file_descs[0]).value()).relative_path},
                           cols, '\x01')
          .value();
  stored.stats.num_rows = 1000;  // so reuse is visible
  p24->partition_stats = EncodePartitionStats(stored).value();
  p24->has_incremental_stats = true;

  MustRun("COMPUTE INCREMENTAL STATS db1.p");
  const auto& u = LastUpdate();
  EXPECT_TRUE(u.is_incremental);
  EXPECT_FALSE(u.expect_all_partitions);
  ASSERT_EQ(u.partition_stats.size(), 1u);  // only year=2025 was scanned
  const auto& p25 = u.partition_stats.at({"2025"});
  EXPECT_EQ(p25.stats.num_rows, 2);
  EXPECT_EQ(p25.intermediate_col_stats.size(), 2u);
  EXPECT_EQ(u.table_stats.num_rows, 1002);
  EXPECT_EQ(u.column_stats.at("s").num_distinct_values, 3);

  // With a PARTITION clause the named partition is rescanned even with stats.
  MustRun("COMPUTE INCREMENTAL STATS db1.p PARTITION (year=2024)");
  const auto& u2 = LastUpdate();
  ASSERT_EQ(u2.partition_stats.size(), 1u);
  EXPECT_EQ(u2.partition_stats.at({"2024"}).stats.num_rows, 3);
}

TEST_F(ExecComputeStatsTest, Errors) {
  cat().AddView("db1", "v", {{"id", "int"}}, "SELECT 1");
  cat().AddTable("db1", "pq", {{"a", "int"}}, {}, root_ + "/pq", impala::THdfsFileFormat::PARQUET);
  EXPECT_EQ(Error("COMPUTE STATS db1.v"), "COMPUTE STATS not supported for view: db1.v");
  EXPECT_NE(Error("COMPUTE STATS db1.pq").find("only TEXTFILE"), std::string::npos);
  EXPECT_EQ(Error("COMPUTE STATS db1.p (nope)"), "Column 'nope' not found in db1.p");
  EXPECT_EQ(Error("COMPUTE STATS db1.p (year)"),
            "COMPUTE STATS not supported for partitioning column year of table db1.p");
  EXPECT_EQ(Error("COMPUTE INCREMENTAL STATS db1.p PARTITION (year=1)"),
            "No matching partition(s) found: (year=1)");
  EXPECT_EQ(Error("COMPUTE STATS db1.nope"), "Table does not exist: db1.nope");
}

}  // namespace
}  // namespace ics::coord::testing
