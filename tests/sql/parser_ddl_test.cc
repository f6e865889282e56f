// Parser: database, table and view DDL, and column types.
#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

using testing::ParseAs;
using testing::ParseError;

TEST(SqlParserDdlTest, CreateDatabase) {
  auto s = ParseAs<CreateDatabaseStmt>("CREATE DATABASE Sales");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->db, "sales");
  EXPECT_FALSE(s->if_not_exists);
  EXPECT_FALSE(s->comment);
  EXPECT_FALSE(s->location);
  EXPECT_EQ(s->text, "CREATE DATABASE Sales");

  s = ParseAs<CreateDatabaseStmt>(
      "create schema if not exists `Sales DB` comment 'the \\'sales\\'' location "
      "'hdfs://nn/w/s.db';");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->db, "sales db");
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->comment.value(), "the 'sales'");
  EXPECT_EQ(s->location.value(), "hdfs://nn/w/s.db");
}

TEST(SqlParserDdlTest, DropDatabase) {
  auto s = ParseAs<DropDatabaseStmt>("DROP DATABASE IF EXISTS db1 CASCADE");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->db, "db1");
  EXPECT_TRUE(s->if_exists);
  EXPECT_TRUE(s->cascade);
  s = ParseAs<DropDatabaseStmt>("drop schema db1 restrict");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->if_exists);
  EXPECT_FALSE(s->cascade);
  s = ParseAs<DropDatabaseStmt>("drop database db1");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->cascade);
}

TEST(SqlParserDdlTest, AlterDatabaseSetOwner) {
  auto s = ParseAs<AlterDatabaseSetOwnerStmt>("ALTER DATABASE db SET OWNER USER Alice");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->db, "db");
  EXPECT_EQ(s->owner.type, PrincipalType::kUser);
  EXPECT_EQ(s->owner.name, "alice");
  s = ParseAs<AlterDatabaseSetOwnerStmt>("alter database db set owner role 'Admins'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->owner.type, PrincipalType::kRole);
  EXPECT_EQ(s->owner.name, "Admins");
}

TEST(SqlParserDdlTest, CreateTableMinimal) {
  auto s = ParseAs<CreateTableStmt>("CREATE TABLE t (a INT)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.db, "");
  EXPECT_EQ(s->table.table, "t");
  EXPECT_FALSE(s->external);
  EXPECT_FALSE(s->if_not_exists);
  ASSERT_EQ(s->columns.size(), 1u);
  EXPECT_EQ(s->columns[0].name, "a");
  EXPECT_EQ(s->columns[0].type, "int");
  EXPECT_FALSE(s->columns[0].comment);
  EXPECT_TRUE(s->partition_columns.empty());
  EXPECT_FALSE(s->row_format);
  EXPECT_FALSE(s->file_format);
  EXPECT_FALSE(s->location);
  EXPECT_TRUE(s->tblproperties.empty());
}

TEST(SqlParserDdlTest, CreateTableFull) {
  auto s = ParseAs<CreateTableStmt>(R"(
    CREATE EXTERNAL TABLE IF NOT EXISTS Sales.Orders (
      id BIGINT COMMENT 'primary id',
      `Amount` DECIMAL(10, 2),
      note VARCHAR(20),
      code CHAR(5),
      tags ARRAY<STRING>,
      attrs MAP<STRING, INT>,
      addr STRUCT<street: STRING, zip: INT COMMENT 'postal'>,
      flag BOOLEAN, f FLOAT, d DOUBLE, ti TINYINT, si SMALLINT, b BINARY, ts TIMESTAMP,
      dt DATE, s STRING)
    PARTITIONED BY (year INT, month STRING COMMENT 'mm')
    COMMENT 'orders table'
    ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ESCAPED BY '\\' LINES TERMINATED BY '\n'
    STORED AS TEXTFILE
    LOCATION '/warehouse/sales.db/orders'
    TBLPROPERTIES ('skip.header.line.count'='1', 'Owner.Team'='BI'))");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->external);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->table.ToString(), "sales.orders");
  ASSERT_EQ(s->columns.size(), 16u);
  const std::pair<const char*, const char*> want[] = {
      {"id", "bigint"},
      {"amount", "decimal(10,2)"},
      {"note", "varchar(20)"},
      {"code", "char(5)"},
      {"tags", "array<string>"},
      {"attrs", "map<string,int>"},
      {"addr", "struct<street:string,zip:int comment 'postal'>"},
      {"flag", "boolean"},
      {"f", "float"},
      {"d", "double"},
      {"ti", "tinyint"},
      {"si", "smallint"},
      {"b", "binary"},
      {"ts", "timestamp"},
      {"dt", "date"},
      {"s", "string"},
  };
  for (size_t i = 0; i < s->columns.size(); ++i) {
    EXPECT_EQ(s->columns[i].name, want[i].first);
    EXPECT_EQ(s->columns[i].type, want[i].second);
  }
  EXPECT_EQ(s->columns[0].comment.value(), "primary id");
  ASSERT_EQ(s->partition_columns.size(), 2u);
  EXPECT_EQ(s->partition_columns[0].name, "year");
  EXPECT_EQ(s->partition_columns[0].type, "int");
  EXPECT_EQ(s->partition_columns[1].comment.value(), "mm");
  EXPECT_EQ(s->comment.value(), "orders table");
  ASSERT_TRUE(s->row_format);
  EXPECT_EQ(s->row_format->field_terminator.value(), ",");
  EXPECT_EQ(s->row_format->escaped_by.value(), "\\");
  EXPECT_EQ(s->row_format->line_terminator.value(), "\n");
  EXPECT_EQ(s->file_format.value(), FileFormat::kText);
  EXPECT_EQ(s->location.value(), "/warehouse/sales.db/orders");
  ASSERT_EQ(s->tblproperties.size(), 2u);
  EXPECT_EQ(s->tblproperties[0],
            (std::pair<std::string, std::string>{"skip.header.line.count", "1"}));
  EXPECT_EQ(s->tblproperties[1].first, "Owner.Team");  // strings keep their case
  EXPECT_EQ(s->line, 2);
  EXPECT_EQ(s->column, 5);
}

TEST(SqlParserDdlTest, FileFormats) {
  const std::pair<const char*, FileFormat> cases[] = {
      {"textfile", FileFormat::kText},
      {"PARQUET", FileFormat::kParquet},
      {"parquetfile", FileFormat::kParquet},
      {"SequenceFile", FileFormat::kSequenceFile},
      {"rcfile", FileFormat::kRcFile},
      {"avro", FileFormat::kAvro},
      {"orc", FileFormat::kOrc},
      {"kudu", FileFormat::kKudu},
      {"iceberg", FileFormat::kIceberg},
      {"jsonfile", FileFormat::kJson},
  };
  for (const auto& [name, format] : cases) {
    auto s = ParseAs<CreateTableStmt>(std::string("create table t (a int) stored as ") + name);
    ASSERT_TRUE(s) << name;
    EXPECT_EQ(s->file_format.value(), format) << name;
  }
  EXPECT_EQ(FileFormatName(FileFormat::kParquet), "PARQUET");
  EXPECT_EQ(FileFormatName(FileFormat::kText), "TEXTFILE");
}

TEST(SqlParserDdlTest, RowFormatPartial) {
  auto s = ParseAs<CreateTableStmt>(
      "create table t (a int) row format delimited lines terminated by '\\n' escaped by '\\\\'");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->row_format);
  EXPECT_FALSE(s->row_format->field_terminator);
  EXPECT_EQ(s->row_format->line_terminator.value(), "\n");
  EXPECT_EQ(s->row_format->escaped_by.value(), "\\");
  s = ParseAs<CreateTableStmt>("create table t (a int) row format delimited stored as textfile");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->row_format);
  EXPECT_FALSE(s->row_format->field_terminator);
}

TEST(SqlParserDdlTest, ColumnTypesNormalized) {
  const std::pair<const char*, const char*> cases[] = {
      {"INT", "int"},
      {"Integer", "int"},
      {"real", "float"},
      {"DOUBLE PRECISION", "double"},
      {"decimal", "decimal(10,0)"},
      {"DEC(5)", "decimal(5,0)"},
      {"numeric(38, 38)", "decimal(38,38)"},
      {"VarChar(65535)", "varchar(65535)"},
      {"char(255)", "char(255)"},
      {"ARRAY<ARRAY<INT>>", "array<array<int>>"},
      {"map<string,array<map<int,string>>>", "map<string,array<map<int,string>>>"},
      {"STRUCT<A:INT, `b c`:STRING, `from`:DATE>", "struct<a:int,`b c`:string,from:date>"},
      {"struct<a:int comment 'it''s'>", ""},  // adjacent strings: not a comment
      {"struct<a:int comment 'it\\'s'>", "struct<a:int comment 'it\\'s'>"},
      {"array<struct<x:decimal(9,3)>>", "array<struct<x:decimal(9,3)>>"},
  };
  for (const auto& [text, want] : cases) {
    auto r = ParseColumnType(text);
    if (std::string(want).empty()) {
      EXPECT_FALSE(r.ok()) << text;
      continue;
    }
    ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    EXPECT_EQ(*r, want) << text;
  }
}

TEST(SqlParserDdlTest, BadColumnTypes) {
  const std::pair<const char*, const char*> cases[] = {
      {"decimal(0)", "Syntax error at line 1, column 9: decimal precision 0 out of range 1..38"},
      {"decimal(39,2)",
       "Syntax error at line 1, column 9: decimal precision 39 out of range 1..38"},
      {"decimal(5,6)", "Syntax error at line 1, column 11: decimal scale 6 out of range 0..5"},
      {"varchar(70000)",
       "Syntax error at line 1, column 9: varchar length 70000 out of range 1..65535"},
      {"char(0)", "Syntax error at line 1, column 6: char length 0 out of range 1..255"},
      {"char", "Syntax error at line 1, column 5: expected '(' but found end of input"},
      {"varchar(x)",
       "Syntax error at line 1, column 9: expected an integer varchar length but found 'x'"},
      {"array<int", "Syntax error at line 1, column 10: expected '>' but found end of input"},
      {"map<array<int>,int>",
       "Syntax error at line 1, column 5: map key type must be a scalar type, not array<int>"},
      {"map<int>", "Syntax error at line 1, column 8: expected ',' but found '>'"},
      {"struct<a int>", "Syntax error at line 1, column 10: expected ':' but found 'int'"},
      {"struct<a:int,a:string>",
       "Syntax error at line 1, column 14: duplicate struct field name 'a'"},
      {"struct<>", "Syntax error at line 1, column 7: expected '<' but found '<>'"},
      {"struct< >", "Syntax error at line 1, column 9: expected a struct field name but found '>'"},
      {"text", "Syntax error at line 1, column 1: unknown type 'text'"},
      {"int int", "Syntax error at line 1, column 5: expected end of type but found 'int'"},
  };
  for (const auto& [text, want] : cases) {
    auto r = ParseColumnType(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().message(), want) << text;
  }
  std::string deep;
  for (int i = 0; i < 101; ++i) deep += "array<";
  deep += "int";
  for (int i = 0; i < 101; ++i) deep += ">";
  auto r = ParseColumnType(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("type nested too deeply"), std::string::npos);
  std::string ok_deep;
  for (int i = 0; i < 100; ++i) ok_deep += "array<";
  ok_deep += "int";
  for (int i = 0; i < 100; ++i) ok_deep += ">";
  EXPECT_TRUE(ParseColumnType(ok_deep).ok());
}

TEST(SqlParserDdlTest, CreateTableLike) {
  auto s = ParseAs<CreateTableLikeStmt>(
      "CREATE EXTERNAL TABLE IF NOT EXISTS db.t2 LIKE db.t1 STORED AS PARQUET LOCATION '/x'");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->external);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->table.ToString(), "db.t2");
  EXPECT_EQ(s->source.ToString(), "db.t1");
  EXPECT_EQ(s->file_format.value(), FileFormat::kParquet);
  EXPECT_EQ(s->location.value(), "/x");
  s = ParseAs<CreateTableLikeStmt>("create table t2 like t1");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->external);
  EXPECT_EQ(s->source.table, "t1");
  EXPECT_FALSE(s->file_format);
  EXPECT_FALSE(s->location);
}

TEST(SqlParserDdlTest, CreateView) {
  auto s = ParseAs<CreateViewStmt>(
      "CREATE VIEW IF NOT EXISTS db.v (c1 COMMENT 'first', c2) COMMENT 'a view' AS\n"
      "  SELECT a, b FROM t WHERE x = ';' ;");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->view.ToString(), "db.v");
  EXPECT_TRUE(s->has_column_list);
  ASSERT_EQ(s->columns.size(), 2u);
  EXPECT_EQ(s->columns[0].name, "c1");
  EXPECT_EQ(s->columns[0].comment.value(), "first");
  EXPECT_FALSE(s->columns[1].comment);
  EXPECT_EQ(s->comment.value(), "a view");
  EXPECT_EQ(s->select_text, "SELECT a, b FROM t WHERE x = ';'");
  // The text is kept as written, even beyond the SELECT subset this parser knows.
  s = ParseAs<CreateViewStmt>("create view v as select * from a join b on a.x = b.x");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->has_column_list);
  EXPECT_EQ(s->select_text, "select * from a join b on a.x = b.x");
  // ... and parses as a statement of its own when it is in the subset.
  s = ParseAs<CreateViewStmt>("create view v as select a from t where b > 1");
  ASSERT_TRUE(s);
  EXPECT_TRUE(ParseAs<SelectStmt>(s->select_text));
}

TEST(SqlParserDdlTest, AlterView) {
  auto s = ParseAs<AlterViewStmt>("ALTER VIEW v AS SELECT 1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->view.table, "v");
  EXPECT_EQ(s->select_text, "SELECT 1");
}

TEST(SqlParserDdlTest, AlterViewSetAndUnsetTblProperties) {
  auto s = ParseAs<AlterViewSetTblPropertiesStmt>(
      "ALTER VIEW db.v SET TBLPROPERTIES ('k'='v', 'a b'='c')");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->view.ToString(), "db.v");
  ASSERT_EQ(s->properties.size(), 2u);
  EXPECT_EQ(s->properties[0], (std::pair<std::string, std::string>("k", "v")));
  EXPECT_EQ(s->properties[1].first, "a b");
  auto u = ParseAs<AlterViewUnsetTblPropertiesStmt>("alter view v unset tblproperties ('k')");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->view.table, "v");
  EXPECT_FALSE(u->if_exists);
  EXPECT_EQ(u->keys, std::vector<std::string>{"k"});
  u = ParseAs<AlterViewUnsetTblPropertiesStmt>(
      "ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('k', 'j')");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->if_exists);
  EXPECT_EQ(u->keys, (std::vector<std::string>{"k", "j"}));
  EXPECT_EQ(StatementKindName(u->kind), "ALTER VIEW UNSET TBLPROPERTIES");
  EXPECT_NE(ParseError("ALTER VIEW v SET TBLPROPERTIES ()"), "<parsed OK>");
  EXPECT_NE(ParseError("ALTER VIEW v UNSET TBLPROPERTIES ()"), "<parsed OK>");
  EXPECT_NE(ParseError("ALTER VIEW v SET OWNER USER x"), "<parsed OK>");
  EXPECT_NE(ParseError("ALTER VIEW v UNSET ('k')"), "<parsed OK>");
  EXPECT_NE(ParseError("ALTER VIEW v"), "<parsed OK>");
}

TEST(SqlParserDdlTest, DropTableAndView) {
  auto t = ParseAs<DropTableStmt>("DROP TABLE IF EXISTS db.t PURGE");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->if_exists);
  EXPECT_TRUE(t->purge);
  EXPECT_EQ(t->table.ToString(), "db.t");
  t = ParseAs<DropTableStmt>("drop table t");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->if_exists);
  EXPECT_FALSE(t->purge);
  auto v = ParseAs<DropViewStmt>("DROP VIEW IF EXISTS v");
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->if_exists);
  EXPECT_EQ(v->view.table, "v");
}

TEST(SqlParserDdlTest, ReservedWordsNeedBackQuotes) {
  EXPECT_EQ(ParseError("create table select (a int)"),
            "Syntax error at line 1, column 14: expected table name but found 'select' (a "
            "reserved word; quote it with back-quotes to use it as a name)");
  auto s =
      ParseAs<CreateTableStmt>("create table `select` (`from` int, date date, location string)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.table, "select");
  EXPECT_EQ(s->columns[0].name, "from");
  EXPECT_EQ(s->columns[1].name, "date");
  EXPECT_EQ(s->columns[2].name, "location");
}

TEST(SqlParserDdlTest, KindNamesAndDdlFlag) {
  EXPECT_EQ(StatementKindName(StatementKind::kCreateTable), "CREATE TABLE");
  EXPECT_EQ(StatementKindName(StatementKind::kAlterTableAddPartitions),
            "ALTER TABLE ADD PARTITION");
  EXPECT_TRUE(IsDdl(StatementKind::kCreateTable));
  EXPECT_TRUE(IsDdl(StatementKind::kComputeStats));
  EXPECT_FALSE(IsDdl(StatementKind::kSelect));
  EXPECT_FALSE(IsDdl(StatementKind::kSet));
}

}  // namespace
}  // namespace ics::sql
