// CREATE / DROP / ALTER DATABASE, COMMENT ON DATABASE, and request-level
// checks of ExecDdl.
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using impala::TCatalogObjectType;
using impala::TDdlType;

class DdlDatabaseTest : public DdlTest {};

TEST_F(DdlDatabaseTest, CreateDatabase) {
  const int64_t before = catalog_->version();
  ASSERT_DDL_OK(out, CreateDb("Sales"));
  EXPECT_GT(out.version, before);
  EXPECT_EQ(out.summary, "Database has been created.");
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].type, TCatalogObjectType::DATABASE);
  EXPECT_EQ(Updated(out)[0].db.db_name, "sales");
  EXPECT_EQ(Updated(out)[0].catalog_version, out.version);
  EXPECT_TRUE(Removed(out).empty());

  DatabasePtr db = catalog_->GetDatabase("sales");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->version, out.version);
  EXPECT_EQ(db->hms.locationUri, warehouse_ + "/sales.db");
  EXPECT_TRUE(std::filesystem::is_directory(warehouse_ + "/sales.db"));
  auto stored = metastore_->GetDatabase("sales");
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->ownerName, "alice");
}

TEST_F(DdlDatabaseTest, CreateWithLocationCommentAndProperties) {
  impala::TDdlExecRequest r = Req(TDdlType::CREATE_DATABASE);
  r.__isset.create_db_params = true;
  r.create_db_params.db = "d";
  r.create_db_params.owner = "bob";
  r.create_db_params.__set_comment("my db");
  r.create_db_params.__set_location("file://" + root_ + "/elsewhere/d/");
  r.create_db_params.__set_properties({{"k", "v"}});
  ASSERT_DDL_OK(out, Exec(r));
  DatabasePtr db = catalog_->GetDatabase("d");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->hms.locationUri, root_ + "/elsewhere/d");
  EXPECT_EQ(db->hms.description, "my db");
  EXPECT_EQ(db->hms.parameters.at("k"), "v");
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/elsewhere/d"));

  // Tables go under the database's location.
  ASSERT_TRUE(CreateTable("d", "t").ok());
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/elsewhere/d/t"));
}

TEST_F(DdlDatabaseTest, CreateErrorsAndNoOps) {
  ASSERT_TRUE(CreateDb("db1").ok());
  EXPECT_DDL_FAILS(CreateDb("db1"), ErrorCode::kAlreadyExists);
  auto dup = CreateDb("DB1");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "Database already exists: db1");

  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, CreateDb("db1", /*if_not_exists=*/true));
  EXPECT_EQ(noop.version, v);
  EXPECT_TRUE(Updated(noop).empty());
  EXPECT_EQ(noop.summary, "Database already exists.");

  EXPECT_DDL_FAILS(CreateDb("bad.name"), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(CreateDb(""), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(CreateDb(std::string(256, 'x')), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(CreateDb("rel", false, "relative/path"), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(CreateDb("h", false, "hdfs://nn/x"), ErrorCode::kInvalidArgument);
  EXPECT_EQ(catalog_->DatabaseNames(), std::vector<std::string>{"db1"});
}

TEST_F(DdlDatabaseTest, DirectoryFailureUndoesTheMetastore) {
  fs_.FailCreate("broken.db");
  EXPECT_DDL_FAILS(CreateDb("broken"), ErrorCode::kIoError);
  EXPECT_EQ(catalog_->GetDatabase("broken"), nullptr);
  EXPECT_TRUE(metastore_->GetDatabase("broken").status().Is(ErrorCode::kNotFound));
  fs_.FailCreate("");
  ASSERT_TRUE(CreateDb("broken").ok());  // nothing was left behind
}

TEST_F(DdlDatabaseTest, DropEmptyDatabase) {
  ASSERT_TRUE(CreateDb("gone").ok());
  impala::TDdlExecRequest r = Req(TDdlType::DROP_DATABASE);
  r.__isset.drop_db_params = true;
  r.drop_db_params.db = "Gone";
  r.drop_db_params.if_exists = false;
  r.drop_db_params.cascade = false;
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.summary, "Database has been dropped.");
  ASSERT_EQ(Removed(out).size(), 1u);
  EXPECT_EQ(Removed(out)[0].type, TCatalogObjectType::DATABASE);
  EXPECT_EQ(Removed(out)[0].db.db_name, "gone");
  EXPECT_EQ(Removed(out)[0].catalog_version, out.version);
  EXPECT_EQ(catalog_->GetDatabase("gone"), nullptr);
  EXPECT_FALSE(Exists(warehouse_ + "/gone.db"));

  auto missing = Exec(r);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "Database does not exist: gone");
  r.drop_db_params.if_exists = true;
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, Exec(r));
  EXPECT_EQ(noop.version, v);
  EXPECT_EQ(noop.summary, "Database does not exist.");
}

TEST_F(DdlDatabaseTest, DropNonEmptyNeedsCascade) {
  ASSERT_TRUE(CreateDb("full").ok());
  ASSERT_TRUE(CreateTable("full", "managed").ok());
  TableOptions ext;
  ext.external = true;
  ext.location = root_ + "/external/ext";
  ASSERT_TRUE(CreateTable("full", "ext", ext).ok());
  WriteFile(TableDir("full", "managed") + "/f1.txt");
  WriteFile(root_ + "/external/ext/keep.txt");
  ASSERT_TRUE(Exec(CreateFnReq("full", "fn", {"int"})).ok());

  impala::TDdlExecRequest r = Req(TDdlType::DROP_DATABASE);
  r.__isset.drop_db_params = true;
  r.drop_db_params.db = "full";
  r.drop_db_params.if_exists = false;
  r.drop_db_params.cascade = false;
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kInvalidArgument);
  auto err = Exec(r);
  EXPECT_NE(err.status().message().find("Cannot drop non-empty database: full"), std::string::npos)
      << err.status().ToString();
  EXPECT_NE(catalog_->GetTable("full", "managed"), nullptr);
  EXPECT_TRUE(Exists(TableDir("full", "managed") + "/f1.txt"));

  r.drop_db_params.cascade = true;
  const int64_t before = catalog_->version();
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.version, before + 1) << "one catalog change";
  EXPECT_EQ(catalog_->GetDatabase("full"), nullptr);
  EXPECT_TRUE(catalog_->TablesOf("full").empty());
  EXPECT_TRUE(metastore_->GetDatabase("full").status().Is(ErrorCode::kNotFound));
  EXPECT_TRUE(metastore_->GetTable("full", "managed").status().Is(ErrorCode::kNotFound));
  EXPECT_FALSE(Exists(TableDir("full", "managed")));
  EXPECT_TRUE(Exists(root_ + "/external/ext/keep.txt")) << "external data must never be deleted";
  // The deletions of the tables and function are logged for subscribers.
  CatalogDelta delta = catalog_->CollectDelta(before);
  EXPECT_GE(delta.deletions.size(), 4u);
}

TEST_F(DdlDatabaseTest, CannotDropDefault) {
  ASSERT_TRUE(CreateDb("default").ok());
  impala::TDdlExecRequest r = Req(TDdlType::DROP_DATABASE);
  r.__isset.drop_db_params = true;
  r.drop_db_params.db = "default";
  r.drop_db_params.if_exists = false;
  r.drop_db_params.cascade = true;
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kInvalidArgument);
}

TEST_F(DdlDatabaseTest, AlterDatabase) {
  ASSERT_TRUE(CreateDb("adb").ok());
  impala::TDdlExecRequest r = Req(TDdlType::ALTER_DATABASE);
  r.__isset.alter_db_params = true;
  r.alter_db_params.db = "adb";
  r.alter_db_params.alter_type = impala::TAlterDbType::SET_OWNER;
  r.alter_db_params.__isset.set_owner_params = true;
  r.alter_db_params.set_owner_params.owner_type = impala::TOwnerType::ROLE;
  r.alter_db_params.set_owner_params.owner_name = "admins";
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.summary, "Updated database.");
  EXPECT_EQ(catalog_->GetDatabase("adb")->hms.ownerName, "admins");
  EXPECT_EQ(catalog_->GetDatabase("adb")->hms.ownerType, hive::PrincipalType::ROLE);

  r.alter_db_params.alter_type = impala::TAlterDbType::SET_DBPROPERTIES;
  r.alter_db_params.__isset.set_dbproperties_params = true;
  r.alter_db_params.set_dbproperties_params.properties = {{"a", "1"}};
  ASSERT_TRUE(Exec(r).ok());
  EXPECT_EQ(metastore_->GetDatabase("adb")->parameters.at("a"), "1");

  r.alter_db_params.db = "nope";
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kNotFound);

  impala::TDdlExecRequest c = Req(TDdlType::COMMENT_ON);
  c.__isset.comment_on_params = true;
  c.comment_on_params.__set_db("adb");
  c.comment_on_params.__set_comment("hello");
  ASSERT_TRUE(Exec(c).ok());
  EXPECT_EQ(catalog_->GetDatabase("adb")->hms.description, "hello");
}

TEST_F(DdlDatabaseTest, RequestChecks) {
  impala::TDdlExecRequest r = Req(TDdlType::CREATE_DATABASE);
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kInvalidArgument);  // no create_db_params

  r.__isset.create_db_params = true;
  r.create_db_params.db = "x";
  r.protocol_version = impala::CatalogServiceVersion::V1;
  impala::TDdlExecResponse refused;  // the adapter checks the protocol
  Handler()->ExecDdl(refused, r);
  EXPECT_EQ(refused.result.status.status_code,
            static_cast<impala::TErrorCode::type>(ErrorCode::kCatalogIncompatibleProtocol));
  r.protocol_version = impala::CatalogServiceVersion::V2;

  for (TDdlType::type t :
       {TDdlType::CREATE_ROLE, TDdlType::GRANT_PRIVILEGE, TDdlType::CREATE_DATA_SOURCE,
        TDdlType::COMPUTE_STATS, TDdlType::COPY_TESTCASE}) {
    auto res = Exec(Req(t));
    ASSERT_FALSE(res.ok());
    EXPECT_EQ(res.status().code(), ErrorCode::kNotImplemented);
    EXPECT_NE(res.status().message().find(impala::to_string(t)), std::string::npos)
        << res.status().message();
  }
}

}  // namespace
}  // namespace ics::catalog::testing
