// DDL statements become the right TDdlExecRequest (ExecDdl*, ExecAlter*,
// ExecView* suites).
#include "common/sql/parser.h"
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

using AT = impala::TAlterTableType;

class ExecDdlTest : public ExecTest {
 protected:
  ExecDdlTest() {
    cat().AddTable("db1", "t", {{"id", "int", "the id"}, {"s", "string"}});
    cat().AddTable("db1", "p", {{"x", "bigint"}}, {{"year", "int"}, {"city", "string"}});
    cat().AddPartition("db1", "p", "year=2024/city=rome", {"2024", "rome"}, "/w/p/year=2024/city=rome");
    cat().AddPartition("db1", "p", "year=2025/city=oslo", {"2025", "oslo"}, "/w/p/year=2025/city=oslo");
    cat().AddView("db1", "v", {{"id", "int"}}, "SELECT id FROM db1.t");
  }
};

TEST_F(ExecDdlTest, CreateDatabase) {
  auto req = Ddl("CREATE DATABASE IF NOT EXISTS sales COMMENT 'money' LOCATION '/w/sales'");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::CREATE_DATABASE);
  ASSERT_TRUE(req.__isset.create_db_params);
  EXPECT_EQ(req.create_db_params.db, "sales");
  EXPECT_EQ(req.create_db_params.comment, "money");
  EXPECT_EQ(req.create_db_params.location, "/w/sales");
  EXPECT_TRUE(req.create_db_params.if_not_exists);
  EXPECT_EQ(Error("CREATE DATABASE db1"), "Database already exists: db1");
}

TEST_F(ExecDdlTest, SummaryBecomesTheMessage) {
  backend_.summary = "Database has been created.";
  StatementResult r = MustRun("CREATE DATABASE x");
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0], "Database has been created.");
  EXPECT_TRUE(r.columns.empty());
}

TEST_F(ExecDdlTest, CatalogdErrorPassesThrough) {
  backend_.next_error = Status::General("metastore is down");
  Result<StatementResult> r = Run("CREATE DATABASE x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "metastore is down");
}

TEST_F(ExecDdlTest, DropAndAlterDatabase) {
  auto req = Ddl("DROP DATABASE db1 CASCADE");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::DROP_DATABASE);
  EXPECT_EQ(req.drop_db_params.db, "db1");
  EXPECT_TRUE(req.drop_db_params.cascade);
  EXPECT_FALSE(req.drop_db_params.if_exists);
  req = Ddl("DROP SCHEMA IF EXISTS nope");
  EXPECT_TRUE(req.drop_db_params.if_exists);
  EXPECT_EQ(Error("DROP DATABASE nope"), "Database does not exist: nope");
  EXPECT_EQ(Error("DROP DATABASE default"), "Cannot drop default database: default");
  session_.db = "db1";
  EXPECT_EQ(Error("DROP DATABASE db1"), "Cannot drop current default database: db1");

  req = Ddl("ALTER DATABASE db1 SET OWNER ROLE admins");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::ALTER_DATABASE);
  EXPECT_EQ(req.alter_db_params.alter_type, impala::TAlterDbType::SET_OWNER);
  EXPECT_EQ(req.alter_db_params.db, "db1");
  EXPECT_EQ(req.alter_db_params.set_owner_params.owner_type, impala::TOwnerType::ROLE);
  EXPECT_EQ(req.alter_db_params.set_owner_params.owner_name, "admins");
}

TEST_F(ExecDdlTest, CreateTableFieldByField) {
  auto req = Ddl(
      "CREATE EXTERNAL TABLE IF NOT EXISTS db1.events (id BIGINT COMMENT 'key', "
      "amount DECIMAL(10,2), tags ARRAY<STRING>) PARTITIONED BY (day DATE) COMMENT 'ev' "
      "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' "
      "STORED AS PARQUET LOCATION '/data/ev' TBLPROPERTIES ('a'='1', 'b'='2')");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::CREATE_TABLE);
  const auto& p = req.create_table_params;
  EXPECT_EQ(p.table_name.db_name, "db1");
  EXPECT_EQ(p.table_name.table_name, "events");
  ASSERT_EQ(p.columns.size(), 3u);
  EXPECT_EQ(p.columns[0].columnName, "id");
  EXPECT_EQ(TypeToString(p.columns[0].columnType), "bigint");
  EXPECT_EQ(p.columns[0].comment, "key");
  EXPECT_EQ(TypeToString(p.columns[1].columnType), "decimal(10,2)");
  EXPECT_EQ(TypeToString(p.columns[2].columnType), "array<string>");
  ASSERT_EQ(p.partition_columns.size(), 1u);
  EXPECT_EQ(p.partition_columns[0].columnName, "day");
  EXPECT_EQ(TypeToString(p.partition_columns[0].columnType), "date");
  EXPECT_EQ(p.file_format, impala::THdfsFileFormat::PARQUET);
  EXPECT_TRUE(p.is_external);
  EXPECT_TRUE(p.if_not_exists);
  EXPECT_EQ(p.comment, "ev");
  EXPECT_EQ(p.location, "/data/ev");
  EXPECT_EQ(p.row_format.field_terminator, ",");
  EXPECT_EQ(p.row_format.escaped_by, "\\");
  EXPECT_EQ(p.row_format.line_terminator, "\n");
  EXPECT_EQ(p.table_properties, (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(p.sorting_order, impala::TSortingOrder::LEXICAL);
}

TEST_F(ExecDdlTest, CreateTableDefaultsAndChecks) {
  session_.db = "db1";
  auto req = Ddl("CREATE TABLE n (a INT)");
  const auto& p = req.create_table_params;
  EXPECT_EQ(p.table_name.db_name, "db1");  // the session's database
  EXPECT_EQ(p.file_format, impala::THdfsFileFormat::TEXT);
  EXPECT_FALSE(p.is_external);
  EXPECT_FALSE(p.__isset.partition_columns);
  EXPECT_FALSE(p.__isset.location);
  EXPECT_EQ(Error("CREATE TABLE t (a INT)"), "Table already exists: db1.t");
  EXPECT_EQ(Error("CREATE TABLE nodb.x (a INT)"), "Database does not exist: nodb");
  Ddl("CREATE TABLE IF NOT EXISTS t (a INT)");  // catalogd answers "already exists"
}

TEST_F(ExecDdlTest, CreateTableLike) {
  auto req = Ddl("CREATE TABLE db1.t2 LIKE db1.t");
  EXPECT_FALSE(req.create_table_like_params.__isset.file_format);
  EXPECT_EQ(Error("CREATE TABLE db1.t3 LIKE nothing"), "Table does not exist: default.nothing");
  session_.db = "db1";
  req = Ddl("CREATE EXTERNAL TABLE t2 LIKE t COMMENT 'c' STORED AS PARQUET LOCATION '/x'");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::CREATE_TABLE_LIKE);
  const auto& p = req.create_table_like_params;
  EXPECT_EQ(p.table_name.db_name, "db1");
  EXPECT_EQ(p.table_name.table_name, "t2");
  EXPECT_EQ(p.src_table_name.db_name, "db1");
  EXPECT_EQ(p.src_table_name.table_name, "t");
  EXPECT_TRUE(p.is_external);
  EXPECT_EQ(p.file_format, impala::THdfsFileFormat::PARQUET);
  EXPECT_EQ(p.comment, "c");
  EXPECT_EQ(p.location, "/x");
}

TEST_F(ExecDdlTest, DropTableAndView) {
  auto req = Ddl("DROP TABLE db1.t PURGE");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::DROP_TABLE);
  EXPECT_EQ(req.drop_table_or_view_params.table_name.table_name, "t");
  EXPECT_TRUE(req.drop_table_or_view_params.purge);
  EXPECT_TRUE(req.drop_table_or_view_params.is_table);
  req = Ddl("DROP VIEW db1.v");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::DROP_VIEW);
  EXPECT_FALSE(req.drop_table_or_view_params.is_table);
  req = Ddl("DROP TABLE IF EXISTS db1.gone");
  EXPECT_TRUE(req.drop_table_or_view_params.if_exists);
  EXPECT_EQ(Error("DROP TABLE db1.gone"), "Table does not exist: db1.gone");
  EXPECT_EQ(Error("DROP TABLE db1.v"), "DROP TABLE not allowed on a view: db1.v");
  EXPECT_EQ(Error("DROP VIEW db1.t"), "DROP VIEW not allowed on a table: db1.t");
  EXPECT_EQ(Error("DROP TABLE IF EXISTS nodb.x"), "Database does not exist: nodb");
}

TEST_F(ExecDdlTest, TruncateDropStatsCommentOn) {
  auto req = Ddl("TRUNCATE TABLE db1.t");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::TRUNCATE_TABLE);
  EXPECT_EQ(req.truncate_params.table_name.table_name, "t");
  EXPECT_TRUE(req.truncate_params.delete_stats);
  EXPECT_EQ(Error("TRUNCATE db1.v"), "TRUNCATE TABLE not allowed on a view: db1.v");
  Ddl("TRUNCATE IF EXISTS db1.gone");

  req = Ddl("DROP STATS db1.p");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::DROP_STATS);
  EXPECT_EQ(req.drop_stats_params.table_name.table_name, "p");
  EXPECT_FALSE(req.drop_stats_params.__isset.partition_set);
  req = Ddl("DROP INCREMENTAL STATS db1.p PARTITION (year=2024)");
  ASSERT_EQ(req.drop_stats_params.partition_set.size(), 1u);
  ASSERT_EQ(req.drop_stats_params.partition_set[0].size(), 1u);
  EXPECT_EQ(req.drop_stats_params.partition_set[0][0].name, "year");
  EXPECT_EQ(req.drop_stats_params.partition_set[0][0].value, "2024");
  EXPECT_EQ(Error("DROP INCREMENTAL STATS db1.p PARTITION (year=1999)"),
            "No matching partition(s) found: (year=1999)");

  req = Ddl("COMMENT ON TABLE db1.t IS 'hello'");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::COMMENT_ON);
  EXPECT_EQ(req.comment_on_params.table_name.table_name, "t");
  EXPECT_EQ(req.comment_on_params.comment, "hello");
  req = Ddl("COMMENT ON COLUMN db1.t.s IS NULL");
  EXPECT_FALSE(req.comment_on_params.__isset.comment);
  EXPECT_EQ(req.comment_on_params.column_name.column_name, "s");
  req = Ddl("COMMENT ON DATABASE db1 IS 'd'");
  EXPECT_EQ(req.comment_on_params.db, "db1");
  EXPECT_EQ(Error("COMMENT ON COLUMN db1.t.zz IS 'x'"), "Column 'zz' not found in db1.t");
  EXPECT_EQ(Error("COMMENT ON VIEW db1.t IS 'x'"), "COMMENT ON VIEW not allowed on a table: db1.t");
}

class ExecAlterTest : public ExecDdlTest {};

TEST_F(ExecAlterTest, AddAndDropPartitions) {
  auto req = Ddl("ALTER TABLE db1.p ADD IF NOT EXISTS PARTITION (city='x', year=2030) "
                 "LOCATION '/elsewhere' PARTITION (year=2031, city=NULL)");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::ALTER_TABLE);
  const auto& a = req.alter_table_params;
  EXPECT_EQ(a.alter_type, AT::ADD_PARTITION);
  EXPECT_EQ(a.table_name.db_name, "db1");
  EXPECT_EQ(a.table_name.table_name, "p");
  ASSERT_EQ(a.add_partition_params.partitions.size(), 2u);
  const auto& d0 = a.add_partition_params.partitions[0];
  ASSERT_EQ(d0.partition_spec.size(), 2u);
  EXPECT_EQ(d0.partition_spec[0].name, "year");  // table key order
  EXPECT_EQ(d0.partition_spec[0].value, "2030");
  EXPECT_EQ(d0.partition_spec[1].value, "x");
  EXPECT_EQ(d0.location, "/elsewhere");
  EXPECT_EQ(a.add_partition_params.partitions[1].partition_spec[1].value, kDefaultPartitionName);
  EXPECT_TRUE(a.add_partition_params.if_not_exists);

  EXPECT_EQ(Error("ALTER TABLE db1.p ADD PARTITION (year=2024, city='rome')"),
            "Partition spec already exists: (year=2024, city=rome)");
  EXPECT_EQ(Error("ALTER TABLE db1.p ADD PARTITION (year=2024)"),
            "Items in partition spec must exactly match the partition columns in the table "
            "definition: db1.p (1 vs 2)");
  EXPECT_EQ(Error("ALTER TABLE db1.p ADD PARTITION (year='abc', city='x')"),
            "Value of partition spec (column=year) has incompatible type: 'STRING'. Expected "
            "type: 'INT'.");
  EXPECT_EQ(Error("ALTER TABLE db1.p ADD PARTITION (x=1, city='x')"),
            "Column 'x' is not a partition column of db1.p");
  EXPECT_EQ(Error("ALTER TABLE db1.t ADD PARTITION (x=1)"), "Table is not partitioned: db1.t");

  req = Ddl("ALTER TABLE db1.p DROP PARTITION (year=2024), PARTITION (city='oslo') PURGE");
  const auto& dp = req.alter_table_params;
  EXPECT_EQ(dp.alter_type, AT::DROP_PARTITION);
  ASSERT_EQ(dp.drop_partition_params.partition_set.size(), 2u);
  EXPECT_EQ(dp.drop_partition_params.partition_set[1][0].name, "city");
  EXPECT_TRUE(dp.drop_partition_params.purge);
  EXPECT_FALSE(dp.drop_partition_params.if_exists);
  EXPECT_EQ(Error("ALTER TABLE db1.p DROP PARTITION (year=1)"),
            "Partition spec does not exist: (year=1)");
  Ddl("ALTER TABLE db1.p DROP IF EXISTS PARTITION (year=1)");
}

TEST_F(ExecAlterTest, Columns) {
  auto req = Ddl("ALTER TABLE db1.t ADD COLUMNS (c DOUBLE COMMENT 'cc', d DATE)");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::ADD_COLUMNS);
  ASSERT_EQ(req.alter_table_params.add_cols_params.columns.size(), 2u);
  EXPECT_EQ(req.alter_table_params.add_cols_params.columns[0].comment, "cc");
  EXPECT_FALSE(req.alter_table_params.add_cols_params.if_not_exists);
  EXPECT_EQ(Error("ALTER TABLE db1.t ADD COLUMNS (s INT)"), "Column already exists: s");
  EXPECT_EQ(Error("ALTER TABLE db1.p ADD COLUMNS (year INT)"),
            "Column name conflicts with existing partition column: year");
  Ddl("ALTER TABLE db1.t ADD IF NOT EXISTS COLUMNS (s INT)");

  req = Ddl("ALTER TABLE db1.t REPLACE COLUMNS (a INT, b STRING)");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::REPLACE_COLUMNS);
  EXPECT_EQ(req.alter_table_params.replace_cols_params.columns.size(), 2u);

  req = Ddl("ALTER TABLE db1.t DROP COLUMN s");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::DROP_COLUMN);
  EXPECT_EQ(req.alter_table_params.drop_col_params.col_name, "s");
  EXPECT_EQ(Error("ALTER TABLE db1.t DROP COLUMN nope"), "Column 'nope' not found in db1.t");
  EXPECT_EQ(Error("ALTER TABLE db1.p DROP COLUMN year"), "Cannot drop partition column: year");
  EXPECT_EQ(Error("ALTER TABLE db1.p DROP COLUMN x"),
            "Cannot drop column 'x' from db1.p. Tables must contain at least 1 column.");

  req = Ddl("ALTER TABLE db1.t CHANGE COLUMN s s2 VARCHAR(10) COMMENT 'renamed'");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::ALTER_COLUMN);
  EXPECT_EQ(req.alter_table_params.alter_col_params.col_name, "s");
  EXPECT_EQ(req.alter_table_params.alter_col_params.new_col_def.columnName, "s2");
  EXPECT_EQ(TypeToString(req.alter_table_params.alter_col_params.new_col_def.columnType),
            "varchar(10)");
  EXPECT_EQ(req.alter_table_params.alter_col_params.new_col_def.comment, "renamed");
  EXPECT_EQ(Error("ALTER TABLE db1.t CHANGE s id INT"), "Column already exists: id");
}

TEST_F(ExecAlterTest, RenamePropertiesLocationFormatOwnerRecover) {
  session_.db = "db1";
  auto req = Ddl("ALTER TABLE t RENAME TO default.t9");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::RENAME_TABLE);
  EXPECT_EQ(req.alter_table_params.table_name.db_name, "db1");
  EXPECT_EQ(req.alter_table_params.rename_params.new_table_name.db_name, "default");
  EXPECT_EQ(req.alter_table_params.rename_params.new_table_name.table_name, "t9");
  EXPECT_EQ(Error("ALTER TABLE t RENAME TO p"), "Table already exists: db1.p");
  EXPECT_EQ(Error("ALTER TABLE v RENAME TO v2"), "ALTER TABLE not allowed on a view: db1.v");

  req = Ddl("ALTER TABLE p PARTITION (year=2024) SET TBLPROPERTIES ('k'='v')");
  const auto& sp = req.alter_table_params.set_tbl_properties_params;
  EXPECT_EQ(req.alter_table_params.alter_type, AT::SET_TBL_PROPERTIES);
  EXPECT_EQ(sp.target, impala::TTablePropertyType::TBL_PROPERTY);
  EXPECT_EQ(sp.properties.at("k"), "v");
  ASSERT_EQ(sp.partition_set.size(), 1u);
  EXPECT_EQ(sp.partition_set[0][0].value, "2024");

  cat().tables.at({"db1", "t"})->hms.parameters["k1"] = "v1";
  req = Ddl("ALTER TABLE t UNSET TBLPROPERTIES ('k1')");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::UNSET_TBL_PROPERTIES);
  EXPECT_EQ(req.alter_table_params.unset_tbl_properties_params.property_keys,
            std::vector<std::string>{"k1"});
  EXPECT_NE(Error("ALTER TABLE t UNSET TBLPROPERTIES ('nope')").find("'nope' does not exist"),
            std::string::npos);
  Ddl("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('nope')");

  req = Ddl("ALTER TABLE p PARTITION (year=2025, city='oslo') SET LOCATION '/new'");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::SET_LOCATION);
  EXPECT_EQ(req.alter_table_params.set_location_params.location, "/new");
  EXPECT_EQ(req.alter_table_params.set_location_params.partition_spec.size(), 2u);
  req = Ddl("ALTER TABLE t SET LOCATION '/t2'");
  EXPECT_FALSE(req.alter_table_params.set_location_params.__isset.partition_spec);

  req = Ddl("ALTER TABLE t SET FILEFORMAT PARQUET");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::SET_FILE_FORMAT);
  EXPECT_EQ(req.alter_table_params.set_file_format_params.file_format,
            impala::THdfsFileFormat::PARQUET);

  req = Ddl("ALTER TABLE t SET OWNER USER bob");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::SET_OWNER);
  EXPECT_EQ(req.alter_table_params.set_owner_params.owner_type, impala::TOwnerType::USER);
  EXPECT_EQ(req.alter_table_params.set_owner_params.owner_name, "bob");

  req = Ddl("ALTER TABLE p RECOVER PARTITIONS");
  EXPECT_EQ(req.alter_table_params.alter_type, AT::RECOVER_PARTITIONS);
  EXPECT_EQ(Error("ALTER TABLE t RECOVER PARTITIONS"), "Table is not partitioned: db1.t");
  EXPECT_EQ(Error("ALTER TABLE v SET OWNER USER x"), "ALTER TABLE not allowed on a view: db1.v");
  EXPECT_EQ(Error("ALTER TABLE nope SET FILEFORMAT ORC"), "Table does not exist: db1.nope");
}

class ExecViewTest : public ExecDdlTest {};

TEST_F(ExecViewTest, CreateViewTypesColumnsFromTheQuery) {
  session_.db = "db1";
  auto req = Ddl("CREATE VIEW IF NOT EXISTS w (a COMMENT 'first', b, c) COMMENT 'vw' AS "
                 "SELECT id, upper(s), count(*) FROM t WHERE id > 1 GROUP BY id, upper(s)");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::CREATE_VIEW);
  const auto& p = req.create_view_params;
  EXPECT_EQ(p.view_name.db_name, "db1");
  EXPECT_EQ(p.view_name.table_name, "w");
  ASSERT_EQ(p.columns.size(), 3u);
  EXPECT_EQ(p.columns[0].columnName, "a");
  EXPECT_EQ(p.columns[0].comment, "first");
  EXPECT_EQ(TypeToString(p.columns[0].columnType), "int");
  EXPECT_EQ(TypeToString(p.columns[1].columnType), "string");
  EXPECT_EQ(TypeToString(p.columns[2].columnType), "bigint");
  EXPECT_EQ(p.original_view_def,
            "SELECT id, upper(s), count(*) FROM t WHERE id > 1 GROUP BY id, upper(s)");
  EXPECT_EQ(p.expanded_view_def,
            "SELECT id, upper(s), count(*) FROM db1.t WHERE id > 1 GROUP BY id, upper(s)");
  EXPECT_EQ(p.comment, "vw");
  EXPECT_TRUE(p.if_not_exists);

  req = Ddl("CREATE VIEW w2 AS SELECT *, 1 + 2 AS three, 'x' FROM p");
  const auto& q = req.create_view_params;
  ASSERT_EQ(q.columns.size(), 5u);
  EXPECT_EQ(q.columns[0].columnName, "x");
  EXPECT_EQ(q.columns[1].columnName, "year");
  EXPECT_EQ(q.columns[2].columnName, "city");
  EXPECT_EQ(q.columns[3].columnName, "three");
  EXPECT_EQ(TypeToString(q.columns[3].columnType), "bigint");
  EXPECT_EQ(q.columns[4].columnName, "_c2");
}

TEST_F(ExecViewTest, ViewErrors) {
  session_.db = "db1";
  EXPECT_EQ(Error("CREATE VIEW w AS SELECT nope FROM t"), "Column 'nope' not found in db1.t");
  EXPECT_EQ(Error("CREATE VIEW w AS SELECT id FROM missing"), "Table does not exist: db1.missing");
  EXPECT_EQ(Error("CREATE VIEW w (a, b) AS SELECT id FROM t"),
            "Column-definition list has more columns (2) than the view-definition query's "
            "select list (1)");
  EXPECT_EQ(Error("CREATE VIEW t AS SELECT id FROM t"), "Table already exists: db1.t");
  EXPECT_EQ(Error("CREATE VIEW w AS SELECT id, id FROM t"), "Duplicate column name: id");
  EXPECT_EQ(Error("ALTER VIEW t AS SELECT 1"), "ALTER VIEW not allowed on a table: db1.t");
}

TEST_F(ExecViewTest, TooDeepViewQueryIsAnError) {
  // CREATE/ALTER VIEW keep the query as text and parse it again for
  // analysis: the parser's depth limits apply there too.
  session_.db = "db1";
  std::string chain = "CREATE VIEW w AS SELECT id";
  for (int i = 0; i < 200000; ++i) chain += " + id";
  const std::string msg = Error(chain);
  EXPECT_EQ(msg.rfind("The view's query is not supported", 0), 0u) << msg;
  EXPECT_NE(msg.find("expression nested too deeply (more than 1000 levels"), std::string::npos)
      << msg;
  const std::string parens = Error("ALTER VIEW v AS SELECT " + std::string(100000, '(') + "id" +
                                   std::string(100000, ')') + " FROM t");
  EXPECT_NE(parens.find("nesting too deep (more than 200 levels)"), std::string::npos) << parens;
  // Up to the limit the query is typed and re-printed (recursively) as the expanded text.
  std::string at_limit = "SELECT id";
  for (int i = 0; i < sql::kMaxExprDepth - 1; ++i) at_limit += " + id";
  at_limit += " AS total FROM t";
  auto req = Ddl("CREATE VIEW w AS " + at_limit);
  const auto& p = req.create_view_params;
  ASSERT_EQ(p.columns.size(), 1u);
  EXPECT_EQ(TypeToString(p.columns[0].columnType), "bigint");
  EXPECT_EQ(p.expanded_view_def, at_limit.substr(0, at_limit.size() - 16) + " total FROM db1.t");
}

TEST_F(ExecViewTest, AlterView) {
  auto req = Ddl("ALTER VIEW db1.v AS SELECT s AS name FROM db1.t");
  EXPECT_EQ(req.ddl_type, impala::TDdlType::ALTER_VIEW);
  ASSERT_TRUE(req.__isset.alter_view_params);
  EXPECT_EQ(req.alter_view_params.view_name.table_name, "v");
  ASSERT_EQ(req.alter_view_params.columns.size(), 1u);
  EXPECT_EQ(req.alter_view_params.columns[0].columnName, "name");
  EXPECT_EQ(req.alter_view_params.expanded_view_def, "SELECT s name FROM db1.t");
}

}  // namespace
}  // namespace ics::coord::testing
