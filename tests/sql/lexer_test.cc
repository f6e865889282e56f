// Lexer: token kinds, normalization, positions and lexical errors.
#include "common/sql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ics::sql {
namespace {

std::vector<Token> Lex(std::string_view sql) {
  auto r = Tokenize(sql);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : std::vector<Token>{};
}

std::string LexError(std::string_view sql) {
  auto r = Tokenize(sql);
  if (r.ok()) return "<ok>";
  EXPECT_EQ(r.status().code(), ErrorCode::kAnalysisError);
  return r.status().message();
}

TEST(SqlLexerTest, KindsAndValues) {
  auto t = Lex("SELECT `My Col`, 'it''s', 42, 1.5, .5, 2e10, 1E-3 <= <> != >= && || ;");
  std::vector<std::pair<TokenKind, std::string>> want = {
      {TokenKind::kIdentifier, "select"},
      {TokenKind::kQuotedIdentifier, "my col"},
      {TokenKind::kPunct, ","},
      {TokenKind::kString, "it"},
      {TokenKind::kString, "s"},
      {TokenKind::kPunct, ","},
      {TokenKind::kInteger, "42"},
      {TokenKind::kPunct, ","},
      {TokenKind::kDecimal, "1.5"},
      {TokenKind::kPunct, ","},
      {TokenKind::kDecimal, ".5"},
      {TokenKind::kPunct, ","},
      {TokenKind::kDecimal, "2e10"},
      {TokenKind::kPunct, ","},
      {TokenKind::kDecimal, "1E-3"},
      {TokenKind::kPunct, "<="},
      {TokenKind::kPunct, "<>"},
      {TokenKind::kPunct, "!="},
      {TokenKind::kPunct, ">="},
      {TokenKind::kPunct, "&&"},
      {TokenKind::kPunct, "||"},
      {TokenKind::kPunct, ";"},
      {TokenKind::kEnd, ""},
  };
  ASSERT_EQ(t.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(t[i].kind, want[i].first) << i;
    EXPECT_EQ(t[i].value, want[i].second) << i;
  }
}

TEST(SqlLexerTest, IdentifiersAreLowerCased) {
  auto t = Lex("MyTable `MiXeD`  `a``b` _x 1st_col t1.c2");
  EXPECT_EQ(t[0].value, "mytable");
  EXPECT_EQ(t[0].kind, TokenKind::kIdentifier);
  EXPECT_EQ(t[1].value, "mixed");
  EXPECT_EQ(t[1].kind, TokenKind::kQuotedIdentifier);
  EXPECT_EQ(t[2].value, "a`b");
  EXPECT_EQ(t[3].value, "_x");
  EXPECT_EQ(t[4].value, "1st_col");  // Impala names may start with digits
  EXPECT_EQ(t[4].kind, TokenKind::kIdentifier);
  EXPECT_EQ(t[5].value, "t1");
  EXPECT_TRUE(t[6].IsPunct("."));
  EXPECT_EQ(t[7].value, "c2");
}

TEST(SqlLexerTest, StringEscapes) {
  auto t = Lex(R"('a\'b' "c\"d" 'tab\there' 'nl\n' '\\' 'x\%y\_z' "it's" '\q' 'z\Z')");
  EXPECT_EQ(t[0].value, "a'b");
  EXPECT_EQ(t[1].value, "c\"d");
  EXPECT_EQ(t[2].value, "tab\there");
  EXPECT_EQ(t[3].value, "nl\n");
  EXPECT_EQ(t[4].value, "\\");
  EXPECT_EQ(t[5].value, "x\\%y\\_z");  // LIKE escapes keep their backslash (Hive)
  EXPECT_EQ(t[6].value, "it's");
  EXPECT_EQ(t[7].value, "q");
  EXPECT_EQ(t[8].value, "z\x1a");
  EXPECT_EQ(Lex("'a\\0b'")[0].value, std::string("a\0b", 3));
  EXPECT_EQ(Lex("''")[0].value, "");
  EXPECT_EQ(Lex("'multi\nline'")[0].value, "multi\nline");
}

TEST(SqlLexerTest, CommentsAreSkipped) {
  auto t = Lex("a -- line comment\n b /* block\n comment */ c/**/d -- at end");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].value, "a");
  EXPECT_EQ(t[1].value, "b");
  EXPECT_EQ(t[2].value, "c");
  EXPECT_EQ(t[3].value, "d");
  EXPECT_EQ(t[4].kind, TokenKind::kEnd);
  // A '-' followed by anything else is an operator.
  auto m = Lex("a - -1");
  EXPECT_TRUE(m[1].IsPunct("-"));
  EXPECT_TRUE(m[2].IsPunct("-"));
}

TEST(SqlLexerTest, Positions) {
  auto t = Lex("select\n  a,\n\tb /* x\ny */ c");
  EXPECT_EQ(t[0].line, 1);
  EXPECT_EQ(t[0].column, 1);
  EXPECT_EQ(t[1].line, 2);
  EXPECT_EQ(t[1].column, 3);
  EXPECT_EQ(t[2].column, 4);
  EXPECT_EQ(t[3].line, 3);
  EXPECT_EQ(t[3].column, 2);  // a tab is one column
  EXPECT_EQ(t[4].line, 4);
  EXPECT_EQ(t[4].column, 6);
  EXPECT_EQ(t[4].offset, 25u);
  EXPECT_EQ(t[5].kind, TokenKind::kEnd);
}

TEST(SqlLexerTest, Numbers) {
  auto t = Lex("1 12.50 1. 3e5 1e5x t.1 99999999999999999999");
  EXPECT_EQ(t[0].kind, TokenKind::kInteger);
  EXPECT_EQ(t[1].kind, TokenKind::kDecimal);
  EXPECT_EQ(t[1].value, "12.50");
  EXPECT_EQ(t[2].kind, TokenKind::kDecimal);
  EXPECT_EQ(t[3].kind, TokenKind::kDecimal);
  EXPECT_EQ(t[4].kind, TokenKind::kIdentifier);  // not an exponent
  EXPECT_EQ(t[4].value, "1e5x");
  EXPECT_EQ(t[5].value, "t");
  EXPECT_TRUE(t[6].IsPunct("."));  // after a name '.' separates parts
  EXPECT_EQ(t[7].kind, TokenKind::kInteger);
  EXPECT_EQ(t[8].kind, TokenKind::kInteger);  // range is the parser's business
  auto q = Lex("db.1tbl");
  EXPECT_EQ(q[2].value, "1tbl");
}

TEST(SqlLexerTest, Errors) {
  EXPECT_EQ(LexError("select 'abc"),
            "Syntax error at line 1, column 8: unterminated string literal");
  EXPECT_EQ(LexError("select\n  \"abc\\\""),
            "Syntax error at line 2, column 3: unterminated string literal");
  EXPECT_EQ(LexError("a /* never\nclosed"),
            "Syntax error at line 1, column 3: unterminated comment");
  EXPECT_EQ(LexError("x `abc"), "Syntax error at line 1, column 3: unterminated quoted identifier");
  EXPECT_EQ(LexError("x ``"), "Syntax error at line 1, column 3: empty quoted identifier");
  EXPECT_EQ(LexError("select $x"), "Syntax error at line 1, column 8: unexpected character '$'");
  EXPECT_EQ(LexError("a\n  \x01"), "Syntax error at line 2, column 3: unexpected character 0x01");
  EXPECT_EQ(LexError("select 1.5abc"), "Syntax error at line 1, column 8: invalid number '1.5abc'");
  EXPECT_EQ(LexError("'abc\\"), "Syntax error at line 1, column 1: unterminated string literal");
}

TEST(SqlLexerTest, DescribeToken) {
  const std::string sql = "select FROM 'a string' ;";
  auto t = Lex(sql);
  EXPECT_EQ(DescribeToken(t[1], sql), "'FROM'");
  EXPECT_EQ(DescribeToken(t[2], sql), "''a string''");
  EXPECT_EQ(DescribeToken(t.back(), sql), "end of input");
  const std::string long_sql = "'" + std::string(100, 'x') + "'";
  EXPECT_EQ(DescribeToken(Lex(long_sql)[0], long_sql).size(), 2u + 40 + 3);
}

TEST(SqlLexerTest, ReservedWords) {
  EXPECT_TRUE(IsReservedWord("select"));
  EXPECT_TRUE(IsReservedWord("partition"));
  EXPECT_FALSE(IsReservedWord("date"));
  EXPECT_FALSE(IsReservedWord("location"));
  EXPECT_FALSE(IsReservedWord("comment"));
}

}  // namespace
}  // namespace ics::sql
