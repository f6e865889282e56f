// Hive scalar text: the strict forms of partition key values, exact numeric
// equality, dates, and the table types.
#include "common/hive/scalar_text.h"

#include <gtest/gtest.h>

#include <random>

#include "common/hive/partition_name.h"
#include "common/hive/table_type.h"
#include "common/types/column_type.h"

namespace ics {
namespace {

impala::TColumnType Type(const std::string& hive) {
  Result<impala::TColumnType> t = ParseHiveType(hive);
  EXPECT_TRUE(t.ok()) << hive;
  return *t;
}

std::string Canonical(const std::string& type, const std::string& value) {
  Result<std::string> v = CanonicalPartitionValue(Type(type), "k", value);
  return v.ok() ? *v : "error: " + v.status().message();
}

bool Valid(const std::string& type, const std::string& value) {
  return CanonicalPartitionValue(Type(type), "k", value).ok();
}

TEST(CanonicalPartitionValueTest, IntegersAreCanonicalAndInRange) {
  EXPECT_EQ(Canonical("int", "007"), "7");
  EXPECT_EQ(Canonical("int", "+5"), "5");
  EXPECT_EQ(Canonical("int", "-0"), "0");
  EXPECT_EQ(Canonical("bigint", "-9223372036854775808"), "-9223372036854775808");
  EXPECT_FALSE(Valid("bigint", "9223372036854775808"));
  EXPECT_FALSE(Valid("tinyint", "128"));
  EXPECT_TRUE(Valid("tinyint", "-128"));
  EXPECT_FALSE(Valid("int", " 1"));
  EXPECT_FALSE(Valid("int", "1 "));
  EXPECT_FALSE(Valid("int", "1.0"));
  EXPECT_NE(Canonical("smallint", "40000").find("not an integer in -32768..32767"),
            std::string::npos);
}

TEST(CanonicalPartitionValueTest, NullAndBooleans) {
  EXPECT_EQ(Canonical("int", ""), kDefaultPartitionName);
  EXPECT_EQ(Canonical("date", std::string(kDefaultPartitionName)), kDefaultPartitionName);
  EXPECT_EQ(Canonical("boolean", "TRUE"), "true");
  EXPECT_FALSE(Valid("boolean", "1"));
}

TEST(CanonicalPartitionValueTest, DecimalsFitPrecisionAndScaleAsWritten) {
  EXPECT_TRUE(Valid("decimal(5,2)", "123.45"));
  EXPECT_TRUE(Valid("decimal(5,2)", "-0.5"));
  EXPECT_TRUE(Valid("decimal(5,2)", ".5"));
  EXPECT_TRUE(Valid("decimal(5,2)", "00123.4"));
  EXPECT_FALSE(Valid("decimal(5,2)", "1234.5"));  // four integer digits
  EXPECT_FALSE(Valid("decimal(5,2)", "1.450"));   // three fraction digits written
  EXPECT_FALSE(Valid("decimal(5,2)", "1e2"));     // no exponents
  EXPECT_FALSE(Valid("decimal(5,2)", "."));
  EXPECT_FALSE(Valid("decimal(5,2)", " 1.5"));
}

TEST(CanonicalPartitionValueTest, DatesAndTimestampsAreStrict) {
  EXPECT_TRUE(Valid("date", "2024-02-29"));
  EXPECT_FALSE(Valid("date", "2023-02-29"));
  EXPECT_FALSE(Valid("date", "2024-2-29"));
  EXPECT_FALSE(Valid("date", "0000-01-01"));
  EXPECT_TRUE(Valid("timestamp", "2024-01-31"));
  EXPECT_TRUE(Valid("timestamp", "2024-01-31 23:59"));
  EXPECT_TRUE(Valid("timestamp", "2024-01-31T23:59:59"));
  EXPECT_TRUE(Valid("timestamp", "2024-01-31 23:59:59.123456789"));
  EXPECT_FALSE(Valid("timestamp", "2024-01-31 23:59:59.1234567890"));
  EXPECT_FALSE(Valid("timestamp", "2024-01-31 24:00"));
  EXPECT_FALSE(Valid("timestamp", "2024-01-31 1:05"));
  EXPECT_FALSE(Valid("timestamp", "2024-01-31 "));
  EXPECT_FALSE(Valid("timestamp", "2024-01-31 23:59:59."));
}

TEST(CanonicalPartitionValueTest, FloatsStringsAndLengths) {
  EXPECT_TRUE(Valid("double", "1e300"));
  EXPECT_FALSE(Valid("double", "1e999"));
  EXPECT_FALSE(Valid("double", "nan"));
  EXPECT_FALSE(Valid("float", " 1"));
  EXPECT_TRUE(Valid("varchar(3)", "h\xc3\xa9!"));  // three characters, four bytes
  EXPECT_FALSE(Valid("varchar(3)", "four"));
  EXPECT_TRUE(Valid("string", " anything "));
  EXPECT_FALSE(Valid("array<int>", "1"));
}

TEST(PartitionValuesEqualTest, NumbersCompareExactly) {
  const impala::TColumnType dec = Type("decimal(38,20)");
  EXPECT_TRUE(PartitionValuesEqual(dec, "1.50", "1.5"));
  EXPECT_TRUE(PartitionValuesEqual(dec, "15e-1", "1.5"));
  // Equal as doubles, different as decimals.
  EXPECT_FALSE(PartitionValuesEqual(dec, "0.1", "0.1000000000000000055511151231257827"));
  const impala::TColumnType big = Type("bigint");
  EXPECT_FALSE(PartitionValuesEqual(big, "9007199254740993", "9007199254740992"));
  EXPECT_TRUE(PartitionValuesEqual(Type("boolean"), "TRUE", "true"));
  EXPECT_FALSE(PartitionValuesEqual(Type("string"), "a", "A"));
  EXPECT_FALSE(PartitionValuesEqual(big, std::string(kDefaultPartitionName), "0"));
  EXPECT_TRUE(PartitionValuesEqual(big, std::string(kDefaultPartitionName),
                                   std::string(kDefaultPartitionName)));
}

// The index key agrees with PartitionValuesEqual on every pair of a pool of
// tricky values (numbers in several spellings, booleans in any case, the
// NULL partition in two cases, text that is almost a number).
TEST(PartitionValuesEqualTest, KeyAgreesWithEquality) {
  const std::vector<std::string> pool = {"1",
                                         "01",
                                         "1.0",
                                         "+1",
                                         "1e0",
                                         "10e-1",
                                         "-0",
                                         "0",
                                         "0.000",
                                         "-1",
                                         "1.5",
                                         "15e-1",
                                         " 1",
                                         "1 ",
                                         "abc",
                                         "",
                                         "TRUE",
                                         "true",
                                         "True",
                                         "false",
                                         "1x",
                                         "0x1",
                                         "nan",
                                         std::string(kDefaultPartitionName),
                                         "__hive_default_partition__",
                                         "9007199254740993",
                                         "9007199254740992",
                                         "2024-01-01",
                                         "2024-1-1"};
  for (const char* type : {"int", "bigint", "decimal(10,2)", "double", "boolean", "string", "date",
                           "timestamp", "varchar(5)"}) {
    const impala::TColumnType t = Type(type);
    for (const std::string& a : pool) {
      for (const std::string& b : pool) {
        EXPECT_EQ(PartitionValuesEqual(t, a, b), PartitionValueKey(t, a) == PartitionValueKey(t, b))
            << type << ": '" << a << "' vs '" << b << "'";
      }
    }
  }
}

TEST(ExactNumberTest, CanonicalIntegersPrintAsTheyParse) {
  // IsCanonicalInteger(t) holds exactly when t is what parsing and printing
  // it gives back (so PartitionValueKey may skip both).
  std::vector<std::string> texts = {"0",  "-0",  "00", "01", "1",   "-1",  "+1",  "10",
                                    "-10", "1.0", "1e2", " 1", "1 ",  "",    "-",   "--1",
                                    "1-",  "12a", "007", "-007", "2024", "9223372036854775808"};
  texts.push_back(std::string(kMaxExactDigits, '9'));
  texts.push_back(std::string(kMaxExactDigits + 1, '9'));
  texts.push_back("-" + std::string(kMaxExactDigits, '9'));
  std::mt19937 rng(5);
  const std::string alphabet = "0123456789-+.e ";
  for (int i = 0; i < 20000; ++i) {
    std::string t;
    for (size_t n = rng() % 6; n > 0; --n) t.push_back(alphabet[rng() % alphabet.size()]);
    texts.push_back(t);
  }
  for (const std::string& t : texts) {
    const std::optional<ExactNumber> n = ParseExactNumber(t);
    const bool round_trips = n.has_value() && n->ToString() == t;
    EXPECT_EQ(IsCanonicalInteger(t), round_trips && t.find_first_of(".e") == std::string::npos)
        << "'" << t << "'";
  }
}

TEST(DateTest, DaysRoundTrip) {
  EXPECT_EQ(DateDays("1970-01-01"), 0);
  EXPECT_EQ(DateDays("1969-12-31"), -1);
  EXPECT_EQ(DateDays("2024-03-01"), 19783);
  EXPECT_EQ(FormatDate(19783), "2024-03-01");
  EXPECT_EQ(FormatDate(*DateDays("0001-01-01")), "0001-01-01");
  EXPECT_FALSE(DateDays("2024-3-1").has_value());
  EXPECT_EQ(ParseDateText(" 2024-3-1 "), "2024-03-01");
}

TEST(TableTypeTest, OwnershipFollowsTypeAndExternalParameter) {
  hive::Table t;
  t.tableType = kManagedTable;
  EXPECT_TRUE(IsManaged(t));
  t.parameters["EXTERNAL"] = "True";
  EXPECT_TRUE(IsExternal(t));
  EXPECT_FALSE(IsManaged(t));
  t.parameters.clear();
  t.tableType = kExternalTable;
  EXPECT_FALSE(IsManaged(t));
  t.tableType = kVirtualView;
  EXPECT_TRUE(IsView(t));
  EXPECT_FALSE(IsManaged(t));
  t.tableType = kMaterializedView;
  EXPECT_FALSE(IsView(t));
  EXPECT_TRUE(IsAnyView(t));
  EXPECT_FALSE(IsManaged(t));
  EXPECT_TRUE(IsKnownTableType(kMaterializedView));
  EXPECT_FALSE(IsKnownTableType("INDEX_TABLE"));
}

TEST(ExactDecimalTest, RoundFitAndFormat) {
  auto num = [](const char* t) { return *ParseExactNumber(t); };
  EXPECT_EQ(FormatDecimal(RoundToScale(num("9.995"), 2), 2), "10.00");   // carry into the integer
  EXPECT_EQ(FormatDecimal(RoundToScale(num("-2.345"), 2), 2), "-2.35");  // half away from zero
  EXPECT_EQ(FormatDecimal(RoundToScale(num("-0.004"), 2), 2), "0.00");   // no negative zero
  EXPECT_EQ(FormatDecimal(RoundToScale(num("0.5"), 0), 0), "1");
  EXPECT_EQ(FormatDecimal(num("1.5"), 3), "1.500");
  EXPECT_EQ(FormatDecimal(num("12e-1"), 1), "1.2");
  EXPECT_TRUE(FitsDecimal(num("999.99"), 5, 2));
  EXPECT_FALSE(FitsDecimal(num("1000"), 5, 2));
  EXPECT_FALSE(FitsDecimal(num("1.005"), 5, 2));  // needs rounding first
  EXPECT_TRUE(FitsDecimal(RoundToScale(num("99.994"), 2), 4, 2));
  EXPECT_FALSE(FitsDecimal(RoundToScale(num("99.995"), 2), 4, 2));  // rounds to 100.00
}

}  // namespace
}  // namespace ics
