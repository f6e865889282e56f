// Parser: error messages with their positions, scripts, nesting limits.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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
  // Long flat inputs are fine (no recursion per element). An AND chain is a
  // left-deep tree, one level per AND: it may be as long as kMaxExprDepth
  // allows (SqlParserDepthTest covers longer ones).
  std::string flat = "select * from t where a IN (0";
  for (int i = 1; i < 20000; ++i) flat += "," + std::to_string(i);
  flat += ") OR b = 1";
  for (int i = 0; i < kMaxExprDepth - 10; ++i) flat += " AND c" + std::to_string(i) + " = 1";
  EXPECT_TRUE(ParseStatement(flat).ok());
  std::string deep_type = "create table t (a ";
  for (int i = 0; i < 20000; ++i) deep_type += "array<";
  EXPECT_NE(ParseError(deep_type).find("type nested too deeply"), std::string::npos);
}

// ---- depth limits: no input overflows the stack (see "Depth limits" in parser.h) ----

// "select " + first + (sep + term) * (n - 1): an n-term chain.
std::string Chain(const std::string& first, const std::string& sep, const std::string& term,
                  int n) {
  std::string s = "select " + first;
  s.reserve(s.size() + static_cast<size_t>(n) * (sep.size() + term.size()));
  for (int i = 1; i < n; ++i) s += sep + term;
  return s;
}

// `open` n times, `middle`, `close` n times.
std::string Nest(const std::string& open, const std::string& middle, const std::string& close,
                 int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += open;
  s += middle;
  for (int i = 0; i < n; ++i) s += close;
  return s;
}

constexpr char kTooDeep[] = "expression nested too deeply (more than 1000 levels";

// After any rejected input the parser still works.
void ExpectNormalStatementParses() {
  auto r = ParseStatement("select a + 1, b from t where c = 2 and d in (1, 2)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->text, "select a + 1, b from t where c = 2 and d in (1, 2)");
}

TEST(SqlParserDepthTest, LongBinaryOperatorChainsAreAnError) {
  constexpr int kTerms = 200000;
  const std::vector<std::pair<std::string, std::string>> chains = {
      {"+", "1"},         {"-", "a"},          {" * ", "a"},
      {"/", "2"},         {" % ", "3"},        {" AND ", "a"},
      {" && ", "a"},      {" OR ", "a"},       {" || ", "a"},
      {" = ", "a"},       {" < ", "1"},        {" <> ", "'x'"},
      {" LIKE ", "'x'"},  {" IS NULL", ""},    {" IS NOT NULL", ""},
      {" IN ", "(1, 2)"}, {" NOT IN ", "(1)"}, {" BETWEEN ", "1 AND 2"},
  };
  for (const auto& [sep, term] : chains) {
    const std::string msg = ParseError(Chain("a", sep, term, kTerms));
    EXPECT_NE(msg.find(kTooDeep), std::string::npos) << "chain of '" << sep << "': " << msg;
    EXPECT_EQ(msg.rfind("Syntax error at line 1, column ", 0), 0u) << msg;
  }
  // Through ParseExpression and ParseScript too.
  std::string expr = "1";
  for (int i = 1; i < kTerms; ++i) expr += "+1";
  auto e = ParseExpression(expr);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find(kTooDeep), std::string::npos);
  auto script = ParseScript("use d; " + Chain("1", "+", "1", kTerms) + "; use e");
  ASSERT_FALSE(script.ok());
  EXPECT_NE(script.status().message().find(kTooDeep), std::string::npos);
  ExpectNormalStatementParses();
}

TEST(SqlParserDepthTest, ChainUpToTheLimitParsesAndPrints) {
  // n '+' operators make a tree n + 1 levels high (the leaves are one level).
  std::string at_limit = "1";
  for (int i = 0; i < kMaxExprDepth - 1; ++i) at_limit += "+1";
  auto e = ParseExpression(at_limit);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ((*e)->height, kMaxExprDepth);
  EXPECT_EQ((*e)->ToSql().size(), at_limit.size() + 2 * (kMaxExprDepth - 1));  // "1 + 1 + ..."
  auto over = ParseExpression(at_limit + "+1");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().message(),
            "Syntax error at line 1, column " + std::to_string(at_limit.size() + 1) + ": " +
                kTooDeep +
                "; each operator of a chain such as a + b + c or a OR b OR c adds a level; "
                "write a long list of values as IN (...))");
}

TEST(SqlParserDepthTest, TreeHeightCountsAcrossParentheses) {
  // Each parenthesized level is shallow for the parser (one nesting level) but
  // its chain stacks onto the tree below it: 150 levels x 10 operators.
  std::string s = "1";
  for (int i = 0; i < 150; ++i) s = "(" + s + ")+1+1+1+1+1+1+1+1+1+1";
  EXPECT_NE(ParseError("select " + s).find(kTooDeep), std::string::npos);
  // Right-nested: a + (a + (a + ...)) is as high as it is nested.
  EXPECT_NE(ParseError("select " + Nest("a + (", "a", ")", 250)).find("nesting too deep"),
            std::string::npos);
  auto ok = ParseExpression(Nest("a + (", "a", ")", 150));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->height, 151);
  // NOT over a long chain, function arguments and CAST operands count too.
  const std::string chain = Chain("a", " AND ", "a", kMaxExprDepth).substr(7);  // height 1000
  ASSERT_TRUE(ParseExpression(chain).ok());
  for (const std::string& wrapped :
       {"NOT (" + chain + ")", "-(" + chain + ")", "f(1, " + chain + ")",
        "cast(" + chain + " as int)", "x IN (1, " + chain + ")", "(" + chain + ") IS NULL",
        "x BETWEEN 1 AND (" + chain + ")"}) {
    auto r = ParseExpression(wrapped);
    ASSERT_FALSE(r.ok()) << wrapped.substr(0, 20);
    EXPECT_NE(r.status().message().find(kTooDeep), std::string::npos) << r.status().message();
  }
  ExpectNormalStatementParses();
}

TEST(SqlParserDepthTest, DeepNestingIsAnError) {
  constexpr int kDepth = 100000;
  const std::vector<std::string> inputs = {
      "select " + Nest("(", "1", ")", kDepth),
      "select " + Nest("((", "1", "))", kDepth),
      "select * from t where " + Nest("(", "a = 1", ")", kDepth),
      "select " + Nest("NOT ", "a", "", kDepth),
      "select " + Nest("- ", "a", "", kDepth),
      "select " + Nest("+ ", "a", "", kDepth),
      "select " + Nest("f(", "1", ")", kDepth),
      "select " + Nest("f(1, ", "1", ")", kDepth),
      "select " + Nest("cast(", "1", " as int)", kDepth),
      "select " + Nest("a IN (", "1", ")", kDepth),
      "select " + Nest("a BETWEEN (", "1", ") AND 2", kDepth),
      "select " + Nest("(select ", "1", ")", kDepth),
      "insert into t values (" + Nest("(", "1", ")", kDepth) + ")",
      "select " + std::string(kDepth, '('),
  };
  for (const std::string& sql : inputs) {
    const std::string msg = ParseError(sql);
    EXPECT_TRUE(msg.find("nesting too deep (more than 200 levels)") != std::string::npos ||
                msg.find("subqueries are not supported") != std::string::npos)
        << sql.substr(0, 30) << ": " << msg;
  }
  ExpectNormalStatementParses();
}

TEST(SqlParserDepthTest, CaseIsNotInTheGrammar) {
  // CASE is not supported; deep or long CASE text is a plain syntax error.
  EXPECT_EQ(ParseError("select case when a then 1 end from t").rfind("Syntax error", 0), 0u);
  EXPECT_EQ(ParseError("select " + Nest("case when a then ", "1", " end", 100000))
                .rfind("Syntax error", 0),
            0u);
  std::string arms = "select case";
  for (int i = 0; i < 100000; ++i) arms += " when a = " + std::to_string(i) + " then 1";
  EXPECT_EQ(ParseError(arms + " end").rfind("Syntax error", 0), 0u);
  ExpectNormalStatementParses();
}

TEST(SqlParserDepthTest, DeepNestedTypesAreAnError) {
  constexpr int kDepth = 100000;
  const std::vector<std::string> types = {
      Nest("array<", "int", ">", kDepth),
      Nest("map<int,", "int", ">", kDepth),
      Nest("struct<f:", "int", ">", kDepth),
      Nest("array<map<string,struct<a:", "int", ">>>", kDepth),
      std::string(kDepth, '<'),
      Nest("array<", "", "", kDepth),
  };
  for (const std::string& type : types) {
    const std::string create = ParseError("create table t (c " + type + ")");
    EXPECT_TRUE(create.find("type nested too deeply (more than 100 levels)") != std::string::npos ||
                create.find("expected a type") != std::string::npos)
        << type.substr(0, 30) << ": " << create;
    const std::string cast = ParseError("select cast(1 as " + type + ")");
    EXPECT_TRUE(cast.find("type nested too deeply") != std::string::npos ||
                cast.find("expected a type") != std::string::npos)
        << cast;
    auto standalone = ParseColumnType(type);
    EXPECT_FALSE(standalone.ok());
  }
  EXPECT_NE(ParseError("create table t (c " + Nest("array<", "int", ">", kDepth) + ")")
                .find("type nested too deeply (more than 100 levels)"),
            std::string::npos);
  // Within the limit: fine, including as a column of ADD COLUMNS and a CAST target.
  const std::string ok_type = Nest("array<map<string,struct<a:", "int", ">>>", 33);  // 99 levels
  auto t = ParseColumnType(ok_type);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(*t, ok_type);
  EXPECT_TRUE(ParseStatement("alter table t add columns (c " + ok_type + ")").ok());
  EXPECT_TRUE(ParseStatement("select cast(1 as " + ok_type + ")").ok());
  ExpectNormalStatementParses();
}

TEST(SqlParserDepthTest, LongFlatListsAreFine) {
  constexpr int kItems = 200000;
  std::string in_list = "select * from t where a in (0";
  for (int i = 1; i < kItems; ++i) in_list += ", " + std::to_string(i);
  auto in = ParseAs<SelectStmt>(in_list + ")");
  ASSERT_TRUE(in);
  EXPECT_EQ(in->where->children.size(), static_cast<size_t>(kItems) + 1);
  EXPECT_EQ(in->where->height, 2);
  EXPECT_EQ(in->where->ToSql().size(), in_list.size() - 22 + 1);  // "a IN (0, 1, ...)"

  auto args = ParseExpression(Chain("f(0", ", ", "1", kItems).substr(7) + ")");
  ASSERT_TRUE(args.ok()) << args.status().ToString();
  EXPECT_EQ((*args)->children.size(), static_cast<size_t>(kItems));

  auto items = ParseAs<SelectStmt>(Chain("a", ", ", "a", kItems) + " from t");
  ASSERT_TRUE(items);
  EXPECT_EQ(items->items.size(), static_cast<size_t>(kItems));

  std::string values = "insert into t values (0)";
  for (int i = 1; i < 100000; ++i) values += ", (" + std::to_string(i) + ")";
  auto insert = ParseAs<InsertStmt>(values);
  ASSERT_TRUE(insert);
  EXPECT_EQ(insert->rows.size(), 100000u);

  std::string fields = "create table t (c struct<f0:int";
  for (int i = 1; i < 10000; ++i) fields += ", f" + std::to_string(i) + ":int";
  EXPECT_TRUE(ParseStatement(fields + ">)").ok());

  std::string script;
  for (int i = 0; i < 20000; ++i) script += "use d" + std::to_string(i) + ";";
  auto all = ParseScript(script);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 20000u);
  ExpectNormalStatementParses();
}

}  // namespace
}  // namespace ics::sql
