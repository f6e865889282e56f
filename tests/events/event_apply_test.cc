// Each event type written by an external writer (a second metastore handle)
// is applied to the catalog by the event processor.
#include <set>

#include "tests/events/events_test_util.h"

namespace ics::catalog::testing {
namespace {

using Kind = MetastoreOp::Kind;

std::set<std::string> PartitionNames(const TableState& t) {
  std::set<std::string> out;
  for (const auto& [id, p] : t.partitions) out.insert(std::string(p->name()));
  return out;
}

TEST_F(EventsTest, CreateAlterDropDatabase) {
  const int64_t v0 = catalog_->version();
  ExternalCreateDb("ext");
  Poll();
  ASSERT_NE(catalog_->GetDatabase("ext"), nullptr);
  EXPECT_GT(catalog_->version(), v0);
  EXPECT_EQ(Stats().events_applied, 1);

  MetastoreOp alter = Op(Kind::kAlterDatabase);
  alter.database = MakeDb("ext", "changed outside");
  ExternalCommit({alter});
  Poll();
  EXPECT_EQ(catalog_->GetDatabase("ext")->hms.description, "changed outside");

  MetastoreOp drop = Op(Kind::kDropDatabase);
  drop.db_name = "ext";
  ExternalCommit({drop});
  Poll();
  EXPECT_EQ(catalog_->GetDatabase("ext"), nullptr);
  EXPECT_EQ(Stats().events_applied, 3);
  EXPECT_EQ(Stats().errors, 0);
  EXPECT_EQ(Stats().lag_events, 0);
}

TEST_F(EventsTest, DropDatabaseCascadeInOneTxn) {
  ExternalCreateDb("d");
  ExternalCreateTable("d", "t", false);
  Poll();
  ASSERT_NE(catalog_->GetTable("d", "t"), nullptr);
  MetastoreOp drop_t = Op(Kind::kDropTable);
  drop_t.db_name = "d";
  drop_t.table_name = "t";
  MetastoreOp drop_d = Op(Kind::kDropDatabase);
  drop_d.db_name = "d";
  ExternalCommit({drop_t, drop_d});
  Poll();
  EXPECT_EQ(catalog_->GetDatabase("d"), nullptr);
  EXPECT_EQ(catalog_->GetTable("d", "t"), nullptr);
}

TEST_F(EventsTest, CreateTableAddsItUnloadedWithItsMetastoreObject) {
  ExternalCreateDb("d");
  ExternalCreateTable("d", "t", true);
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->loaded);
  EXPECT_EQ(t->hms.owner, "external");
  EXPECT_EQ(t->hms.partitionKeys.size(), 1u);
  // It loads on first use, from the metastore.
  auto loaded = loads_->GetLoaded("d", "t");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE((*loaded)->loaded);
}

TEST_F(EventsTest, TableInADatabaseTheCatalogDoesNotKnowBringsTheDatabase) {
  // The database event is processed as part of the same batch; even if it
  // were not, the table event adds the database from the metastore.
  ExternalCreateDb("d");
  ExternalCreateTable("d", "t", false);
  Poll();
  EXPECT_NE(catalog_->GetDatabase("d"), nullptr);
  EXPECT_NE(catalog_->GetTable("d", "t"), nullptr);
}

TEST_F(EventsTest, AlterTableUpdatesALoadedTableKeepingItsPartitions) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  hive::Table changed = *external_->GetTable("d", "t");
  hive::FieldSchema extra;
  extra.name = "extra";
  extra.type = "bigint";
  changed.sd.cols.push_back(extra);
  changed.parameters["comment"] = "from outside";
  MetastoreOp alter = Op(Kind::kAlterTable);
  alter.db_name = "d";
  alter.table_name = "t";
  alter.table = changed;
  ExternalCommit({alter});
  Poll();
  TablePtr after = catalog_->GetTable("d", "t");
  ASSERT_NE(after, nullptr);
  EXPECT_TRUE(after->loaded);
  EXPECT_GT(after->version, before->version);
  ASSERT_EQ(after->columns.size(), 3u);
  EXPECT_EQ(after->columns[2].columnName, "extra");
  EXPECT_EQ(after->hms.parameters.at("comment"), "from outside");
  // The same partition objects (ids), not a reload.
  ASSERT_EQ(after->partitions.size(), before->partitions.size());
  for (const auto& [id, p] : before->partitions) EXPECT_EQ(after->partitions.count(id), 1u);
  EXPECT_EQ(Stats().invalidations, 0);
}

TEST_F(EventsTest, RenameDropsTheOldNameAndAddsTheNewOne) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  ExternalCreateDb("d2");
  hive::Table renamed = *external_->GetTable("d", "t");
  renamed.dbName = "d2";
  renamed.tableName = "t2";
  MetastoreOp alter = Op(Kind::kAlterTable);
  alter.db_name = "d";
  alter.table_name = "t";
  alter.table = renamed;
  ExternalCommit({alter});
  Poll();
  EXPECT_EQ(catalog_->GetTable("d", "t"), nullptr);
  TablePtr t2 = catalog_->GetTable("d2", "t2");
  ASSERT_NE(t2, nullptr);
  EXPECT_FALSE(t2->loaded);
  auto loaded = loads_->GetLoaded("d2", "t2");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(PartitionNames(**loaded), (std::set<std::string>{"p=a", "p=b"}));
  // The old name was published as a deletion.
  bool deleted = false;
  for (const Deletion& d : catalog_->CollectDelta(before->version).deletions) {
    if (d.Object().__isset.table && d.Object().table.tbl_name == "t" &&
        d.Object().table.db_name == "d") {
      deleted = true;
    }
  }
  EXPECT_TRUE(deleted);
}

TEST_F(EventsTest, DropOfALoadedTable) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  MetastoreOp drop = Op(Kind::kDropTable);
  drop.db_name = "d";
  drop.table_name = "t";
  ExternalCommit({drop});
  Poll();
  EXPECT_EQ(catalog_->GetTable("d", "t"), nullptr);
  EXPECT_NE(catalog_->GetDatabase("d"), nullptr);
  size_t table_deletions = 0;
  for (const Deletion& d : catalog_->CollectDelta(before->version).deletions) {
    if (d.Object().type == impala::TCatalogObjectType::TABLE) ++table_deletions;
  }
  EXPECT_EQ(table_deletions, 1u);
}

TEST_F(EventsTest, AddAlterDropPartitionOfALoadedTableArePrecise) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  const int64_t id_a = before->partitions_by_name.Find("p=a")->id;
  const int64_t id_b = before->partitions_by_name.Find("p=b")->id;

  ExternalCommit({AddPartitionOp("d", "t", "c", /*files=*/3)});
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_TRUE(t->loaded);
  EXPECT_EQ(PartitionNames(*t), (std::set<std::string>{"p=a", "p=b", "p=c"}));
  EXPECT_EQ(t->partitions_by_name.Find("p=a")->id, id_a);  // untouched
  EXPECT_EQ(t->partitions_by_name.Find("p=b")->id, id_b);
  const PartitionState* c = t->FindPartition("p=c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->file_descs.size(), 3u);  // its directory was listed

  // ALTER PARTITION: replaced (new id, prev_id = old), directory re-listed.
  std::ofstream(TableDir("d", "t") + "/p=a/more.txt") << "3,c\n";
  hive::Partition pa = external_->GetPartitionsByNames("d", "t", {"p=a"})->at(0);
  pa.parameters["numRows"] = "42";
  MetastoreOp alter = Op(Kind::kAlterPartition);
  alter.partition = pa;
  ExternalCommit({alter});
  Poll();
  t = catalog_->GetTable("d", "t");
  const PartitionState* a = t->FindPartition("p=a");
  ASSERT_NE(a, nullptr);
  EXPECT_NE(a->id, id_a);
  EXPECT_EQ(a->prev_id, id_a);
  EXPECT_EQ(a->num_rows(), 42);
  EXPECT_EQ(a->file_descs.size(), 2u);
  EXPECT_EQ(t->partitions_by_name.Find("p=b")->id, id_b);

  MetastoreOp drop = Op(Kind::kDropPartition);
  drop.db_name = "d";
  drop.table_name = "t";
  drop.partition_name = "p=b";
  ExternalCommit({drop});
  Poll();
  t = catalog_->GetTable("d", "t");
  EXPECT_EQ(PartitionNames(*t), (std::set<std::string>{"p=a", "p=c"}));
  EXPECT_TRUE(t->loaded);
  EXPECT_EQ(Stats().invalidations, 0);
  EXPECT_EQ(Stats().errors, 0);
}

TEST_F(EventsTest, PartitionEventsLeaveAnUnloadedTableUnloaded) {
  ExternalCreateDb("d");
  ExternalCreateTable("d", "t", true);
  Poll();
  const int64_t v = catalog_->version();
  ExternalCommit({AddPartitionOp("d", "t", "x")});
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->loaded);
  EXPECT_EQ(catalog_->version(), v);  // nothing loaded, nothing to publish
  auto loaded = loads_->GetLoaded("d", "t");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(PartitionNames(**loaded), (std::set<std::string>{"p=x"}));
}

TEST_F(EventsTest, CreateAndDropFunction) {
  ExternalCreateDb("d");
  impala::TFunction fn;
  fn.name.__set_db_name("d");
  fn.name.function_name = "f";
  fn.__set_signature("f(INT)");
  fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  fn.__set_has_var_args(false);
  MetastoreOp create = Op(Kind::kCreateFunction);
  create.function = fn;
  ExternalCommit({create});
  Poll();
  FunctionPtr f = catalog_->GetFunction("d", "f(INT)");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fn, fn);
  MetastoreOp drop = Op(Kind::kDropFunction);
  drop.db_name = "d";
  drop.function_signature = "f(INT)";
  ExternalCommit({drop});
  Poll();
  EXPECT_EQ(catalog_->GetFunction("d", "f(INT)"), nullptr);
}

TEST_F(EventsTest, TableColumnStatsReachALoadedTable) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  EXPECT_TRUE(before->column_stats.empty());
  hive::ColumnStatisticsObj s;
  s.colName = "id";
  s.colType = "int";
  hive::LongColumnStatsData longs;
  longs.numNulls = 1;
  longs.numDVs = 7;
  s.statsData.__set_longStats(longs);
  MetastoreOp set = Op(Kind::kSetTableColumnStats);
  set.db_name = "d";
  set.table_name = "t";
  set.column_stats = {s};
  ExternalCommit({set});
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_EQ(t->column_stats.count("id"), 1u);
  EXPECT_EQ(t->column_stats.at("id").statsData.longStats.numDVs, 7);
  EXPECT_EQ(t->partitions.size(), before->partitions.size());

  MetastoreOp del = Op(Kind::kDeleteColumnStats);
  del.db_name = "d";
  del.table_name = "t";
  ExternalCommit({del});
  Poll();
  EXPECT_TRUE(catalog_->GetTable("d", "t")->column_stats.empty());
}

TEST_F(EventsTest, ManyEventsOfOneTableBecomeOneInstall) {
  TablePtr before = LoadedPartitionedTable("d", "t");
  ASSERT_NE(before, nullptr);
  const int64_t versions_before = Stats().catalog_versions;
  const int64_t v0 = catalog_->version();
  for (int i = 0; i < 200; ++i) {
    ExternalCommit({AddPartitionOp("d", "t", "n" + std::to_string(i))});
  }
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_TRUE(t->loaded);
  EXPECT_EQ(t->partitions.size(), 202u);
  EXPECT_EQ(Stats().catalog_versions - versions_before, 1);
  EXPECT_EQ(catalog_->version(), v0 + 1);
  EXPECT_EQ(Stats().lag_events, 0);
}

}  // namespace
}  // namespace ics::catalog::testing
