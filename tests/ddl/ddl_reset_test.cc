// ResetMetadata: REFRESH and INVALIDATE METADATA.
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

class DdlResetTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
    ASSERT_TRUE(CreateTable("db", "t").ok());
    MakePartitionedTable("db", "p");
    ASSERT_TRUE(
        AddPartitions("db", "p",
                      {{Kv("year", "1"), Kv("month", "a")}, {Kv("year", "2"), Kv("month", "b")}})
            .ok());
  }

  impala::TResetMetadataRequest Reset(bool refresh) {
    impala::TResetMetadataRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.is_refresh = refresh;
    r.sync_ddl = false;
    return r;
  }

  impala::TResetMetadataRequest ResetTable(bool refresh, const std::string& db,
                                           const std::string& table) {
    impala::TResetMetadataRequest r = Reset(refresh);
    r.__set_table_name(Name(db, table));
    return r;
  }

  // Writes a table straight into the metastore, as another tool would.
  void CreateBehindTheCatalog(const std::string& db, const std::string& table) {
    MetastoreTxn txn;
    MetastoreOp op;
    op.kind = MetastoreOp::Kind::kCreateTable;
    op.table.dbName = db;
    op.table.tableName = table;
    op.table.tableType = "MANAGED_TABLE";
    op.table.sd.location = TableDir(db, table);
    hive::FieldSchema f;
    f.name = "c";
    f.type = "int";
    op.table.sd.cols = {f};
    txn.ops.push_back(op);
    ASSERT_TRUE(metastore_->Commit(txn).ok());
  }
};

TEST_F(DdlResetTest, RefreshTable) {
  WriteFile(TableDir("db", "t") + "/new.txt");
  EXPECT_EQ(Loaded("db", "t")->NumFiles(), 0);
  auto out = ResetMetadata(ResetTable(true, "db", "T"));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(catalog_->GetTable("db", "t")->NumFiles(), 1);
  EXPECT_EQ(out->version, catalog_->GetTable("db", "t")->version);
  ASSERT_EQ(Updated(*out).size(), 1u);

  EXPECT_EQ(ResetMetadata(ResetTable(true, "db", "nosuch")).status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(ResetMetadata(ResetTable(true, "nodb", "t")).status().message(),
            "Database does not exist: nodb");
}

TEST_F(DdlResetTest, RefreshPartition) {
  TablePtr before = Loaded("db", "p");
  WriteFile(TableDir("db", "p") + "/year=1/month=a/f1");
  WriteFile(TableDir("db", "p") + "/year=2/month=b/f2");
  impala::TResetMetadataRequest r = ResetTable(true, "db", "p");
  r.__set_partition_spec({Kv("year", "1"), Kv("month", "a")});
  auto out = ResetMetadata(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->FindPartition("year=1/month=a")->file_descs.size(), 1u);
  EXPECT_EQ(t->FindPartition("year=2/month=b")->file_descs.size(), 0u) << "not refreshed";
  EXPECT_EQ(t->FindPartition("year=2/month=b"), before->FindPartition("year=2/month=b"));

  r.__set_partition_spec({Kv("year", "9"), Kv("month", "a")});
  EXPECT_EQ(ResetMetadata(r).status().code(), ErrorCode::kNotFound);
}

// partition_spec_list (field 11) is what Impala's coordinators send: only the
// listed partitions are reloaded.
TEST_F(DdlResetTest, RefreshPartitionList) {
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "3"), Kv("month", "c")}}).ok());
  TablePtr before = Loaded("db", "p");
  WriteFile(TableDir("db", "p") + "/year=1/month=a/f1");
  WriteFile(TableDir("db", "p") + "/year=2/month=b/f2");
  WriteFile(TableDir("db", "p") + "/year=3/month=c/f3");
  impala::TResetMetadataRequest r = ResetTable(true, "db", "p");
  r.__set_partition_spec_list({{Kv("year", "1"), Kv("month", "a")},
                               {Kv("year", "3"), Kv("month", "c")},
                               {Kv("month", "a"), Kv("year", "1")}});  // a repeat
  auto out = ResetMetadata(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->summary, "2 partitions have been refreshed.");
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(out->version, t->version);
  EXPECT_EQ(t->FindPartition("year=1/month=a")->file_descs.size(), 1u);
  EXPECT_EQ(t->FindPartition("year=3/month=c")->file_descs.size(), 1u);
  EXPECT_EQ(t->FindPartition("year=2/month=b")->file_descs.size(), 0u) << "not listed";
  EXPECT_EQ(t->FindPartition("year=2/month=b"), before->FindPartition("year=2/month=b"));

  // A single-element list is a partition refresh too, not a table refresh.
  WriteFile(TableDir("db", "p") + "/year=1/month=a/g1");
  WriteFile(TableDir("db", "p") + "/year=3/month=c/g3");
  r.__set_partition_spec_list({{Kv("year", "3"), Kv("month", "c")}});
  out = ResetMetadata(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->summary, "Partition has been refreshed.");
  t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->FindPartition("year=3/month=c")->file_descs.size(), 2u);
  EXPECT_EQ(t->FindPartition("year=1/month=a")->file_descs.size(), 1u) << "not listed";

  // The older field and the list together: both are refreshed.
  r.__set_partition_spec({Kv("year", "1"), Kv("month", "a")});
  r.__set_partition_spec_list({{Kv("year", "2"), Kv("month", "b")}});
  out = ResetMetadata(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->FindPartition("year=1/month=a")->file_descs.size(), 2u);
  EXPECT_EQ(t->FindPartition("year=2/month=b")->file_descs.size(), 1u);

  // One missing partition fails the whole request; nothing changes.
  WriteFile(TableDir("db", "p") + "/year=2/month=b/h2");
  const int64_t version = catalog_->GetTable("db", "p")->version;
  impala::TResetMetadataRequest bad = ResetTable(true, "db", "p");
  bad.__set_partition_spec_list({{Kv("year", "2"), Kv("month", "b")},
                                 {Kv("year", "9"), Kv("month", "z")}});
  EXPECT_EQ(ResetMetadata(bad).status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(catalog_->GetTable("db", "p")->version, version);
  EXPECT_EQ(catalog_->GetTable("db", "p")->FindPartition("year=2/month=b")->file_descs.size(), 1u);

  // An empty list is a whole-table refresh.
  impala::TResetMetadataRequest all = ResetTable(true, "db", "p");
  all.__set_partition_spec_list({});
  out = ResetMetadata(all);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->summary, "Table has been refreshed.");
  EXPECT_EQ(catalog_->GetTable("db", "p")->FindPartition("year=2/month=b")->file_descs.size(), 2u);

  // INVALIDATE METADATA takes no partitions, in either field.
  impala::TResetMetadataRequest inv = ResetTable(false, "db", "p");
  inv.__set_partition_spec_list({{Kv("year", "1"), Kv("month", "a")}});
  EXPECT_EQ(ResetMetadata(inv).status().code(), ErrorCode::kInvalidArgument);
}

TEST_F(DdlResetTest, InvalidateTable) {
  Loaded("db", "t");
  auto out = ResetMetadata(ResetTable(false, "db", "t"));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  TablePtr t = catalog_->GetTable("db", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->loaded);
  EXPECT_EQ(t->version, out->version);
  EXPECT_TRUE(Loaded("db", "t")->loaded);

  // Created in the metastore by someone else: INVALIDATE adds it.
  CreateBehindTheCatalog("db", "outside");
  EXPECT_EQ(catalog_->GetTable("db", "outside"), nullptr);
  ASSERT_TRUE(ResetMetadata(ResetTable(false, "db", "outside")).ok());
  ASSERT_NE(catalog_->GetTable("db", "outside"), nullptr);
  EXPECT_EQ(Loaded("db", "outside")->columns.size(), 1u);

  // Dropped in the metastore by someone else: INVALIDATE removes it.
  MetastoreTxn txn;
  MetastoreOp drop;
  drop.kind = MetastoreOp::Kind::kDropTable;
  drop.db_name = "db";
  drop.table_name = "outside";
  txn.ops.push_back(drop);
  ASSERT_TRUE(metastore_->Commit(txn).ok());
  auto removed = ResetMetadata(ResetTable(false, "db", "outside"));
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(Removed(*removed).size(), 1u);
  EXPECT_EQ(catalog_->GetTable("db", "outside"), nullptr);

  EXPECT_EQ(ResetMetadata(ResetTable(false, "db", "never")).status().code(), ErrorCode::kNotFound);
}

TEST_F(DdlResetTest, InvalidateDatabaseReloadsItsTableList) {
  CreateBehindTheCatalog("db", "x1");
  impala::TResetMetadataRequest r = Reset(false);
  r.__set_db_name("db");
  auto out = ResetMetadata(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_NE(catalog_->GetTable("db", "x1"), nullptr);
  EXPECT_TRUE(catalog_->GetTable("db", "t")->loaded) << "known tables keep their state";
  const int64_t v = catalog_->version();
  auto again = ResetMetadata(r);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->version, v);
}

TEST_F(DdlResetTest, GlobalInvalidate) {
  Loaded("db", "t");
  ASSERT_TRUE(Exec(CreateFnReq("db", "f", {"int"})).ok());
  CreateBehindTheCatalog("db", "outside");
  const int64_t start = catalog_->version();
  auto out = ResetMetadata(Reset(false));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->is_invalidate);
  EXPECT_EQ(out->version, start) << "the start version, as Impala reports it";
  EXPECT_GT(catalog_->version(), start);
  EXPECT_EQ(catalog_->last_reset_version(), start);
  EXPECT_EQ(catalog_->DatabaseNames(), std::vector<std::string>{"db"});
  EXPECT_EQ(catalog_->TablesOf("db").size(), 3u);
  for (const TablePtr& t : catalog_->TablesOf("db")) EXPECT_FALSE(t->loaded) << t->name;
  EXPECT_EQ(catalog_->FunctionsOf("db").size(), 1u);
  EXPECT_EQ(Loaded("db", "p")->partitions.size(), 2u);

  impala::TResetMetadataRequest refresh_all = Reset(true);
  EXPECT_EQ(ResetMetadata(refresh_all).status().code(), ErrorCode::kInvalidArgument);
  impala::TResetMetadataRequest old = Reset(false);
  old.protocol_version = impala::CatalogServiceVersion::V1;
  impala::TResetMetadataResponse refused;  // the adapter checks the protocol
  Handler()->ResetMetadata(refused, old);
  EXPECT_EQ(refused.result.status.status_code,
            static_cast<impala::TErrorCode::type>(ErrorCode::kCatalogIncompatibleProtocol));
}

TEST_F(DdlResetTest, RefreshAuthorizationIsNotImplemented) {
  impala::TResetMetadataRequest r = Reset(true);
  r.__set_authorization(true);
  auto out = ResetMetadata(r);
  EXPECT_EQ(out.status().code(), ErrorCode::kNotImplemented);
  EXPECT_NE(out.status().message().find("no authorization metadata"), std::string::npos)
      << out.status().ToString();
}

}  // namespace
}  // namespace ics::catalog::testing
