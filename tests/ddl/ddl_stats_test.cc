// UPDATE_STATS and DROP_STATS.
#include "catalogd/loader/partition_stats_params.h"
#include "common/codec/partition_stats.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;
using impala::TDdlType;

impala::TPartitionStats MakeStats(int64_t rows, size_t ndv_bytes) {
  impala::TPartitionStats s;
  s.stats.num_rows = rows;
  s.stats.__set_total_file_bytes(rows * 10);
  impala::TIntermediateColumnStats c;
  // Pseudo-random bytes so the base64 text is long (several chunks).
  std::string ndv(ndv_bytes, '\0');
  uint32_t x = 12345;
  for (char& ch : ndv) {
    x = x * 1103515245 + 12345;
    ch = static_cast<char>(x >> 24);
  }
  c.__set_intermediate_ndv(ndv);
  c.__set_is_ndv_encoded(false);
  c.__set_num_nulls(3);
  c.__set_max_width(8);
  c.__set_avg_width(4.5);
  c.__set_num_rows(rows);
  s.__set_intermediate_col_stats({{"id", c}});
  return s;
}

class DdlStatsTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
    MakePartitionedTable("db", "p");
    ASSERT_TRUE(
        AddPartitions("db", "p",
                      {{Kv("year", "1"), Kv("month", "a")}, {Kv("year", "2"), Kv("month", "b")}})
            .ok());
  }

  impala::TDdlExecRequest UpdateReq(const std::string& table) {
    impala::TDdlExecRequest r = AlterReq("db", table, A::UPDATE_STATS);
    r.alter_table_params.__isset.update_stats_params = true;
    r.alter_table_params.update_stats_params.table_name = Name("db", table);
    return r;
  }
};

TEST_F(DdlStatsTest, UpdateTablePartitionAndColumnStats) {
  TablePtr before = Loaded("db", "p");
  impala::TDdlExecRequest r = UpdateReq("p");
  auto& p = r.alter_table_params.update_stats_params;
  impala::TTableStats ts;
  ts.num_rows = 300;
  ts.__set_total_file_bytes(3000);
  p.__set_table_stats(ts);
  const impala::TPartitionStats big = MakeStats(100, 9000);  // > 4000 base64 chars
  p.__set_partition_stats({{{"1", "a"}, big}, {{"2", "b"}, MakeStats(200, 10)}});
  impala::TColumnStats cs;
  cs.avg_size = 4;
  cs.max_size = 4;
  cs.num_distinct_values = 250;
  cs.num_nulls = 1;
  cs.num_trues = -1;
  cs.num_falses = -1;
  impala::TColumnStats name_stats = cs;
  name_stats.avg_size = 7.5;
  name_stats.max_size = 20;
  p.__set_column_stats({{"ID", cs}, {"name", name_stats}});
  p.__set_is_incremental(true);
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.summary, "Updated 2 partition(s) and 2 column(s).");

  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->version, out.version);
  EXPECT_EQ(t->table_stats.num_rows, 300);
  const PartitionState* p1 = t->FindPartition("year=1/month=a");
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(p1->num_rows(), 100);
  EXPECT_TRUE(p1->has_incremental_stats());
  EXPECT_EQ(p1->prev_id, before->FindPartition("year=1/month=a")->id);
  auto decoded = DecodePartitionStats(p1->partition_stats());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, big);
  EXPECT_EQ(p1->Hms().parameters.count(kStatsNumChunksParam), 0u) << "chunks live compressed";
  ASSERT_EQ(t->column_stats.count("id"), 1u);
  EXPECT_EQ(t->column_stats.at("id").statsData.longStats.numDVs, 250);
  EXPECT_EQ(t->column_stats.at("name").statsData.stringStats.maxColLen, 20);

  // In the metastore: chunked base64 parameters, numRows, column stats.
  auto parts = metastore_->GetPartitionsByNames("db", "p", {"year=1/month=a"});
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 1u);
  const auto& params = parts->at(0).parameters;
  EXPECT_EQ(params.at("numRows"), "100");
  EXPECT_GE(std::stoi(params.at(kStatsNumChunksParam)), 3);
  EXPECT_LE(params.at(std::string(kStatsChunkParamPrefix) + "0").size(), kStatsChunkChars);
  auto from_params = GetStatsFromParams(params);
  ASSERT_TRUE(from_params.ok());
  ASSERT_TRUE(from_params->has_value());
  EXPECT_EQ(**from_params, big);
  EXPECT_EQ(metastore_->GetTable("db", "p")->parameters.at("numRows"), "300");
  auto col_stats = metastore_->GetTableColumnStats("db", "p");
  ASSERT_TRUE(col_stats.ok());
  EXPECT_EQ(col_stats->size(), 2u);

  // A fresh load from the metastore sees the same stats.
  ASSERT_TRUE(loads_->Invalidate("db", "p").ok());
  TablePtr reloaded = Loaded("db", "p");
  auto again = DecodePartitionStats(reloaded->FindPartition("year=1/month=a")->partition_stats());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, big);
  EXPECT_EQ(reloaded->table_stats.num_rows, 300);
}

// DATE columns get Hive's dateStats (as Impala writes them), TIMESTAMP ones
// longStats without bounds.
TEST_F(DdlStatsTest, DateAndTimestampColumnsUseHivesStatsKinds) {
  TableOptions o;
  o.columns = {Col("d", "date"), Col("ts", "timestamp")};
  ASSERT_TRUE(CreateTable("db", "dated", o).ok());
  impala::TDdlExecRequest r = UpdateReq("dated");
  impala::TColumnStats d;
  d.num_distinct_values = 5000000;  // more than there are dates
  d.num_nulls = 2;
  d.avg_size = 4;
  d.max_size = 4;
  d.__isset.low_value = d.__isset.high_value = true;
  d.low_value.__set_date_val(18000);
  d.high_value.__set_date_val(19000);
  impala::TColumnStats ts;
  ts.num_distinct_values = 42;
  ts.num_nulls = 3;
  ts.avg_size = 16;
  ts.max_size = 16;
  r.alter_table_params.update_stats_params.__set_column_stats({{"d", d}, {"ts", ts}});
  ASSERT_DDL_OK(out, Exec(r));
  auto stats = metastore_->GetTableColumnStats("db", "dated");
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->size(), 2u);
  for (const hive::ColumnStatisticsObj& c : *stats) {
    if (c.colName == "d") {
      ASSERT_TRUE(c.statsData.__isset.dateStats);
      EXPECT_EQ(c.statsData.dateStats.numDVs, 3652059);
      EXPECT_EQ(c.statsData.dateStats.numNulls, 2);
      EXPECT_EQ(c.statsData.dateStats.lowValue.daysSinceEpoch, 18000);
      EXPECT_EQ(c.statsData.dateStats.highValue.daysSinceEpoch, 19000);
    } else {
      ASSERT_TRUE(c.statsData.__isset.longStats);
      EXPECT_EQ(c.statsData.longStats.numDVs, 42);
      EXPECT_FALSE(c.statsData.longStats.__isset.lowValue);
    }
  }
}

TEST_F(DdlStatsTest, UnpartitionedTableStatsLiveInTheTable) {
  ASSERT_TRUE(CreateTable("db", "flat").ok());
  impala::TDdlExecRequest r = UpdateReq("flat");
  r.alter_table_params.update_stats_params.__set_partition_stats({{{}, MakeStats(7, 16)}});
  ASSERT_DDL_OK(out, Exec(r));
  TablePtr t = catalog_->GetTable("db", "flat");
  ASSERT_EQ(t->partitions.size(), 1u);
  const PartitionState& root = *t->partitions.begin()->second;
  EXPECT_EQ(root.num_rows(), 7);
  auto decoded = DecodePartitionStats(root.partition_stats());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->stats.num_rows, 7);
  EXPECT_EQ(t->table_stats.num_rows, 7);
  EXPECT_TRUE(GetStatsFromParams(metastore_->GetTable("db", "flat")->parameters)->has_value());
}

TEST_F(DdlStatsTest, UpdateStatsErrors) {
  Loaded("db", "p");
  impala::TDdlExecRequest r = UpdateReq("p");
  r.alter_table_params.update_stats_params.__set_partition_stats({{{"9", "z"}, MakeStats(1, 1)}});
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kNotFound);
  impala::TDdlExecRequest c = UpdateReq("p");
  impala::TColumnStats cs;
  c.alter_table_params.update_stats_params.__set_column_stats({{"nosuch", cs}});
  EXPECT_DDL_FAILS(Exec(c), ErrorCode::kNotFound);
  impala::TDdlExecRequest missing = AlterReq("db", "p", A::UPDATE_STATS);
  EXPECT_DDL_FAILS(Exec(missing), ErrorCode::kInvalidArgument);
}

TEST_F(DdlStatsTest, DropStats) {
  impala::TDdlExecRequest r = UpdateReq("p");
  auto& p = r.alter_table_params.update_stats_params;
  impala::TTableStats ts;
  ts.num_rows = 3;
  p.__set_table_stats(ts);
  p.__set_partition_stats({{{"1", "a"}, MakeStats(1, 8)}, {{"2", "b"}, MakeStats(2, 8)}});
  impala::TColumnStats cs;
  p.__set_column_stats({{"id", cs}});
  ASSERT_TRUE(Exec(r).ok());

  // DROP INCREMENTAL STATS of one partition.
  impala::TDdlExecRequest inc = Req(TDdlType::DROP_STATS);
  impala::TDropStatsParams dp;
  dp.table_name = Name("db", "p");
  dp.__set_partition_set({{Kv("year", "1"), Kv("month", "a")}});
  inc.__set_drop_stats_params(dp);
  ASSERT_DDL_OK(one, Exec(inc));
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_TRUE(t->FindPartition("year=1/month=a")->partition_stats().empty());
  EXPECT_FALSE(t->FindPartition("year=2/month=b")->partition_stats().empty());

  // DROP STATS of the whole table.
  impala::TDdlExecRequest all = Req(TDdlType::DROP_STATS);
  dp.__isset.partition_set = false;
  dp.partition_set.clear();
  all.__set_drop_stats_params(dp);
  ASSERT_DDL_OK(out, Exec(all));
  EXPECT_EQ(out.summary, "Stats have been dropped.");
  t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->table_stats.num_rows, -1);
  EXPECT_TRUE(t->column_stats.empty());
  for (const auto& [id, part] : t->partitions) {
    EXPECT_EQ(part->num_rows(), -1);
    EXPECT_TRUE(part->partition_stats().empty());
  }
  EXPECT_TRUE(metastore_->GetTableColumnStats("db", "p")->empty());
  EXPECT_EQ(metastore_->GetTable("db", "p")->parameters.count("numRows"), 0u);
}

}  // namespace
}  // namespace ics::catalog::testing
