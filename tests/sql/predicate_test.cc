// The shared partition predicate: the compiler from SQL conjuncts and the
// evaluator (three-valued logic, exact numbers, conversions, LIKE) and the
// constraints it gives an index.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/sql/parser.h"
#include "common/sql/predicate.h"
#include "common/sql/predicate_compiler.h"

namespace ics::sql {
namespace {

// year INT, region STRING, dt DATE, ts TIMESTAMP, ok BOOLEAN
Result<PredicateKey> Resolve(const Expr& ref) {
  static const std::vector<std::pair<std::string, PredicateKey>> kKeys = {
      {"year", {0, ValueClass::kNumber, "INT"}},
      {"region", {1, ValueClass::kString, "STRING"}},
      {"dt", {2, ValueClass::kDate, "DATE"}},
      {"ts", {3, ValueClass::kTimestamp, "TIMESTAMP"}},
      {"ok", {4, ValueClass::kBool, "BOOLEAN"}}};
  for (const auto& [name, key] : kKeys) {
    if (name == ref.column_name()) return key;
  }
  return Status(ErrorCode::kAnalysisError, "Column '" + ref.column_name() + "' not found");
}

Result<Predicate> Compile(const std::string& sql) {
  ICS_ASSIGN_OR_RETURN(ExprPtr e, ParseExpression(sql));
  ICS_ASSIGN_OR_RETURN(PredicateNodePtr root, CompileCondition(*e, Resolve));
  return Predicate(std::move(root));
}

std::vector<HiveValue> Row(HiveValue year, std::string region = "eu") {
  return {std::move(year), HiveValue::String(std::move(region)),
          HiveValue::Date(*ParseDateDays("2024-03-15")), HiveValue::String("2024-03-15 10:00:00"),
          HiveValue::Bool(true)};
}

bool Eval(const std::string& sql, const std::vector<HiveValue>& row) {
  auto p = Compile(sql);
  EXPECT_TRUE(p.ok()) << sql << ": " << p.status().ToString();
  return p.ok() && p->Matches(row);
}

std::string Error(const std::string& sql) {
  auto p = Compile(sql);
  EXPECT_FALSE(p.ok()) << sql;
  if (p.ok()) return "";
  EXPECT_EQ(p.status().code(), ErrorCode::kAnalysisError) << p.status().ToString();
  return p.status().message();
}

const std::vector<HiveValue> kRow = Row(HiveValue::Int(2024));
const std::vector<HiveValue> kNullYear = Row(HiveValue::Null());

TEST(PredicateTest, ThreeValuedLogic) {
  EXPECT_TRUE(Eval("year = 2024", kRow));
  EXPECT_FALSE(Eval("year = 2024", kNullYear));
  EXPECT_FALSE(Eval("NOT (year = 2024)", kNullYear));  // NOT unknown is unknown
  EXPECT_TRUE(Eval("year = 1 OR ok", kNullYear));      // TRUE decides an OR
  EXPECT_FALSE(Eval("year = 1 OR NOT ok", kNullYear));
  EXPECT_FALSE(Eval("year IN (1, NULL)", kRow));
  EXPECT_FALSE(Eval("year NOT IN (1, NULL)", kRow));
  EXPECT_TRUE(Eval("year IN (NULL, 2024)", kRow));
  EXPECT_FALSE(Eval("year BETWEEN 2020 AND NULL", kRow));       // unknown
  EXPECT_TRUE(Eval("NOT (year BETWEEN 2025 AND NULL)", kRow));  // FALSE either way
  EXPECT_TRUE(Eval("year IS NULL", kNullYear));
  EXPECT_TRUE(Eval("region IS NOT NULL", kNullYear));
  EXPECT_TRUE(Eval("(year = 2024) = TRUE", kRow));
}

TEST(PredicateTest, NumbersCompareExactly) {
  EXPECT_TRUE(Eval("year = 2024.0", kRow));
  EXPECT_TRUE(Eval("year < 2024.0000000000000000000001", kRow));
  const auto big = Row(HiveValue::Int(9007199254740992));
  EXPECT_FALSE(Eval("year = 9007199254740993", big));  // equal as doubles, not as numbers
  EXPECT_TRUE(Eval("year < 9007199254740993", big));
  // Negating the smallest int64 leaves the int64 range, exactly.
  const auto min = Row(HiveValue::Int(INT64_MIN));
  EXPECT_TRUE(Eval("-year = 9223372036854775808", min));
  EXPECT_TRUE(Eval("-year > 9223372036854775807", min));
  EXPECT_TRUE(Eval("-(-year) = year", kRow));
}

TEST(PredicateTest, DatesTimestampsAndStrings) {
  EXPECT_TRUE(Eval("dt = '2024-3-15'", kRow));  // the literal becomes a DATE
  EXPECT_TRUE(Eval("dt = DATE '2024-03-15'", kRow));
  EXPECT_TRUE(Eval("ts > DATE '2024-03-15'", kRow));  // midnight of that day
  EXPECT_FALSE(Eval("ts < dt", kRow));
  // A STRING key compared with a DATE is converted per partition; a value
  // that is not a date is NULL.
  EXPECT_FALSE(Eval("region = DATE '2024-03-15'", kRow));
  EXPECT_TRUE(Eval("region = DATE '2024-03-15'", Row(HiveValue::Int(1), "2024-03-15")));
  EXPECT_TRUE(Eval("region LIKE 'e_'", kRow));
  EXPECT_FALSE(Eval("region NOT LIKE '%u'", kRow));
  EXPECT_TRUE(Eval("region LIKE '50\\%'", Row(HiveValue::Int(1), "50%")));
  EXPECT_FALSE(Eval("region LIKE '50\\%'", Row(HiveValue::Int(1), "500")));
}

TEST(PredicateTest, TypingErrorsAreImpalas) {
  EXPECT_EQ(Error("year = 'x'"), "operands of type INT and STRING are not comparable: year = 'x'");
  EXPECT_EQ(Error("dt = 'nope'"), "invalid DATE value 'nope' in: dt = 'nope'");
  EXPECT_EQ(Error("year"),
            "WHERE clause 'year' requires return type 'BOOLEAN'. Actual type is 'INT'.");
  EXPECT_EQ(Error("year = 1 AND region"),
            "Operand 'region' part of predicate 'year = 1 AND region' should return type "
            "'BOOLEAN' but returns type 'STRING'.");
  EXPECT_EQ(Error("year LIKE 'x'"), "left operand of LIKE must be of type STRING: year LIKE 'x'");
  EXPECT_EQ(Error("colour = 1"), "Column 'colour' not found");
  auto p = Compile("year + 1 = 2");  // not a partition predicate: the caller filters these
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), ErrorCode::kInternalError);
}

TEST(PredicateTest, ReferencedKeysAndConstraints) {
  auto p = Compile("ok AND dt > DATE '2024-01-01' AND year IN (2024, 2023, 2024) AND year > 2023");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->referenced_keys(), (std::vector<size_t>{0, 2, 4}));
  auto cs = p->Constraints();
  ASSERT_TRUE(cs[0].points.has_value());
  ASSERT_EQ(cs[0].points->size(), 1u);  // 2023 is out of the range
  EXPECT_EQ((*cs[0].points)[0].i, 2024);
  ASSERT_TRUE(cs[2].lo.has_value());
  EXPECT_FALSE(cs[2].lo_inclusive);
  EXPECT_EQ(cs.count(4), 0u);
  auto none = Compile("year = 1 AND year = 2");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->Constraints()[0].impossible);
  EXPECT_TRUE(Predicate().matches_all());
  EXPECT_TRUE(Predicate().Matches({}));
}

TEST(PredicateTest, ConvertValueAndLike) {
  EXPECT_EQ(
      ConvertValue(HiveValue::String(" 2024-1-2 "), ValueClass::kString, ValueClass::kDate)->i,
      *ParseDateDays("2024-01-02"));
  EXPECT_FALSE(ConvertValue(HiveValue::String("x"), ValueClass::kString, ValueClass::kTimestamp));
  EXPECT_EQ(ConvertValue(HiveValue::Date(0), ValueClass::kDate, ValueClass::kTimestamp)->s,
            "1970-01-01 00:00:00.000000000");
  EXPECT_FALSE(ConvertValue(HiveValue::Int(1), ValueClass::kNumber, ValueClass::kString));
  EXPECT_TRUE(LikeMatches("", "%"));
  EXPECT_FALSE(LikeMatches("", "_"));
  EXPECT_TRUE(LikeMatches("abcabc", "%b_a%c"));
  // Many '%' against a long value: no exponential backtracking.
  EXPECT_FALSE(LikeMatches(std::string(20000, 'a'), std::string(200, '%') + "b"));
}

}  // namespace
}  // namespace ics::sql
