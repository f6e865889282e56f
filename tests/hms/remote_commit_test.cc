// Commit on the remote metastore: ops are applied one by one; when one
// fails, the ops applied before it are undone with compensating calls and
// the store is back to its state before the txn (compared object by object
// with a snapshot taken first). Also: which event ids a commit claims.
#include <gtest/gtest.h>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "tests/hms/remote_fault_server.h"
#include "tests/hms/remote_test_util.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

// Everything the store holds about one table.
struct TableSnapshot {
  hive::Table table;
  std::vector<hive::Partition> partitions;
  std::vector<hive::ColumnStatisticsObj> table_stats;
  std::map<std::string, std::vector<hive::ColumnStatisticsObj>> partition_stats;
};

class RemoteCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hms_ = std::make_unique<InProcessHms>(dir_.path());
    ASSERT_OK(hms_->Start());
    auto ms = OpenRemoteMetastore(hms_->ClientOptions());
    ASSERT_OK(ms);
    ms_ = std::move(ms).value();
    // d.t (id bigint, name string) partitioned by k, two partitions, table
    // and partition stats; d.flat; a function in d.
    ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
    hive::Table t = MakeTable("d", "t", {"k"});
    t.sd.cols.push_back(t.sd.cols[0]);
    t.sd.cols[1].name = "name";
    t.parameters["p"] = "1";
    ASSERT_OK(Apply(CreateTableOp(t)));
    ASSERT_OK(Apply(CreateTableOp(MakeTable("d", "flat"))));
    ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
    ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2"}))));
    MetastoreOp ts = TableOp(Kind::kSetTableColumnStats, "d", "t");
    ts.column_stats = {MakeLongStats("id", 10)};
    ASSERT_OK(Apply(ts));
    MetastoreOp ps = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
    ps.partition_name = "k=1";
    ps.column_stats = {MakeLongStats("id", 3)};
    ASSERT_OK(Apply(ps));
    MetastoreOp fn;
    fn.kind = Kind::kCreateFunction;
    fn.function = MakeFunction("d", "f");
    ASSERT_OK(Apply(fn));
  }

  Result<int64_t> Apply(MetastoreOp op) { return ms_->Commit(Txn({std::move(op)})); }
  Metastore* store() { return hms_->store(); }

  TableSnapshot Snapshot(const std::string& table) {
    TableSnapshot s;
    s.table = *store()->GetTable("d", table);
    s.partitions = *store()->GetPartitions("d", table);
    s.table_stats = *store()->GetTableColumnStats("d", table);
    for (const char* p : {"k=1", "k=2"}) {
      auto stats = store()->GetPartitionColumnStats("d", table, p);
      if (stats.ok() && !stats->empty()) s.partition_stats[p] = *stats;
    }
    return s;
  }

  void ExpectSame(const TableSnapshot& got, const TableSnapshot& want) {
    EXPECT_TRUE(Same(got.table, want.table));
    ASSERT_EQ(got.partitions.size(), want.partitions.size());
    for (size_t i = 0; i < got.partitions.size(); ++i) {
      // Re-created partitions get a fresh DDL time from the endpoint.
      hive::Partition g = got.partitions[i], w = want.partitions[i];
      g.parameters.erase("transient_lastDdlTime");
      w.parameters.erase("transient_lastDdlTime");
      EXPECT_TRUE(Same(g, w));
    }
    ASSERT_EQ(got.table_stats.size(), want.table_stats.size());
    for (size_t i = 0; i < got.table_stats.size(); ++i) {
      EXPECT_TRUE(Same(got.table_stats[i], want.table_stats[i]));
    }
    EXPECT_EQ(got.partition_stats, want.partition_stats);
  }

  void ExpectUndoneFailure(const Result<int64_t>& r, ErrorCode code, const std::string& where) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), code) << r.status().ToString();
    EXPECT_NE(r.status().message().find(where), std::string::npos) << r.status().ToString();
    EXPECT_NE(r.status().message().find("undone"), std::string::npos) << r.status().ToString();
  }

  TempDir dir_;
  std::unique_ptr<InProcessHms> hms_;
  std::unique_ptr<HmsRemoteMetastore> ms_;
};

TEST_F(RemoteCommitTest, CreatesAreUndone) {
  const auto dbs = *store()->GetAllDatabases();
  MetastoreTxn txn = Txn({CreateDbOp(MakeDb("x")), CreateTableOp(MakeTable("x", "t", {"k"})),
                          AddPartitionOp(MakePartition("x", "t", {"1"})),
                          CreateTableOp(MakeTable("d", "t"))});  // exists
  ExpectUndoneFailure(ms_->Commit(txn), ErrorCode::kAlreadyExists, "op 4 of 4 (CREATE_TABLE)");
  EXPECT_EQ(*store()->GetAllDatabases(), dbs);
  ASSERT_ERROR(store()->GetTable("x", "t"), ErrorCode::kNotFound);
}

TEST_F(RemoteCommitTest, AltersAreUndone) {
  const TableSnapshot before = Snapshot("t");
  const hive::Database db_before = *store()->GetDatabase("d");
  MetastoreOp alter_db;
  alter_db.kind = Kind::kAlterDatabase;
  alter_db.database = db_before;
  alter_db.database.description = "changed";
  MetastoreOp alter_table = TableOp(Kind::kAlterTable, "d", "t");
  alter_table.table = before.table;
  alter_table.table.parameters["p"] = "2";
  alter_table.table.tableName = "renamed";  // and renamed, with the new location given,
  // as catalogd's rename sends it (a Hive metastore moves a managed table
  // whose location a rename leaves as it was, partitions included)
  alter_table.table.sd.location = "/warehouse/d.db/renamed";
  MetastoreOp alter_part;
  alter_part.kind = Kind::kAlterPartition;
  alter_part.partition = before.partitions[0];
  alter_part.partition.dbName = "d";
  alter_part.partition.tableName = "renamed";
  alter_part.partition.parameters["numRows"] = "77";
  MetastoreOp stats = TableOp(Kind::kSetTableColumnStats, "d", "renamed");
  stats.column_stats = {MakeLongStats("id", 99), MakeLongStats("name", 5)};
  MetastoreOp bad_part = AddPartitionOp(MakePartition("d", "renamed", {"1"}));  // exists
  auto r = ms_->Commit(Txn({alter_db, alter_table, alter_part, stats, bad_part}));
  ExpectUndoneFailure(r, ErrorCode::kAlreadyExists, "op 5 of 5 (ADD_PARTITION)");
  EXPECT_NE(r.status().message().find("ops 1..4"), std::string::npos) << r.status().ToString();
  EXPECT_TRUE(Same(*store()->GetDatabase("d"), db_before));
  ASSERT_ERROR(store()->GetTable("d", "renamed"), ErrorCode::kNotFound);
  TableSnapshot after = Snapshot("t");
  // The undo is an alter_table, which the endpoint stamps with a new DDL time.
  after.table.parameters.erase("transient_lastDdlTime");
  TableSnapshot want = before;
  want.table.parameters.erase("transient_lastDdlTime");
  ExpectSame(after, want);
}

TEST_F(RemoteCommitTest, DropsAreUndoneWithEverythingTheyRemoved) {
  const TableSnapshot before = Snapshot("t");
  const auto fns_before = *store()->GetFunctions("d");
  MetastoreOp drop_part = TableOp(Kind::kDropPartition, "d", "t");
  drop_part.partition_name = "k=1";
  MetastoreOp drop_fn;
  drop_fn.kind = Kind::kDropFunction;
  drop_fn.db_name = "d";
  drop_fn.function_signature = "f(INT)";
  MetastoreOp drop_db;
  drop_db.kind = Kind::kDropDatabase;
  drop_db.db_name = "d";
  // A DROP DATABASE CASCADE, then a failing op.
  auto r = ms_->Commit(Txn({drop_part, TableOp(Kind::kDropTable, "d", "t"),
                            TableOp(Kind::kDropTable, "d", "flat"), drop_fn, drop_db,
                            CreateDbOp(MakeDb("d")), CreateDbOp(MakeDb("d"))}));
  ExpectUndoneFailure(r, ErrorCode::kAlreadyExists, "op 7 of 7 (CREATE_DATABASE)");
  ASSERT_OK(store()->GetDatabase("d"));
  EXPECT_EQ(*store()->GetAllTables("d"), (std::vector<std::string>{"flat", "t"}));
  auto fns = store()->GetFunctions("d");
  ASSERT_OK(fns);
  ASSERT_EQ(fns->size(), 1u);
  EXPECT_TRUE(Same((*fns)[0], fns_before[0]));
  TableSnapshot after = Snapshot("t");
  after.table.parameters.erase("transient_lastDdlTime");
  after.table.createTime = before.table.createTime;
  TableSnapshot want = before;
  want.table.parameters.erase("transient_lastDdlTime");
  ExpectSame(after, want);
}

TEST_F(RemoteCommitTest, StatsChangesAreUndone) {
  const TableSnapshot before = Snapshot("t");
  MetastoreOp set = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  set.partition_name = "k=2";
  set.column_stats = {MakeLongStats("id", 8)};
  MetastoreOp del_one = TableOp(Kind::kDeleteColumnStat, "d", "t");
  del_one.partition_name = "k=1";
  del_one.column_name = "id";
  MetastoreOp missing = TableOp(Kind::kDropTable, "d", "nope");
  ExpectUndoneFailure(ms_->Commit(Txn({set, del_one, TableOp(Kind::kDeleteColumnStats, "d", "t"),
                                       missing})),
                      ErrorCode::kNotFound, "op 4 of 4 (DROP_TABLE)");
  ExpectSame(Snapshot("t"), before);
}

TEST_F(RemoteCommitTest, FailingFirstOpChangesNothing) {
  const int64_t events = *store()->CurrentNotificationEventId();
  auto r = ms_->Commit(Txn({CreateDbOp(MakeDb("d")), CreateDbOp(MakeDb("y"))}));
  ASSERT_ERROR(r, ErrorCode::kAlreadyExists);
  EXPECT_NE(r.status().message().find("op 1 of 2"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(*store()->CurrentNotificationEventId(), events);
}

TEST_F(RemoteCommitTest, ClaimsItsEventIdsOnlyWhenTheyAreKnown) {
  const int64_t start = *store()->CurrentNotificationEventId();
  auto two = ms_->Commit(Txn({CreateDbOp(MakeDb("a")), CreateDbOp(MakeDb("b"))}));
  ASSERT_OK(two);
  EXPECT_EQ(*two, start + 2) << "the last of its two contiguous events";
  // Deleting all stats takes a call per level that has stats (here the
  // table and one partition), each writing its own events, not the one
  // event the op stands for: the ids are not claimed.
  auto deleted = ms_->Commit(Txn({TableOp(Kind::kDeleteColumnStats, "d", "t")}));
  ASSERT_OK(deleted);
  EXPECT_EQ(*deleted, 0);
  EXPECT_GE(*store()->CurrentNotificationEventId(), start + 4);
}

// Through a proxy that loses one reply: the server applied the call, the
// client cannot know. Commit stops there and undoes nothing.
TEST_F(RemoteCommitTest, LostReplyMidTxnIsAnUnknownOutcome) {
  // Requests on the proxied connection: 1 the event id read, 2 op 1,
  // 3 op 2 (its reply is lost), op 3 never sent.
  FaultProxy proxy(hms_->port(), /*cut_reply_of_request=*/3);
  ASSERT_TRUE(proxy.Start());
  RemoteMetastoreOptions o = hms_->ClientOptions();
  o.port = proxy.port();
  o.pool_size = 1;  // one connection: requests are counted in order
  HmsRemoteMetastore ms(o);
  auto r = ms.Commit(Txn({CreateDbOp(MakeDb("a")), CreateDbOp(MakeDb("b")),
                          CreateDbOp(MakeDb("c"))}));
  ASSERT_ERROR(r, ErrorCode::kIoError);
  const std::string& msg = r.status().message();
  EXPECT_NE(msg.find("op 2 of 3 (CREATE_DATABASE)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("outcome is unknown"), std::string::npos) << msg;
  EXPECT_NE(msg.find("op 1 applied; op 2 outcome unknown; op 3 not attempted; nothing undone"),
            std::string::npos)
      << msg;
  EXPECT_TRUE(proxy.cut_done());
  ASSERT_OK(store()->GetDatabase("a"));
  ASSERT_OK(store()->GetDatabase("b"));  // the server did apply it
  ASSERT_ERROR(store()->GetDatabase("c"), ErrorCode::kNotFound);

  // A read whose reply is lost is simply retried.
  FaultProxy read_proxy(hms_->port(), /*cut_reply_of_request=*/1);
  ASSERT_TRUE(read_proxy.Start());
  o.port = read_proxy.port();
  HmsRemoteMetastore reader(o);
  auto db = reader.GetDatabase("a");
  ASSERT_OK(db);
  EXPECT_TRUE(read_proxy.cut_done());
  EXPECT_EQ(read_proxy.requests(), 2);
}

}  // namespace
}  // namespace ics::catalog
