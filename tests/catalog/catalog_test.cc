#include "catalogd/catalog/catalog.h"

#include <gtest/gtest.h>

#include "catalog_test_util.h"
#include "catalogd/catalog/catalog_objects.h"
#include "common/codec/catalog_topic.h"

namespace ics::catalog {
namespace {

using testing::Db;
using testing::Table;

TEST(CatalogTest, EveryInstallTakesTheNextVersion) {
  Catalog c;
  EXPECT_EQ(c.version(), 0);
  ChangeSet a;
  a.put_databases.push_back(Db("d"));
  EXPECT_EQ(c.Install(std::move(a)), 1);
  ChangeSet b;
  b.put_tables.push_back(Table("d", "t", 2, 1));
  EXPECT_EQ(c.Install(std::move(b)), 2);
  EXPECT_EQ(c.GetDatabase("d")->version, 1);
  EXPECT_EQ(c.GetTable("d", "t")->version, 2);
  // Partitions carry the version of the table state that introduced them.
  for (const auto& [id, p] : c.GetTable("d", "t")->partitions) EXPECT_EQ(p->added_version, 2);
}

TEST(CatalogTest, TablesNeedTheirDatabase) {
  Catalog c;
  ChangeSet cs;
  cs.put_tables.push_back(Table("nodb", "t", 0, 0));
  c.Install(std::move(cs));
  EXPECT_EQ(c.GetTable("nodb", "t"), nullptr);
}

TEST(CatalogTest, DeltaHasChangedObjectsAndDeletions) {
  Catalog c;
  ChangeSet a;
  a.put_databases.push_back(Db("d"));
  a.put_tables.push_back(Table("d", "t1", 1, 1));
  a.put_tables.push_back(Table("d", "t2", 1, 1, 10));
  c.Install(std::move(a));  // v1
  ChangeSet b;
  b.drop_tables.emplace_back("d", "t1");
  c.Install(std::move(b));  // v2
  ChangeSet d;
  d.put_tables.push_back(Table("d", "t2", 2, 1, 20));
  c.Install(std::move(d));  // v3: t2 replaced; its old partition 10 is gone

  CatalogDelta all = c.CollectDelta(0);
  EXPECT_EQ(all.to, 3);
  EXPECT_EQ(all.databases.size(), 1u);
  ASSERT_EQ(all.tables.size(), 1u);
  EXPECT_EQ(all.tables[0]->name, "t2");

  CatalogDelta since1 = c.CollectDelta(1);
  EXPECT_TRUE(since1.databases.empty());
  ASSERT_EQ(since1.deletions.size(), 2u);
  EXPECT_EQ(since1.deletions[0].version, 2);
  EXPECT_EQ(since1.deletions[0].Object().type, impala::TCatalogObjectType::TABLE);
  EXPECT_EQ(since1.deletions[0].Object().table.tbl_name, "t1");
  EXPECT_EQ(since1.deletions[1].Object().type, impala::TCatalogObjectType::HDFS_PARTITION);
  EXPECT_EQ(since1.deletions[1].Object().hdfs_partition.id, 10);
  EXPECT_EQ(since1.deletions[1].Object().catalog_version, 3);

  CatalogDelta none = c.CollectDelta(3);
  EXPECT_TRUE(none.tables.empty() && none.deletions.empty() && none.databases.empty());

  c.TrimDeleteLog(2);
  EXPECT_EQ(c.delete_log_size(), 1u);
}

TEST(CatalogTest, DropDatabaseDropsItsContents) {
  Catalog c;
  ChangeSet a;
  a.put_databases.push_back(Db("d"));
  a.put_tables.push_back(Table("d", "t", 0, 0));
  auto f = std::make_shared<FunctionState>();
  f->db = "d";
  f->signature = "f(INT)";
  f->fn.name.function_name = "f";
  f->fn.name.__set_db_name("d");
  a.put_functions.push_back(f);
  c.Install(std::move(a));
  ChangeSet b;
  b.drop_databases.push_back("d");
  c.Install(std::move(b));
  EXPECT_EQ(c.GetDatabase("d"), nullptr);
  EXPECT_TRUE(c.TablesOf("d").empty());
  CatalogDelta d = c.CollectDelta(1);
  EXPECT_EQ(d.deletions.size(), 3u);  // table, function, database
}

TEST(CatalogTest, ResetAllReplacesEverything) {
  Catalog c;
  ChangeSet a;
  a.put_databases.push_back(Db("old"));
  a.put_databases.push_back(Db("keep"));
  a.put_tables.push_back(Table("keep", "gone", 0, 0));
  c.Install(std::move(a));
  ChangeSet fresh;
  fresh.put_databases.push_back(Db("keep"));
  fresh.put_tables.push_back(Table("keep", "new", 0, 0));
  const int64_t v = c.ResetAll(std::move(fresh));
  EXPECT_EQ(v, 2);
  EXPECT_EQ(c.last_reset_version(), 1);
  EXPECT_EQ(c.DatabaseNames(), std::vector<std::string>{"keep"});
  EXPECT_EQ(c.GetTable("keep", "gone"), nullptr);
  EXPECT_NE(c.GetTable("keep", "new"), nullptr);
}

TEST(CatalogTest, ReadersKeepTheirSnapshot) {
  Catalog c;
  ChangeSet a;
  a.put_databases.push_back(Db("d"));
  a.put_tables.push_back(Table("d", "t", 3, 1));
  c.Install(std::move(a));
  TablePtr before = c.GetTable("d", "t");
  ChangeSet b;
  b.put_tables.push_back(Table("d", "t", 1, 1, 100));
  c.Install(std::move(b));
  EXPECT_EQ(before->partitions.size(), 3u);  // untouched by the swap
  EXPECT_EQ(c.GetTable("d", "t")->partitions.size(), 1u);
}

TEST(CatalogTest, ChangeListenerSeesEveryVersion) {
  Catalog c;
  std::vector<int64_t> seen;
  c.SetChangeListener([&](int64_t v) { seen.push_back(v); });
  ChangeSet a;
  a.put_databases.push_back(Db("d"));
  c.Install(std::move(a));
  c.ResetAll(ChangeSet{});
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 2}));
}

TEST(CatalogObjectsTest, TopicKeys) {
  auto t = Table("d", "t", 1, 0);
  t->version = 5;
  EXPECT_EQ(CatalogTopicKey(TableObjectV1(*t)), "TABLE:d.t");
  EXPECT_EQ(CatalogTopicKey(PartitionObject(*t, *t->partitions.begin()->second)),
            "HDFS_PARTITION:d.t:p=0");
  EXPECT_EQ(CatalogTopicKey(DatabaseInvalidation("d", 1)), "DATABASE:d");
  EXPECT_EQ(CatalogTopicKey(CatalogServiceObject({}, 1, 0)), "CATALOG_SERVICE_ID");
  auto v1 = TableObjectV1(*t);
  ASSERT_TRUE(v1.table.__isset.hdfs_table);
  EXPECT_FALSE(v1.table.hdfs_table.has_full_partitions);
  EXPECT_FALSE(v1.table.hdfs_table.partitions.begin()->second.__isset.file_desc);
  auto full = TableObjectFull(*t);
  EXPECT_TRUE(full.table.hdfs_table.has_full_partitions);
}

TEST(CatalogObjectsTest, NumericDelimitersAreByteValues) {
  hive::StorageDescriptor sd;
  sd.serdeInfo.parameters["serialization.format"] = "1";
  sd.serdeInfo.parameters["collection.delim"] = ",";
  sd.serdeInfo.parameters["mapkey.delim"] = "58";
  auto out = StorageDescriptorOf(sd);
  EXPECT_EQ(out.fieldDelim, 1);
  EXPECT_EQ(out.collectionDelim, ',');
  EXPECT_EQ(out.mapKeyDelim, ':');
  EXPECT_EQ(out.lineDelim, '\n');
}

TEST(CatalogObjectsTest, FunctionInvalidationCarriesFieldsOlderPeersRequire) {
  FunctionState f;
  f.db = "d";
  f.signature = "f(INT)";
  f.fn.name.function_name = "f";
  f.fn.name.__set_db_name("d");
  f.fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  impala::TColumnType int_type;
  impala::TTypeNode node;
  node.type = impala::TTypeNodeType::SCALAR;
  node.__set_scalar_type(impala::TScalarType());
  node.scalar_type.type = impala::TPrimitiveType::INT;
  int_type.types.push_back(node);
  f.fn.__set_arg_types({int_type});
  f.fn.__set_ret_type(int_type);
  f.fn.__set_has_var_args(false);
  auto inv = FunctionInvalidation(f, 7);
  EXPECT_EQ(inv.catalog_version, 7);
  EXPECT_TRUE(inv.fn.__isset.binary_type && inv.fn.__isset.arg_types && inv.fn.__isset.ret_type &&
              inv.fn.__isset.has_var_args);
  EXPECT_EQ(inv.fn.arg_types.size(), 1u);
  EXPECT_FALSE(inv.fn.__isset.scalar_fn);
}

}  // namespace
}  // namespace ics::catalog
