// TableService: column statistics of tables and partitions.
#include "tests/mds/table_test_util.h"

namespace ics::catalog::testing {
namespace {

hive::ColumnStatisticsObj LongStats(const std::string& col, int64_t ndv,
                                    const std::string& type = "") {
  hive::ColumnStatisticsObj o;
  o.colName = col;
  o.colType = type;
  hive::LongColumnStatsData d;
  d.numNulls = 0;
  d.numDVs = ndv;
  o.statsData.__set_longStats(d);
  return o;
}

class StatsTest : public TableServiceTest {
 protected:
  void SetUp() override {
    TableServiceTest::SetUp();
    MakeDbAndTables("db", {"t"});
    MakePartitionedTable("db", "p", "2024", "jan");
  }

  Result<std::vector<thrift::TColumnError>> Put(const std::string& table,
                                                std::vector<hive::ColumnStatisticsObj> stats,
                                                std::vector<std::string> part = {}) {
    thrift::TUpdateColumnStatisticsRequest r;
    r.db_name = "db";
    r.table_name = table;
    r.column_statistics = std::move(stats);
    if (!part.empty()) r.__set_partition_values(part);
    return service_->UpdateColumnStatistics(r);
  }

  Result<thrift::TGetColumnStatisticsResponse> Fetch(const std::string& table,
                                                      std::vector<std::string> cols,
                                                      std::vector<std::string> part = {}) {
    thrift::TGetColumnStatisticsRequest r;
    r.db_name = "db";
    r.table_name = table;
    r.column_names = std::move(cols);
    if (!part.empty()) r.__set_partition_values(part);
    return service_->GetColumnStatistics(r);
  }

  Status Delete(const std::string& table, const std::string& col,
                std::vector<std::string> part = {}) {
    thrift::TDeleteColumnStatisticsRequest r;
    r.db_name = "db";
    r.table_name = table;
    r.column_name = col;
    if (!part.empty()) r.__set_partition_values(part);
    return service_->DeleteColumnStatistics(r);
  }
};

TEST_F(StatsTest, TableStatsRoundTripInOneVersion) {
  const int64_t before = catalog_->version();
  auto errors = Put("t", {LongStats("ID", 42, "INT"), LongStats("nope", 1),
                          LongStats("name", 3, "int")});
  ASSERT_RESULT_OK(errors);
  ASSERT_EQ(errors->size(), 2u);  // unknown column; wrong type for "name" (a string)
  EXPECT_EQ((*errors)[0].column_name, "nope");
  EXPECT_EQ((*errors)[0].error.code, TTS::NOT_FOUND);
  EXPECT_EQ((*errors)[1].error.code, TTS::INVALID_ARGUMENT);
  EXPECT_EQ(catalog_->version(), before + 1);
  // The catalog's table state has the stats.
  TablePtr state = catalog_->GetTable("db", "t");
  ASSERT_NE(state, nullptr);
  ASSERT_EQ(state->column_stats.count("id"), 1u);
  EXPECT_EQ(state->column_stats.at("id").statsData.longStats.numDVs, 42);

  auto got = Fetch("t", {"Id", "name", "ghost"});
  ASSERT_RESULT_OK(got);
  ASSERT_EQ(got->column_statistics.size(), 1u);
  EXPECT_EQ(got->column_statistics[0].colName, "id");
  EXPECT_EQ(got->column_statistics[0].colType, "int");
  ASSERT_EQ(got->errors.size(), 2u);  // name: no stats; ghost: no such column
  EXPECT_EQ(got->errors[0].error.code, TTS::NOT_FOUND);

  EXPECT_STATUS_CODE(Delete("t", "ID"), ErrorCode::kOk);
  EXPECT_EQ(catalog_->GetTable("db", "t")->column_stats.count("id"), 0u);
  EXPECT_STATUS_CODE(Delete("t", "id"), ErrorCode::kNotFound);
  EXPECT_STATUS_CODE(Delete("t", "ghost"), ErrorCode::kNotFound);
  EXPECT_STATUS_CODE(Delete("t", ""), ErrorCode::kInvalidArgument);
}

TEST_F(StatsTest, PartitionStats) {
  const std::vector<std::string> part = {"2024", "jan"};
  auto errors = Put("p", {LongStats("id", 7)}, part);
  ASSERT_RESULT_OK(errors);
  EXPECT_TRUE(errors->empty());
  auto got = Fetch("p", {"id"}, part);
  ASSERT_RESULT_OK(got);
  ASSERT_EQ(got->column_statistics.size(), 1u);
  EXPECT_EQ(got->column_statistics[0].statsData.longStats.numDVs, 7);
  // Table-level stats of that column are separate.
  auto table_level = Fetch("p", {"id"});
  ASSERT_RESULT_OK(table_level);
  EXPECT_TRUE(table_level->column_statistics.empty());

  EXPECT_CODE(Fetch("p", {"id"}, {"2025", "jan"}), ErrorCode::kNotFound);  // no partition
  EXPECT_CODE(Fetch("p", {"id"}, {"2024"}), ErrorCode::kInvalidArgument);  // too few values
  EXPECT_CODE(Fetch("t", {"id"}, {"x"}), ErrorCode::kInvalidArgument);     // unpartitioned
  EXPECT_CODE(Put("p", {LongStats("id", 1)}, {"2025", "jan"}), ErrorCode::kNotFound);
  EXPECT_STATUS_CODE(Delete("p", "id", part), ErrorCode::kOk);
  EXPECT_STATUS_CODE(Delete("p", "id", part), ErrorCode::kNotFound);
}

TEST_F(StatsTest, RepeatedColumnNamesAreAnsweredOnce) {
  ASSERT_RESULT_OK(Put("t", {LongStats("id", 42)}));
  auto got = Fetch("t", {"id", "ID", "ghost", "Id", "ghost", "id", "GHOST"});
  ASSERT_RESULT_OK(got);
  ASSERT_EQ(got->column_statistics.size(), 1u);
  EXPECT_EQ(got->column_statistics[0].colName, "id");
  ASSERT_EQ(got->errors.size(), 1u);  // ghost, once
  EXPECT_EQ(got->errors[0].column_name, "ghost");
}

TEST_F(StatsTest, Limits) {
  std::vector<std::string> cols(101, "id");
  EXPECT_CODE(Fetch("t", cols), ErrorCode::kLimitExceeded);
  std::vector<hive::ColumnStatisticsObj> many(26, LongStats("id", 1));
  const int64_t before = catalog_->version();
  EXPECT_CODE(Put("t", many), ErrorCode::kLimitExceeded);
  EXPECT_EQ(catalog_->version(), before);
  EXPECT_CODE(Fetch("nope", {"id"}), ErrorCode::kNotFound);
  hive::ColumnStatisticsObj empty = LongStats("id", 1);
  empty.statsData = hive::ColumnStatisticsData();
  auto errors = Put("t", {empty});
  ASSERT_RESULT_OK(errors);
  ASSERT_EQ(errors->size(), 1u);
  EXPECT_EQ(catalog_->version(), before);  // nothing valid: no change, no version
}

}  // namespace
}  // namespace ics::catalog::testing
