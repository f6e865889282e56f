// CREATE TABLE [LIKE], views, DROP TABLE / VIEW, TRUNCATE.
#include "common/hive/file_format.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using impala::TCatalogObjectType;
using impala::TDdlType;

class DdlTableTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
  }

  impala::TDdlExecRequest ViewReq(TDdlType::type type, const std::string& name,
                                  const std::string& sql) {
    impala::TDdlExecRequest r = Req(type);
    impala::TCreateOrAlterViewParams p;
    p.view_name = Name("db", name);
    p.columns = {Col("id", "int"), Col("total", "decimal(10,2)")};
    p.owner = "alice";
    p.original_view_def = sql;
    p.expanded_view_def = sql;
    if (type == TDdlType::CREATE_VIEW) {
      r.__set_create_view_params(p);
    } else {
      r.__set_alter_view_params(p);
    }
    return r;
  }
};

TEST_F(DdlTableTest, CreateManagedTable) {
  TableOptions o;
  o.columns = {Col("ID", "int", "the id"), Col("tags", "array<string>"),
               Col("m", "map<string,struct<a:int,b:varchar(10)>>")};
  o.partition_columns = {Col("day", "date")};
  o.format = impala::THdfsFileFormat::PARQUET;
  o.properties = {{"owner_team", "x"}};
  ASSERT_DDL_OK(out, CreateTable("DB", "Events", o));
  EXPECT_EQ(out.summary, "Table has been created.");
  EXPECT_TRUE(out.new_table_created);
  EXPECT_EQ(out.table_location, TableDir("db", "events"));
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].type, TCatalogObjectType::TABLE);
  EXPECT_EQ(Updated(out)[0].catalog_version, out.version);
  EXPECT_EQ(Updated(out)[0].table.tbl_name, "events");
  EXPECT_TRUE(std::filesystem::is_directory(TableDir("db", "events")));

  TablePtr t = catalog_->GetTable("db", "events");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->loaded);
  EXPECT_EQ(t->version, out.version);
  ASSERT_EQ(t->columns.size(), 3u);
  EXPECT_EQ(t->columns[0].columnName, "id");
  EXPECT_EQ(t->columns[0].comment, "the id");
  EXPECT_EQ(TypeToString(t->columns[2].columnType), "map<string,struct<a:int,b:varchar(10)>>");
  ASSERT_EQ(t->clustering_columns.size(), 1u);
  EXPECT_EQ(t->clustering_columns[0].columnName, "day");

  auto hms = metastore_->GetTable("db", "events");
  ASSERT_TRUE(hms.ok());
  EXPECT_EQ(hms->tableType, "MANAGED_TABLE");
  EXPECT_EQ(hms->owner, "alice");
  EXPECT_EQ(hms->parameters.at("owner_team"), "x");
  EXPECT_EQ(FileFormatOf(hms->sd), impala::THdfsFileFormat::PARQUET);
  EXPECT_EQ(hms->sd.location, TableDir("db", "events"));
}

TEST_F(DdlTableTest, CreateExternalTableWithRowFormat) {
  impala::TDdlExecRequest r = CreateTableReq("db", "ext");
  auto& p = r.create_table_params;
  p.is_external = true;
  p.__set_location(root_ + "/data/ext");
  impala::TTableRowFormat rf;
  rf.__set_field_terminator(",");
  rf.__set_line_terminator("\n");
  p.__set_row_format(rf);
  p.__set_comment("external one");
  ASSERT_DDL_OK(out, Exec(r));
  auto hms = metastore_->GetTable("db", "ext");
  ASSERT_TRUE(hms.ok());
  EXPECT_EQ(hms->tableType, "EXTERNAL_TABLE");
  EXPECT_EQ(hms->parameters.at("EXTERNAL"), "TRUE");
  EXPECT_EQ(hms->parameters.at("comment"), "external one");
  EXPECT_EQ(hms->sd.serdeInfo.parameters.at("field.delim"), ",");
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/data/ext"));
  EXPECT_EQ(out.table_location, root_ + "/data/ext");
}

TEST_F(DdlTableTest, CreateTableAsSelectAndExternalProperty) {
  impala::TDdlExecRequest r = CreateTableReq("db", "ctas");
  r.ddl_type = TDdlType::CREATE_TABLE_AS_SELECT;
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_TRUE(out.new_table_created);

  TableOptions o;
  o.properties = {{"EXTERNAL", "true"}};
  ASSERT_TRUE(CreateTable("db", "ext_by_prop", o).ok());
  EXPECT_EQ(metastore_->GetTable("db", "ext_by_prop")->tableType, "EXTERNAL_TABLE");
}

TEST_F(DdlTableTest, CreateErrors) {
  EXPECT_DDL_FAILS(CreateTable("nodb", "t"), ErrorCode::kNotFound);
  auto r = CreateTable("nodb", "t");
  EXPECT_EQ(r.status().message(), "Database does not exist: nodb");

  TableOptions dup;
  dup.columns = {Col("a", "int"), Col("A", "string")};
  EXPECT_DDL_FAILS(CreateTable("db", "t", dup), ErrorCode::kInvalidArgument);
  TableOptions dup_part;
  dup_part.partition_columns = {Col("id", "int")};  // clashes with data column id
  EXPECT_DDL_FAILS(CreateTable("db", "t", dup_part), ErrorCode::kInvalidArgument);
  TableOptions bad_type;
  impala::TColumn broken;
  broken.columnName = "b";  // empty type tree
  bad_type.columns = {broken};
  EXPECT_DDL_FAILS(CreateTable("db", "t", bad_type), ErrorCode::kInvalidArgument);
  TableOptions bad_col;
  bad_col.columns = {Col("a:b", "int")};
  EXPECT_DDL_FAILS(CreateTable("db", "t", bad_col), ErrorCode::kInvalidArgument);
  TableOptions complex_part;
  complex_part.partition_columns = {Col("p", "array<int>")};
  EXPECT_DDL_FAILS(CreateTable("db", "t", complex_part), ErrorCode::kInvalidArgument);
  TableOptions no_cols;
  no_cols.columns.clear();
  EXPECT_DDL_FAILS(CreateTable("db", "t", no_cols), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(CreateTable("db", "bad/name"), ErrorCode::kInvalidArgument);
  TableOptions kudu;
  kudu.format = impala::THdfsFileFormat::KUDU;
  EXPECT_DDL_FAILS(CreateTable("db", "t", kudu), ErrorCode::kNotImplemented);
  EXPECT_TRUE(catalog_->TablesOf("db").empty());
  EXPECT_TRUE(metastore_->GetAllTables("db")->empty());

  ASSERT_TRUE(CreateTable("db", "t").ok());
  EXPECT_DDL_FAILS(CreateTable("db", "T"), ErrorCode::kAlreadyExists);
  TableOptions ine;
  ine.if_not_exists = true;
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, CreateTable("db", "t", ine));
  EXPECT_EQ(noop.version, v);
  EXPECT_TRUE(Updated(noop).empty());
  EXPECT_FALSE(noop.new_table_created);
  EXPECT_EQ(noop.summary, "Table already exists.");
}

TEST_F(DdlTableTest, DirectoryFailureUndoesCreate) {
  fs_.FailCreate("/db.db/t");
  EXPECT_DDL_FAILS(CreateTable("db", "t"), ErrorCode::kIoError);
  EXPECT_TRUE(metastore_->GetTable("db", "t").status().Is(ErrorCode::kNotFound));
  EXPECT_EQ(catalog_->GetTable("db", "t"), nullptr);
}

TEST_F(DdlTableTest, CreateTableLike) {
  TableOptions o;
  o.partition_columns = {Col("p", "int")};
  o.properties = {{"numRows", "10"}, {"keep", "yes"}};
  ASSERT_TRUE(CreateTable("db", "src", o).ok());
  impala::TDdlExecRequest r = Req(TDdlType::CREATE_TABLE_LIKE);
  impala::TCreateTableLikeParams p;
  p.table_name = Name("db", "copy");
  p.src_table_name = Name("db", "src");
  p.is_external = false;
  p.if_not_exists = false;
  p.owner = "bob";
  p.__set_file_format(impala::THdfsFileFormat::ORC);
  r.__set_create_table_like_params(p);
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_TRUE(out.new_table_created);
  TablePtr t = catalog_->GetTable("db", "copy");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->columns.size(), 2u);
  ASSERT_EQ(t->clustering_columns.size(), 1u);
  EXPECT_EQ(t->hms.sd.location, TableDir("db", "copy"));
  EXPECT_EQ(FileFormatOf(t->hms.sd), impala::THdfsFileFormat::ORC);
  EXPECT_EQ(t->hms.parameters.count("numRows"), 0u) << "stats are not copied";
  EXPECT_EQ(t->hms.parameters.at("keep"), "yes");
  EXPECT_EQ(t->hms.owner, "bob");

  p.table_name = Name("db", "copy2");
  p.src_table_name = Name("db", "nosuch");
  r.__set_create_table_like_params(p);
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kNotFound);
}

TEST_F(DdlTableTest, ViewsCreateAlterDrop) {
  ASSERT_TRUE(CreateTable("db", "base").ok());
  ASSERT_DDL_OK(created, Exec(ViewReq(TDdlType::CREATE_VIEW, "v", "SELECT id FROM db.base")));
  EXPECT_EQ(created.summary, "View has been created.");
  TablePtr v = Loaded("db", "v");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->is_view());
  EXPECT_EQ(v->hms.tableType, "VIRTUAL_VIEW");
  EXPECT_EQ(v->hms.viewOriginalText, "SELECT id FROM db.base");
  EXPECT_EQ(v->columns.size(), 2u);
  EXPECT_FALSE(Exists(TableDir("db", "v"))) << "views have no directory";

  ASSERT_DDL_OK(altered, Exec(ViewReq(TDdlType::ALTER_VIEW, "v", "SELECT 1")));
  EXPECT_EQ(altered.summary, "View has been altered.");
  EXPECT_EQ(catalog_->GetTable("db", "v")->hms.viewExpandedText, "SELECT 1");
  // ALTER VIEW on a table, DROP TABLE on a view and DROP VIEW on a table fail.
  EXPECT_DDL_FAILS(Exec(ViewReq(TDdlType::ALTER_VIEW, "base", "SELECT 1")),
                   ErrorCode::kInvalidArgument);
  auto wrong = Exec(DropTableReq("db", "v"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(), "DROP TABLE not allowed on a view: db.v");
  EXPECT_DDL_FAILS(Exec(DropTableReq("db", "base", false, /*view=*/true)),
                   ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(Exec(ViewReq(TDdlType::CREATE_VIEW, "v", "SELECT 2")),
                   ErrorCode::kAlreadyExists);

  ASSERT_DDL_OK(dropped, Exec(DropTableReq("db", "v", false, /*view=*/true)));
  EXPECT_EQ(dropped.summary, "View has been dropped.");
  EXPECT_EQ(catalog_->GetTable("db", "v"), nullptr);
  EXPECT_TRUE(Exists(TableDir("db", "base")));
}

// ALTER VIEW SET/UNSET TBLPROPERTIES: TAlterTableType 20 and 21, sent as ALTER_TABLE.
TEST_F(DdlTableTest, ViewPropertiesSetAndUnset) {
  using A = impala::TAlterTableType;
  ASSERT_TRUE(CreateTable("db", "base").ok());
  ASSERT_TRUE(Exec(ViewReq(TDdlType::CREATE_VIEW, "v", "SELECT id FROM db.base")).ok());
  const hive::Table before = *metastore_->GetTable("db", "v");

  impala::TDdlExecRequest set = AlterReq("db", "v", A::SET_VIEW_PROPERTIES);
  auto& sp = set.alter_table_params.set_tbl_properties_params;
  sp.target = impala::TTablePropertyType::TBL_PROPERTY;
  sp.properties = {{"k1", "v1"}, {"k2", "v2"}};
  set.alter_table_params.__isset.set_tbl_properties_params = true;
  const int64_t v0 = catalog_->version();
  ASSERT_DDL_OK(out, Exec(set));
  EXPECT_EQ(out.summary, "Updated view.");
  EXPECT_EQ(catalog_->version(), v0 + 1) << "one catalog change";
  const hive::Table after = *metastore_->GetTable("db", "v");
  EXPECT_EQ(after.parameters.at("k1"), "v1");
  EXPECT_EQ(after.parameters.at("k2"), "v2");
  // The definition is untouched.
  EXPECT_EQ(after.viewOriginalText, before.viewOriginalText);
  EXPECT_EQ(after.viewExpandedText, before.viewExpandedText);
  EXPECT_EQ(after.sd.cols, before.sd.cols);
  EXPECT_EQ(after.tableType, "VIRTUAL_VIEW");
  TablePtr v = catalog_->GetTable("db", "v");
  EXPECT_EQ(v->hms.parameters.at("k1"), "v1");
  EXPECT_EQ(v->hms.viewExpandedText, before.viewExpandedText);

  // Not on a table, not the storage handler, not without the sub-struct.
  impala::TDdlExecRequest on_table = set;
  on_table.alter_table_params.table_name = Name("db", "base");
  auto t = Exec(on_table);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "ALTER VIEW not allowed on a table: db.base");
  sp.properties = {{"storage_handler", "x"}};
  EXPECT_DDL_FAILS(Exec(set), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(Exec(AlterReq("db", "v", A::SET_VIEW_PROPERTIES)), ErrorCode::kInvalidArgument);

  // UNSET without IF EXISTS: all keys must exist, else nothing is removed.
  impala::TDdlExecRequest unset = AlterReq("db", "v", A::UNSET_VIEW_PROPERTIES);
  auto& up = unset.alter_table_params.unset_tbl_properties_params;
  up.target = impala::TTablePropertyType::TBL_PROPERTY;
  up.property_keys = {"k1", "nope"};
  up.if_exists = false;
  unset.alter_table_params.__isset.unset_tbl_properties_params = true;
  auto missing = Exec(unset);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
  EXPECT_EQ(metastore_->GetTable("db", "v")->parameters.count("k1"), 1u);
  // With IF EXISTS the absent key is skipped.
  up.if_exists = true;
  ASSERT_DDL_OK(unset_out, Exec(unset));
  EXPECT_EQ(unset_out.summary, "Updated view.");
  EXPECT_EQ(metastore_->GetTable("db", "v")->parameters.count("k1"), 0u);
  EXPECT_EQ(metastore_->GetTable("db", "v")->parameters.at("k2"), "v2");
  EXPECT_EQ(catalog_->GetTable("db", "v")->hms.parameters.count("k1"), 0u);
  EXPECT_EQ(metastore_->GetTable("db", "v")->viewExpandedText, before.viewExpandedText);
  // Plain key list on a table is refused too.
  unset.alter_table_params.table_name = Name("db", "base");
  EXPECT_DDL_FAILS(Exec(unset), ErrorCode::kInvalidArgument);
}

TEST_F(DdlTableTest, DropManagedRemovesDataExternalKeepsIt) {
  MakePartitionedTable("db", "m");
  ASSERT_TRUE(AddPartitions("db", "m", {{Kv("year", "2020"), Kv("month", "jan")}}, false,
                            {root_ + "/outside/m_2020"})
                  .ok());
  WriteFile(TableDir("db", "m") + "/x.txt");
  WriteFile(root_ + "/outside/m_2020/f.txt");
  TableOptions ext;
  ext.external = true;
  ext.location = root_ + "/ext_data";
  ASSERT_TRUE(CreateTable("db", "e", ext).ok());
  WriteFile(root_ + "/ext_data/keep.txt");

  TablePtr m = Loaded("db", "m");
  ASSERT_DDL_OK(out, Exec(DropTableReq("db", "M")));
  EXPECT_EQ(out.summary, "Table has been dropped.");
  ASSERT_EQ(Removed(out).size(), 1u);
  EXPECT_EQ(Removed(out)[0].table.tbl_name, "m");
  EXPECT_EQ(Removed(out)[0].catalog_version, out.version);
  EXPECT_FALSE(Exists(TableDir("db", "m")));
  EXPECT_FALSE(Exists(root_ + "/outside/m_2020")) << "managed partition data outside the table";
  EXPECT_TRUE(metastore_->GetTable("db", "m").status().Is(ErrorCode::kNotFound));

  ASSERT_TRUE(Exec(DropTableReq("db", "e")).ok());
  EXPECT_TRUE(Exists(root_ + "/ext_data/keep.txt"));

  EXPECT_DDL_FAILS(Exec(DropTableReq("db", "m")), ErrorCode::kNotFound);
  auto missing = Exec(DropTableReq("db", "m"));
  EXPECT_EQ(missing.status().message(), "Table does not exist: db.m");
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, Exec(DropTableReq("db", "m", /*if_exists=*/true)));
  EXPECT_EQ(noop.version, v);
  EXPECT_EQ(noop.summary, "Table does not exist.");
}

TEST_F(DdlTableTest, Truncate) {
  MakePartitionedTable("db", "t");
  ASSERT_TRUE(
      AddPartitions("db", "t",
                    {{Kv("year", "1"), Kv("month", "a")}, {Kv("year", "2"), Kv("month", "b")}})
          .ok());
  WriteFile(TableDir("db", "t") + "/year=1/month=a/f1");
  WriteFile(TableDir("db", "t") + "/year=2/month=b/f2");
  impala::TDdlExecRequest r = Req(TDdlType::TRUNCATE_TABLE);
  impala::TTruncateParams p;
  p.table_name = Name("db", "t");
  p.if_exists = false;
  r.__set_truncate_params(p);
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(out.summary, "Table has been truncated.");
  EXPECT_FALSE(Exists(TableDir("db", "t") + "/year=1/month=a/f1"));
  EXPECT_FALSE(Exists(TableDir("db", "t") + "/year=2/month=b/f2"));
  EXPECT_TRUE(Exists(TableDir("db", "t") + "/year=1/month=a")) << "directories stay";
  TablePtr t = catalog_->GetTable("db", "t");
  EXPECT_EQ(t->NumFiles(), 0);
  EXPECT_EQ(t->partitions.size(), 2u);

  TableOptions ext;
  ext.external = true;
  ext.location = root_ + "/ext";
  ASSERT_TRUE(CreateTable("db", "e", ext).ok());
  WriteFile(root_ + "/ext/keep");
  p.table_name = Name("db", "e");
  r.__set_truncate_params(p);
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(Exists(root_ + "/ext/keep"));

  p.table_name = Name("db", "none");
  r.__set_truncate_params(p);
  EXPECT_DDL_FAILS(Exec(r), ErrorCode::kNotFound);
  p.if_exists = true;
  r.__set_truncate_params(p);
  ASSERT_DDL_OK(noop, Exec(r));
  EXPECT_EQ(noop.summary, "Table does not exist.");
}

}  // namespace
}  // namespace ics::catalog::testing
