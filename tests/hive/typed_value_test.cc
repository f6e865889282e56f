// Typed partition values: exact numbers across kinds, dates, the sort order,
// and agreement between the metastore service's filter and the stored-value
// equality the coordinator uses.
#include "common/hive/typed_value.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalogd/ops/partition_predicate.h"
#include "common/types/column_type.h"

namespace ics {
namespace {

HiveValue Num(const std::string& text) {
  std::optional<HiveValue> v = ParseNumericLiteral(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.value_or(HiveValue::Null());
}

TEST(TypedValueTest, NumericLiterals) {
  EXPECT_EQ(Num("42").kind, HiveValue::Kind::kInt);
  EXPECT_EQ(Num("-9223372036854775808").kind, HiveValue::Kind::kInt);
  EXPECT_EQ(Num("9223372036854775808").kind, HiveValue::Kind::kNumber);
  EXPECT_EQ(Num("1.50").ToString(), "1.5");
  EXPECT_EQ(Num("1e3").ToString(), "1000");
  EXPECT_FALSE(ParseNumericLiteral(" 1").has_value());
  EXPECT_FALSE(ParseNumericLiteral("inf").has_value());
  EXPECT_FALSE(ParseNumericLiteral("0x10").has_value());
}

TEST(TypedValueTest, NumbersCompareExactlyAcrossKinds) {
  EXPECT_EQ(CompareValues(Num("2024"), Num("2024.0")), 0);
  EXPECT_EQ(CompareValues(Num("2024"), Num("2024.5")), -1);
  EXPECT_EQ(CompareValues(Num("0.1"), Num("0.1000000000000000055511151231257827")), -1);
  EXPECT_EQ(CompareValues(Num("9007199254740993"), Num("9007199254740992")), 1);
  EXPECT_EQ(CompareValues(Num("9223372036854775807"), Num("9223372036854775808")), -1);
  EXPECT_EQ(CompareValues(Num("-9223372036854775808"), Num("-9223372036854775808.5")), 1);
  EXPECT_FALSE(CompareValues(Num("1"), HiveValue::String("1")).has_value());
  EXPECT_FALSE(CompareValues(HiveValue::Null(), Num("1")).has_value());
}

TEST(TypedValueTest, StoredValuesByKind) {
  EXPECT_EQ(KeyKindOf(*ParseHiveType("decimal(10,2)")).value(), KeyKind::kDecimal);
  EXPECT_EQ(KeyKindOf(*ParseHiveType("double")).value(), KeyKind::kFloat);
  EXPECT_TRUE(IsNumericKind(KeyKind::kDecimal));
  EXPECT_EQ(ParseStoredValue(KeyKind::kDecimal, "12.50")->AsNumber().ToString(), "12.5");
  EXPECT_TRUE(ParseStoredValue(KeyKind::kDecimal, "__HIVE_DEFAULT_PARTITION__")->is_null());
  EXPECT_FALSE(ParseStoredValue(KeyKind::kDecimal, "abc").ok());
  EXPECT_EQ(ParseStoredValue(KeyKind::kDate, "2024-3-1")->i, 19783);
  EXPECT_FALSE(ParseStoredValue(KeyKind::kDate, " 2024-03-01").ok());
  EXPECT_TRUE(ValueLess(HiveValue::Null(), Num("-1")));
  EXPECT_TRUE(ValueLess(Num("1.5"), Num("2")));
}

// The metastore service's filter (k = literal) and the coordinator's
// stored-value equality give the same answer for the same pair.
TEST(TypedValueTest, FilterAndStoredEqualityAgree) {
  struct Case {
    const char* type;
    const char* stored;
    const char* literal;
  };
  const std::vector<Case> cases = {
      {"decimal(38,30)", "0.1", "0.1"},
      {"decimal(38,30)", "0.1", "0.1000000000000000055511151231257827"},
      {"decimal(10,2)", "1.50", "1.5"},
      {"decimal(10,2)", "-0.00", "0"},
      {"bigint", "9007199254740993", "9007199254740992"},
      {"bigint", "9007199254740993", "9007199254740993"},
      {"int", "7", "7.0"},
      {"int", "7", "7.5"},
      {"double", "1e3", "1000"},
      {"double", "0.30000000000000004", "0.3"},
      {"float", "2.5", "2.50"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.stored + " = " + c.literal);
    const impala::TColumnType type = *ParseHiveType(c.type);
    const std::vector<catalog::ops::PartitionKeyInfo> keys = {{"k", *KeyKindOf(type)}};
    auto pred = catalog::ops::PartitionPredicate::Compile(std::string("k = ") + c.literal, keys);
    ASSERT_TRUE(pred.ok()) << pred.status().ToString();
    auto values = catalog::ops::TypedValues(keys, {c.stored}, {0});
    ASSERT_TRUE(values.ok()) << values.status().ToString();
    EXPECT_EQ(pred->Matches(*values), PartitionValuesEqual(type, c.stored, c.literal));
  }
}

}  // namespace
}  // namespace ics
