// HMS endpoint over a raw client: column statistics calls and their errors.
#include <tuple>

#include "tests/hms/hms_test_util.h"

namespace ics::catalog::hms::testing {
namespace {

using hive::InvalidInputException;
using hive::MetaException;
using hive::NoSuchObjectException;

hive::ColumnStatisticsObj LongStats(const std::string& col, int64_t lo, int64_t hi, int64_t nulls,
                                    int64_t ndv) {
  hive::ColumnStatisticsObj obj;
  obj.colName = col;
  obj.colType = "bigint";
  hive::LongColumnStatsData d;
  d.__set_lowValue(lo);
  d.__set_highValue(hi);
  d.numNulls = nulls;
  d.numDVs = ndv;
  obj.statsData.__set_longStats(d);
  return obj;
}

hive::ColumnStatisticsObj StringStats(const std::string& col, int64_t maxlen, double avglen,
                                      int64_t nulls, int64_t ndv) {
  hive::ColumnStatisticsObj obj;
  obj.colName = col;
  obj.colType = "string";
  hive::StringColumnStatsData d;
  d.maxColLen = maxlen;
  d.avgColLen = avglen;
  d.numNulls = nulls;
  d.numDVs = ndv;
  obj.statsData.__set_stringStats(d);
  return obj;
}

hive::ColumnStatistics Stats(const std::string& part, std::vector<hive::ColumnStatisticsObj> objs) {
  hive::ColumnStatistics cs;
  cs.statsDesc.isTblLevel = part.empty();
  cs.statsDesc.dbName = "db";
  cs.statsDesc.tableName = "t";
  if (!part.empty()) cs.statsDesc.__set_partName(part);
  cs.statsObj = std::move(objs);
  return cs;
}

class HmsStatsTest : public HmsEndpointTest {
 protected:
  void SetUp() override {
    HmsEndpointTest::SetUp();
    if (HasFatalFailure()) return;
    hms().create_database(Db("db"));
    hms().create_table(Table("db", "t", {"p"}));
    hive::Partition p;
    for (const char* v : {"a", "b", "c"}) hms().append_partition(p, "db", "t", {v});
  }
};

TEST_F(HmsStatsTest, TableLevelUpdateGetDelete) {
  EXPECT_TRUE(hms().update_table_column_statistics(
      Stats("", {LongStats("ID", 1, 100, 0, 90), StringStats("name", 10, 4.5, 2, 50)})));
  hive::ColumnStatistics got;
  hms().get_table_column_statistics(got, "db", "t", "id");
  EXPECT_TRUE(got.statsDesc.isTblLevel);
  ASSERT_EQ(got.statsObj.size(), 1u);
  EXPECT_EQ(got.statsObj[0].colName, "id");
  EXPECT_EQ(got.statsObj[0].statsData.longStats.highValue, 100);

  hive::TableStatsRequest req;
  req.dbName = "db";
  req.tblName = "t";
  req.colNames = {"name", "id", "nostats"};
  hive::TableStatsResult res;
  hms().get_table_statistics_req(res, req);
  ASSERT_EQ(res.tableStats.size(), 2u);  // ordered by column name
  EXPECT_EQ(res.tableStats[0].colName, "id");
  EXPECT_EQ(res.tableStats[1].colName, "name");

  // Upsert replaces one column's statistics.
  hms().update_table_column_statistics(Stats("", {LongStats("id", 5, 6, 0, 2)}));
  hms().get_table_column_statistics(got, "db", "t", "id");
  EXPECT_EQ(got.statsObj[0].statsData.longStats.numDVs, 2);

  // Errors.
  EXPECT_HMS_ERROR(hms().update_table_column_statistics(Stats("", {LongStats("zzz", 1, 2, 0, 1)})),
                   NoSuchObjectException, "Column does not exist: zzz in db.t");
  EXPECT_HMS_ERROR(hms().update_table_column_statistics(Stats("p=a", {LongStats("id", 1, 2, 0, 1)})),
                   InvalidInputException, "isTblLevel=true");
  hive::ColumnStatisticsObj empty;
  empty.colName = "id";
  empty.colType = "bigint";
  EXPECT_HMS_ERROR(hms().update_table_column_statistics(Stats("", {empty})), InvalidInputException,
                   "carry no data");
  hive::ColumnStatistics other = Stats("", {LongStats("id", 1, 2, 0, 1)});
  other.statsDesc.tableName = "nope";
  EXPECT_HMS_ERROR(hms().update_table_column_statistics(other), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_table_column_statistics(got, "db", "t", "nostats"),
                   NoSuchObjectException, "nostats");
  EXPECT_HMS_ERROR(hms().get_table_column_statistics(got, "db", "nope", "id"),
                   NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_table_column_statistics(got, "db", "t", "a.b"), InvalidInputException,
                   "Invalid column name");
  req.tblName = "nope";
  EXPECT_HMS_ERROR(hms().get_table_statistics_req(res, req), NoSuchObjectException, "nope");

  // Delete one column, then all the rest; partition statistics stay, and the
  // deletion is one DELETE_TABLE_COLUMN_STAT event.
  hms().update_partition_column_statistics(Stats("p=a", {LongStats("id", 1, 2, 0, 1)}));
  const int64_t before = CurrentEventId();
  EXPECT_TRUE(hms().delete_table_column_statistics("db", "t", "ID", "impala"));
  EXPECT_EQ(EventTypesAfter(before), (std::vector<std::string>{"DELETE_TABLE_COLUMN_STAT"}));
  hms().get_partition_column_statistics(got, "db", "t", "p=a", "id");
  EXPECT_HMS_ERROR(hms().get_table_column_statistics(got, "db", "t", "id"), NoSuchObjectException,
                   "id");
  hms().get_table_column_statistics(got, "db", "t", "name");
  EXPECT_HMS_ERROR(hms().delete_table_column_statistics("db", "t", "id", "impala"), NoSuchObjectException,
                   "column 'id'");
  hms().update_table_column_statistics(Stats("", {LongStats("id", 1, 2, 0, 1)}));
  EXPECT_TRUE(hms().delete_table_column_statistics("db", "t", "", "impala"));
  req.tblName = "t";
  hms().get_table_statistics_req(res, req);
  EXPECT_TRUE(res.tableStats.empty());
  EXPECT_HMS_ERROR(hms().delete_table_column_statistics("db", "nope", "id", "impala"), NoSuchObjectException,
                   "nope");
}

TEST_F(HmsStatsTest, PartitionLevelUpdateGetAggregateDelete) {
  hms().update_partition_column_statistics(
      Stats("p=a", {LongStats("id", 1, 10, 1, 10), StringStats("name", 5, 2.0, 0, 7)}));
  hms().update_partition_column_statistics(
      Stats("p=b", {LongStats("id", -5, 3, 2, 8), StringStats("name", 9, 3.5, 4, 3)}));
  hms().update_partition_column_statistics(Stats("p=c", {LongStats("id", 0, 50, 0, 20)}));

  hive::ColumnStatistics got;
  hms().get_partition_column_statistics(got, "db", "t", "p=b", "name");
  EXPECT_FALSE(got.statsDesc.isTblLevel);
  EXPECT_EQ(got.statsDesc.partName, "p=b");
  EXPECT_EQ(got.statsObj.at(0).statsData.stringStats.maxColLen, 9);

  hive::PartitionsStatsRequest req;
  req.dbName = "db";
  req.tblName = "t";
  req.colNames = {"id", "name"};
  req.partNames = {"p=a", "p=b", "p=c", "p=zz"};
  hive::PartitionsStatsResult res;
  hms().get_partitions_statistics_req(res, req);
  ASSERT_EQ(res.partStats.size(), 3u);
  EXPECT_EQ(res.partStats.at("p=a").size(), 2u);
  EXPECT_EQ(res.partStats.at("p=c").size(), 1u);

  hive::AggrStats aggr;
  hms().get_aggr_stats_for(aggr, req);
  EXPECT_EQ(aggr.partsFound, 2);  // p=c lacks "name"
  ASSERT_EQ(aggr.colStats.size(), 2u);
  const auto& id = aggr.colStats[0].statsData.longStats;
  EXPECT_EQ(aggr.colStats[0].colName, "id");
  EXPECT_EQ(id.lowValue, -5);
  EXPECT_EQ(id.highValue, 50);
  EXPECT_EQ(id.numNulls, 3);
  EXPECT_EQ(id.numDVs, 20);
  const auto& name = aggr.colStats[1].statsData.stringStats;
  EXPECT_EQ(name.maxColLen, 9);
  EXPECT_DOUBLE_EQ(name.avgColLen, 3.5);
  EXPECT_EQ(name.numNulls, 4);

  // A column whose kind differs between partitions cannot be aggregated.
  hive::ColumnStatisticsObj as_double;
  as_double.colName = "id";
  as_double.colType = "double";
  hive::DoubleColumnStatsData dd;
  dd.numNulls = 0;
  dd.numDVs = 1;
  as_double.statsData.__set_doubleStats(dd);
  hms().update_partition_column_statistics(Stats("p=c", {as_double}));
  EXPECT_HMS_ERROR(hms().get_aggr_stats_for(aggr, req), MetaException, "different kinds");

  // Errors.
  EXPECT_HMS_ERROR(hms().update_partition_column_statistics(Stats("p=zz", {LongStats("id", 1, 2, 0, 1)})),
                   NoSuchObjectException, "p=zz");
  EXPECT_HMS_ERROR(hms().update_partition_column_statistics(Stats("", {LongStats("id", 1, 2, 0, 1)})),
                   InvalidInputException, "isTblLevel=false");
  hive::ColumnStatistics nopart = Stats("p=a", {LongStats("id", 1, 2, 0, 1)});
  nopart.statsDesc.partName = "";
  EXPECT_HMS_ERROR(hms().update_partition_column_statistics(nopart), InvalidInputException,
                   "partName");
  EXPECT_HMS_ERROR(hms().get_partition_column_statistics(got, "db", "t", "p=a", "zzz"),
                   NoSuchObjectException, "zzz");
  EXPECT_HMS_ERROR(hms().get_partition_column_statistics(got, "db", "t", "p", "id"),
                   InvalidInputException, "p");
  EXPECT_HMS_ERROR(hms().get_partition_column_statistics(got, "db", "nope", "p=a", "id"),
                   NoSuchObjectException, "nope");
  req.tblName = "nope";
  EXPECT_HMS_ERROR(hms().get_partitions_statistics_req(res, req), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_aggr_stats_for(aggr, req), NoSuchObjectException, "nope");

  // Delete.
  EXPECT_TRUE(hms().delete_partition_column_statistics("db", "t", "p=a", "id", "impala"));
  EXPECT_HMS_ERROR(hms().get_partition_column_statistics(got, "db", "t", "p=a", "id"),
                   NoSuchObjectException, "id");
  hms().get_partition_column_statistics(got, "db", "t", "p=a", "name");
  EXPECT_TRUE(hms().delete_partition_column_statistics("db", "t", "p=b", "", "impala"));
  EXPECT_HMS_ERROR(hms().get_partition_column_statistics(got, "db", "t", "p=b", "name"),
                   NoSuchObjectException, "name");
  EXPECT_HMS_ERROR(hms().delete_partition_column_statistics("db", "t", "p=b", "id", "impala"),
                   NoSuchObjectException, "p=b");
  EXPECT_HMS_ERROR(hms().delete_partition_column_statistics("db", "t", "p=zz", "id", "impala"),
                   NoSuchObjectException, "p=zz");
  EXPECT_HMS_ERROR(hms().delete_partition_column_statistics("db", "t", "", "id", "impala"),
                   InvalidInputException, "part_name");
}

// DATE statistics (ColumnStatisticsData member 7) written per partition in one
// set_aggr_stats_for request without an engine (as a Hive 2 client sends it),
// read back unchanged and aggregated: min low, max high, summed nulls.
TEST_F(HmsStatsTest, DateStatsBatchWriteReadAndAggregate) {
  hive::Table t = Table("db", "dated", {"p"});
  hive::FieldSchema d;
  d.name = "d";
  d.type = "date";
  t.sd.cols.push_back(d);
  hms().create_table(t);
  hive::Partition part;
  for (const char* v : {"a", "b"}) hms().append_partition(part, "db", "dated", {v});
  auto date_stats = [](int64_t lo, int64_t hi, int64_t nulls) {
    hive::ColumnStatisticsObj obj;
    obj.colName = "d";
    obj.colType = "date";
    hive::DateColumnStatsData dd;
    hive::Date l, h;
    l.daysSinceEpoch = lo;
    h.daysSinceEpoch = hi;
    dd.__set_lowValue(l);
    dd.__set_highValue(h);
    dd.numNulls = nulls;
    dd.numDVs = hi - lo;
    obj.statsData.__set_dateStats(dd);
    return obj;
  };
  hive::SetPartitionsStatsRequest set;
  for (auto [name, lo, hi] : {std::tuple{"p=a", 100, 200}, {"p=b", 50, 150}}) {
    hive::ColumnStatistics cs = Stats(name, {date_stats(lo, hi, 2)});
    cs.statsDesc.tableName = "dated";
    set.colStats.push_back(cs);
  }
  EXPECT_TRUE(hms().set_aggr_stats_for(set));

  hive::ColumnStatistics got;
  hms().get_partition_column_statistics(got, "db", "dated", "p=b", "d");
  ASSERT_EQ(got.statsObj.size(), 1u);
  EXPECT_EQ(got.statsObj[0].statsData, date_stats(50, 150, 2).statsData);

  hive::PartitionsStatsRequest req;
  req.dbName = "db";
  req.tblName = "dated";
  req.colNames = {"d"};
  req.partNames = {"p=a", "p=b"};
  hive::AggrStats aggr;
  hms().get_aggr_stats_for(aggr, req);
  EXPECT_EQ(aggr.partsFound, 2);
  ASSERT_EQ(aggr.colStats.size(), 1u);
  ASSERT_TRUE(aggr.colStats[0].statsData.__isset.dateStats);
  const hive::DateColumnStatsData& a = aggr.colStats[0].statsData.dateStats;
  EXPECT_EQ(a.lowValue.daysSinceEpoch, 50);
  EXPECT_EQ(a.highValue.daysSinceEpoch, 200);
  EXPECT_EQ(a.numNulls, 4);
  EXPECT_EQ(a.numDVs, 100);

  // The Hive 4 request form of the partition update.
  hive::SetPartitionsStatsRequest one;
  hive::ColumnStatistics cs = Stats("p=a", {date_stats(1, 2, 0)});
  cs.statsDesc.tableName = "dated";
  one.colStats = {cs};
  one.__set_engine("hive");
  hive::SetPartitionsStatsResponse resp;
  hms().update_partition_column_statistics_req(resp, one);
  EXPECT_TRUE(resp.result);
  hms().get_partition_column_statistics(got, "db", "dated", "p=a", "d");
  EXPECT_EQ(got.statsObj[0].statsData.dateStats.highValue.daysSinceEpoch, 2);
}

}  // namespace
}  // namespace ics::catalog::hms::testing
