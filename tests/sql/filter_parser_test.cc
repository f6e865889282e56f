// The one partition filter language: the same parser and binder under the
// ListPartitions and Hive Metastore dialects, what each refuses, their
// limits, their error order, a dialect made of options alone, and the
// predicate pieces Hive's semantics need.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/sql/filter_binder.h"
#include "common/sql/filter_dialects.h"
#include "common/sql/filter_parser.h"
#include "common/sql/predicate.h"

namespace ics::sql {
namespace {

const FilterDialect& Lp() { return ListPartitionsFilterDialect(); }
const FilterDialect& Hms() { return HmsFilterDialect(); }

// year int, region string.
const std::vector<FilterKey> kKeys = {{"year", KeyKind::kInt}, {"region", KeyKind::kString}};

// Evaluates `filter` in `d` on (year, region): typed values for a typed
// dialect, the stored text for Hive's.
bool Eval(const FilterDialect& d, const std::string& filter, const std::string& year,
          const std::string& region) {
  auto p = CompileFilter(filter, d, kKeys);
  EXPECT_TRUE(p.ok()) << filter << ": " << p.status().ToString();
  if (!p.ok()) return false;
  std::vector<HiveValue> values;
  if (d.typing == FilterTyping::kHiveText) {
    values = {HiveValue::String(year), HiveValue::String(region)};
  } else {
    values = {*ParseStoredValue(KeyKind::kInt, year), *ParseStoredValue(KeyKind::kString, region)};
  }
  return p->Matches(values);
}

std::string Error(const FilterDialect& d, const std::string& filter) {
  auto p = CompileFilter(filter, d, kKeys);
  EXPECT_FALSE(p.ok()) << filter;
  if (p.ok()) return "";
  EXPECT_EQ(p.status().code(), ErrorCode::kInvalidArgument);
  return p.status().message();
}

std::string Nest(int n, const std::string& middle) {
  return std::string(n, '(') + middle + std::string(n, ')');
}

TEST(FilterParserTest, SameTextUnderBothDialects) {
  const std::string text = "year >= 2020 AND (region = 'eu' OR region = \"us\")";
  for (const FilterDialect* d : {&Lp(), &Hms()}) {
    auto tree = ParseFilter(text, *d);
    ASSERT_TRUE(tree.ok()) << tree.status().ToString();
    ASSERT_NE(*tree, nullptr);
    EXPECT_EQ((*tree)->kind, FilterExpr::Kind::kAnd);
    ASSERT_EQ((*tree)->children.size(), 2u);
    EXPECT_EQ((*tree)->children[1]->kind, FilterExpr::Kind::kOr);
    EXPECT_TRUE(Eval(*d, text, "2021", "us"));
    EXPECT_FALSE(Eval(*d, text, "2019", "us"));
    EXPECT_FALSE(Eval(*d, text, "2021", "asia"));
    // Blank: no filter in either.
    auto blank = ParseFilter("  \t", *d);
    ASSERT_TRUE(blank.ok());
    EXPECT_EQ(*blank, nullptr);
  }
  // Where the dialects part: an integer key against a string literal is a
  // text comparison for Hive and a type error for ListPartitions.
  EXPECT_FALSE(Eval(Hms(), "year > '9'", "10", "eu"));
  EXPECT_NE(Error(Lp(), "year > '9'").find("cannot compare"), std::string::npos);
  // The default partition: NULL for one, a non-number for the other;
  // neither matches a comparison.
  EXPECT_FALSE(Eval(Lp(), "year < 3000", "__HIVE_DEFAULT_PARTITION__", "eu"));
  EXPECT_FALSE(Eval(Hms(), "year < 3000", "__HIVE_DEFAULT_PARTITION__", "eu"));
}

TEST(FilterParserTest, EachDialectRefusesTheOthersConstructs) {
  // ListPartitions-only constructs under the Hive dialect.
  EXPECT_EQ(Error(Hms(), "year IN (1, 2)"),
            "filter: expected a comparison operator (=, !=, <>, <, <=, >, >=, LIKE) at position "
            "5, found 'IN'");
  EXPECT_EQ(Error(Hms(), "year == 1"),
            "filter: expected a string or integer literal at position 6, found '='");
  EXPECT_EQ(Error(Hms(), "`year` = 1"), "filter: unexpected character '`' at position 0");
  EXPECT_EQ(Error(Hms(), "year = 1.5"), "filter: unexpected character '.' at position 8");
  EXPECT_EQ(Error(Hms(), "year = - 1"), "filter: unexpected character '-' at position 7");
  EXPECT_NE(Error(Hms(), "NOT year = 1").find("expected a comparison operator"), std::string::npos);
  EXPECT_EQ(Error(Hms(), "year = DATE '2024-01-01'"),
            "filter: expected a string or integer literal at position 7, found 'DATE'");
  // Hive's LIKE under the ListPartitions dialect.
  EXPECT_EQ(Error(Lp(), "region LIKE 'e.*'"), "filter: LIKE is not supported at position 7");
  // Hive's digit-led names are ListPartitions' malformed numbers.
  EXPECT_EQ(Error(Lp(), "2020abc = 1"), "filter: malformed number at position 0");
  EXPECT_NE(Error(Hms(), "2020abc = 1").find("unknown partition key '2020abc'"), std::string::npos);
  // Escapes: doubled quotes are SQL's; a backslash is literal-next in Hive.
  EXPECT_TRUE(Eval(Lp(), "region = 'it''s'", "1", "it's"));
  EXPECT_TRUE(Eval(Hms(), "region = 'a\\nb'", "1", "anb"));
  EXPECT_TRUE(Eval(Lp(), "region = 'a\\nb'", "1", "a\nb"));
}

TEST(FilterParserTest, LimitsArePerDialect) {
  // 150 levels: within ListPartitions' 200, past Hive's 100.
  const std::string deep = Nest(150, "year = 1");
  EXPECT_TRUE(ParseFilter(deep, Lp()).ok());
  EXPECT_EQ(Error(Hms(), deep), "filter: nested deeper than 100 levels at position 101");
  EXPECT_NE(Error(Lp(), Nest(201, "year = 1")).find("nested deeper than 200 levels"),
            std::string::npos);
  EXPECT_TRUE(ParseFilter(Nest(kHmsFilterMaxDepth, "year = 1"), Hms()).ok());
  // 100 KB of blanks: within ListPartitions' 1 MB, past Hive's 64 KB.
  const std::string big(100 << 10, ' ');
  EXPECT_TRUE(ParseFilter(big, Lp()).ok());
  EXPECT_EQ(Error(Hms(), big), "filter: longer than 65536 bytes");
  EXPECT_EQ(Error(Lp(), std::string(kListPartitionsFilterMaxBytes + 1, ' ')),
            "filter: 1048577 bytes is over the limit of 1048576 bytes");
}

TEST(FilterParserTest, ErrorOrderIsTheDialects) {
  // Hive reports the first error in the text; ListPartitions reports bad
  // tokens, then syntax, then binding.
  EXPECT_NE(Error(Hms(), "yr = 1 and (").find("unknown partition key 'yr' at position 0"),
            std::string::npos);
  EXPECT_NE(Error(Lp(), "yr = 1 AND (").find("expected a partition key or a literal"),
            std::string::npos);
  EXPECT_EQ(Error(Hms(), "yr = 1 ;"), "filter: unexpected character ';' at position 7");
  EXPECT_EQ(Error(Lp(), "year = 1 AND ) #"), "filter: unexpected character '#' at position 15");
  EXPECT_NE(Error(Hms(), "year = 1 AND ) #").find("at position 13, found ')'"), std::string::npos);
  // A bad token behind the nesting limit is still the one reported.
  EXPECT_EQ(Error(Hms(), std::string(101, '(') + "#"),
            "filter: unexpected character '#' at position 101");
}

TEST(FilterParserTest, ADialectIsAnOptionsValue) {
  // A made-up dialect: ListPartitions' with SQL LIKE, no NOT and its own
  // messages. No new parser code.
  FilterDialect d = Lp();
  d.like = FilterLike::kSql;
  d.allow_not = false;
  d.reserved_words = {"AND", "OR", "IN", "BETWEEN", "IS", "AS", "LIKE"};
  d.prefix = "expression: ";
  d.found_format = " (near byte {pos}: {found})";
  EXPECT_TRUE(Eval(d, "region LIKE 'e%'", "1", "eu"));
  EXPECT_FALSE(Eval(d, "region LIKE 'u_'", "1", "eu"));
  EXPECT_EQ(Error(d, "(year = 1"), "expression: expected ')' (near byte 9: the end of the filter)");
  EXPECT_NE(Error(d, "year LIKE 'e%'").find("LIKE needs text on both sides"), std::string::npos);
}

TEST(FilterParserTest, HiveTextPredicatePieces) {
  EXPECT_EQ(ParsePlainInteger("-42"), -42);
  EXPECT_EQ(ParsePlainInteger("007"), 7);
  EXPECT_EQ(ParsePlainInteger("9223372036854775807"), INT64_MAX);
  for (const char* bad :
       {"", "-", "+1", " 1", "1 ", "1.0", "9223372036854775808", "x", "000000000000000000001"}) {
    EXPECT_FALSE(ParsePlainInteger(bad).has_value()) << bad;
  }
  EXPECT_TRUE(RegexSubsetMatches("eu-west", "e.*"));
  EXPECT_FALSE(RegexSubsetMatches("eu-west", "e."));
  EXPECT_TRUE(RegexSubsetMatches("a*b", "a\\*b"));
  EXPECT_FALSE(RegexSubsetMatches("ab", "a[b]"));  // not in the subset: no match
  auto problem = CheckRegexSubset("ab|c");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->offset, 2u);
  EXPECT_FALSE(CheckRegexSubset("x\\.y*").has_value());

  // The bound tree: an integer key against an integer literal reads the
  // value as a number; a non-number is NULL, so no comparison matches.
  auto p = CompileFilter("9 < year", Hms(), kKeys);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->Matches({HiveValue::String("10"), HiveValue::String("")}));
  EXPECT_FALSE(p->Matches({HiveValue::String("x"), HiveValue::String("")}));
  auto text = CompileFilter("region < 9", Hms(), kKeys);  // text: "10" < "9"
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(text->Matches({HiveValue::String("1"), HiveValue::String("10")}));
}

TEST(FilterParserTest, TypedDialectKeepsConstraints) {
  auto p = CompileFilter("year IN (2024, 2023) AND region = 'eu'", Lp(), kKeys);
  ASSERT_TRUE(p.ok());
  auto cs = p->Constraints();
  ASSERT_TRUE(cs[0].points.has_value());
  EXPECT_EQ(cs[0].points->size(), 2u);
  ASSERT_TRUE(cs[1].points.has_value());
}

}  // namespace
}  // namespace ics::sql
