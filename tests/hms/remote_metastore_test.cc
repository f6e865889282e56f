// The remote metastore backend against a real HMS endpoint (in process, over
// its own SQLite file): every Metastore method, its ordering promises, and
// the error codes of the interface. Objects read through the backend are
// compared with what the endpoint's own store holds (the transfer is
// lossless); objects written through it are checked in that store.
#include <gtest/gtest.h>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "tests/hms/remote_test_util.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

class RemoteMetastoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hms_ = std::make_unique<InProcessHms>(dir_.path());
    ASSERT_OK(hms_->Start());
    auto ms = OpenRemoteMetastore(hms_->ClientOptions());
    ASSERT_OK(ms);
    ms_ = std::move(ms).value();
  }
  void TearDown() override {
    ms_.reset();
    hms_.reset();
  }

  Result<int64_t> Apply(MetastoreOp op) { return ms_->Commit(Txn({std::move(op)})); }

  void CreateTable(const std::string& db, const std::string& table,
                   const std::vector<std::string>& keys = {}) {
    if (!ms_->GetDatabase(db).ok()) ASSERT_OK(Apply(CreateDbOp(MakeDb(db))));
    ASSERT_OK(Apply(CreateTableOp(MakeTable(db, table, keys))));
  }

  Metastore* store() { return hms_->store(); }

  TempDir dir_;
  std::unique_ptr<InProcessHms> hms_;
  std::unique_ptr<HmsRemoteMetastore> ms_;
};

TEST_F(RemoteMetastoreTest, Databases) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("b"))));
  ASSERT_OK(Apply(CreateDbOp(MakeDb("a", "first"))));
  EXPECT_EQ(*ms_->GetAllDatabases(), (std::vector<std::string>{"a", "b"}));
  ASSERT_OK(ms_->GetDatabase("a"));
  EXPECT_TRUE(Same(*ms_->GetDatabase("a"), *store()->GetDatabase("a")));
  EXPECT_EQ(ms_->GetDatabase("a")->description, "first");
  EXPECT_EQ(ms_->GetDatabase("a")->parameters.at("k"), "v");
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb("a"))), ErrorCode::kAlreadyExists);
  ASSERT_ERROR(ms_->GetDatabase("zz"), ErrorCode::kNotFound);

  MetastoreOp alter;
  alter.kind = Kind::kAlterDatabase;
  alter.database = MakeDb("a", "second");
  ASSERT_OK(Apply(alter));
  EXPECT_EQ(store()->GetDatabase("a")->description, "second");
  alter.database.name = "zz";
  ASSERT_ERROR(Apply(alter), ErrorCode::kNotFound);
  alter.db_name = "a";  // a rename is not supported
  ASSERT_ERROR(Apply(alter), ErrorCode::kInvalidArgument);

  CreateTable("b", "t");
  MetastoreOp drop;
  drop.kind = Kind::kDropDatabase;
  drop.db_name = "b";
  ASSERT_ERROR(Apply(drop), ErrorCode::kInvalidArgument);  // not empty
  drop.db_name = "a";
  ASSERT_OK(Apply(drop));
  ASSERT_ERROR(ms_->GetDatabase("a"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetAllDatabases(), std::vector<std::string>{"b"});
}

TEST_F(RemoteMetastoreTest, Tables) {
  ASSERT_ERROR(Apply(CreateTableOp(MakeTable("d", "t"))), ErrorCode::kNotFound);  // no db
  CreateTable("d", "t2");
  CreateTable("d", "t1", {"year"});
  EXPECT_EQ(*ms_->GetAllTables("d"), (std::vector<std::string>{"t1", "t2"}));
  ASSERT_ERROR(ms_->GetAllTables("nodb"), ErrorCode::kNotFound);
  ASSERT_OK(ms_->GetTable("d", "t1"));
  EXPECT_TRUE(Same(*ms_->GetTable("d", "t1"), *store()->GetTable("d", "t1")));
  EXPECT_EQ(ms_->GetTable("d", "t1")->owner, "alice");
  EXPECT_EQ(ms_->GetTable("d", "t1")->partitionKeys.at(0).name, "year");
  ASSERT_ERROR(ms_->GetTable("d", "t3"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(CreateTableOp(MakeTable("d", "t1"))), ErrorCode::kAlreadyExists);

  MetastoreOp alter = TableOp(Kind::kAlterTable, "d", "t2");
  alter.table = *ms_->GetTable("d", "t2");
  alter.table.owner = "bob";
  ASSERT_OK(Apply(alter));
  EXPECT_EQ(store()->GetTable("d", "t2")->owner, "bob");
  alter.table_name = "t3";
  alter.table.tableName = "t3";
  ASSERT_ERROR(Apply(alter), ErrorCode::kNotFound);
  MetastoreOp rekey = TableOp(Kind::kAlterTable, "d", "t1");
  rekey.table = *ms_->GetTable("d", "t1");
  rekey.table.partitionKeys.clear();
  ASSERT_ERROR(Apply(rekey), ErrorCode::kInvalidArgument);

  ASSERT_OK(Apply(TableOp(Kind::kDropTable, "d", "t2")));
  ASSERT_ERROR(ms_->GetTable("d", "t2"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(TableOp(Kind::kDropTable, "d", "t2")), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetAllTables("d"), std::vector<std::string>{"t1"});
}

TEST_F(RemoteMetastoreTest, RenameMovesPartitionsAndStats) {
  CreateTable("d", "t", {"k"});
  CreateTable("d", "taken");
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
  MetastoreOp stats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  stats.column_stats = {MakeLongStats("id", 7)};
  ASSERT_OK(Apply(stats));

  MetastoreOp clash = TableOp(Kind::kAlterTable, "d", "t");
  clash.table = *ms_->GetTable("d", "t");
  clash.table.tableName = "taken";
  ASSERT_ERROR(Apply(clash), ErrorCode::kAlreadyExists);

  MetastoreOp rename = TableOp(Kind::kAlterTable, "d", "t");
  rename.table = *ms_->GetTable("d", "t");
  rename.table.tableName = "t_new";
  ASSERT_OK(Apply(rename));
  ASSERT_ERROR(ms_->GetTable("d", "t"), ErrorCode::kNotFound);
  EXPECT_EQ(ms_->GetPartitions("d", "t_new")->size(), 1u);
  EXPECT_EQ(ms_->GetTableColumnStats("d", "t_new")->size(), 1u);
}

TEST_F(RemoteMetastoreTest, Partitions) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))), ErrorCode::kNotFound);
  CreateTable("d", "t", {"year", "city"});
  CreateTable("d", "flat");
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))),
               ErrorCode::kInvalidArgument);  // 1 value for 2 keys
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "flat", {"1"}))),
               ErrorCode::kInvalidArgument);  // unpartitioned table

  // Added out of order; read back ordered by name.
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", "paris"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2023", "a/b"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", "lyon"}))));
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", "paris"}))),
               ErrorCode::kAlreadyExists);
  MetastoreOp mismatched = AddPartitionOp(MakePartition("d", "t", {"2025", "x"}));
  mismatched.partition_name = "year=2025/city=y";
  ASSERT_ERROR(Apply(mismatched), ErrorCode::kInvalidArgument);

  auto parts = ms_->GetPartitions("d", "t");
  ASSERT_OK(parts);
  auto truth = store()->GetPartitions("d", "t");
  ASSERT_OK(truth);
  ASSERT_EQ(parts->size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(Same((*parts)[i], (*truth)[i]));
  EXPECT_EQ((*parts)[0].values, (std::vector<std::string>{"2023", "a/b"}));
  EXPECT_EQ((*parts)[1].values, (std::vector<std::string>{"2024", "lyon"}));
  EXPECT_EQ((*parts)[2].parameters.at("numRows"), "10");
  ASSERT_ERROR(ms_->GetPartitions("d", "nope"), ErrorCode::kNotFound);
  EXPECT_TRUE(ms_->GetPartitions("d", "flat")->empty());

  auto some = ms_->GetPartitionsByNames(
      "d", "t",
      {"year=2024/city=paris", "year=1999/city=x", "year=2023/city=a%2Fb", "year=2024/city=paris"});
  ASSERT_OK(some);
  ASSERT_EQ(some->size(), 2u);  // ordered, missing skipped, repeats collapsed
  EXPECT_EQ((*some)[0].values[1], "a/b");
  EXPECT_EQ((*some)[1].values[1], "paris");
  EXPECT_TRUE(ms_->GetPartitionsByNames("d", "t", {})->empty());
  // More names than the endpoint takes in one request (10,000): split.
  std::vector<std::string> many;
  for (int i = 0; i < 12000; ++i) many.push_back("year=" + std::to_string(i) + "/city=x");
  many.push_back("year=2024/city=lyon");
  auto found = ms_->GetPartitionsByNames("d", "t", many);
  ASSERT_OK(found);
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].values[1], "lyon");
  ASSERT_ERROR(ms_->GetPartitionsByNames("d", "nope", {"year=1/city=x"}), ErrorCode::kNotFound);

  MetastoreOp alter;
  alter.kind = Kind::kAlterPartition;
  alter.partition = (*parts)[2];
  alter.partition.parameters["numRows"] = "99";
  ASSERT_OK(Apply(alter));
  auto altered = store()->GetPartitionsByNames("d", "t", {"year=2024/city=paris"});
  ASSERT_OK(altered);
  ASSERT_EQ(altered->size(), 1u);
  EXPECT_EQ((*altered)[0].parameters.at("numRows"), "99");
  alter.partition.values = {"2024", "rome"};
  ASSERT_ERROR(Apply(alter), ErrorCode::kNotFound);

  MetastoreOp drop = TableOp(Kind::kDropPartition, "d", "t");
  drop.partition_name = "year=2023/city=a%2Fb";
  ASSERT_OK(Apply(drop));
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
  EXPECT_EQ(ms_->GetPartitions("d", "t")->size(), 2u);
  drop.table_name = "nope";
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
}

TEST_F(RemoteMetastoreTest, ColumnStats) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  hive::Table table = MakeTable("d", "t", {"k"});
  table.sd.cols.push_back(table.sd.cols[0]);
  table.sd.cols[1].name = "name";
  table.sd.cols[1].type = "string";
  ASSERT_OK(Apply(CreateTableOp(table)));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2"}))));
  EXPECT_TRUE(ms_->GetTableColumnStats("d", "t")->empty());

  MetastoreOp table_level = TableOp(Kind::kSetTableColumnStats, "d", "t");
  table_level.column_stats = {MakeLongStats("name", 2), MakeLongStats("id", 10)};
  table_level.column_stats[0].colType = "string";
  table_level.column_stats[0].statsData.__set_stringStats(hive::StringColumnStatsData());
  table_level.column_stats[0].statsData.__isset.longStats = false;
  ASSERT_OK(Apply(table_level));
  auto stats = ms_->GetTableColumnStats("d", "t");
  ASSERT_OK(stats);
  ASSERT_EQ(stats->size(), 2u);  // ordered by column
  EXPECT_EQ((*stats)[0].colName, "id");
  EXPECT_TRUE(Same((*stats)[0], store()->GetTableColumnStats("d", "t")->at(0)));
  EXPECT_EQ((*stats)[1].colName, "name");
  ASSERT_ERROR(ms_->GetTableColumnStats("d", "nope"), ErrorCode::kNotFound);

  MetastoreOp part_level = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  part_level.partition_name = "k=1";
  part_level.column_stats = {MakeLongStats("id", 4)};
  ASSERT_OK(Apply(part_level));
  auto p1 = ms_->GetPartitionColumnStats("d", "t", "k=1");
  ASSERT_OK(p1);
  ASSERT_EQ(p1->size(), 1u);
  EXPECT_EQ((*p1)[0].statsData.longStats.numDVs, 4);
  EXPECT_TRUE(ms_->GetPartitionColumnStats("d", "t", "k=2")->empty());
  ASSERT_ERROR(ms_->GetPartitionColumnStats("d", "t", "k=3"), ErrorCode::kNotFound);
  ASSERT_ERROR(ms_->GetPartitionColumnStats("d", "nope", "k=1"), ErrorCode::kNotFound);
  part_level.partition_name = "k=3";
  ASSERT_ERROR(Apply(part_level), ErrorCode::kNotFound);
  auto many = ms_->GetPartitionsColumnStats("d", "t", {"k=1", "k=2"});
  ASSERT_OK(many);
  EXPECT_EQ(many->size(), 1u);
  EXPECT_EQ(many->count("k=1"), 1u);

  MetastoreOp one = TableOp(Kind::kDeleteColumnStat, "d", "t");
  one.column_name = "name";
  ASSERT_OK(Apply(one));
  EXPECT_EQ(store()->GetTableColumnStats("d", "t")->size(), 1u);
  ASSERT_ERROR(Apply(one), ErrorCode::kNotFound);

  ASSERT_OK(Apply(TableOp(Kind::kDeleteColumnStats, "d", "t")));
  EXPECT_TRUE(store()->GetTableColumnStats("d", "t")->empty());
  EXPECT_TRUE(store()->GetPartitionColumnStats("d", "t", "k=1")->empty());
  ASSERT_ERROR(Apply(TableOp(Kind::kDeleteColumnStats, "d", "nope")), ErrorCode::kNotFound);
}

TEST_F(RemoteMetastoreTest, FunctionsRoundTripLosslessly) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  ASSERT_ERROR(ms_->GetFunctions("nodb"), ErrorCode::kNotFound);
  EXPECT_TRUE(ms_->GetFunctions("d")->empty());
  MetastoreOp create;
  create.kind = Kind::kCreateFunction;
  create.function = MakeFunction("d", "g");
  create.function.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  create.function.__set_last_modified_time(1700000000000);
  ASSERT_OK(Apply(create));
  impala::TFunction overload = MakeFunction("d", "f");
  overload.__set_signature("f(STRING)");
  create.function = MakeFunction("d", "f");
  ASSERT_OK(Apply(create));
  create.function = overload;
  ASSERT_OK(Apply(create));
  ASSERT_ERROR(Apply(create), ErrorCode::kAlreadyExists);
  create.function.name.db_name = "nodb";
  ASSERT_ERROR(Apply(create), ErrorCode::kNotFound);

  auto fns = ms_->GetFunctions("d");
  ASSERT_OK(fns);
  auto truth = store()->GetFunctions("d");
  ASSERT_OK(truth);
  ASSERT_EQ(fns->size(), 3u);  // ordered by signature
  EXPECT_EQ((*fns)[0].signature, "f(INT)");
  EXPECT_EQ((*fns)[1].signature, "f(STRING)");
  EXPECT_EQ((*fns)[2].signature, "g(INT)");
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(Same((*fns)[i], (*truth)[i]));

  MetastoreOp drop;
  drop.kind = Kind::kDropFunction;
  drop.db_name = "d";
  drop.function_signature = "f(INT)";
  ASSERT_OK(Apply(drop));
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
  EXPECT_EQ(store()->GetFunctions("d")->size(), 2u);
}

TEST_F(RemoteMetastoreTest, NotificationLog) {
  const int64_t start = *ms_->CurrentNotificationEventId();
  EXPECT_EQ(start, *store()->CurrentNotificationEventId());
  auto first = Apply(CreateDbOp(MakeDb("d")));
  ASSERT_OK(first);
  EXPECT_EQ(*first, start + 1) << "a lone commit claims its own event id";
  CreateTable("d", "t", {"k"});
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), start + 3);

  auto events = ms_->GetNextNotifications(start, 100);
  ASSERT_OK(events);
  auto truth = store()->GetNextNotifications(start, 100);
  ASSERT_OK(truth);
  ASSERT_EQ(events->size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(Same((*events)[i], (*truth)[i]));
  EXPECT_EQ((*events)[0].eventType, "CREATE_DATABASE");
  EXPECT_EQ((*events)[2].eventType, "ADD_PARTITION");

  auto page = ms_->GetNextNotifications(start + 1, 1);
  ASSERT_OK(page);
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].eventId, start + 2);
  EXPECT_TRUE(ms_->GetNextNotifications(start + 3, 10)->empty());
  ASSERT_ERROR(ms_->GetNextNotifications(0, 0), ErrorCode::kInvalidArgument);
}

TEST_F(RemoteMetastoreTest, TableVersionsAreNotImplemented) {
  CreateTable("d", "t");
  ASSERT_ERROR(ms_->GetCurrentTableVersion("d", "t"), ErrorCode::kNotImplemented);
  ASSERT_ERROR(ms_->ListArchivedTableVersions("d", "t", 0, 10), ErrorCode::kNotImplemented);
  MetastoreOp version = TableOp(Kind::kNewTableVersion, "d", "t");
  // Rejected before anything of the txn is applied.
  auto r = ms_->Commit(Txn({CreateDbOp(MakeDb("other")), version}));
  ASSERT_ERROR(r, ErrorCode::kNotImplemented);
  EXPECT_NE(r.status().message().find("nothing applied"), std::string::npos)
      << r.status().ToString();
  ASSERT_ERROR(store()->GetDatabase("other"), ErrorCode::kNotFound);
}

TEST_F(RemoteMetastoreTest, RejectsNamesThatAreNotLowerCaseOrEmptyBeforeApplyingAnything) {
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb("Mixed"))), ErrorCode::kInvalidArgument);
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb(""))), ErrorCode::kInvalidArgument);
  CreateTable("d", "t");
  const int64_t events = *store()->CurrentNotificationEventId();
  MetastoreOp stats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  stats.column_stats = {MakeLongStats("ID", 3)};
  ASSERT_ERROR(ms_->Commit(Txn({CreateDbOp(MakeDb("fine")), stats})), ErrorCode::kInvalidArgument);
  ASSERT_ERROR(ms_->Commit(Txn({CreateDbOp(MakeDb("fine")), CreateTableOp(MakeTable("d", "T"))})),
               ErrorCode::kInvalidArgument);
  EXPECT_EQ(*store()->CurrentNotificationEventId(), events) << "something was applied";
  EXPECT_EQ(*ms_->Commit(MetastoreTxn{}), 0);
}

TEST_F(RemoteMetastoreTest, OpenMetastoreFromUriPicksTheBackend) {
  auto embedded = OpenMetastoreFromUri("sqlite:" + dir_.File("local.db"));
  ASSERT_OK(embedded);
  EXPECT_EQ(dynamic_cast<HmsRemoteMetastore*>(embedded->get()), nullptr);
  auto remote = OpenMetastoreFromUri("thrift://127.0.0.1:" + std::to_string(hms_->port()) +
                                     "?pool_size=2");
  ASSERT_OK(remote);
  auto* backend = dynamic_cast<HmsRemoteMetastore*>(remote->get());
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->options().pool_size, 2);
  ASSERT_OK((*remote)->GetAllDatabases());
  for (const char* bad : {"mysql://h:1", "sqlite:", "thrift://h:x", "/tmp/metastore.db"}) {
    auto r = OpenMetastoreFromUri(bad);
    ASSERT_ERROR(r, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().ToString();
  }
}

}  // namespace
}  // namespace ics::catalog
