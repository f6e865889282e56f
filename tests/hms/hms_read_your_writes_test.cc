// Read-your-writes across catalogd's own APIs: what a client writes through
// catalogd's HMS endpoint is in catalogd's catalog when the call returns, so
// the PartitionService and CatalogService see it at once. The event poll
// interval is a minute here: only the endpoint's wait (which wakes the event
// processor) can make the change visible in time. Also: DATE and TIMESTAMP
// column statistics written through the endpoint reach GetPartialCatalogObject
// as a client built from the IDL alone decodes them.
#include <filesystem>

#include "CatalogService.h"
#include "PartitionService.h"
#include "catalogd/events/event_processor.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "tests/hms/catalogd_hms_fixture.h"
#include "tests/hms/hms_test_util.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::hms::testing {
namespace {

class HmsReadYourWritesTest : public CatalogdHmsTest {
 protected:
  // rw.t: id bigint, d date, ts timestamp; partitioned by p string.
  static hive::Table DatedTable() {
    hive::Table t;
    t.dbName = "rw";
    t.tableName = "t";
    t.owner = "alice";
    t.tableType = "MANAGED_TABLE";
    for (auto [name, type] : {std::pair{"id", "bigint"}, {"d", "date"}, {"ts", "timestamp"}}) {
      hive::FieldSchema f;
      f.name = name;
      f.type = type;
      t.sd.cols.push_back(f);
    }
    hive::FieldSchema p;
    p.name = "p";
    p.type = "string";
    t.partitionKeys = {p};
    t.sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
    t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    return t;
  }

  impala::TGetPartialCatalogObjectResponse Partial(const impala::TTableInfoSelector& sel) {
    ThriftClient<impala::CatalogServiceClient> c("127.0.0.1", server_->port());
    impala::TGetPartialCatalogObjectRequest req;
    req.object_desc.type = impala::TCatalogObjectType::TABLE;
    req.object_desc.__isset.table = true;
    req.object_desc.table.db_name = "rw";
    req.object_desc.table.tbl_name = "t";
    req.__set_table_info_selector(sel);
    impala::TGetPartialCatalogObjectResponse resp;
    Status s = c.Call("GetPartialCatalogObject",
                      [&](auto& cl) { cl.GetPartialCatalogObject(resp, req); });
    EXPECT_TRUE(s.ok()) << s.ToString();
    return resp;
  }

};

TEST_F(HmsReadYourWritesTest, HmsCreateTableIsVisibleToTheOtherServicesAtOnce) {
  hive::Database db;
  db.name = "rw";
  (*hms_)->create_database(db);
  (*hms_)->create_table(DatedTable());

  // PartitionService: the table exists for a batch right away.
  ThriftClientOptions mux;
  mux.service_name = "PartitionService";
  ThriftClient<ics::thrift::PartitionServiceClient> parts(
      "127.0.0.1", server_->metastore_service_port(), mux);
  ics::thrift::TBatchCreatePartitionsRequest create;
  create.table.db_name = "rw";
  create.table.table_name = "t";
  for (const char* v : {"a", "b"}) {
    ics::thrift::TMetastorePartition p;
    p.values = {v};
    create.partitions.push_back(p);
  }
  ics::thrift::TBatchCreatePartitionsResponse created;
  ASSERT_TRUE(
      parts.Call("Create", [&](auto& c) { c.BatchCreatePartitions(created, create); }).ok());
  ASSERT_EQ(created.status.code, ics::thrift::TMetastoreServiceErrorCode::OK)
      << created.status.message;
  EXPECT_EQ(created.partitions.size(), 2u);

  // CatalogService: GetCatalogObject and GetPartialCatalogObject find it.
  ThriftClient<impala::CatalogServiceClient> cat("127.0.0.1", server_->port());
  impala::TGetCatalogObjectRequest get;
  get.object_desc.type = impala::TCatalogObjectType::TABLE;
  get.object_desc.__isset.table = true;
  get.object_desc.table.db_name = "rw";
  get.object_desc.table.tbl_name = "t";
  impala::TGetCatalogObjectResponse got;
  ASSERT_TRUE(cat.Call("GetCatalogObject", [&](auto& c) { c.GetCatalogObject(got, get); }).ok());
  EXPECT_EQ(got.status.status_code, impala::TErrorCode::OK);

  impala::TTableInfoSelector sel;
  sel.want_partition_names = true;
  auto partial = Partial(sel);
  EXPECT_EQ(partial.lookup_status, impala::CatalogLookupStatus::OK);
  EXPECT_EQ(partial.table_info.partitions.size(), 2u);

  // Applied once, by the event processor, nothing left to apply.
  EventProcessorStatus st = server_->event_processor()->GetStatus();
  EXPECT_EQ(st.last_synced_event_id, st.latest_event_id);
  EXPECT_EQ(st.state, EventProcessorState::kActive);
}

TEST_F(HmsReadYourWritesTest, DateAndTimestampStatsRoundTrip) {
  hive::Database db;
  db.name = "rw";
  (*hms_)->create_database(db);
  (*hms_)->create_table(DatedTable());

  hive::ColumnStatistics cs;
  cs.statsDesc.isTblLevel = true;
  cs.statsDesc.dbName = "rw";
  cs.statsDesc.tableName = "t";
  hive::ColumnStatisticsObj d;
  d.colName = "d";
  d.colType = "date";
  hive::DateColumnStatsData dd;
  hive::Date lo, hi;
  lo.daysSinceEpoch = 18262;  // 2020-01-01
  hi.daysSinceEpoch = 19723;  // 2024-01-01
  dd.__set_lowValue(lo);
  dd.__set_highValue(hi);
  dd.numNulls = 3;
  dd.numDVs = 40;
  d.statsData.__set_dateStats(dd);
  hive::ColumnStatisticsObj ts;
  ts.colName = "ts";
  ts.colType = "timestamp";
  hive::TimestampColumnStatsData td;
  hive::Timestamp tlo, thi;
  tlo.secondsSinceEpoch = 1577836800;
  thi.secondsSinceEpoch = 1704067200;
  td.__set_lowValue(tlo);
  td.__set_highValue(thi);
  td.numNulls = 1;
  td.numDVs = 500;
  ts.statsData.__set_timestampStats(td);
  cs.statsObj = {d, ts};

  // Written with the Hive 4 batch call, engine set.
  hive::SetPartitionsStatsRequest set;
  set.colStats = {cs};
  set.__set_engine("impala");
  EXPECT_TRUE((*hms_)->set_aggr_stats_for(set));

  // Read back through the endpoint, without an engine (a Hive 2 client).
  hive::TableStatsRequest req;
  req.dbName = "rw";
  req.tblName = "t";
  req.colNames = {"d", "ts"};
  hive::TableStatsResult res;
  (*hms_)->get_table_statistics_req(res, req);
  ASSERT_EQ(res.tableStats.size(), 2u);
  EXPECT_EQ(res.tableStats[0].statsData, d.statsData);
  EXPECT_EQ(res.tableStats[1].statsData, ts.statsData);

  // And passed on by GetPartialCatalogObject.
  impala::TTableInfoSelector sel;
  sel.__set_want_stats_for_column_names({"d", "ts"});
  auto partial = Partial(sel);
  ASSERT_EQ(partial.lookup_status, impala::CatalogLookupStatus::OK);
  ASSERT_EQ(partial.table_info.column_stats.size(), 2u);
  for (const hive::ColumnStatisticsObj& o : partial.table_info.column_stats) {
    if (o.colName == "d") {
      ASSERT_TRUE(o.statsData.__isset.dateStats);
      EXPECT_EQ(o.statsData.dateStats.lowValue.daysSinceEpoch, 18262);
      EXPECT_EQ(o.statsData.dateStats.highValue.daysSinceEpoch, 19723);
      EXPECT_EQ(o.statsData.dateStats.numDVs, 40);
    } else {
      EXPECT_EQ(o.colName, "ts");
      ASSERT_TRUE(o.statsData.__isset.timestampStats);
      EXPECT_EQ(o.statsData.timestampStats.highValue.secondsSinceEpoch, 1704067200);
      EXPECT_EQ(o.statsData.timestampStats.numNulls, 1);
    }
  }

  // needMerge is refused, not silently ignored.
  set.__set_needMerge(true);
  EXPECT_THROW((*hms_)->set_aggr_stats_for(set), hive::InvalidInputException);
}

}  // namespace
}  // namespace ics::catalog::hms::testing
