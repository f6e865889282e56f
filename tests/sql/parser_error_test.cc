// Parser: error messages with their positions, scripts, nesting limits.
#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

using testing::ParseAs;
using testing::ParseError;

TEST(SqlParserErrorTest, UnknownStatement) {
  EXPECT_EQ(ParseError("FOO bar"), "Syntax error at line 1, column 1: unknown statement 'FOO'");
  EXPECT_EQ(ParseError("\n\n   Frobnicate"),
            "Syntax error at line 3, column 4: unknown statement 'Frobnicate'");
  EXPECT_EQ(ParseError("(select 1)"), "Syntax error at line 1, column 1: unknown statement '('");
  EXPECT_EQ(ParseError("'x'"), "Syntax error at line 1, column 1: unknown statement ''x''");
  EXPECT_EQ(ParseError("`create` table t (a int)"),
            "Syntax error at line 1, column 1: unknown statement '`create`'");
}

TEST(SqlParserErrorTest, ExpectedButFound) {
  // The example from the design: the offending token's line and column.
  EXPECT_EQ(ParseError("CREATE TABLE t (\n  a INT,\n  b STRING FROM"),
            "Syntax error at line 3, column 12: expected ')' but found 'FROM'");
  EXPECT_EQ(ParseError("create tabel t (a int)"),
            "Syntax error at line 1, column 8: expected DATABASE, TABLE, EXTERNAL TABLE or VIEW "
            "but found 'tabel'");
  EXPECT_EQ(ParseError("create external view v as select 1"),
            "Syntax error at line 1, column 17: expected TABLE but found 'view'");
  EXPECT_EQ(ParseError("create table t"),
            "Syntax error at line 1, column 15: expected '(' or LIKE but found end of input");
  EXPECT_EQ(ParseError("create table t (a)"),
            "Syntax error at line 1, column 18: expected a type but found ')'");
  EXPECT_EQ(ParseError("create table t (a int,)"),
            "Syntax error at line 1, column 23: expected column name but found ')'");
  EXPECT_EQ(ParseError("create table t (a int) partitioned by ()"),
            "Syntax error at line 1, column 40: expected column name but found ')'");
  EXPECT_EQ(ParseError("create table t (a int) stored parquet"),
            "Syntax error at line 1, column 31: expected AS but found 'parquet'");
  EXPECT_EQ(ParseError("create table t (a int) location '/x' stored as parquet"),
            "Syntax error at line 1, column 38: expected ';' or end of statement but found "
            "'stored'");
  EXPECT_EQ(ParseError("create table t (a int) location /x"),
            "Syntax error at line 1, column 33: expected a location string but found '/'");
  EXPECT_EQ(ParseError("create table t (a int) row format serde 'x'"),
            "Syntax error at line 1, column 35: expected DELIMITED but found 'serde'");
  EXPECT_EQ(ParseError("create table t as select 1"),
            "Syntax error at line 1, column 16: CREATE TABLE AS SELECT is not supported");
  EXPECT_EQ(ParseError("create view v as drop table t"),
            "Syntax error at line 1, column 18: expected a query (SELECT ...) but found 'drop'");
  EXPECT_EQ(ParseError("create view v"),
            "Syntax error at line 1, column 14: expected AS but found end of input");
  EXPECT_EQ(ParseError("drop tables t"),
            "Syntax error at line 1, column 6: expected DATABASE, TABLE, VIEW, STATS or "
            "INCREMENTAL STATS but found 'tables'");
  EXPECT_EQ(ParseError("drop table if t"),
            "Syntax error at line 1, column 15: expected EXISTS but found 't'");
  EXPECT_EQ(ParseError("drop table db.t.x"),
            "Syntax error at line 1, column 16: expected ';' or end of statement but found '.'");
  EXPECT_EQ(ParseError("alter database db set owner group g"),
            "Syntax error at line 1, column 29: expected USER or ROLE but found 'group'");
  EXPECT_EQ(ParseError("use"),
            "Syntax error at line 1, column 4: expected database name but found end of input");
  EXPECT_EQ(ParseError("truncate table"),
            "Syntax error at line 1, column 15: expected table name but found end of input");
  EXPECT_EQ(ParseError("invalidate t"),
            "Syntax error at line 1, column 12: expected METADATA but found 't'");
  EXPECT_EQ(ParseError("compute stats"),
            "Syntax error at line 1, column 14: expected table name but found end of input");
  EXPECT_EQ(ParseError("refresh t partition y=1"),
            "Syntax error at line 1, column 21: expected '(' but found 'y'");
}

TEST(SqlParserErrorTest, LexicalErrorsThroughTheParser) {
  EXPECT_EQ(ParseError("select 'abc from t"),
            "Syntax error at line 1, column 8: unterminated string literal");
  EXPECT_EQ(ParseError("select 1 /* comment"),
            "Syntax error at line 1, column 10: unterminated comment");
  EXPECT_EQ(ParseError("select `abc from t"),
            "Syntax error at line 1, column 8: unterminated quoted identifier");
  EXPECT_EQ(ParseError("select 1;\nselect #"),
            "Syntax error at line 2, column 8: unexpected character '#'");
}

TEST(SqlParserErrorTest, EmptyAndMultiple) {
  EXPECT_EQ(ParseError(""), "Syntax error at line 1, column 1: empty statement");
  EXPECT_EQ(ParseError("  -- only a comment\n ;;"),
            "Syntax error at line 2, column 4: empty statement");
  EXPECT_EQ(ParseError("use a; use b"),
            "Syntax error at line 1, column 8: expected end of input but found 'use' (only one "
            "statement is allowed here)");
  EXPECT_TRUE(ParseAs<UseStmt>("use a;"));
  EXPECT_TRUE(ParseAs<UseStmt>("use a ; ; -- done"));
}

TEST(SqlParserErrorTest, Scripts) {
  auto r = ParseScript(
      "-- setup\n"
      "CREATE DATABASE d;\n"
      "USE d;;\n"
      "CREATE TABLE t (a INT, s STRING COMMENT 'semi;colon')\n"
      "  PARTITIONED BY (p INT);\n"
      "/* load */ INSERT INTO t PARTITION (p=1) VALUES (1, 'x');\n"
      "EXPLAIN SELECT * FROM t WHERE p = 1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*r)[0]->kind, StatementKind::kCreateDatabase);
  EXPECT_EQ((*r)[0]->text, "CREATE DATABASE d");
  EXPECT_EQ((*r)[0]->line, 2);
  EXPECT_EQ((*r)[1]->kind, StatementKind::kUse);
  EXPECT_EQ((*r)[2]->kind, StatementKind::kCreateTable);
  EXPECT_EQ((*r)[2]->text,
            "CREATE TABLE t (a INT, s STRING COMMENT 'semi;colon')\n  PARTITIONED BY (p INT)");
  EXPECT_EQ((*r)[3]->kind, StatementKind::kInsert);
  EXPECT_EQ((*r)[3]->line, 6);
  EXPECT_EQ((*r)[3]->column, 12);
  EXPECT_EQ((*r)[4]->kind, StatementKind::kExplain);

  EXPECT_TRUE(ParseScript("").ok());
  EXPECT_TRUE(ParseScript(" ; -- nothing\n").value().empty());

  // Errors point into the whole script.
  auto bad = ParseScript("use a;\nuse b;\nshow tables in;\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Syntax error at line 3, column 15: expected database name but found ';'");
  bad = ParseScript("use a use b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Syntax error at line 1, column 7: expected ';' or end of statement but found 'use'");
}

TEST(SqlParserErrorTest, NestingIsBounded) {
  auto nested = [](int depth, const std::string& open, const std::string& close) {
    std::string s = "select * from t where ";
    for (int i = 0; i < depth; ++i) s += open;
    s += "a = 1";
    for (int i = 0; i < depth; ++i) s += close;
    return s;
  };
  EXPECT_TRUE(ParseStatement(nested(150, "(", ")")).ok());
  const std::string too_deep = ParseError(nested(250, "(", ")"));
  EXPECT_NE(too_deep.find("nesting too deep (more than 200 levels)"), std::string::npos)
      << too_deep;
  EXPECT_EQ(too_deep.rfind("Syntax error at line 1, column ", 0), 0u);
  EXPECT_NE(ParseError(nested(20000, "(", ")")).find("nesting too deep"), std::string::npos);
  EXPECT_NE(ParseError(nested(20000, "NOT ", "")).find("nesting too deep"), std::string::npos);
  EXPECT_NE(ParseError(nested(20000, "- ", "")).find("nesting too deep"), std::string::npos);
  EXPECT_NE(ParseError(nested(20000, "f(", ")")).find("nesting too deep"), std::string::npos);
  EXPECT_NE(ParseError(nested(20000, "cast(", " as int)")).find("nesting too deep"),
            std::string::npos);
  // Long flat inputs are fine (no recursion per element).
  std::string flat = "select * from t where a IN (0";
  for (int i = 1; i < 20000; ++i) flat += "," + std::to_string(i);
  flat += ") OR b = 1";
  for (int i = 0; i < 10000; ++i) flat += " AND c" + std::to_string(i) + " = 1";
  EXPECT_TRUE(ParseStatement(flat).ok());
  std::string deep_type = "create table t (a ";
  for (int i = 0; i < 20000; ++i) deep_type += "array<";
  EXPECT_NE(ParseError(deep_type).find("type nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace ics::sql
