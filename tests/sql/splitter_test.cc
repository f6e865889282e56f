// Statement splitting for the shell.
#include "common/sql/splitter.h"

#include <gtest/gtest.h>

#include "common/sql/parser.h"

namespace ics::sql {
namespace {

std::vector<std::string> Split(std::string_view sql) {
  auto r = SplitStatements(sql);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : std::vector<std::string>{};
}

using Pieces = std::vector<std::string>;

TEST(SqlSplitterTest, Basic) {
  EXPECT_EQ(Split("select 1; select 2"), (Pieces{"select 1", "select 2"}));
  EXPECT_EQ(Split("select 1;\n  select 2;\n"), (Pieces{"select 1", "select 2"}));
  EXPECT_EQ(Split(""), Pieces{});
  EXPECT_EQ(Split(" ;; ; \n"), Pieces{});
  EXPECT_EQ(Split("use a"), (Pieces{"use a"}));
}

TEST(SqlSplitterTest, QuotesAndComments) {
  EXPECT_EQ(Split("insert into t values ('a;b', \"c;d\"); select `x;y` from t"),
            (Pieces{"insert into t values ('a;b', \"c;d\")", "select `x;y` from t"}));
  EXPECT_EQ(Split("select 'it\\'s; here'; use b"), (Pieces{"select 'it\\'s; here'", "use b"}));
  EXPECT_EQ(Split("select 1 -- a; comment\n; use b"), (Pieces{"select 1 -- a; comment", "use b"}));
  EXPECT_EQ(Split("select /* ; */ 1; /* only a comment */; -- trailing;\n"),
            (Pieces{"select /* ; */ 1"}));
  EXPECT_EQ(Split("select `a``;b`; x"), (Pieces{"select `a``;b`", "x"}));
  // Not SQL the parser accepts, but the splitter does not judge.
  EXPECT_EQ(Split("foo $ bar; baz"), (Pieces{"foo $ bar", "baz"}));
}

TEST(SqlSplitterTest, Unterminated) {
  auto r = SplitStatements("select 1;\nselect 'abc;");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kAnalysisError);
  EXPECT_EQ(r.status().message(), "Syntax error at line 2, column 8: unterminated string literal");
  r = SplitStatements("select /* x;");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "Syntax error at line 1, column 8: unterminated comment");
  r = SplitStatements("select `x;");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Syntax error at line 1, column 8: unterminated quoted identifier");
  r = SplitStatements("select 'x\\");
  ASSERT_FALSE(r.ok());
}

TEST(SqlSplitterTest, AgreesWithParseScript) {
  const std::string script =
      "create table t (a int comment 'x;y');\n"
      "-- c;\n"
      "insert into t values (1), (2);\n"
      "/* ; */ explain select * from t where a in (1, 2)\n";
  auto pieces = Split(script);
  auto stmts = ParseScript(script);
  ASSERT_TRUE(stmts.ok());
  ASSERT_EQ(pieces.size(), stmts->size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    auto one = ParseStatement(pieces[i]);
    ASSERT_TRUE(one.ok()) << pieces[i];
    EXPECT_EQ((*one)->kind, (*stmts)[i]->kind);
  }
}

TEST(SqlSplitterTest, IsStatementComplete) {
  EXPECT_TRUE(IsStatementComplete("select 1;"));
  EXPECT_TRUE(IsStatementComplete("select 1;  \n"));
  EXPECT_TRUE(IsStatementComplete("select 1; -- comment"));
  EXPECT_TRUE(IsStatementComplete("select 1; /* c */"));
  EXPECT_TRUE(IsStatementComplete("use a; use b;"));
  EXPECT_FALSE(IsStatementComplete("select 1"));
  EXPECT_FALSE(IsStatementComplete("select ';"));
  EXPECT_FALSE(IsStatementComplete("select 1 -- ;"));
  EXPECT_FALSE(IsStatementComplete("select /* ; */ 1"));
  EXPECT_FALSE(IsStatementComplete("select /* ;"));
  EXPECT_FALSE(IsStatementComplete("use a; use b"));
  EXPECT_FALSE(IsStatementComplete(";"));
  EXPECT_FALSE(IsStatementComplete(""));
  EXPECT_TRUE(IsStatementComplete("select 'a;b';"));
}

}  // namespace
}  // namespace ics::sql
