// The metastore backends (the embedded SQLite file and PostgreSQL), one
// suite for both: every op kind, its precondition errors, txn atomicity,
// renames, and the notification log.
#include <atomic>
#include <cstdio>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/notification_message.h"
#include "common/codec/thrift_serde.h"
#include "tests/external/metastore_backends.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

class MetastoreSuiteTest : public ::testing::TestWithParam<external::MetastoreBackend> {
 protected:
  void SetUp() override {
    auto ms = external::OpenFreshMetastore(GetParam(), dir_.path());
    ASSERT_TRUE(ms.ok()) << ms.status().ToString();
    ms_ = std::move(ms).value();
  }

  Result<int64_t> Apply(MetastoreOp op) { return ms_->Commit(Txn({std::move(op)})); }

  // Creates db `db` and table db.`table` partitioned by `keys`.
  void CreateTable(const std::string& db, const std::string& table,
                   const std::vector<std::string>& keys = {}) {
    if (!ms_->GetDatabase(db).ok()) ASSERT_OK(Apply(CreateDbOp(MakeDb(db))));
    ASSERT_OK(Apply(CreateTableOp(MakeTable(db, table, keys))));
  }

  std::vector<NotificationEvent> AllEvents() {
    auto events = ms_->GetNextNotifications(0, 100000);
    EXPECT_TRUE(events.ok()) << events.status().ToString();
    return events.ok() ? *events : std::vector<NotificationEvent>{};
  }

  TempDir dir_;
  std::unique_ptr<Metastore> ms_;
};

TEST_P(MetastoreSuiteTest, NewStoreIsEmpty) {
  ASSERT_OK(ms_->GetAllDatabases());
  EXPECT_TRUE(ms_->GetAllDatabases()->empty());
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 0);
  EXPECT_TRUE(AllEvents().empty());
  EXPECT_EQ(*ms_->Commit(MetastoreTxn{}), 0);  // an empty txn writes nothing
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 0);
}

TEST_P(MetastoreSuiteTest, DatabaseCrud) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("b"))));
  ASSERT_OK(Apply(CreateDbOp(MakeDb("a", "first"))));
  EXPECT_EQ(*ms_->GetAllDatabases(), (std::vector<std::string>{"a", "b"}));
  ASSERT_OK(ms_->GetDatabase("a"));
  EXPECT_EQ(*ms_->GetDatabase("a"), MakeDb("a", "first"));
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb("a"))), ErrorCode::kAlreadyExists);
  ASSERT_ERROR(ms_->GetDatabase("zz"), ErrorCode::kNotFound);

  MetastoreOp alter;
  alter.kind = Kind::kAlterDatabase;
  alter.database = MakeDb("a", "second");
  ASSERT_OK(Apply(alter));
  EXPECT_EQ(ms_->GetDatabase("a")->description, "second");
  alter.database.name = "zz";
  ASSERT_ERROR(Apply(alter), ErrorCode::kNotFound);
  alter.db_name = "a";  // a rename is not supported
  ASSERT_ERROR(Apply(alter), ErrorCode::kInvalidArgument);

  MetastoreOp drop;
  drop.kind = Kind::kDropDatabase;
  drop.db_name = "a";
  ASSERT_OK(Apply(drop));
  ASSERT_ERROR(ms_->GetDatabase("a"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetAllDatabases(), std::vector<std::string>{"b"});
}

TEST_P(MetastoreSuiteTest, DropDatabaseRequiresItEmpty) {
  CreateTable("d", "t");
  MetastoreOp drop;
  drop.kind = Kind::kDropDatabase;
  drop.db_name = "d";
  ASSERT_ERROR(Apply(drop), ErrorCode::kInvalidArgument);
  ASSERT_OK(Apply(TableOp(Kind::kDropTable, "d", "t")));
  MetastoreOp fn;
  fn.kind = Kind::kCreateFunction;
  fn.function = MakeFunction("d", "f");
  ASSERT_OK(Apply(fn));
  ASSERT_ERROR(Apply(drop), ErrorCode::kInvalidArgument);
  // Dropping the function and the database in one txn works (CASCADE).
  MetastoreOp drop_fn;
  drop_fn.kind = Kind::kDropFunction;
  drop_fn.db_name = "d";
  drop_fn.function_signature = "f(INT)";
  ASSERT_OK(ms_->Commit(Txn({drop_fn, drop})));
  ASSERT_ERROR(ms_->GetDatabase("d"), ErrorCode::kNotFound);
}

TEST_P(MetastoreSuiteTest, TableCrud) {
  ASSERT_ERROR(Apply(CreateTableOp(MakeTable("d", "t"))), ErrorCode::kNotFound);  // no db
  CreateTable("d", "t2");
  CreateTable("d", "t1");
  EXPECT_EQ(*ms_->GetAllTables("d"), (std::vector<std::string>{"t1", "t2"}));
  ASSERT_ERROR(ms_->GetAllTables("nodb"), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetTable("d", "t1"), MakeTable("d", "t1"));
  ASSERT_ERROR(ms_->GetTable("d", "t3"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(CreateTableOp(MakeTable("d", "t1"))), ErrorCode::kAlreadyExists);

  MetastoreOp alter = TableOp(Kind::kAlterTable, "d", "t1");
  alter.table = MakeTable("d", "t1");
  alter.table.owner = "bob";
  ASSERT_OK(Apply(alter));
  EXPECT_EQ(ms_->GetTable("d", "t1")->owner, "bob");
  alter.table_name = "t3";
  alter.table.tableName = "t3";
  ASSERT_ERROR(Apply(alter), ErrorCode::kNotFound);

  ASSERT_OK(Apply(TableOp(Kind::kDropTable, "d", "t1")));
  ASSERT_ERROR(ms_->GetTable("d", "t1"), ErrorCode::kNotFound);
  ASSERT_ERROR(Apply(TableOp(Kind::kDropTable, "d", "t1")), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetAllTables("d"), std::vector<std::string>{"t2"});
}

TEST_P(MetastoreSuiteTest, RejectsNamesThatAreNotLowerCaseOrEmpty) {
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb("Mixed"))), ErrorCode::kInvalidArgument);
  ASSERT_ERROR(Apply(CreateDbOp(MakeDb(""))), ErrorCode::kInvalidArgument);
  CreateTable("d", "t");
  ASSERT_ERROR(Apply(CreateTableOp(MakeTable("d", "T"))), ErrorCode::kInvalidArgument);
  MetastoreOp stats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  stats.column_stats = {MakeLongStats("ID", 3)};
  ASSERT_ERROR(Apply(stats), ErrorCode::kInvalidArgument);
}

TEST_P(MetastoreSuiteTest, PartitionCrud) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))), ErrorCode::kNotFound);
  CreateTable("d", "t", {"year", "city"});
  CreateTable("d", "flat");
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))),
               ErrorCode::kInvalidArgument);  // 1 value for 2 keys
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "flat", {"1"}))),
               ErrorCode::kInvalidArgument);  // unpartitioned table

  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", "paris"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2023", "a/b"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", ""}))));
  ASSERT_ERROR(Apply(AddPartitionOp(MakePartition("d", "t", {"2024", "paris"}))),
               ErrorCode::kAlreadyExists);
  MetastoreOp mismatched = AddPartitionOp(MakePartition("d", "t", {"2025", "x"}));
  mismatched.partition_name = "year=2025/city=y";
  ASSERT_ERROR(Apply(mismatched), ErrorCode::kInvalidArgument);

  auto parts = ms_->GetPartitions("d", "t");
  ASSERT_OK(parts);
  ASSERT_EQ(parts->size(), 3u);  // ordered by name
  EXPECT_EQ((*parts)[0], MakePartition("d", "t", {"2023", "a/b"}));
  EXPECT_EQ((*parts)[1].values, (std::vector<std::string>{"2024", ""}));
  EXPECT_EQ((*parts)[2], MakePartition("d", "t", {"2024", "paris"}));
  ASSERT_ERROR(ms_->GetPartitions("d", "nope"), ErrorCode::kNotFound);
  EXPECT_TRUE(ms_->GetPartitions("d", "flat")->empty());

  auto some = ms_->GetPartitionsByNames(
      "d", "t",
      {"year=2024/city=paris", "year=1999/city=x", "year=2023/city=a%2Fb", "year=2024/city=paris"});
  ASSERT_OK(some);
  ASSERT_EQ(some->size(), 2u);
  EXPECT_EQ((*some)[0].values[1], "a/b");
  EXPECT_EQ((*some)[1].values[1], "paris");
  auto nulls = ms_->GetPartitionsByNames("d", "t", {"year=2024/city=__HIVE_DEFAULT_PARTITION__"});
  ASSERT_OK(nulls);
  EXPECT_EQ(nulls->size(), 1u);

  MetastoreOp alter;
  alter.kind = Kind::kAlterPartition;
  alter.partition = MakePartition("d", "t", {"2024", "paris"});
  alter.partition.parameters["numRows"] = "99";
  ASSERT_OK(Apply(alter));
  auto altered = ms_->GetPartitionsByNames("d", "t", {"year=2024/city=paris"});
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

// A table large enough that its partition rows are read on a thread of
// their own while they are taken (sql_metastore.cc): every row arrives, in
// order, whether taken in order, out of order, skipped, or abandoned.
TEST_P(MetastoreSuiteTest, LargePartitionReadIsStreamedInOneSnapshot) {
  CreateTable("d", "big", {"k"});
  constexpr int kParts = 3000;
  std::vector<MetastoreOp> adds;
  for (int i = 0; i < kParts; ++i) {
    char v[16];
    std::snprintf(v, sizeof(v), "%05d", i);
    adds.push_back(AddPartitionOp(MakePartition("d", "big", {v})));
  }
  ASSERT_OK(ms_->Commit(Txn(std::move(adds))));

  auto all = ms_->GetPartitions("d", "big");
  ASSERT_OK(all);
  ASSERT_EQ(all->size(), static_cast<size_t>(kParts));
  for (int i = 0; i < kParts; ++i) {
    char v[16];
    std::snprintf(v, sizeof(v), "%05d", i);
    ASSERT_EQ((*all)[i], MakePartition("d", "big", {v}));
  }

  // Taken from the end first (each take waits for its row), every third
  // skipped, by two threads at once.
  auto reader = ms_->ReadPartitions("d", "big");
  ASSERT_OK(reader);
  PartitionReader* r = reader->get();
  ASSERT_EQ(r->size(), static_cast<size_t>(kParts));
  std::atomic<int> decoded{0};
  auto take = [&](int from, int step) {
    for (int i = from; i >= 0 && i < kParts; i += step) {
      auto stored = r->Peek(i);
      ASSERT_TRUE(stored.has_value());
      char name[32];
      std::snprintf(name, sizeof(name), "k=%05d", i);
      ASSERT_EQ(stored->name, name);
      if (i % 3 == 0) {
        r->Skip(i);
        continue;
      }
      auto p = r->Take(i);
      ASSERT_OK(p);
      ASSERT_EQ(p->values[0], std::string(name + 2));
      ++decoded;
    }
  };
  std::thread down(take, kParts - 1, -2);  // odd indexes, last first
  take(0, 2);                              // even indexes
  down.join();
  EXPECT_EQ(decoded.load(), kParts - kParts / 3);

  // Abandoned after one row: the read stops and gives its connection back.
  for (int round = 0; round < 20; ++round) {
    auto partial = ms_->ReadPartitions("d", "big");
    ASSERT_OK(partial);
    ASSERT_OK((*partial)->Take(0));
  }
  ASSERT_ERROR(ms_->ReadPartitions("d", "nope"), ErrorCode::kNotFound);
  EXPECT_EQ(ms_->GetPartitions("d", "big")->size(), static_cast<size_t>(kParts));
}

TEST_P(MetastoreSuiteTest, FunctionCrud) {
  MetastoreOp create;
  create.kind = Kind::kCreateFunction;
  create.function = MakeFunction("d", "f");
  ASSERT_ERROR(Apply(create), ErrorCode::kNotFound);  // no db
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  ASSERT_OK(Apply(create));
  ASSERT_ERROR(Apply(create), ErrorCode::kAlreadyExists);
  create.function = MakeFunction("d", "a");
  ASSERT_OK(Apply(create));
  create.function.signature.clear();
  ASSERT_ERROR(Apply(create), ErrorCode::kInvalidArgument);

  auto fns = ms_->GetFunctions("d");
  ASSERT_OK(fns);
  ASSERT_EQ(fns->size(), 2u);  // ordered by signature
  EXPECT_EQ((*fns)[0], MakeFunction("d", "a"));
  EXPECT_EQ((*fns)[1], MakeFunction("d", "f"));
  ASSERT_ERROR(ms_->GetFunctions("nodb"), ErrorCode::kNotFound);

  MetastoreOp drop;
  drop.kind = Kind::kDropFunction;
  drop.db_name = "d";
  drop.function_signature = "f(INT)";
  ASSERT_OK(Apply(drop));
  ASSERT_ERROR(Apply(drop), ErrorCode::kNotFound);
  EXPECT_EQ(ms_->GetFunctions("d")->size(), 1u);
}

TEST_P(MetastoreSuiteTest, ColumnStatsCrud) {
  MetastoreOp set = TableOp(Kind::kSetTableColumnStats, "d", "t");
  set.column_stats = {MakeLongStats("b", 5), MakeLongStats("a", 7)};
  ASSERT_ERROR(Apply(set), ErrorCode::kNotFound);  // no table
  ASSERT_ERROR(ms_->GetTableColumnStats("d", "t"), ErrorCode::kNotFound);
  CreateTable("d", "t", {"p"});
  ASSERT_OK(Apply(set));
  set.column_stats = {MakeLongStats("b", 50)};  // upsert by column
  ASSERT_OK(Apply(set));
  auto stats = ms_->GetTableColumnStats("d", "t");
  ASSERT_OK(stats);
  ASSERT_EQ(stats->size(), 2u);
  EXPECT_EQ((*stats)[0], MakeLongStats("a", 7));
  EXPECT_EQ((*stats)[1], MakeLongStats("b", 50));

  MetastoreOp pset = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  pset.partition_name = "p=1";
  pset.column_stats = {MakeLongStats("a", 1)};
  ASSERT_ERROR(Apply(pset), ErrorCode::kNotFound);  // no partition
  ASSERT_ERROR(ms_->GetPartitionColumnStats("d", "t", "p=1"), ErrorCode::kNotFound);
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"2"}))));
  ASSERT_OK(Apply(pset));
  pset.partition_name = "p=2";
  ASSERT_OK(Apply(pset));
  EXPECT_EQ(*ms_->GetPartitionColumnStats("d", "t", "p=1"),
            std::vector<hive::ColumnStatisticsObj>{MakeLongStats("a", 1)});

  // Dropping a partition drops its stats.
  MetastoreOp drop = TableOp(Kind::kDropPartition, "d", "t");
  drop.partition_name = "p=1";
  ASSERT_OK(Apply(drop));
  ASSERT_OK(Apply(AddPartitionOp(MakePartition("d", "t", {"1"}))));
  EXPECT_TRUE(ms_->GetPartitionColumnStats("d", "t", "p=1")->empty());

  // kDeleteColumnStats drops table and partition stats.
  ASSERT_OK(Apply(TableOp(Kind::kDeleteColumnStats, "d", "t")));
  EXPECT_TRUE(ms_->GetTableColumnStats("d", "t")->empty());
  EXPECT_TRUE(ms_->GetPartitionColumnStats("d", "t", "p=2")->empty());
  ASSERT_ERROR(Apply(TableOp(Kind::kDeleteColumnStats, "d", "nope")), ErrorCode::kNotFound);
}

TEST_P(MetastoreSuiteTest, DropTableDropsPartitionsAndStats) {
  CreateTable("d", "t", {"p"});
  MetastoreOp tstats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  tstats.column_stats = {MakeLongStats("id", 3)};
  MetastoreOp pstats = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  pstats.partition_name = "p=x";
  pstats.column_stats = {MakeLongStats("id", 2)};
  ASSERT_OK(ms_->Commit(Txn({AddPartitionOp(MakePartition("d", "t", {"x"})), tstats, pstats})));
  ASSERT_OK(Apply(TableOp(Kind::kDropTable, "d", "t")));
  ASSERT_OK(Apply(CreateTableOp(MakeTable("d", "t", {"p"}))));
  EXPECT_TRUE(ms_->GetPartitions("d", "t")->empty());
  EXPECT_TRUE(ms_->GetTableColumnStats("d", "t")->empty());
}

TEST_P(MetastoreSuiteTest, RenameMovesPartitionsAndStats) {
  CreateTable("d", "t", {"p"});
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d2"))));
  MetastoreOp tstats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  tstats.column_stats = {MakeLongStats("id", 3)};
  MetastoreOp pstats = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  pstats.partition_name = "p=x";
  pstats.column_stats = {MakeLongStats("id", 2)};
  ASSERT_OK(ms_->Commit(Txn({AddPartitionOp(MakePartition("d", "t", {"x"})),
                             AddPartitionOp(MakePartition("d", "t", {"y"})), tstats, pstats})));

  MetastoreOp rename = TableOp(Kind::kAlterTable, "d", "t");
  rename.table = MakeTable("d2", "u", {"p"});
  auto last = Apply(rename);
  ASSERT_OK(last);

  ASSERT_ERROR(ms_->GetTable("d", "t"), ErrorCode::kNotFound);
  ASSERT_ERROR(ms_->GetPartitions("d", "t"), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetTable("d2", "u"), MakeTable("d2", "u", {"p"}));
  auto parts = ms_->GetPartitions("d2", "u");
  ASSERT_OK(parts);
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0], MakePartition("d2", "u", {"x"}));  // names follow the table
  EXPECT_EQ((*parts)[1], MakePartition("d2", "u", {"y"}));
  EXPECT_EQ(ms_->GetTableColumnStats("d2", "u")->size(), 1u);
  EXPECT_EQ(ms_->GetPartitionColumnStats("d2", "u", "p=x")->size(), 1u);
  EXPECT_TRUE(ms_->GetAllTables("d")->empty());

  // The ALTER_TABLE event names both the new and the old table.
  auto events = ms_->GetNextNotifications(*last - 1, 10);
  ASSERT_OK(events);
  ASSERT_EQ(events->size(), 1u);
  const NotificationEvent& e = events->front();
  EXPECT_EQ(e.eventType, "ALTER_TABLE");
  EXPECT_EQ(e.dbName, "d2");
  EXPECT_EQ(e.tableName, "u");
  auto msg = DecodeNotificationMessage(e.message);
  ASSERT_OK(msg);
  EXPECT_EQ(msg->old_db, "d");
  EXPECT_EQ(msg->old_table, "t");

  // Renaming onto an existing table, into a missing database, or changing
  // the partition keys fails.
  CreateTable("d", "taken", {"p"});
  MetastoreOp bad = TableOp(Kind::kAlterTable, "d2", "u");
  bad.table = MakeTable("d", "taken", {"p"});
  ASSERT_ERROR(Apply(bad), ErrorCode::kAlreadyExists);
  bad.table = MakeTable("nodb", "u", {"p"});
  ASSERT_ERROR(Apply(bad), ErrorCode::kNotFound);
  bad.table = MakeTable("d2", "u", {"q"});
  ASSERT_ERROR(Apply(bad), ErrorCode::kInvalidArgument);
}

TEST_P(MetastoreSuiteTest, FailedOpRollsBackTheWholeTxn) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("base"))));
  const int64_t before = *ms_->CurrentNotificationEventId();
  auto r = ms_->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(MakeTable("d", "t")),
                            CreateTableOp(MakeTable("d", "t"))}));
  ASSERT_ERROR(r, ErrorCode::kAlreadyExists);
  EXPECT_NE(r.status().message().find("op 3 of 3 (CREATE_TABLE)"), std::string::npos)
      << r.status().ToString();
  ASSERT_ERROR(ms_->GetDatabase("d"), ErrorCode::kNotFound);
  EXPECT_EQ(*ms_->GetAllDatabases(), std::vector<std::string>{"base"});
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), before);
  EXPECT_TRUE(ms_->GetNextNotifications(before, 10)->empty());
  // The store still works, and the ids continue without a gap.
  auto ok = ms_->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(MakeTable("d", "t"))}));
  ASSERT_OK(ok);
  EXPECT_EQ(*ok, before + 2);
}

TEST_P(MetastoreSuiteTest, EveryOpAppendsItsEvent) {
  MetastoreOp alter_db;
  alter_db.kind = Kind::kAlterDatabase;
  alter_db.database = MakeDb("d", "x");
  MetastoreOp alter_t = TableOp(Kind::kAlterTable, "d", "t");
  alter_t.table = MakeTable("d", "t", {"p"});
  MetastoreOp alter_p;
  alter_p.kind = Kind::kAlterPartition;
  alter_p.partition = MakePartition("d", "t", {"1"});
  MetastoreOp fn;
  fn.kind = Kind::kCreateFunction;
  fn.function = MakeFunction("d", "f");
  MetastoreOp drop_fn;
  drop_fn.kind = Kind::kDropFunction;
  drop_fn.db_name = "d";
  drop_fn.function_signature = "f(INT)";
  MetastoreOp tstats = TableOp(Kind::kSetTableColumnStats, "d", "t");
  tstats.column_stats = {MakeLongStats("id", 3)};
  MetastoreOp pstats = TableOp(Kind::kSetPartitionColumnStats, "d", "t");
  pstats.partition_name = "p=1";
  pstats.column_stats = {MakeLongStats("id", 2)};
  MetastoreOp drop_p = TableOp(Kind::kDropPartition, "d", "t");
  drop_p.partition_name = "p=1";
  MetastoreOp drop_db;
  drop_db.kind = Kind::kDropDatabase;
  drop_db.db_name = "d";

  const std::vector<MetastoreOp> ops = {CreateDbOp(MakeDb("d")),
                                        alter_db,
                                        CreateTableOp(MakeTable("d", "t", {"p"})),
                                        alter_t,
                                        AddPartitionOp(MakePartition("d", "t", {"1"})),
                                        alter_p,
                                        fn,
                                        drop_fn,
                                        tstats,
                                        pstats,
                                        TableOp(Kind::kDeleteColumnStats, "d", "t"),
                                        drop_p,
                                        TableOp(Kind::kDropTable, "d", "t"),
                                        drop_db};
  // Half in one txn, half op by op: both log one event per op, in order.
  ASSERT_OK(ms_->Commit(Txn(std::vector<MetastoreOp>(ops.begin(), ops.begin() + 7))));
  for (size_t i = 7; i < ops.size(); ++i) ASSERT_OK(Apply(ops[i]));

  const std::vector<std::string> types = {"CREATE_DATABASE",
                                          "ALTER_DATABASE",
                                          "CREATE_TABLE",
                                          "ALTER_TABLE",
                                          "ADD_PARTITION",
                                          "ALTER_PARTITION",
                                          "CREATE_FUNCTION",
                                          "DROP_FUNCTION",
                                          "UPDATE_TABLE_COLUMN_STAT",
                                          "UPDATE_PARTITION_COLUMN_STAT",
                                          "DELETE_TABLE_COLUMN_STAT",
                                          "DROP_PARTITION",
                                          "DROP_TABLE",
                                          "DROP_DATABASE"};
  const auto events = AllEvents();
  ASSERT_EQ(events.size(), types.size());
  for (size_t i = 0; i < events.size(); ++i) {
    const NotificationEvent& e = events[i];
    SCOPED_TRACE(types[i]);
    EXPECT_EQ(e.eventId, static_cast<int64_t>(i + 1));
    EXPECT_EQ(e.eventType, types[i]);
    EXPECT_GT(e.eventTime, 0);
    EXPECT_EQ(e.dbName, "d");
    auto msg = DecodeNotificationMessage(e.message);
    ASSERT_OK(msg);
    EXPECT_EQ(msg->db, "d");
    const bool db_level = types[i].find("DATABASE") != std::string::npos ||
                          types[i].find("FUNCTION") != std::string::npos;
    EXPECT_EQ(e.__isset.tableName, !db_level);
    EXPECT_EQ(msg->table, db_level ? "" : "t");
    const bool has_object = types[i].rfind("DROP", 0) != 0 && types[i].rfind("DELETE", 0) != 0;
    EXPECT_EQ(msg->object.has_value(), has_object);
  }
  // Objects decode to what was written.
  auto table = DeserializeThriftAs<hive::Table>(
      *DecodeNotificationMessage(events[2].message)->object, ThriftProtocol::kCompact);
  ASSERT_OK(table);
  EXPECT_EQ(*table, MakeTable("d", "t", {"p"}));
  auto add = *DecodeNotificationMessage(events[4].message);
  EXPECT_EQ(add.partition, "p=1");
  EXPECT_EQ(*DeserializeThriftAs<hive::Partition>(*add.object, ThriftProtocol::kCompact),
            MakePartition("d", "t", {"1"}));
  EXPECT_EQ(DecodeNotificationMessage(events[6].message)->function, "f(INT)");
  auto pstat_msg = *DecodeNotificationMessage(events[9].message);
  auto col_stats =
      DeserializeThriftAs<hive::ColumnStatistics>(*pstat_msg.object, ThriftProtocol::kCompact);
  ASSERT_OK(col_stats);
  EXPECT_FALSE(col_stats->statsDesc.isTblLevel);
  EXPECT_EQ(col_stats->statsDesc.partName, "p=1");
  EXPECT_EQ(col_stats->statsObj, pstats.column_stats);
}

TEST_P(MetastoreSuiteTest, NotificationPaging) {
  int64_t last = 0;
  for (int i = 0; i < 25; ++i) {
    auto id = Apply(CreateDbOp(MakeDb("d" + std::to_string(i))));
    ASSERT_OK(id);
    EXPECT_EQ(*id, last + 1);  // Commit returns the id of its last event
    last = *id;
  }
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 25);
  int64_t after = 0;
  std::vector<size_t> pages;
  while (true) {
    auto page = ms_->GetNextNotifications(after, 10);
    ASSERT_OK(page);
    pages.push_back(page->size());
    if (page->empty()) break;
    for (const NotificationEvent& e : *page) EXPECT_EQ(e.eventId, ++after);
  }
  EXPECT_EQ(pages, (std::vector<size_t>{10, 10, 5, 0}));
  EXPECT_TRUE(ms_->GetNextNotifications(1000, 10)->empty());
  ASSERT_ERROR(ms_->GetNextNotifications(0, 0), ErrorCode::kInvalidArgument);
  // A multi-op txn returns the id of its last event.
  auto two = ms_->Commit(Txn({CreateDbOp(MakeDb("x")), CreateDbOp(MakeDb("y"))}));
  ASSERT_OK(two);
  EXPECT_EQ(*two, 27);
}

// Hive 4's notification filters, applied where the backend reads; the
// interface's default (paging and filtering) gives the same answer.
TEST_P(MetastoreSuiteTest, NotificationFiltersSelectWhereTheyRead) {
  CreateTable("a", "t1");
  CreateTable("a", "t2");
  CreateTable("a", "t3");
  CreateTable("b", "t1");
  // Ids: 1 CREATE_DATABASE a, 2..4 CREATE_TABLE a.t1..t3, 5 CREATE_DATABASE b, 6 b.t1.
  auto ids = [&](int64_t after, int max, const NotificationFilter& f) {
    std::vector<int64_t> out;
    auto got = ms_->GetMatchingNotifications(after, max, f);
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    auto base = ms_->Metastore::GetMatchingNotifications(after, max, f);
    EXPECT_TRUE(base.ok()) << base.status().ToString();
    if (!got.ok() || !base.ok()) return out;
    for (const NotificationEvent& e : *got) out.push_back(e.eventId);
    std::vector<int64_t> base_ids;
    for (const NotificationEvent& e : *base) base_ids.push_back(e.eventId);
    EXPECT_EQ(out, base_ids) << "the default implementation disagrees";
    return out;
  };
  NotificationFilter skip;
  skip.skip_types = {"CREATE_DATABASE"};
  EXPECT_EQ(ids(0, 100, skip), (std::vector<int64_t>{2, 3, 4, 6}));
  NotificationFilter db_a;
  db_a.db = "a";
  EXPECT_EQ(ids(0, 100, db_a), (std::vector<int64_t>{1, 2, 3, 4}));
  NotificationFilter tables;
  tables.db = "a";
  tables.tables = {"t2", "t3", "nope"};  // three names: padded placeholders
  EXPECT_EQ(ids(0, 100, tables), (std::vector<int64_t>{3, 4}));
  // max_events counts matching events; paging continues after the last one.
  EXPECT_EQ(ids(0, 1, tables), std::vector<int64_t>{3});
  EXPECT_EQ(ids(3, 1, tables), std::vector<int64_t>{4});
  EXPECT_TRUE(ids(4, 10, tables).empty());
  NotificationFilter both;
  both.skip_types = {"CREATE_TABLE"};
  both.db = "b";
  EXPECT_EQ(ids(0, 100, both), std::vector<int64_t>{5});
  EXPECT_EQ(ids(0, 100, NotificationFilter()), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  ASSERT_ERROR(ms_->GetMatchingNotifications(0, 0, db_a), ErrorCode::kInvalidArgument);
}

TEST_P(MetastoreSuiteTest, ConcurrentCommitsAndReads) {
  ASSERT_OK(Apply(CreateDbOp(MakeDb("d"))));
  constexpr int kThreads = 4;
  constexpr int kTablesPerThread = 10;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kTablesPerThread; ++i) {
        const std::string name = "t" + std::to_string(t) + "_" + std::to_string(i);
        if (!ms_->Commit(Txn({CreateTableOp(MakeTable("d", name, {"p"})),
                              AddPartitionOp(MakePartition("d", name, {"1"}))}))
                 .ok()) {
          ++failures;
        }
        if (!ms_->GetTable("d", name).ok() || !ms_->GetAllTables("d").ok() ||
            !ms_->GetNextNotifications(0, 5).ok()) {
          ++failures;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(ms_->GetAllTables("d")->size(), static_cast<size_t>(kThreads * kTablesPerThread));
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 1 + 2 * kThreads * kTablesPerThread);
}

INSTANTIATE_TEST_SUITE_P(Backends, MetastoreSuiteTest,
                         ::testing::ValuesIn(external::AllMetastoreBackends()),
                         external::MetastoreBackendName);

}  // namespace
}  // namespace ics::catalog
