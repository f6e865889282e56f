// Partition filter parsing, binding and evaluation (no catalog involved).
#include <gtest/gtest.h>

#include <string>

#include "catalogd/ops/partition_filter.h"
#include "catalogd/ops/partition_predicate.h"
#include "common/hive/typed_value.h"

namespace ics::catalog::ops {
namespace {

// year int, region string, dt date, price double, ok boolean
std::vector<PartitionKeyInfo> Keys() {
  return {{"year", KeyKind::kInt},
          {"region", KeyKind::kString},
          {"dt", KeyKind::kDate},
          {"price", KeyKind::kFloat},
          {"ok", KeyKind::kBool}};
}

std::vector<size_t> AllKeys() { return {0, 1, 2, 3, 4}; }

// Evaluates `filter` on stored values (year, region, dt, price, ok).
bool Eval(const std::string& filter, const std::vector<std::string>& stored) {
  auto pred = PartitionPredicate::Compile(filter, Keys());
  EXPECT_TRUE(pred.ok()) << filter << ": " << pred.status().ToString();
  if (!pred.ok()) return false;
  auto values = TypedValues(Keys(), stored, AllKeys());
  EXPECT_TRUE(values.ok()) << values.status().ToString();
  return pred->Matches(*values);
}

const std::vector<std::string> kRow = {"2024", "eu", "2024-03-15", "9.5", "true"};
const std::vector<std::string> kNullRow = {"__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__",
                                           "__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__",
                                           "__HIVE_DEFAULT_PARTITION__"};

std::string CompileError(const std::string& filter) {
  auto pred = PartitionPredicate::Compile(filter, Keys());
  EXPECT_FALSE(pred.ok()) << filter;
  if (pred.ok()) return "";
  EXPECT_EQ(pred.status().code(), ErrorCode::kInvalidArgument);
  return pred.status().message();
}

TEST(PartitionFilterTest, Comparisons) {
  EXPECT_TRUE(Eval("year = 2024", kRow));
  EXPECT_TRUE(Eval("year == 2024", kRow));
  EXPECT_FALSE(Eval("year != 2024", kRow));
  EXPECT_FALSE(Eval("year <> 2024", kRow));
  EXPECT_TRUE(Eval("year > 2023 AND year >= 2024 AND year < 2025 AND year <= 2024", kRow));
  EXPECT_TRUE(Eval("2023 < year", kRow));  // literal on the left
  EXPECT_TRUE(Eval("region = 'eu'", kRow));
  EXPECT_TRUE(Eval("region = \"eu\"", kRow));
  EXPECT_TRUE(Eval("region < 'us'", kRow));
  EXPECT_TRUE(Eval("price > 9", kRow));  // int literal against a double key
  EXPECT_TRUE(Eval("year < 2024.5", kRow));  // and the other way round
  EXPECT_TRUE(Eval("price BETWEEN 1.0 AND 10", kRow));
  EXPECT_TRUE(Eval("ok", kRow));
  EXPECT_TRUE(Eval("ok = TRUE", kRow));
  EXPECT_FALSE(Eval("NOT ok", kRow));
  EXPECT_TRUE(Eval("year = -5 OR year = +2024", kRow));
}

TEST(PartitionFilterTest, Dates) {
  EXPECT_TRUE(Eval("dt = DATE '2024-03-15'", kRow));
  EXPECT_TRUE(Eval("dt = CAST('2024-3-15' AS DATE)", kRow));  // the seed's short form
  EXPECT_TRUE(Eval("dt = '2024-03-15'", kRow));               // a string for a date key
  EXPECT_TRUE(Eval("dt BETWEEN DATE '2024-01-01' AND DATE '2024-12-31'", kRow));
  EXPECT_TRUE(Eval("dt > DATE '2024-02-29'", kRow));  // a leap day
  EXPECT_FALSE(Eval("dt < DATE '2024-03-15'", kRow));
  EXPECT_NE(CompileError("dt = DATE '2023-02-29'").find("invalid date"), std::string::npos);
  EXPECT_NE(CompileError("dt = 'yesterday'").find("not a date"), std::string::npos);
}

TEST(PartitionFilterTest, InBetweenNull) {
  EXPECT_TRUE(Eval("year IN (2023, 2024)", kRow));
  EXPECT_FALSE(Eval("year NOT IN (2023, 2024)", kRow));
  EXPECT_TRUE(Eval("region IN ('us', 'eu')", kRow));
  EXPECT_TRUE(Eval("year BETWEEN 2020 AND 2024", kRow));
  EXPECT_FALSE(Eval("year NOT BETWEEN 2020 AND 2024", kRow));
  EXPECT_TRUE(Eval("region IS NOT NULL", kRow));
  EXPECT_FALSE(Eval("region IS NULL", kRow));
  EXPECT_TRUE(Eval("region IS NULL AND year IS NULL", kNullRow));
  // SQL's three-valued logic: comparisons with NULL are unknown.
  EXPECT_FALSE(Eval("year = 2024", kNullRow));
  EXPECT_FALSE(Eval("NOT (year = 2024)", kNullRow));
  EXPECT_FALSE(Eval("year NOT IN (1, 2)", kNullRow));
  EXPECT_TRUE(Eval("year = 1 OR region IS NULL", kNullRow));
  EXPECT_FALSE(Eval("year = NULL", kRow));
  EXPECT_FALSE(Eval("year IN (1, NULL)", kRow));      // unknown, not true
  EXPECT_FALSE(Eval("year NOT IN (1, NULL)", kRow));  // unknown, not true
}

TEST(PartitionFilterTest, LogicAndPrecedence) {
  // AND binds tighter than OR.
  EXPECT_TRUE(Eval("year = 1 AND region = 'x' OR region = 'eu'", kRow));
  EXPECT_FALSE(Eval("year = 1 AND (region = 'x' OR region = 'eu')", kRow));
  EXPECT_TRUE(Eval("NOT NOT (year = 2024)", kRow));
  EXPECT_TRUE(Eval("((((year = 2024))))", kRow));
  EXPECT_TRUE(Eval("  Year = 2024 and REGION = 'eu'  ", kRow));  // case-insensitive
  EXPECT_TRUE(Eval("`year` = 2024", kRow));
  EXPECT_TRUE(Eval("region = 'it''s' OR region = 'eu'", kRow));
}

TEST(PartitionFilterTest, EmptyFilterMatchesAll) {
  auto pred = PartitionPredicate::Compile("   ", Keys());
  ASSERT_TRUE(pred.ok());
  EXPECT_TRUE(pred->matches_all());
}

TEST(PartitionFilterTest, ErrorsNamePositions) {
  EXPECT_EQ(CompileError("year = "), "filter: expected a partition key or a literal, found the "
                                     "end of the filter at position 7");
  EXPECT_EQ(CompileError("(year = 1"), "filter: expected ')', found the end of the filter at position 9");
  EXPECT_EQ(CompileError("year = 1 region = 'x'"),
            "filter: expected AND, OR or the end of the filter, found 'region' at position 9");
  EXPECT_NE(CompileError("colour = 'red'").find("'colour' is not a partition key (partition keys: "
                                                "year, region, dt, price, ok) at position 0"),
            std::string::npos);
  EXPECT_NE(CompileError("region = 5").find("cannot compare a string partition key with 5 at "
                                            "position 9"),
            std::string::npos);
  EXPECT_NE(CompileError("year = 'x'").find("cannot compare"), std::string::npos);
  EXPECT_NE(CompileError("region = 'abc").find("unterminated string at position 9"),
            std::string::npos);
  EXPECT_NE(CompileError("year = 1 AND region # 'x'").find("unexpected character '#' at position 20"),
            std::string::npos);
  EXPECT_NE(CompileError("st_equals(geo, 'POINT(2 2)')").find("function st_equals() is not supported"),
            std::string::npos);
  EXPECT_NE(CompileError("region LIKE 'e%'").find("LIKE is not supported"), std::string::npos);
  EXPECT_NE(CompileError("year").find("expected a condition"), std::string::npos);
  EXPECT_NE(CompileError("year IN ()").find("at position 9"), std::string::npos);
  EXPECT_NE(CompileError("year BETWEEN 1 OR 2").find("expected AND"), std::string::npos);
  EXPECT_NE(CompileError("year = 12abc").find("malformed number"), std::string::npos);
  EXPECT_NE(CompileError("year = CAST('x' AS INT)").find("cannot cast 'x' to INT"), std::string::npos);
  EXPECT_NE(CompileError("year = CAST(1 AS GEOGRAPHY)").find("unsupported CAST type"),
            std::string::npos);
  EXPECT_NE(CompileError("year IS 5").find("expected NULL"), std::string::npos);
  EXPECT_NE(CompileError("year = `unterminated").find("unterminated `identifier`"),
            std::string::npos);
  EXPECT_NE(CompileError("region = dt").find("cannot compare string key 'region' with date key 'dt'"),
            std::string::npos);
}

TEST(PartitionFilterTest, Limits) {
  std::string big(kMaxFilterBytes + 1, ' ');
  auto r = ParsePartitionFilter(big);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("over the limit of 1048576 bytes"), std::string::npos);
  // Exactly at the limit is fine.
  std::string at_limit = "year = 1";
  at_limit.resize(kMaxFilterBytes, ' ');
  EXPECT_TRUE(ParsePartitionFilter(at_limit).ok());
  // Deep nesting is an error, not a crash.
  std::string deep(100000, '(');
  deep += "year = 1";
  EXPECT_NE(CompileError(deep).find("nested deeper than"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  EXPECT_NE(CompileError(nots + "ok").find("nested deeper than"), std::string::npos);
  // A long flat chain is fine.
  std::string chain = "year = 0";
  for (int i = 1; i < 20000; ++i) chain += " OR year = " + std::to_string(i);
  EXPECT_TRUE(Eval(chain, kRow));
  // A large IN list too.
  std::string in = "year IN (0";
  for (int i = 1; i < 50000; ++i) in += ", " + std::to_string(i * 3);
  EXPECT_FALSE(Eval(in + ")", kRow));  // 2024 is not a multiple of 3
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

// `first` followed by n - 1 times `sep` + `term`.
std::string Chain(const std::string& first, const std::string& sep, const std::string& term,
                  int n) {
  std::string s = first;
  for (int i = 1; i < n; ++i) s += sep + term;
  return s;
}

TEST(PartitionFilterTest, DepthLimitsCoverEveryRecursion) {
  const std::string too_deep = "nested deeper than 200 levels";
  // Balanced nesting of parentheses, NOT, NOT (...), and CAST inside CAST.
  for (const std::string& filter :
       {Nest("(", "year = 1", ")", 100000), Nest("NOT (", "ok", ")", 100000),
        Nest("(NOT ", "ok", ")", 60000), "year = " + Nest("CAST(", "1", " AS INT)", 60000),
        "year IN (1, " + Nest("CAST(", "1", " AS BIGINT)", 60000) + ")",
        "year BETWEEN 1 AND " + Nest("CAST(", "'1'", " AS INT)", 60000)}) {
    ASSERT_LE(filter.size(), kMaxFilterBytes);
    const std::string msg = CompileError(filter);
    EXPECT_NE(msg.find(too_deep), std::string::npos) << filter.substr(0, 30) << ": " << msg;
    EXPECT_EQ(msg.rfind("filter: ", 0), 0u) << msg;
  }
  // Up to the limits everything binds and evaluates.
  EXPECT_TRUE(Eval(Nest("(", "year = 2024", ")", kMaxFilterDepth), kRow));
  EXPECT_TRUE(Eval(Nest("NOT NOT (", "ok", ")", kMaxFilterDepth / 3), kRow));
  EXPECT_TRUE(Eval("year = " + Nest("CAST(", "'2024'", " AS INT)", kMaxFilterDepth), kRow));
  // A chain of comparisons is not in the grammar: a clean error, not recursion.
  EXPECT_NE(CompileError(Chain("year", " = ", "1", 200000)).find("expected AND, OR"),
            std::string::npos);
  // Still fine afterwards.
  EXPECT_TRUE(Eval("year = 2024 AND region = 'eu'", kRow));
}

TEST(PartitionFilterTest, LongChainsAreFlatAndFine) {
  // AND/OR chains become one node with many children: no depth, any length
  // the byte limit allows (~150,000 terms here).
  constexpr int kTerms = 140000;
  const std::string ands = Chain("ok", " AND ", "ok", kTerms);
  ASSERT_LE(ands.size(), kMaxFilterBytes);
  auto tree = ParsePartitionFilter(ands);
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  EXPECT_EQ((*tree)->kind, FilterNode::Kind::kAnd);
  EXPECT_EQ((*tree)->children.size(), static_cast<size_t>(kTerms));
  EXPECT_TRUE(Eval(ands, kRow));
  EXPECT_TRUE(Eval(Chain("NOT ok", " OR ", "ok", kTerms), kRow));
  EXPECT_FALSE(Eval(Chain("NOT ok AND ok", " OR ", "NOT ok AND ok", 50000), kRow));
  // 200,000 terms are over the byte limit: a clean error.
  auto big = ParsePartitionFilter(Chain("year = 1", " AND ", "year = 1", 200000));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("over the limit of 1048576 bytes"), std::string::npos);
  // IN lists are flat too.
  const std::string in = "year IN (" + Chain("0", ", ", "1", 200000) + ", 2024)";
  ASSERT_LE(in.size(), kMaxFilterBytes);
  EXPECT_TRUE(Eval(in, kRow));
}

TEST(PartitionFilterTest, ConstraintsForIndexes) {
  auto pred = PartitionPredicate::Compile(
      "year IN (2024, 2023, 2024) AND region = 'eu' AND price > 1 AND price <= 5 AND "
      "dt BETWEEN DATE '2024-01-01' AND DATE '2024-01-31' AND (ok OR year = 1)",
      Keys());
  ASSERT_TRUE(pred.ok()) << pred.status().ToString();
  auto cs = pred->Constraints();
  ASSERT_EQ(cs.count(0), 1u);
  ASSERT_TRUE(cs[0].points.has_value());
  ASSERT_EQ(cs[0].points->size(), 2u);  // sorted, unique
  EXPECT_EQ((*cs[0].points)[0].i, 2023);
  ASSERT_TRUE(cs[1].points.has_value());
  EXPECT_EQ((*cs[1].points)[0].s, "eu");
  EXPECT_FALSE(cs[3].points.has_value());
  ASSERT_TRUE(cs[3].lo && cs[3].hi);
  EXPECT_FALSE(cs[3].lo_inclusive);
  EXPECT_TRUE(cs[3].hi_inclusive);
  ASSERT_TRUE(cs[2].lo && cs[2].hi);
  EXPECT_EQ(cs.count(4), 0u);  // under an OR: no constraint

  // Contradictions are recognised.
  auto none = PartitionPredicate::Compile("year = 1 AND year = 2", Keys());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->Constraints()[0].impossible);
  auto none2 = PartitionPredicate::Compile("year > 5 AND year < 3", Keys());
  ASSERT_TRUE(none2.ok());
  EXPECT_TRUE(none2->Constraints()[0].impossible);
  // OR at the top: nothing to use.
  auto any = PartitionPredicate::Compile("year = 1 OR region = 'x'", Keys());
  ASSERT_TRUE(any.ok());
  EXPECT_TRUE(any->Constraints().empty());
}

TEST(PartitionValueTest, DatesRoundTrip) {
  for (const char* d : {"1970-01-01", "2000-02-29", "2024-12-31", "0001-01-01", "9999-12-31"}) {
    auto days = ParseDateDays(d);
    ASSERT_TRUE(days.has_value()) << d;
    EXPECT_EQ(FormatDate(*days), d);
  }
  EXPECT_EQ(*ParseDateDays("1970-01-02"), 1);
  EXPECT_FALSE(ParseDateDays("2023-02-29").has_value());
  EXPECT_FALSE(ParseDateDays("2023-13-01").has_value());
  EXPECT_FALSE(ParseDateDays("20230101").has_value());
}

TEST(PartitionValueTest, StoredValuesByKind) {
  EXPECT_TRUE(ParseStoredValue(KeyKind::kInt, "__HIVE_DEFAULT_PARTITION__")->is_null());
  EXPECT_EQ(ParseStoredValue(KeyKind::kInt, "-42")->i, -42);
  EXPECT_FALSE(ParseStoredValue(KeyKind::kInt, "4x").ok());
  EXPECT_EQ(ParseStoredValue(KeyKind::kFloat, "1.25")->AsNumber().ToString(), "1.25");
  EXPECT_EQ(ParseStoredValue(KeyKind::kBool, "true")->i, 1);
  EXPECT_EQ(ParseStoredValue(KeyKind::kString, "x y")->s, "x y");
  // Numbers order numerically across kinds; NULL sorts first.
  EXPECT_TRUE(ValueLess(HiveValue::Int(2), *ParseNumericLiteral("2.5")));
  EXPECT_TRUE(ValueLess(HiveValue::Null(), HiveValue::Int(-100)));
  EXPECT_FALSE(CompareValues(HiveValue::Int(1), HiveValue::String("1")).has_value());
}

}  // namespace
}  // namespace ics::catalog::ops
