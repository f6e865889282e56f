// ADD / DROP / RECOVER PARTITIONS and UpdateCatalog.
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;

class DdlPartitionTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
    MakePartitionedTable("db", "p");
  }

  impala::TDdlExecRequest DropReq(std::vector<Spec> set, bool if_exists = false) {
    impala::TDdlExecRequest r = AlterReq("db", "p", A::DROP_PARTITION);
    r.alter_table_params.__isset.drop_partition_params = true;
    r.alter_table_params.drop_partition_params.partition_set = std::move(set);
    r.alter_table_params.drop_partition_params.if_exists = if_exists;
    r.alter_table_params.drop_partition_params.purge = false;
    return r;
  }

  impala::TUpdateCatalogRequest Insert(const std::string& table,
                                       std::map<std::string, std::vector<std::string>> parts,
                                       bool overwrite = false) {
    impala::TUpdateCatalogRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.sync_ddl = false;
    r.db_name = "db";
    r.target_table = table;
    r.is_overwrite = overwrite;
    for (auto& [name, files] : parts) r.updated_partitions[name].files = files;
    return r;
  }

  std::string PartDir(const std::string& name) { return TableDir("db", "p") + "/" + name; }
};

TEST_F(DdlPartitionTest, AddPartition) {
  TablePtr before = Loaded("db", "p");
  ASSERT_DDL_OK(out, AddPartitions("db", "p", {{Kv("YEAR", "2024"), Kv("month", "Jan")}}));
  EXPECT_EQ(out.summary, "New partition has been added to the table.");
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].catalog_version, out.version);
  EXPECT_TRUE(std::filesystem::is_directory(PartDir("year=2024/month=Jan")));
  TablePtr t = catalog_->GetTable("db", "p");
  const PartitionState* part = t->FindPartition("year=2024/month=Jan");
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->values(), (std::vector<std::string>{"2024", "Jan"}));
  EXPECT_EQ(part->added_version, out.version);
  EXPECT_EQ(part->prev_id, -1);
  auto stored = metastore_->GetPartitions("db", "p");
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_EQ(stored->at(0).sd.location, PartDir("year=2024/month=Jan"));

  // Several at once, values canonicalized ("007" -> 7), special characters escaped.
  ASSERT_DDL_OK(many, AddPartitions("db", "p",
                                    {{Kv("year", "007"), Kv("month", "a/b")},
                                     {Kv("year", "-1"), Kv("month", "")}}));
  EXPECT_EQ(many.summary, "2 new partitions have been added to the table.");
  t = catalog_->GetTable("db", "p");
  EXPECT_NE(t->FindPartition("year=7/month=a%2Fb"), nullptr);
  EXPECT_NE(t->FindPartition("year=-1/month=__HIVE_DEFAULT_PARTITION__"), nullptr);
  EXPECT_TRUE(std::filesystem::is_directory(PartDir("year=7/month=a%2Fb")));
  // Partitions that were there keep their objects.
  EXPECT_EQ(t->FindPartition("year=2024/month=Jan"), part);
}

TEST_F(DdlPartitionTest, AddPartitionErrorsAndNoOps) {
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a")}}).ok());
  Loaded("db", "p");
  EXPECT_DDL_FAILS(AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a")}}),
                   ErrorCode::kAlreadyExists);
  EXPECT_DDL_FAILS(AddPartitions("db", "p", {{Kv("year", "abc"), Kv("month", "a")}}),
                   ErrorCode::kInvalidArgument);
  auto bad = AddPartitions("db", "p", {{Kv("year", "99999999999"), Kv("month", "a")}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("partition key 'year'"), std::string::npos)
      << bad.status().message();
  EXPECT_DDL_FAILS(AddPartitions("db", "p", {{Kv("year", "1")}}), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a"), Kv("x", "1")}}),
                   ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(
      AddPartitions("db", "p",
                    {{Kv("year", "5"), Kv("month", "a")}, {Kv("year", "5"), Kv("month", "a")}}),
      ErrorCode::kInvalidArgument);
  // One bad partition in a batch adds none of them.
  EXPECT_DDL_FAILS(
      AddPartitions("db", "p",
                    {{Kv("year", "6"), Kv("month", "a")}, {Kv("year", "1"), Kv("month", "a")}}),
      ErrorCode::kAlreadyExists);
  EXPECT_EQ(catalog_->GetTable("db", "p")->partitions.size(), 1u);
  EXPECT_EQ(metastore_->GetPartitions("db", "p")->size(), 1u);
  EXPECT_FALSE(Exists(PartDir("year=6")));

  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a")}}, true));
  EXPECT_EQ(noop.version, v);
  EXPECT_EQ(noop.summary, "Partition already exists.");

  ASSERT_TRUE(CreateTable("db", "flat").ok());
  Loaded("db", "flat");
  EXPECT_DDL_FAILS(AddPartitions("db", "flat", {{Kv("year", "1")}}), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(AddPartitions("db", "nosuch", {{Kv("year", "1")}}), ErrorCode::kNotFound);

  fs_.FailCreate("year=8");
  EXPECT_DDL_FAILS(AddPartitions("db", "p", {{Kv("year", "8"), Kv("month", "a")}}),
                   ErrorCode::kIoError);
  EXPECT_EQ(metastore_->GetPartitions("db", "p")->size(), 1u) << "undone in the metastore";
}

TEST_F(DdlPartitionTest, UnlistableNewPartitionLeavesTheTableToReload) {
  Loaded("db", "p");
  fs_.FailList("year=5");
  // The metastore change is durable, so the DDL succeeds; the catalog drops
  // the table's loaded state instead of keeping one the metastore contradicts.
  ASSERT_DDL_OK(out, AddPartitions("db", "p", {{Kv("year", "5"), Kv("month", "a")}}));
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_FALSE(t->loaded);
  EXPECT_EQ(t->load_status.code(), ErrorCode::kIoError) << t->load_status.ToString();
  fs_.FailList("");
  EXPECT_NE(Loaded("db", "p")->FindPartition("year=5/month=a"), nullptr);
}

TEST_F(DdlPartitionTest, AddPartitionWithLocation) {
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "3"), Kv("month", "c")}}, false,
                            {"file:" + root_ + "/custom"})
                  .ok());
  const PartitionState* part = catalog_->GetTable("db", "p")->FindPartition("year=3/month=c");
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->location(), root_ + "/custom");
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/custom"));
}

TEST_F(DdlPartitionTest, DropPartitions) {
  ASSERT_TRUE(AddPartitions("db", "p",
                            {{Kv("year", "1"), Kv("month", "a")},
                             {Kv("year", "1"), Kv("month", "b")},
                             {Kv("year", "2"), Kv("month", "a")}})
                  .ok());
  WriteFile(PartDir("year=1/month=a") + "/f");
  // A partial spec (year=1) matches two partitions.
  ASSERT_DDL_OK(out, Exec(DropReq({{Kv("year", "1")}})));
  EXPECT_EQ(out.summary, "Dropped 2 partition(s).");
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->partitions.size(), 1u);
  EXPECT_NE(t->FindPartition("year=2/month=a"), nullptr);
  EXPECT_FALSE(Exists(PartDir("year=1/month=a")));
  EXPECT_EQ(metastore_->GetPartitions("db", "p")->size(), 1u);
  // The dropped partitions are logged for subscribers.
  int partition_deletions = 0;
  for (const Deletion& d : catalog_->CollectDelta(out.version - 1).deletions) {
    partition_deletions += d.Object().type == impala::TCatalogObjectType::HDFS_PARTITION;
  }
  EXPECT_EQ(partition_deletions, 2);

  EXPECT_DDL_FAILS(Exec(DropReq({{Kv("year", "9"), Kv("month", "a")}})), ErrorCode::kNotFound);
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, Exec(DropReq({{Kv("year", "9"), Kv("month", "a")}}, true)));
  EXPECT_EQ(noop.version, v);
  EXPECT_EQ(noop.summary, "Dropped 0 partition(s).");
  EXPECT_DDL_FAILS(Exec(DropReq({{Kv("nokey", "1")}})), ErrorCode::kInvalidArgument);
}

// For an on-demand coordinator (want_minimal_response) an ADD or DROP
// PARTITION result names the partitions it added and removed, and the table
// version it was applied to; a full result does not.
TEST_F(DdlPartitionTest, MinimalResultListsThePartitionChange) {
  TablePtr before = Loaded("db", "p");
  ASSERT_DDL_OK(add, AddPartitions("db", "p",
                                   {{Kv("year", "1"), Kv("month", "a")},
                                    {Kv("year", "2"), Kv("month", "b")}}));
  OutcomeObjects minimal = RenderOutcome(add, /*minimal=*/true);
  ASSERT_EQ(minimal.updated.size(), 3u);
  ASSERT_EQ(minimal.updated[0].type, impala::TCatalogObjectType::TABLE);
  ASSERT_TRUE(minimal.updated[0].__isset.base_catalog_version);
  EXPECT_EQ(minimal.updated[0].base_catalog_version, before->version);
  EXPECT_EQ(minimal.updated[0].catalog_version, add.version);
  TablePtr after = catalog_->GetTable("db", "p");
  std::set<std::string> names;
  for (size_t i = 1; i < minimal.updated.size(); ++i) {
    const impala::TCatalogObject& o = minimal.updated[i];
    ASSERT_EQ(o.type, impala::TCatalogObjectType::HDFS_PARTITION);
    EXPECT_EQ(o.catalog_version, add.version);
    const PartitionState* p = after->FindPartition(o.hdfs_partition.partition_name);
    ASSERT_NE(p, nullptr) << o.hdfs_partition.partition_name;
    EXPECT_EQ(o.hdfs_partition.id, p->id);
    names.insert(o.hdfs_partition.partition_name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"year=1/month=a", "year=2/month=b"}));
  EXPECT_TRUE(minimal.removed.empty());
  EXPECT_FALSE(Updated(add)[0].__isset.base_catalog_version);
  EXPECT_EQ(Updated(add).size(), 1u);

  const int64_t dropped_id = after->FindPartition("year=1/month=a")->id;
  ASSERT_DDL_OK(drop, Exec(DropReq({{Kv("year", "1")}})));
  minimal = RenderOutcome(drop, /*minimal=*/true);
  ASSERT_EQ(minimal.updated.size(), 1u);
  EXPECT_EQ(minimal.updated[0].base_catalog_version, add.version);
  ASSERT_EQ(minimal.removed.size(), 1u);
  EXPECT_EQ(minimal.removed[0].hdfs_partition.id, dropped_id);
  EXPECT_EQ(minimal.removed[0].catalog_version, drop.version);
}

TEST_F(DdlPartitionTest, DropPartitionOfExternalTableKeepsData) {
  MakePartitionedTable("db", "ext", /*external=*/true, root_ + "/extdata");
  ASSERT_TRUE(AddPartitions("db", "ext", {{Kv("year", "1"), Kv("month", "a")}}).ok());
  WriteFile(root_ + "/extdata/year=1/month=a/keep");
  impala::TDdlExecRequest r = DropReq({{Kv("year", "1"), Kv("month", "a")}});
  r.alter_table_params.table_name = Name("db", "ext");
  ASSERT_TRUE(Exec(r).ok());
  EXPECT_TRUE(Exists(root_ + "/extdata/year=1/month=a/keep"));
  EXPECT_TRUE(catalog_->GetTable("db", "ext")->partitions.empty());
}

TEST_F(DdlPartitionTest, RecoverPartitions) {
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a")}}).ok());
  WriteFile(PartDir("year=1/month=b") + "/f1");
  WriteFile(PartDir("year=02/month=c%2Fd") + "/f2");
  WriteFile(PartDir("year=x/month=a") + "/junk");       // not an int: skipped
  WriteFile(PartDir("other=1/month=a") + "/junk");      // wrong key: skipped
  WriteFile(PartDir("year=3") + "/junk");               // too shallow: skipped
  WriteFile(PartDir("_tmp/year=4/month=a") + "/junk");  // hidden: skipped
  impala::TDdlExecRequest r = AlterReq("db", "p", A::RECOVER_PARTITIONS);
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.summary, "Partitions have been recovered.");
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->partitions.size(), 3u);
  const PartitionState* b = t->FindPartition("year=1/month=b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->file_descs.size(), 1u);
  const PartitionState* c = t->FindPartition("year=2/month=c%2Fd");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->values(), (std::vector<std::string>{"2", "c/d"}));
  EXPECT_EQ(c->location(), PartDir("year=02/month=c%2Fd"));
  EXPECT_EQ(metastore_->GetPartitions("db", "p")->size(), 3u);

  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(again, Exec(r));
  EXPECT_EQ(again.version, v) << "nothing new to recover";
}

TEST_F(DdlPartitionTest, UpdateCatalogUnpartitioned) {
  ASSERT_TRUE(CreateTable("db", "flat").ok());
  TablePtr before = Loaded("db", "flat");
  WriteFile(TableDir("db", "flat") + "/part-0.txt");
  auto out = UpdateCatalog(Insert("flat", {{"", {TableDir("db", "flat") + "/part-0.txt"}}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(Updated(*out).size(), 1u);
  EXPECT_EQ(Updated(*out)[0].catalog_version, out->version);
  TablePtr after = catalog_->GetTable("db", "flat");
  EXPECT_EQ(after->NumFiles(), 1);
  EXPECT_EQ(after->partitions.begin()->second->prev_id, before->partitions.begin()->first);

  // INSERT OVERWRITE keeps only the files it wrote.
  WriteFile(TableDir("db", "flat") + "/part-1.txt");
  auto ow = UpdateCatalog(Insert("flat", {{"", {"part-1.txt"}}}, true));
  ASSERT_TRUE(ow.ok()) << ow.status().ToString();
  EXPECT_FALSE(Exists(TableDir("db", "flat") + "/part-0.txt"));
  EXPECT_TRUE(Exists(TableDir("db", "flat") + "/part-1.txt"));
  EXPECT_EQ(catalog_->GetTable("db", "flat")->NumFiles(), 1);

  auto bad = UpdateCatalog(Insert("flat", {{"year=1", {}}}));
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  auto missing = UpdateCatalog(Insert("nosuch", {{"", {}}}));
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  impala::TUpdateCatalogRequest old_proto = Insert("flat", {});
  old_proto.protocol_version = impala::CatalogServiceVersion::V1;
  impala::TUpdateCatalogResponse refused;  // the adapter checks the protocol
  Handler()->UpdateCatalog(refused, old_proto);
  EXPECT_EQ(refused.result.status.status_code,
            static_cast<impala::TErrorCode::type>(ErrorCode::kCatalogIncompatibleProtocol));
}

TEST_F(DdlPartitionTest, UpdateCatalogCreatesPartitions) {
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "1"), Kv("month", "a")}}).ok());
  TablePtr before = Loaded("db", "p");
  WriteFile(PartDir("year=1/month=a") + "/f1");
  WriteFile(PartDir("year=2/month=b") + "/f2");
  auto out = UpdateCatalog(Insert("p", {{"year=1/month=a", {"f1"}}, {"year=2/month=b", {"f2"}}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(t->partitions.size(), 2u);
  EXPECT_EQ(t->FindPartition("year=1/month=a")->file_descs.size(), 1u);
  EXPECT_EQ(t->FindPartition("year=2/month=b")->file_descs.size(), 1u);
  EXPECT_EQ(metastore_->GetPartitions("db", "p")->size(), 2u);
  EXPECT_EQ(t->version, out->version);

  auto bad_value = UpdateCatalog(Insert("p", {{"year=x/month=b", {}}}));
  EXPECT_EQ(bad_value.status().code(), ErrorCode::kInvalidArgument);
  auto bad_key = UpdateCatalog(Insert("p", {{"month=b/year=1", {}}}));
  EXPECT_EQ(bad_key.status().code(), ErrorCode::kInvalidArgument);
  auto root = UpdateCatalog(Insert("p", {{"", {}}}));
  EXPECT_EQ(root.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace ics::catalog::testing
