// Parser: SELECT / EXPLAIN and the expression tree.
#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

using testing::ExprSql;
using testing::ParseAs;
using testing::ParseError;

ExprPtr ParseExpr(std::string_view sql) {
  auto r = ParseExpression(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

TEST(SqlParserQueryTest, ExplainSelectFull) {
  auto s = ParseAs<ExplainStmt>(
      "EXPLAIN SELECT DISTINCT a, t.b AS bee, count(*), sum(c) total, * , t.* "
      "FROM Sales.Orders t WHERE year = 2024 AND month IN (1, 2) "
      "GROUP BY a, t.b HAVING count(*) > 1 ORDER BY a DESC, bee LIMIT 10 OFFSET 5");
  ASSERT_TRUE(s);
  const SelectStmt& q = *s->query;
  EXPECT_TRUE(q.distinct);
  ASSERT_EQ(q.items.size(), 6u);
  EXPECT_EQ(q.items[0].expr->kind, ExprKind::kColumnRef);
  EXPECT_EQ(q.items[0].expr->path, (std::vector<std::string>{"a"}));
  EXPECT_EQ(q.items[1].expr->path, (std::vector<std::string>{"t", "b"}));
  EXPECT_EQ(q.items[1].alias, "bee");
  EXPECT_EQ(q.items[2].expr->kind, ExprKind::kFunctionCall);
  EXPECT_TRUE(q.items[2].expr->star);
  EXPECT_EQ(q.items[3].alias, "total");
  EXPECT_TRUE(q.items[4].star);
  EXPECT_EQ(q.items[4].star_qualifier, "");
  EXPECT_TRUE(q.items[5].star);
  EXPECT_EQ(q.items[5].star_qualifier, "t");
  ASSERT_TRUE(q.from);
  EXPECT_EQ(q.from->name.ToString(), "sales.orders");
  EXPECT_EQ(q.from->alias, "t");
  ASSERT_TRUE(q.where);
  EXPECT_EQ(q.where->kind, ExprKind::kAnd);
  EXPECT_EQ(q.where->ToSql(), "year = 2024 AND month IN (1, 2)");
  ASSERT_EQ(q.group_by.size(), 2u);
  ASSERT_TRUE(q.having);
  EXPECT_EQ(q.having->ToSql(), "count(*) > 1");
  ASSERT_EQ(q.order_by.size(), 2u);
  EXPECT_FALSE(q.order_by[0].ascending);
  EXPECT_TRUE(q.order_by[1].ascending);
  EXPECT_EQ(q.limit.value(), 10);
  EXPECT_EQ(q.offset.value(), 5);
  EXPECT_EQ(q.text.rfind("SELECT DISTINCT a,", 0), 0u);
  EXPECT_EQ(s->text.rfind("EXPLAIN SELECT", 0), 0u);
  EXPECT_EQ(q.column, 9);
}

TEST(SqlParserQueryTest, PlainSelect) {
  auto s = ParseAs<SelectStmt>("select * from t");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->where);
  EXPECT_FALSE(s->limit);
  EXPECT_EQ(s->from->alias, "");
  s = ParseAs<SelectStmt>("select 1");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->from);
  s = ParseAs<SelectStmt>("select a from t as x limit -1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->from->alias, "x");
  EXPECT_EQ(s->limit.value(), -1);  // the analyzer rejects it
  s = ParseAs<SelectStmt>("select a from db.t where b is not null limit 0");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->from->name.db, "db");
}

TEST(SqlParserQueryTest, WhereTreeShapes) {
  auto e = ParseExpr("p = 1 OR NOT q < 2 AND r BETWEEN 1 AND 5");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->kind, ExprKind::kOr);  // AND binds tighter than OR
  const Expr& cmp = *e->children[0];
  EXPECT_EQ(cmp.kind, ExprKind::kComparison);
  EXPECT_EQ(cmp.op, BinaryOp::kEq);
  EXPECT_EQ(cmp.children[0]->path[0], "p");
  EXPECT_EQ(cmp.children[1]->literal.int_value, 1);
  const Expr& conj = *e->children[1];
  ASSERT_EQ(conj.kind, ExprKind::kAnd);
  ASSERT_EQ(conj.children[0]->kind, ExprKind::kNot);  // NOT binds looser than <
  EXPECT_EQ(conj.children[0]->children[0]->op, BinaryOp::kLt);
  const Expr& between = *conj.children[1];
  ASSERT_EQ(between.kind, ExprKind::kBetween);
  EXPECT_FALSE(between.negated);
  ASSERT_EQ(between.children.size(), 3u);
  EXPECT_EQ(between.children[2]->literal.int_value, 5);

  e = ParseExpr("(a = 1 OR b = 2) AND c NOT IN ('x', 'y') AND d IS NULL AND e IS NOT NULL");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ExprKind::kAnd);
  EXPECT_EQ(e->ToSql(), "(a = 1 OR b = 2) AND c NOT IN ('x', 'y') AND d IS NULL AND e IS NOT NULL");
  const Expr& is_not_null = *e->children[1];
  EXPECT_EQ(is_not_null.kind, ExprKind::kIsNull);
  EXPECT_TRUE(is_not_null.negated);
  const Expr& not_in = *e->children[0]->children[0]->children[1];
  EXPECT_EQ(not_in.kind, ExprKind::kIn);
  EXPECT_TRUE(not_in.negated);
  EXPECT_EQ(not_in.children.size(), 3u);
}

TEST(SqlParserQueryTest, ComparisonOperators) {
  const std::pair<const char*, BinaryOp> ops[] = {
      {"=", BinaryOp::kEq},  {"!=", BinaryOp::kNe}, {"<>", BinaryOp::kNe}, {"<", BinaryOp::kLt},
      {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt},  {">=", BinaryOp::kGe},
  };
  for (const auto& [text, op] : ops) {
    auto e = ParseExpr(std::string("a ") + text + " 3");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, ExprKind::kComparison);
    EXPECT_EQ(e->op, op) << text;
  }
  EXPECT_EQ(SwapComparison(BinaryOp::kLt), BinaryOp::kGt);
  EXPECT_EQ(SwapComparison(BinaryOp::kGe), BinaryOp::kLe);
  EXPECT_EQ(SwapComparison(BinaryOp::kEq), BinaryOp::kEq);
}

TEST(SqlParserQueryTest, ArithmeticAndCalls) {
  auto e = ParseExpr("a + b * 2 - -c / 4 % 3");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ExprKind::kArithmetic);
  EXPECT_EQ(e->op, BinaryOp::kSub);
  EXPECT_EQ(e->children[0]->op, BinaryOp::kAdd);
  EXPECT_EQ(e->children[0]->children[1]->op, BinaryOp::kMul);
  const Expr& rhs = *e->children[1];
  EXPECT_EQ(rhs.op, BinaryOp::kMod);
  EXPECT_EQ(rhs.children[0]->op, BinaryOp::kDiv);
  EXPECT_EQ(rhs.children[0]->children[0]->kind, ExprKind::kNegate);

  EXPECT_FALSE(ParseExpression("db.f(x, 1), 2").ok());  // trailing ", 2"
  e = ParseExpr("Coalesce(T.X, 'd') = upper(lower(`Y z`))");
  ASSERT_TRUE(e);
  const Expr& call = *e->children[0];
  EXPECT_EQ(call.kind, ExprKind::kFunctionCall);
  EXPECT_EQ(call.path, (std::vector<std::string>{"coalesce"}));
  EXPECT_EQ(call.children.size(), 2u);
  EXPECT_EQ(call.children[0]->path, (std::vector<std::string>{"t", "x"}));
  EXPECT_EQ(e->children[1]->children[0]->children[0]->path[0], "y z");
  e = ParseExpr("count(distinct a, b) + now() + if(a > 1, 2, 3) + db.fn(1)");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->ToSql(), "count(DISTINCT a, b) + now() + if(a > 1, 2, 3) + db.fn(1)");
}

TEST(SqlParserQueryTest, LiteralsInExpressions) {
  auto e = ParseExpr("a IN (NULL, TRUE, false, -3, 2.5, 'q', DATE '2020-02-29', 1e3)");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->children.size(), 9u);
  EXPECT_TRUE(e->children[1]->literal.is_null());
  EXPECT_TRUE(e->children[2]->literal.bool_value);
  EXPECT_EQ(e->children[4]->literal.int_value, -3);
  EXPECT_EQ(e->children[5]->literal.kind, LiteralKind::kDecimal);
  EXPECT_EQ(e->children[7]->literal.kind, LiteralKind::kDate);
  EXPECT_EQ(e->children[8]->literal.value, "1e3");
  // "date" without a string is a column.
  e = ParseExpr("date >= DATE '2024-01-01'");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->children[0]->kind, ExprKind::kColumnRef);
  EXPECT_EQ(e->children[1]->literal.value, "2024-01-01");
  EXPECT_EQ(ExprSql("DATE '2021-02-29'"),
            "ERROR: Syntax error at line 1, column 6: invalid DATE literal '2021-02-29' "
            "(expected 'yyyy-mm-dd')");
}

TEST(SqlParserQueryTest, ExprPositions) {
  auto e = ParseExpr("a = 1 AND\n  b IN (2)");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line, 1);
  EXPECT_EQ(e->column, 1);
  EXPECT_EQ(e->children[1]->line, 2);
  EXPECT_EQ(e->children[1]->column, 3);
}

TEST(SqlParserQueryTest, ToSqlRoundTrips) {
  const char* cases[] = {
      "a = 1",
      "NOT a = 1",
      "NOT (a OR b)",
      "a OR (b OR c)",
      "(a OR b) AND c",
      "a - (b - c)",
      "(a + b) * c",
      "-(a + 1)",
      "-(-1)",
      "-(5)",
      "a LIKE 'x%' AND b NOT LIKE '\\_y'",
      "a NOT BETWEEN 1 + 1 AND 10 * 2",
      "a = 1 = TRUE",
      "a = (1 = TRUE)",
      "a IS NULL IS NOT NULL",
      "a < b IN (TRUE) LIKE 'x'",
      "CAST(a AS decimal(10,2)) > 1.5",
      "`select` = `a b` AND `1e5` = 1 AND x1 = 2",
      "s = 'it\\'s \\\\ \\n'",
      "d IN (DATE '2024-01-31', NULL)",
      "t.c IS NOT NULL OR f(*) > 0",
  };
  for (const char* c : cases) {
    auto e = ParseExpr(c);
    ASSERT_TRUE(e) << c;
    const std::string sql = e->ToSql();
    EXPECT_EQ(sql, c);
    auto again = ParseExpr(sql);
    ASSERT_TRUE(again) << sql;
    EXPECT_EQ(again->ToSql(), sql);
  }
  EXPECT_EQ(ExprSql("a <> 1 && b || c"), "a != 1 AND b OR c");
  EXPECT_EQ(ExprSql("((a))"), "a");
  EXPECT_EQ(ExprSql("+a"), "a");
  EXPECT_EQ(ExprSql("(a = 1) = TRUE"), "a = 1 = TRUE");
}

// Regression (found by sql_fuzz): a left-deep chain of comparisons longer than
// the parser's parenthesis limit printed one parenthesis per comparison, so the
// printed text of an accepted expression did not parse again.
TEST(SqlParserQueryTest, LongComparisonChainPrintsParsable) {
  std::string sql = "a";
  for (int i = 0; i < 400; ++i) sql += " = 1";
  auto e = ParseExpr(sql);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->ToSql(), sql);
  auto again = ParseExpr(e->ToSql());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->ToSql(), sql);
}

TEST(SqlParserQueryTest, Errors) {
  EXPECT_EQ(ParseError("select a, from t"),
            "Syntax error at line 1, column 11: expected an expression but found 'from'");
  EXPECT_EQ(ParseError("explain select a from t where (a = 1"),
            "Syntax error at line 1, column 37: expected ')' but found end of input");
  EXPECT_EQ(ParseError("explain select a from t\nwhere a in (1, 2 from"),
            "Syntax error at line 2, column 18: expected ')' but found 'from'");
  EXPECT_EQ(ParseError("select * from t where a between 1 or 2"),
            "Syntax error at line 1, column 35: expected AND but found 'or'");
  EXPECT_EQ(ParseError("select * from t where a is 5"),
            "Syntax error at line 1, column 28: expected NULL but found '5'");
  EXPECT_EQ(ParseError("select * from a, b"),
            "Syntax error at line 1, column 16: joins are not supported: FROM takes a single "
            "table");
  EXPECT_EQ(ParseError("select * from a join b on a.x = b.x"),
            "Syntax error at line 1, column 17: joins are not supported: FROM takes a single "
            "table");
  EXPECT_EQ(ParseError("select * from (select 1) x"),
            "Syntax error at line 1, column 15: subqueries in FROM are not supported");
  EXPECT_EQ(ParseError("select * from t where a in (select b from u)"),
            "Syntax error at line 1, column 29: subqueries are not supported");
  EXPECT_EQ(ParseError("select * from t limit x"),
            "Syntax error at line 1, column 23: expected an integer LIMIT but found 'x'");
  EXPECT_EQ(ParseError("select * from t limit 99999999999999999999"),
            "Syntax error at line 1, column 23: LIMIT value out of range: "
            "99999999999999999999");
  EXPECT_EQ(ParseError("explain drop table t"),
            "Syntax error at line 1, column 9: expected SELECT (EXPLAIN supports queries only) "
            "but found 'drop'");
  EXPECT_EQ(ParseError("select cast(a as blob) from t"),
            "Syntax error at line 1, column 18: unknown type 'blob'");
  EXPECT_EQ(ParseError("select a from t union select b from u"),
            "Syntax error at line 1, column 17: UNION is not supported");
}

}  // namespace
}  // namespace ics::sql
