// External changes reach coordinators: an in-process cluster (statestore,
// catalogd with its event processor, two coordinators) in each local
// catalog mode, and a second handle on catalogd's SQLite metastore as the
// external writer. Nobody runs REFRESH or INVALIDATE: the processor applies
// the notification log and the topic carries the result. Waits have
// deadlines; nothing asserts on timings.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "CatalogService.h"
#include "catalogd/events/event_processor.h"
#include "catalogd/metastore/metastore.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "tests/util/mini_cluster.h"

namespace ics::testing {
namespace {

using catalog::MetastoreOp;
using catalog::MetastoreTxn;
using coord::StatementResult;
using Kind = MetastoreOp::Kind;

constexpr std::chrono::seconds kDeadline(30);

class EventsClusterTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    MiniClusterOptions o;
    o.num_coordinators = 2;
    o.full_replica = GetParam();
    cluster_ = std::make_unique<MiniCluster>(o);
    Status s = cluster_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    auto ext = catalog::OpenSqliteMetastore(cluster_->dir() + "/catalogd/metastore.db");
    ASSERT_TRUE(ext.ok()) << ext.status().ToString();
    external_ = std::move(ext).value();
    warehouse_ = cluster_->dir() + "/catalogd/warehouse";
  }

  void TearDown() override {
    external_.reset();
    cluster_.reset();
  }

  void Commit(std::vector<MetastoreOp> ops) {
    MetastoreTxn txn;
    txn.ops = std::move(ops);
    auto r = external_->Commit(txn);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  static MetastoreOp Op(Kind kind) {
    MetastoreOp op;
    op.kind = kind;
    return op;
  }

  std::string TableDir(const std::string& db, const std::string& t) {
    return warehouse_ + "/" + db + ".db/" + t;
  }

  hive::Table Table(const std::string& db, const std::string& name) {
    hive::Table t;
    t.dbName = db;
    t.tableName = name;
    t.tableType = "MANAGED_TABLE";
    hive::FieldSchema a;
    a.name = "a";
    a.type = "int";
    t.sd.cols = {a};
    hive::FieldSchema p;
    p.name = "p";
    p.type = "string";
    t.partitionKeys = {p};
    t.sd.location = TableDir(db, name);
    t.sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
    t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    return t;
  }

  MetastoreOp AddPartition(const std::string& db, const std::string& t, const std::string& v) {
    MetastoreOp op = Op(Kind::kAddPartition);
    op.partition.dbName = db;
    op.partition.tableName = t;
    op.partition.values = {v};
    op.partition.sd = Table(db, t).sd;
    op.partition.sd.location = TableDir(db, t) + "/p=" + v;
    std::filesystem::create_directories(op.partition.sd.location);
    std::ofstream(op.partition.sd.location + "/data.txt") << "1\n2\n";
    return op;
  }

  Result<StatementResult> Exec(int c, const std::string& sql) { return cluster_->Exec(c, sql); }

  bool ShowsTable(int c, const std::string& db, const std::string& t) {
    auto r = Exec(c, "SHOW TABLES IN " + db);
    if (!r.ok()) return false;
    for (const auto& row : r->rows) {
      if (!row.empty() && row[0] == t) return true;
    }
    return false;
  }

  // Rows of SHOW PARTITIONS (partitions + the Total row), -1 on error.
  int PartitionRows(int c, const std::string& table) {
    auto r = Exec(c, "SHOW PARTITIONS " + table);
    return r.ok() ? static_cast<int>(r->rows.size()) : -1;
  }

  std::unique_ptr<MiniCluster> cluster_;
  std::unique_ptr<catalog::Metastore> external_;
  std::string warehouse_;
};

TEST_P(EventsClusterTest, ExternalChangesReachEveryCoordinatorWithoutRefresh) {
  MetastoreOp db = Op(Kind::kCreateDatabase);
  db.database.name = "ext";
  db.database.locationUri = warehouse_ + "/ext.db";
  MetastoreOp create = Op(Kind::kCreateTable);
  create.table = Table("ext", "t");
  Commit({db, create});
  Commit({AddPartition("ext", "t", "1")});
  for (int c = 0; c < 2; ++c) {
    EXPECT_TRUE(Eventually([&] { return ShowsTable(c, "ext", "t"); }, kDeadline)) << c;
  }
  // Loading the table on a coordinator is the normal first use.
  EXPECT_TRUE(Eventually([&] { return PartitionRows(0, "ext.t") == 2; }, kDeadline));

  // A partition added to the (now loaded) table.
  Commit({AddPartition("ext", "t", "2")});
  for (int c = 0; c < 2; ++c) {
    EXPECT_TRUE(Eventually([&] { return PartitionRows(c, "ext.t") == 3; }, kDeadline))
        << c << ": " << PartitionRows(c, "ext.t");
  }
  auto status = cluster_->catalogd()->event_processor()->GetStatus();
  EXPECT_EQ(status.invalidations, 0) << status.ToString();
  EXPECT_EQ(status.errors, 0) << status.ToString();

  // The table dropped outside.
  MetastoreOp drop = Op(Kind::kDropTable);
  drop.db_name = "ext";
  drop.table_name = "t";
  Commit({drop});
  for (int c = 0; c < 2; ++c) {
    EXPECT_TRUE(Eventually([&] { return !ShowsTable(c, "ext", "t"); }, kDeadline)) << c;
    EXPECT_TRUE(Eventually([&] { return !Exec(c, "DESCRIBE ext.t").ok(); }, kDeadline)) << c;
  }
}

TEST_P(EventsClusterTest, OwnDdlIsSkippedAndEventRpcsAnswer) {
  ASSERT_TRUE(Exec(0, "CREATE DATABASE own").ok());
  ASSERT_TRUE(Exec(0, "CREATE TABLE own.t (a INT) PARTITIONED BY (p INT)").ok());
  ASSERT_TRUE(Exec(0, "ALTER TABLE own.t ADD PARTITION (p=1)").ok());

  ThriftClient<impala::CatalogServiceClient> client("127.0.0.1", cluster_->catalogd()->port());
  impala::TWaitForHmsEventRequest wait;
  wait.timeout_s = 30;
  impala::TCatalogObject desc;
  desc.type = impala::TCatalogObjectType::TABLE;
  desc.__isset.table = true;
  desc.table.db_name = "own";
  desc.table.tbl_name = "t";
  wait.__set_object_descs({desc});
  impala::TWaitForHmsEventResponse wresp;
  Status s = client.Call("WaitForHmsEvent",
                         [&](impala::CatalogServiceClient& c) { c.WaitForHmsEvent(wresp, wait); });
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(FromTStatus(wresp.status).ok()) << FromTStatus(wresp.status).ToString();
  ASSERT_TRUE(wresp.__isset.result);
  ASSERT_EQ(wresp.result.updated_catalog_objects.size(), 1u);
  EXPECT_EQ(wresp.result.updated_catalog_objects[0].table.tbl_name, "t");

  auto st = cluster_->catalogd()->event_processor()->GetStatus();
  EXPECT_GE(st.events_skipped_self, 3) << st.ToString();
  EXPECT_EQ(st.events_applied, 0) << st.ToString();

  auto control = [&](const std::string& action) {
    impala::TSetEventProcessorStatusRequest req;
    req.params.action = action;
    impala::TSetEventProcessorStatusResponse resp;
    Status call = client.Call("SetEventProcessorStatus", [&](impala::CatalogServiceClient& c) {
      c.SetEventProcessorStatus(resp, req);
    });
    EXPECT_TRUE(call.ok()) << call.ToString();
    return resp;
  };
  auto r = control("status");
  EXPECT_TRUE(FromTStatus(r.status).ok());
  EXPECT_NE(r.info.find("ACTIVE"), std::string::npos) << r.info;
  r = control("PAUSE");
  EXPECT_TRUE(FromTStatus(r.status).ok());
  EXPECT_NE(r.info.find("PAUSED"), std::string::npos) << r.info;
  EXPECT_TRUE(client
                  .Call("WaitForHmsEvent",
                        [&](impala::CatalogServiceClient& c) { c.WaitForHmsEvent(wresp, wait); })
                  .ok());
  EXPECT_FALSE(FromTStatus(wresp.status).ok());  // paused: refused at once
  r = control("start");
  EXPECT_TRUE(FromTStatus(r.status).ok());
  EXPECT_NE(r.info.find("ACTIVE"), std::string::npos) << r.info;
  // INVALID_ARGUMENT is a local category: it crosses the wire as GENERAL
  // with its message.
  r = control("reboot");
  Status bad = FromTStatus(r.status);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.ToString().find("unknown event processor action 'reboot'"), std::string::npos)
      << bad.ToString();
}

INSTANTIATE_TEST_SUITE_P(LocalCatalogModes, EventsClusterTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? std::string("FullReplica") : std::string("OnDemand");
                         });

}  // namespace
}  // namespace ics::testing
