// The HMS partition filter language: parsing, evaluation, LIKE, and errors
// with positions.
#include "catalogd/hms/hms_filter.h"

#include <gtest/gtest.h>

namespace ics::catalog::hms {
namespace {

std::vector<hive::FieldSchema> Keys() {
  std::vector<hive::FieldSchema> keys(3);
  keys[0].name = "year";
  keys[0].type = "int";
  keys[1].name = "region";
  keys[1].type = "string";
  keys[2].name = "code";
  keys[2].type = "string";
  return keys;
}

// Values: year, region, code.
bool Eval(const std::string& filter, std::vector<std::string> values) {
  auto f = HmsPartitionFilter::Parse(filter, Keys());
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  if (!f.ok()) return false;
  return f->Matches(values);
}

std::string ParseError(const std::string& filter) {
  auto f = HmsPartitionFilter::Parse(filter, Keys());
  EXPECT_FALSE(f.ok()) << "filter should not parse: " << filter;
  if (f.ok()) return "";
  EXPECT_EQ(f.status().code(), ErrorCode::kInvalidArgument);
  return f.status().message();
}

TEST(HmsFilterTest, EmptyMatchesEverything) {
  EXPECT_TRUE(Eval("", {"2020", "eu", "a"}));
  EXPECT_TRUE(Eval("   ", {"2020", "eu", "a"}));
}

TEST(HmsFilterTest, ComparisonsOnStrings) {
  EXPECT_TRUE(Eval("region = \"eu\"", {"1", "eu", "a"}));
  EXPECT_FALSE(Eval("region = \"eu\"", {"1", "us", "a"}));
  EXPECT_TRUE(Eval("region != 'eu'", {"1", "us", "a"}));
  EXPECT_TRUE(Eval("region <> 'eu'", {"1", "us", "a"}));
  EXPECT_TRUE(Eval("region < 'f'", {"1", "eu", "a"}));
  EXPECT_FALSE(Eval("region < 'eu'", {"1", "eu", "a"}));
  EXPECT_TRUE(Eval("region <= 'eu'", {"1", "eu", "a"}));
  EXPECT_TRUE(Eval("region > 'a'", {"1", "eu", "a"}));
  EXPECT_TRUE(Eval("region >= 'eu'", {"1", "eu", "a"}));
  // String keys compare text even with an integer literal: "10" < "9".
  EXPECT_TRUE(Eval("code < 9", {"1", "eu", "10"}));
}

TEST(HmsFilterTest, IntegerKeysCompareNumbers) {
  EXPECT_TRUE(Eval("year > 9", {"10", "eu", "a"}));    // numerically 10 > 9
  EXPECT_FALSE(Eval("year > '9'", {"10", "eu", "a"}));  // a string literal compares text
  EXPECT_TRUE(Eval("year = -5", {"-5", "eu", "a"}));
  EXPECT_TRUE(Eval("year >= 2020 and year < 2022", {"2021", "eu", "a"}));
  // The default partition is not a number: it matches no numeric comparison.
  EXPECT_FALSE(Eval("year < 3000", {"__HIVE_DEFAULT_PARTITION__", "eu", "a"}));
  EXPECT_FALSE(Eval("year != 3000", {"__HIVE_DEFAULT_PARTITION__", "eu", "a"}));
}

TEST(HmsFilterTest, LiteralOnTheLeftFlipsTheOperator) {
  EXPECT_TRUE(Eval("2019 < year", {"2020", "eu", "a"}));
  EXPECT_FALSE(Eval("2021 <= year", {"2020", "eu", "a"}));
  EXPECT_TRUE(Eval("'eu' = region", {"1", "eu", "a"}));
}

TEST(HmsFilterTest, AndOrParenthesesAndPrecedence) {
  // AND binds tighter than OR.
  EXPECT_TRUE(Eval("region = 'us' or region = 'eu' and code = 'b'", {"1", "us", "a"}));
  EXPECT_FALSE(Eval("(region = 'us' or region = 'eu') and code = 'b'", {"1", "us", "a"}));
  EXPECT_TRUE(Eval("((year = 1)) AND (region = 'eu' OR region = 'us')", {"1", "us", "a"}));
  EXPECT_TRUE(Eval("YEAR = 1 And Region = 'us'", {"1", "us", "a"}));  // case-insensitive
}

TEST(HmsFilterTest, LikeIsAWholeValueRegexSubset) {
  EXPECT_TRUE(Eval("region like 'e.*'", {"1", "eu-west", "a"}));
  EXPECT_FALSE(Eval("region like 'e.'", {"1", "eu-west", "a"}));  // whole value
  EXPECT_TRUE(Eval("region LIKE \"eu-w.st\"", {"1", "eu-west", "a"}));
  EXPECT_TRUE(Eval("code like 'a*b'", {"1", "x", "aaab"}));
  EXPECT_TRUE(Eval("code like 'a*b'", {"1", "x", "b"}));
  EXPECT_TRUE(Eval("code like 'x\\\\.y'", {"1", "x", "x.y"}));  // filter text: x\\.y
  EXPECT_FALSE(Eval("code like 'x\\\\.y'", {"1", "x", "xzy"}));
}

TEST(HmsFilterTest, LikeMatcherHasNoBacktrackingBlowUp) {
  std::string value(5000, 'a');
  std::string pattern;
  for (int i = 0; i < 50; ++i) pattern += "a*";
  pattern += "b";
  auto r = HmsLikeMatches(pattern, value);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  auto ok = HmsLikeMatches(".*a", value);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
}

TEST(HmsFilterTest, WrongValueCountNeverMatches) {
  auto f = HmsPartitionFilter::Parse("", Keys());
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->Matches({"1", "eu"}));
}

TEST(HmsFilterTest, ErrorsNamePositions) {
  EXPECT_NE(ParseError("yr = 1").find("unknown partition key 'yr' at position 0"),
            std::string::npos);
  EXPECT_NE(ParseError("year = 1 and").find("at position 12"), std::string::npos);
  EXPECT_NE(ParseError("(year = 1").find("expected ')' at position 9"), std::string::npos);
  EXPECT_NE(ParseError("year = 1)").find("at position 8"), std::string::npos);
  EXPECT_NE(ParseError("year 1").find("expected a comparison operator"), std::string::npos);
  EXPECT_NE(ParseError("year = region").find("expected a string or integer literal at position 7"),
            std::string::npos);
  EXPECT_NE(ParseError("1 = 2").find("expected a partition key at position 4"),
            std::string::npos);
  EXPECT_NE(ParseError("region = 'eu").find("unterminated string starting at position 9"),
            std::string::npos);
  EXPECT_NE(ParseError("region ! 'eu'").find("expected '!=' at position 7"), std::string::npos);
  EXPECT_NE(ParseError("region = 'eu' ; drop").find("unexpected character ';' at position 14"),
            std::string::npos);
  EXPECT_NE(ParseError("region like 5").find("LIKE needs a string pattern"), std::string::npos);
  EXPECT_NE(ParseError("'e.*' like region").find("LIKE needs the partition key on its left"),
            std::string::npos);
  const std::string bracket = ParseError("region like 'e[u]'");
  EXPECT_NE(bracket.find("'[' is not supported in LIKE patterns"), std::string::npos);
  EXPECT_NE(bracket.find("at position 14"), std::string::npos);
  EXPECT_NE(ParseError("region like '*x'").find("'*' must follow"), std::string::npos);
  EXPECT_NE(ParseError("year = 99999999999999999999").find("out of range"), std::string::npos);
}

TEST(HmsFilterTest, LimitsOnSizeAndDepth) {
  std::string deep(kMaxHmsFilterDepth + 5, '(');
  deep += "year = 1";
  deep += std::string(kMaxHmsFilterDepth + 5, ')');
  auto f = HmsPartitionFilter::Parse(deep, Keys());
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("nested deeper"), std::string::npos);
  auto big = HmsPartitionFilter::Parse(std::string(kMaxHmsFilterBytes + 1, ' '), Keys());
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("longer than"), std::string::npos);
}

TEST(HmsFilterTest, DeepInputsAreErrorsAndLongChainsAreFlat) {
  // Nesting past the limit, balanced or not, within the byte limit.
  std::string balanced(30000, '(');
  balanced += "year = 1" + std::string(30000, ')');
  std::string open_only(60000, '(');
  std::string mixed;
  for (int i = 0; i < 1000; ++i) mixed += "(year = 1 OR (region = 'x' AND ";
  for (const std::string& filter : {balanced, open_only, mixed}) {
    ASSERT_LE(filter.size(), kMaxHmsFilterBytes);
    EXPECT_NE(ParseError(filter).find("nested deeper than 100 levels"), std::string::npos)
        << filter.substr(0, 40);
  }
  // 100,000 nested parentheses and a 200,000-term chain are over the byte limit.
  EXPECT_NE(ParseError(std::string(100000, '(') + "year = 1" + std::string(100000, ')'))
                .find("longer than 65536 bytes"),
            std::string::npos);
  std::string long_chain = "year = 1";
  for (int i = 1; i < 200000; ++i) long_chain += " AND year = 1";
  EXPECT_NE(ParseError(long_chain).find("longer than"), std::string::npos);
  // A chain as long as the byte limit allows is one flat node: fine.
  std::string ands = "year = 2024", ors = "year = 0";
  for (int i = 1; i < 4000; ++i) {
    ands += " AND year=2024";
    ors += " OR year=" + std::to_string(i);
  }
  ASSERT_LE(ands.size(), kMaxHmsFilterBytes);
  ASSERT_LE(ors.size(), kMaxHmsFilterBytes);
  EXPECT_TRUE(Eval(ands, {"2024", "eu", "a"}));
  EXPECT_FALSE(Eval(ors, {"5000", "eu", "a"}));
  EXPECT_TRUE(Eval(ors, {"3999", "eu", "a"}));
  // Up to the nesting limit it parses and evaluates; comparisons do not chain.
  std::string at_limit(kMaxHmsFilterDepth - 1, '(');
  at_limit +=
      "year = 2024 AND (region = 'eu' OR code = 'x')" + std::string(kMaxHmsFilterDepth - 1, ')');
  EXPECT_TRUE(Eval(at_limit, {"2024", "eu", "a"}));
  EXPECT_NE(ParseError("year = 1 = 1").find("expected AND, OR or the end"), std::string::npos);
  EXPECT_TRUE(Eval("year = 2024", {"2024", "eu", "a"}));
}

TEST(HmsFilterTest, UnpartitionedTableRejectsAFilter) {
  auto f = HmsPartitionFilter::Parse("x = 1", {});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace ics::catalog::hms
