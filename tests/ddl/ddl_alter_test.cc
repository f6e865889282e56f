// ALTER TABLE: columns, rename, formats, location, properties, owner,
// COMMENT ON TABLE / COLUMN.
#include "common/hive/file_format.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;
using impala::TDdlType;

class DdlAlterTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
    ASSERT_TRUE(CreateTable("db", "t").ok());
  }

  impala::TDdlExecRequest AddCols(std::vector<impala::TColumn> cols, bool if_not_exists) {
    impala::TDdlExecRequest r = AlterReq("db", "t", A::ADD_COLUMNS);
    r.alter_table_params.__isset.add_cols_params = true;
    r.alter_table_params.add_cols_params.__set_columns(std::move(cols));
    r.alter_table_params.add_cols_params.if_not_exists = if_not_exists;
    return r;
  }

  impala::TDdlExecRequest Rename(const std::string& db, const std::string& table,
                                 const std::string& new_db, const std::string& new_table,
                                 A::type type = A::RENAME_TABLE) {
    impala::TDdlExecRequest r = AlterReq(db, table, type);
    r.alter_table_params.__isset.rename_params = true;
    r.alter_table_params.rename_params.new_table_name = Name(new_db, new_table);
    return r;
  }

  std::vector<std::string> ColumnNames(const std::string& table) {
    std::vector<std::string> out;
    for (const auto& c : catalog_->GetTable("db", table)->columns) out.push_back(c.columnName);
    return out;
  }
};

TEST_F(DdlAlterTest, AddColumns) {
  const int64_t before = catalog_->version();
  ASSERT_DDL_OK(out, Exec(AddCols({Col("Extra", "bigint"), Col("s", "struct<x:int>")}, false)));
  EXPECT_EQ(out.summary, "New column(s) have been added to the table.");
  EXPECT_GT(out.version, before);
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].catalog_version, out.version);
  EXPECT_EQ(ColumnNames("t"), (std::vector<std::string>{"id", "name", "extra", "s"}));
  EXPECT_EQ(metastore_->GetTable("db", "t")->sd.cols.size(), 4u);

  EXPECT_DDL_FAILS(Exec(AddCols({Col("ID", "int")}, false)), ErrorCode::kAlreadyExists);
  EXPECT_DDL_FAILS(Exec(AddCols({Col("n1", "int"), Col("n1", "int")}, false)),
                   ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(Exec(AddCols({Col("bad`name", "int")}, false)), ErrorCode::kInvalidArgument);
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, Exec(AddCols({Col("id", "int")}, true)));
  EXPECT_EQ(noop.version, v);
  ASSERT_DDL_OK(some, Exec(AddCols({Col("id", "int"), Col("more", "int")}, true)));
  EXPECT_EQ(ColumnNames("t").back(), "more");
  EXPECT_EQ(ColumnNames("t").size(), 5u);
}

TEST_F(DdlAlterTest, ReplaceAlterDropColumns) {
  impala::TDdlExecRequest r = AlterReq("db", "t", A::REPLACE_COLUMNS);
  r.alter_table_params.__isset.replace_cols_params = true;
  r.alter_table_params.replace_cols_params.columns = {Col("a", "int"), Col("b", "string"),
                                                      Col("c", "double")};
  ASSERT_DDL_OK(replaced, Exec(r));
  EXPECT_EQ(ColumnNames("t"), (std::vector<std::string>{"a", "b", "c"}));

  impala::TDdlExecRequest alter = AlterReq("db", "t", A::ALTER_COLUMN);
  alter.alter_table_params.__isset.alter_col_params = true;
  alter.alter_table_params.alter_col_params.col_name = "B";
  alter.alter_table_params.alter_col_params.new_col_def = Col("b2", "varchar(20)", "renamed");
  ASSERT_DDL_OK(altered, Exec(alter));
  EXPECT_EQ(altered.summary, "Column has been altered.");
  TablePtr t = catalog_->GetTable("db", "t");
  EXPECT_EQ(t->columns[1].columnName, "b2");
  EXPECT_EQ(TypeToString(t->columns[1].columnType), "varchar(20)");
  EXPECT_EQ(t->columns[1].comment, "renamed");
  alter.alter_table_params.alter_col_params.col_name = "a";
  alter.alter_table_params.alter_col_params.new_col_def = Col("c", "int");
  EXPECT_DDL_FAILS(Exec(alter), ErrorCode::kAlreadyExists);
  alter.alter_table_params.alter_col_params.col_name = "zzz";
  EXPECT_DDL_FAILS(Exec(alter), ErrorCode::kNotFound);

  impala::TDdlExecRequest drop = AlterReq("db", "t", A::DROP_COLUMN);
  drop.alter_table_params.__isset.drop_col_params = true;
  drop.alter_table_params.drop_col_params.col_name = "c";
  ASSERT_DDL_OK(dropped, Exec(drop));
  EXPECT_EQ(ColumnNames("t"), (std::vector<std::string>{"a", "b2"}));
  drop.alter_table_params.drop_col_params.col_name = "nope";
  EXPECT_DDL_FAILS(Exec(drop), ErrorCode::kNotFound);
  drop.alter_table_params.drop_col_params.col_name = "a";
  ASSERT_TRUE(Exec(drop).ok());
  drop.alter_table_params.drop_col_params.col_name = "b2";
  EXPECT_DDL_FAILS(Exec(drop), ErrorCode::kInvalidArgument);  // the last column

  MakePartitionedTable("db", "p");
  drop.alter_table_params.table_name = Name("db", "p");
  drop.alter_table_params.drop_col_params.col_name = "year";
  EXPECT_DDL_FAILS(Exec(drop), ErrorCode::kInvalidArgument);
}

TEST_F(DdlAlterTest, RenameWithinAndAcrossDatabases) {
  WriteFile(TableDir("db", "t") + "/data.txt");
  TablePtr old = Loaded("db", "t");
  ASSERT_DDL_OK(out, Exec(Rename("db", "t", "db", "t2")));
  EXPECT_EQ(out.summary, "Renaming was successful.");
  ASSERT_EQ(Removed(out).size(), 1u);
  EXPECT_EQ(Removed(out)[0].table.tbl_name, "t");
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].table.tbl_name, "t2");
  EXPECT_EQ(catalog_->GetTable("db", "t"), nullptr);
  TablePtr t2 = catalog_->GetTable("db", "t2");
  ASSERT_NE(t2, nullptr);
  EXPECT_EQ(t2->NumFiles(), 1);
  EXPECT_FALSE(Exists(TableDir("db", "t")));
  EXPECT_TRUE(Exists(TableDir("db", "t2") + "/data.txt"));
  EXPECT_EQ(metastore_->GetTable("db", "t2")->sd.location, TableDir("db", "t2"));

  ASSERT_TRUE(CreateDb("other").ok());
  ASSERT_DDL_OK(across, Exec(Rename("db", "t2", "Other", "moved")));
  EXPECT_TRUE(Exists(TableDir("other", "moved") + "/data.txt"));
  EXPECT_NE(catalog_->GetTable("other", "moved"), nullptr);
  EXPECT_TRUE(catalog_->TablesOf("db").empty());

  ASSERT_TRUE(CreateTable("db", "taken").ok());
  EXPECT_DDL_FAILS(Exec(Rename("other", "moved", "db", "taken")), ErrorCode::kAlreadyExists);
  EXPECT_DDL_FAILS(Exec(Rename("other", "moved", "nodb", "x")), ErrorCode::kNotFound);
  EXPECT_DDL_FAILS(Exec(Rename("other", "missing", "db", "x")), ErrorCode::kNotFound);
  EXPECT_DDL_FAILS(Exec(Rename("other", "moved", "db", "x", A::RENAME_VIEW)),
                   ErrorCode::kInvalidArgument);
}

TEST_F(DdlAlterTest, RenamePartitionedAndExternal) {
  MakePartitionedTable("db", "p");
  ASSERT_TRUE(AddPartitions("db", "p", {{Kv("year", "2021"), Kv("month", "may")}}).ok());
  WriteFile(TableDir("db", "p") + "/year=2021/month=may/f.parq");
  ASSERT_TRUE(Exec(Rename("db", "p", "db", "q")).ok());
  TablePtr q = Loaded("db", "q");
  ASSERT_EQ(q->partitions.size(), 1u);
  const PartitionState& part = *q->partitions.begin()->second;
  EXPECT_EQ(part.location(), TableDir("db", "q") + "/year=2021/month=may");
  EXPECT_EQ(part.file_descs.size(), 1u);

  TableOptions ext;
  ext.external = true;
  ext.location = root_ + "/ext";
  ASSERT_TRUE(CreateTable("db", "e", ext).ok());
  WriteFile(root_ + "/ext/keep");
  ASSERT_TRUE(Exec(Rename("db", "e", "db", "e2")).ok());
  EXPECT_TRUE(Exists(root_ + "/ext/keep")) << "external data is never moved";
  EXPECT_EQ(catalog_->GetTable("db", "e2")->hms.sd.location, root_ + "/ext");
}

TEST_F(DdlAlterTest, RenameFailureRestoresTheMetastore) {
  WriteFile(TableDir("db", "t") + "/data.txt");
  Loaded("db", "t");
  fs_.FailRename(true);
  EXPECT_DDL_FAILS(Exec(Rename("db", "t", "db", "t2")), ErrorCode::kIoError);
  fs_.FailRename(false);
  EXPECT_TRUE(metastore_->GetTable("db", "t").ok());
  EXPECT_TRUE(metastore_->GetTable("db", "t2").status().Is(ErrorCode::kNotFound));
  EXPECT_NE(catalog_->GetTable("db", "t"), nullptr);
  EXPECT_TRUE(Exists(TableDir("db", "t") + "/data.txt"));
}

TEST_F(DdlAlterTest, FileFormatRowFormatLocationOwner) {
  impala::TDdlExecRequest ff = AlterReq("db", "t", A::SET_FILE_FORMAT);
  ff.alter_table_params.__isset.set_file_format_params = true;
  ff.alter_table_params.set_file_format_params.file_format = impala::THdfsFileFormat::PARQUET;
  ASSERT_DDL_OK(out, Exec(ff));
  EXPECT_EQ(out.summary, "Updated table.");
  EXPECT_EQ(FileFormatOf(catalog_->GetTable("db", "t")->hms.sd), impala::THdfsFileFormat::PARQUET);
  EXPECT_EQ(FileFormatOf(metastore_->GetTable("db", "t")->sd), impala::THdfsFileFormat::PARQUET);

  impala::TDdlExecRequest rf = AlterReq("db", "t", A::SET_ROW_FORMAT);
  rf.alter_table_params.__isset.set_row_format_params = true;
  rf.alter_table_params.set_row_format_params.row_format.__set_field_terminator("|");
  EXPECT_DDL_FAILS(Exec(rf), ErrorCode::kInvalidArgument);  // parquet has no row format
  ff.alter_table_params.set_file_format_params.file_format = impala::THdfsFileFormat::TEXT;
  ASSERT_TRUE(Exec(ff).ok());
  ASSERT_TRUE(Exec(rf).ok());
  EXPECT_EQ(metastore_->GetTable("db", "t")->sd.serdeInfo.parameters.at("field.delim"), "|");

  WriteFile(root_ + "/newloc/f1");
  impala::TDdlExecRequest loc = AlterReq("db", "t", A::SET_LOCATION);
  loc.alter_table_params.__isset.set_location_params = true;
  loc.alter_table_params.set_location_params.location = root_ + "/newloc";
  ASSERT_DDL_OK(moved, Exec(loc));
  TablePtr t = catalog_->GetTable("db", "t");
  EXPECT_EQ(t->hms.sd.location, root_ + "/newloc");
  EXPECT_EQ(t->NumFiles(), 1);
  EXPECT_TRUE(Exists(TableDir("db", "t"))) << "SET LOCATION moves no data";

  impala::TDdlExecRequest owner = AlterReq("db", "t", A::SET_OWNER);
  owner.alter_table_params.__isset.set_owner_params = true;
  owner.alter_table_params.set_owner_params.owner_type = impala::TOwnerType::USER;
  owner.alter_table_params.set_owner_params.owner_name = "carol";
  ASSERT_TRUE(Exec(owner).ok());
  EXPECT_EQ(metastore_->GetTable("db", "t")->owner, "carol");

  impala::TDdlExecRequest cached = AlterReq("db", "t", A::SET_CACHED);
  EXPECT_DDL_FAILS(Exec(cached), ErrorCode::kNotImplemented);
  impala::TDdlExecRequest missing = AlterReq("db", "t", A::SET_OWNER);
  EXPECT_DDL_FAILS(Exec(missing), ErrorCode::kInvalidArgument);
  impala::TDdlExecRequest unknown = AlterReq("db", "nosuch", A::SET_OWNER);
  unknown.alter_table_params.__set_set_owner_params(owner.alter_table_params.set_owner_params);
  EXPECT_DDL_FAILS(Exec(unknown), ErrorCode::kNotFound);
}

TEST_F(DdlAlterTest, TableAndPartitionProperties) {
  impala::TDdlExecRequest set = AlterReq("db", "t", A::SET_TBL_PROPERTIES);
  set.alter_table_params.__isset.set_tbl_properties_params = true;
  auto& sp = set.alter_table_params.set_tbl_properties_params;
  sp.target = impala::TTablePropertyType::TBL_PROPERTY;
  sp.properties = {{"a", "1"}, {"b", "2"}};
  ASSERT_DDL_OK(out, Exec(set));
  EXPECT_EQ(catalog_->GetTable("db", "t")->hms.parameters.at("a"), "1");
  sp.properties = {{"numRows", "42"}};
  ASSERT_TRUE(Exec(set).ok());
  EXPECT_EQ(catalog_->GetTable("db", "t")->table_stats.num_rows, 42);
  sp.properties = {{"impala_intermediate_stats_chunk0", "x"}};
  EXPECT_DDL_FAILS(Exec(set), ErrorCode::kInvalidArgument);

  impala::TDdlExecRequest unset = AlterReq("db", "t", A::UNSET_TBL_PROPERTIES);
  unset.alter_table_params.__isset.unset_tbl_properties_params = true;
  auto& up = unset.alter_table_params.unset_tbl_properties_params;
  up.target = impala::TTablePropertyType::TBL_PROPERTY;
  up.property_keys = {"a", "zzz"};
  up.if_exists = false;
  EXPECT_DDL_FAILS(Exec(unset), ErrorCode::kNotFound);
  up.if_exists = true;
  ASSERT_TRUE(Exec(unset).ok());
  EXPECT_EQ(metastore_->GetTable("db", "t")->parameters.count("a"), 0u);
  EXPECT_EQ(metastore_->GetTable("db", "t")->parameters.at("b"), "2");

  // EXTERNAL=TRUE turns the table external: dropping it keeps the data.
  sp.properties = {{"EXTERNAL", "TRUE"}};
  ASSERT_TRUE(Exec(set).ok());
  EXPECT_EQ(metastore_->GetTable("db", "t")->tableType, "EXTERNAL_TABLE");
  ASSERT_TRUE(Exec(DropTableReq("db", "t")).ok());
  EXPECT_TRUE(Exists(TableDir("db", "t")));

  // Partition properties.
  MakePartitionedTable("db", "p");
  ASSERT_TRUE(
      AddPartitions("db", "p",
                    {{Kv("year", "1"), Kv("month", "a")}, {Kv("year", "2"), Kv("month", "a")}})
          .ok());
  TablePtr before = Loaded("db", "p");
  set.alter_table_params.table_name = Name("db", "p");
  sp.properties = {{"pk", "pv"}};
  sp.__set_partition_set({{Kv("year", "1"), Kv("month", "a")}});
  ASSERT_DDL_OK(parts, Exec(set));
  EXPECT_EQ(parts.summary, "Updated 1 partition(s).");
  TablePtr after = catalog_->GetTable("db", "p");
  const PartitionState* p1 = after->FindPartition("year=1/month=a");
  const PartitionState* p2 = after->FindPartition("year=2/month=a");
  ASSERT_NE(p1, nullptr);
  ASSERT_NE(p2, nullptr);
  EXPECT_EQ(p1->Hms().parameters.at("pk"), "pv");
  EXPECT_EQ(p1->prev_id, before->FindPartition("year=1/month=a")->id) << "replaced partition";
  EXPECT_EQ(p2->id, before->FindPartition("year=2/month=a")->id) << "untouched partition reused";
  sp.__set_partition_set({{Kv("year", "9"), Kv("month", "a")}});
  EXPECT_DDL_FAILS(Exec(set), ErrorCode::kNotFound);
}

TEST_F(DdlAlterTest, PartitionFormatAndLocation) {
  MakePartitionedTable("db", "p");
  ASSERT_TRUE(
      AddPartitions("db", "p",
                    {{Kv("year", "1"), Kv("month", "a")}, {Kv("year", "2"), Kv("month", "a")}})
          .ok());
  impala::TDdlExecRequest ff = AlterReq("db", "p", A::SET_FILE_FORMAT);
  ff.alter_table_params.__isset.set_file_format_params = true;
  auto& fp = ff.alter_table_params.set_file_format_params;
  fp.file_format = impala::THdfsFileFormat::AVRO;
  fp.__set_partition_set({{Kv("year", "1"), Kv("month", "a")}});
  ASSERT_DDL_OK(out, Exec(ff));
  EXPECT_EQ(out.summary, "Updated 1 partition(s).");
  TablePtr t = catalog_->GetTable("db", "p");
  EXPECT_EQ(FileFormatOf(t->FindPartition("year=1/month=a")->sd()), impala::THdfsFileFormat::AVRO);
  EXPECT_EQ(FileFormatOf(t->FindPartition("year=2/month=a")->sd()), impala::THdfsFileFormat::TEXT);
  EXPECT_EQ(FileFormatOf(t->hms.sd), impala::THdfsFileFormat::TEXT);

  WriteFile(root_ + "/p2/f");
  impala::TDdlExecRequest loc = AlterReq("db", "p", A::SET_LOCATION);
  loc.alter_table_params.__isset.set_location_params = true;
  loc.alter_table_params.set_location_params.location = root_ + "/p2";
  loc.alter_table_params.set_location_params.__set_partition_spec(
      {Kv("year", "2"), Kv("month", "a")});
  ASSERT_TRUE(Exec(loc).ok());
  const PartitionState* p2 = catalog_->GetTable("db", "p")->FindPartition("year=2/month=a");
  EXPECT_EQ(p2->location(), root_ + "/p2");
  EXPECT_EQ(p2->file_descs.size(), 1u);
  auto stored = metastore_->GetPartitionsByNames("db", "p", {"year=2/month=a"});
  EXPECT_EQ(stored->at(0).sd.location, root_ + "/p2");

  // SET LOCATION whose directory cannot be created changes nothing.
  fs_.FailCreate("/cannot");
  loc.alter_table_params.set_location_params.location = root_ + "/cannot";
  EXPECT_DDL_FAILS(Exec(loc), ErrorCode::kIoError);
  stored = metastore_->GetPartitionsByNames("db", "p", {"year=2/month=a"});
  EXPECT_EQ(stored->at(0).sd.location, root_ + "/p2") << "undone in the metastore";
}

TEST_F(DdlAlterTest, ViewsAcceptOnlyViewAlterations) {
  impala::TDdlExecRequest v = Req(TDdlType::CREATE_VIEW);
  impala::TCreateOrAlterViewParams vp;
  vp.view_name = Name("db", "v");
  vp.columns = {Col("id", "int")};
  vp.owner = "alice";
  vp.original_view_def = "SELECT id FROM db.t";
  vp.expanded_view_def = vp.original_view_def;
  v.__set_create_view_params(vp);
  ASSERT_TRUE(Exec(v).ok());
  Loaded("db", "v");

  auto add = AddCols({Col("x", "int")}, false);
  add.alter_table_params.table_name = Name("db", "v");
  EXPECT_DDL_FAILS(Exec(add), ErrorCode::kInvalidArgument);
  EXPECT_DDL_FAILS(Exec(Rename("db", "v", "db", "v2")), ErrorCode::kInvalidArgument);
  ASSERT_DDL_OK(renamed, Exec(Rename("db", "v", "db", "v2", A::RENAME_VIEW)));
  EXPECT_NE(catalog_->GetTable("db", "v2"), nullptr);
  EXPECT_TRUE(Loaded("db", "v2")->is_view());

  impala::TDdlExecRequest set = AlterReq("db", "v2", A::SET_TBL_PROPERTIES);
  set.alter_table_params.__isset.set_tbl_properties_params = true;
  set.alter_table_params.set_tbl_properties_params.target =
      impala::TTablePropertyType::TBL_PROPERTY;
  set.alter_table_params.set_tbl_properties_params.properties = {{"k", "v"}};
  ASSERT_DDL_OK(props, Exec(set));
  EXPECT_EQ(props.summary, "Updated view.");
}

TEST_F(DdlAlterTest, CommentOnTableAndColumn) {
  impala::TDdlExecRequest c = Req(TDdlType::COMMENT_ON);
  c.__isset.comment_on_params = true;
  c.comment_on_params.__set_table_name(Name("db", "t"));
  c.comment_on_params.__set_comment("table comment");
  ASSERT_DDL_OK(out, Exec(c));
  EXPECT_EQ(out.summary, "Updated table.");
  EXPECT_EQ(catalog_->GetTable("db", "t")->hms.parameters.at("comment"), "table comment");

  impala::TDdlExecRequest col = Req(TDdlType::COMMENT_ON);
  col.__isset.comment_on_params = true;
  impala::TColumnName cn;
  cn.table_name = Name("db", "t");
  cn.column_name = "Name";
  col.comment_on_params.__set_column_name(cn);
  col.comment_on_params.__set_comment("the name");
  ASSERT_TRUE(Exec(col).ok());
  EXPECT_EQ(catalog_->GetTable("db", "t")->columns[1].comment, "the name");
  cn.column_name = "nope";
  col.comment_on_params.__set_column_name(cn);
  EXPECT_DDL_FAILS(Exec(col), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace ics::catalog::testing
