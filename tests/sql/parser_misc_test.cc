// Parser: TRUNCATE, statistics, INSERT, SHOW, DESCRIBE, metadata and session statements.
#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

using testing::ParseAs;
using testing::ParseError;

TEST(SqlParserMiscTest, Truncate) {
  auto s = ParseAs<TruncateStmt>("TRUNCATE TABLE IF EXISTS db.t");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->if_exists);
  EXPECT_EQ(s->table.ToString(), "db.t");
  s = ParseAs<TruncateStmt>("truncate t");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->if_exists);
  EXPECT_EQ(s->table.table, "t");
}

TEST(SqlParserMiscTest, ComputeStats) {
  auto s = ParseAs<ComputeStatsStmt>("COMPUTE STATS db.t");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->incremental);
  EXPECT_FALSE(s->partition);
  EXPECT_TRUE(s->columns.empty());
  s = ParseAs<ComputeStatsStmt>("compute incremental stats t partition (y=2024, m='01')");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->incremental);
  ASSERT_TRUE(s->partition);
  EXPECT_EQ((*s->partition)[1].value->value, "01");
  s = ParseAs<ComputeStatsStmt>("compute stats t (a, B)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->columns, (std::vector<std::string>{"a", "b"}));
}

TEST(SqlParserMiscTest, DropStats) {
  auto s = ParseAs<DropStatsStmt>("DROP STATS t");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->incremental);
  EXPECT_FALSE(s->partition);
  s = ParseAs<DropStatsStmt>("drop incremental stats db.t partition (y=1)");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->incremental);
  EXPECT_TRUE(s->partition);
  EXPECT_EQ(s->table.db, "db");
}

TEST(SqlParserMiscTest, InsertValues) {
  auto s = ParseAs<InsertStmt>(
      "INSERT INTO TABLE db.t (a, b, c) PARTITION (year=2024, month) VALUES "
      "(1, 'x', NULL, 3), (-2, \"y\", TRUE, 4), (CAST('5' AS DECIMAL(4,1)), DATE '2024-01-31', "
      "-1.5, 6)");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->overwrite);
  EXPECT_EQ(s->table.ToString(), "db.t");
  ASSERT_TRUE(s->columns);
  EXPECT_EQ(*s->columns, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_TRUE(s->partition);
  ASSERT_EQ(s->partition->size(), 2u);
  EXPECT_EQ((*s->partition)[0].value->int_value, 2024);
  EXPECT_FALSE((*s->partition)[1].value);  // dynamic
  ASSERT_EQ(s->rows.size(), 3u);
  const auto& r0 = s->rows[0];
  ASSERT_EQ(r0.size(), 4u);
  EXPECT_EQ(r0[0]->kind, ExprKind::kLiteral);
  EXPECT_EQ(r0[0]->literal.int_value, 1);
  EXPECT_EQ(r0[1]->literal.kind, LiteralKind::kString);
  EXPECT_EQ(r0[1]->literal.value, "x");
  EXPECT_TRUE(r0[2]->literal.is_null());
  const auto& r1 = s->rows[1];
  EXPECT_EQ(r1[0]->literal.int_value, -2);
  EXPECT_EQ(r1[1]->literal.value, "y");
  EXPECT_TRUE(r1[2]->literal.bool_value);
  const auto& r2 = s->rows[2];
  EXPECT_EQ(r2[0]->kind, ExprKind::kCast);
  EXPECT_EQ(r2[0]->type, "decimal(4,1)");
  EXPECT_EQ(r2[0]->children[0]->literal.value, "5");
  EXPECT_EQ(r2[1]->literal.kind, LiteralKind::kDate);
  EXPECT_EQ(r2[1]->literal.value, "2024-01-31");
  EXPECT_EQ(r2[2]->literal.kind, LiteralKind::kDecimal);
  EXPECT_EQ(r2[2]->literal.value, "-1.5");
}

TEST(SqlParserMiscTest, InsertOverwriteMinimal) {
  auto s = ParseAs<InsertStmt>("insert overwrite t values (1)");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->overwrite);
  EXPECT_FALSE(s->columns);
  EXPECT_FALSE(s->partition);
  ASSERT_EQ(s->rows.size(), 1u);
  s = ParseAs<InsertStmt>("insert into t partition (p='a') values (1 + 2, upper('x'))");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rows[0][0]->kind, ExprKind::kArithmetic);
  EXPECT_EQ(s->rows[0][1]->kind, ExprKind::kFunctionCall);
}

TEST(SqlParserMiscTest, InsertErrors) {
  EXPECT_EQ(ParseError("insert into t select * from u"),
            "Syntax error at line 1, column 15: INSERT ... SELECT is not supported; use INSERT "
            "... VALUES");
  EXPECT_EQ(ParseError("insert t values (1)"),
            "Syntax error at line 1, column 8: expected INTO or OVERWRITE but found 't'");
  EXPECT_EQ(ParseError("insert into t values ()"),
            "Syntax error at line 1, column 23: expected an expression but found ')'");
  EXPECT_EQ(ParseError("insert into t values (1,)"),
            "Syntax error at line 1, column 25: expected an expression but found ')'");
  EXPECT_EQ(ParseError("insert into t values (1) (2)"),
            "Syntax error at line 1, column 26: expected ';' or end of statement but found '('");
}

TEST(SqlParserMiscTest, ShowForms) {
  auto s = ParseAs<ShowStmt>("SHOW DATABASES");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kDatabases);
  EXPECT_FALSE(s->pattern);
  s = ParseAs<ShowStmt>("show schemas like 'sa*'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pattern.value(), "sa*");
  s = ParseAs<ShowStmt>("SHOW TABLES IN Sales LIKE 'o*|c*'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kTables);
  EXPECT_EQ(s->db, "sales");
  EXPECT_EQ(s->pattern.value(), "o*|c*");
  s = ParseAs<ShowStmt>("show tables 'x*'");  // LIKE is optional
  ASSERT_TRUE(s);
  EXPECT_EQ(s->db, "");
  EXPECT_EQ(s->pattern.value(), "x*");
  s = ParseAs<ShowStmt>("show functions in db");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kFunctions);
  EXPECT_EQ(s->db, "db");
  s = ParseAs<ShowStmt>("SHOW PARTITIONS db.t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kPartitions);
  EXPECT_EQ(s->table.ToString(), "db.t");
  s = ParseAs<ShowStmt>("SHOW FILES IN t PARTITION (y=1)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kFiles);
  ASSERT_TRUE(s->partition);
  EXPECT_EQ((*s->partition)[0].value->int_value, 1);
  s = ParseAs<ShowStmt>("show files in t");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->partition);
  s = ParseAs<ShowStmt>("SHOW TABLE STATS t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kTableStats);
  s = ParseAs<ShowStmt>("SHOW COLUMN STATS db.t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kColumnStats);
  EXPECT_EQ(s->table.db, "db");
  s = ParseAs<ShowStmt>("SHOW CREATE TABLE t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kCreateTable);
  s = ParseAs<ShowStmt>("SHOW CREATE VIEW v");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->what, ShowKind::kCreateView);
  EXPECT_EQ(ParseError("show tablez"),
            "Syntax error at line 1, column 6: expected DATABASES, TABLES, FUNCTIONS, PARTITIONS, "
            "FILES, TABLE STATS, COLUMN STATS or CREATE but found 'tablez'");
  EXPECT_EQ(ParseError("show table t"),
            "Syntax error at line 1, column 12: expected STATS but found 't'");
}

TEST(SqlParserMiscTest, Describe) {
  auto s = ParseAs<DescribeStmt>("DESCRIBE db.t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->style, DescribeStyle::kMinimal);
  EXPECT_EQ(s->table.ToString(), "db.t");
  s = ParseAs<DescribeStmt>("describe formatted t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->style, DescribeStyle::kFormatted);
  EXPECT_EQ(s->table.table, "t");
  s = ParseAs<DescribeStmt>("DESCRIBE EXTENDED t");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->style, DescribeStyle::kExtended);
  s = ParseAs<DescribeStmt>("describe formatted");  // a table named "formatted"
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.table, "formatted");
  auto d = ParseAs<DescribeDatabaseStmt>("DESCRIBE DATABASE sales");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->db, "sales");
  EXPECT_EQ(d->style, DescribeStyle::kMinimal);
  d = ParseAs<DescribeDatabaseStmt>("desc database formatted sales");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->style, DescribeStyle::kFormatted);
}

TEST(SqlParserMiscTest, InvalidateRefresh) {
  auto i = ParseAs<InvalidateMetadataStmt>("INVALIDATE METADATA");
  ASSERT_TRUE(i);
  EXPECT_FALSE(i->table);
  i = ParseAs<InvalidateMetadataStmt>("invalidate metadata db.t;");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->table->ToString(), "db.t");
  auto r = ParseAs<RefreshStmt>("REFRESH t");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->partitions.empty());
  r = ParseAs<RefreshStmt>("refresh db.t partition (y=2024, m=1)");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->partitions.size(), 1u);
  EXPECT_EQ(r->partitions[0].size(), 2u);
  r = ParseAs<RefreshStmt>("REFRESH t PARTITION (y=1) PARTITION (y=2, m=3) partition (y=4)");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->partitions.size(), 3u);
  EXPECT_EQ(r->partitions[1].size(), 2u);
}

TEST(SqlParserMiscTest, UseAndSet) {
  auto u = ParseAs<UseStmt>("USE Sales");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->db, "sales");
  auto s = ParseAs<SetStmt>("SET SYNC_DDL=1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "sync_ddl");
  EXPECT_EQ(s->value, "1");
  EXPECT_FALSE(s->show_all);
  s = ParseAs<SetStmt>("set explain_level = Verbose");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "Verbose");  // identifier values keep their spelling
  s = ParseAs<SetStmt>("set request_pool='Root.Q1'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "Root.Q1");
  s = ParseAs<SetStmt>("set mem_limit=-1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "-1");
  s = ParseAs<SetStmt>("set sync_ddl=true");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "true");
  s = ParseAs<SetStmt>("set hive.exec.dynamic.partition=2.5");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "hive.exec.dynamic.partition");
  EXPECT_EQ(s->value, "2.5");
  s = ParseAs<SetStmt>("SET");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "");
  EXPECT_FALSE(s->show_all);
  s = ParseAs<SetStmt>("set all");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->show_all);
  EXPECT_EQ(ParseError("set sync_ddl"),
            "Syntax error at line 1, column 13: expected '=' but found end of input");
  EXPECT_EQ(ParseError("set sync_ddl="),
            "Syntax error at line 1, column 14: expected an option value but found end of input");
}

TEST(SqlParserMiscTest, CommentOn) {
  auto s = ParseAs<CommentOnStmt>("COMMENT ON DATABASE db IS 'sales data'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->target, CommentTarget::kDatabase);
  EXPECT_EQ(s->db, "db");
  EXPECT_EQ(s->comment.value(), "sales data");
  s = ParseAs<CommentOnStmt>("comment on table db.t is null");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->target, CommentTarget::kTable);
  EXPECT_EQ(s->table.ToString(), "db.t");
  EXPECT_FALSE(s->comment);
  s = ParseAs<CommentOnStmt>("comment on view v is ''");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->target, CommentTarget::kView);
  EXPECT_EQ(s->comment.value(), "");
  s = ParseAs<CommentOnStmt>("COMMENT ON COLUMN db.t.c IS 'col'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->target, CommentTarget::kColumn);
  EXPECT_EQ(s->table.ToString(), "db.t");
  EXPECT_EQ(s->column, "c");
  s = ParseAs<CommentOnStmt>("comment on column t.c is null");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.db, "");
  EXPECT_EQ(s->table.table, "t");
  EXPECT_EQ(ParseError("comment on column c is 'x'"),
            "Syntax error at line 1, column 21: expected '.' (COMMENT ON COLUMN takes "
            "table.column) but found 'is'");
  EXPECT_EQ(ParseError("comment on table t is 5"),
            "Syntax error at line 1, column 23: expected a comment string or NULL but found '5'");
}

}  // namespace
}  // namespace ics::sql
