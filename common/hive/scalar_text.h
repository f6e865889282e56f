// Hive scalar values written as text: partition key values, filter and SQL
// literals, and the fields of text data files. One module reads them, gives
// their canonical forms and compares them, so that every path (DDL, the
// metastore services, the coordinator's pruner and executor) agrees on what
// a value is:
//   * numbers compare exactly as the decimal values they are written as
//     (ExactNumber), whatever the column type, DECIMAL included;
//   * dates are proleptic Gregorian days, years 0001..9999;
//   * timestamps have a canonical text that orders as time does.
// Reading (CanonicalTextValue) is lenient as Hive's and Impala's readers
// are: what does not fit is NULL. Writing a partition key value
// (CanonicalPartitionValue) is strict: what does not fit is an error.
//
// Thread-safety: value types and stateless functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Types_types.h"
#include "common/util/result.h"

namespace ics {

// An exact decimal number: digits without leading (integer part) or trailing
// (fraction part) zeros; zero is {false, "", ""}.
struct ExactNumber {
  bool negative = false;
  std::string int_digits;
  std::string frac_digits;

  bool is_zero() const { return int_digits.empty() && frac_digits.empty(); }
  // "-12.5", "0", "0.25".
  std::string ToString() const;
};

// Parses [+-]digits[.digits][(e|E)[+-]digits] (at least one digit before or
// after the point; surrounding ASCII whitespace allowed). nullopt for anything
// else, and for numbers needing more than kMaxExactDigits digits.
inline constexpr size_t kMaxExactDigits = 4096;
std::optional<ExactNumber> ParseExactNumber(std::string_view text);

// Whether `text` is already the canonical text of an integer, i.e. what
// ParseExactNumber(text)->ToString() gives back unchanged: "0", or an
// optional '-' and at most kMaxExactDigits digits without a leading zero.
bool IsCanonicalInteger(std::string_view text);

// <0, 0, >0 as a is less than, equal to, greater than b.
int CompareExactNumbers(const ExactNumber& a, const ExactNumber& b);

// DECIMAL(precision, scale) arithmetic on exact numbers:
//   FitsDecimal: n is a value of the type as it is (no rounding needed);
//   RoundToScale: n rounded half away from zero to `scale` fraction digits;
//   FormatDecimal: the type's text of n, exactly `scale` fraction digits
//     ("-1.50"; fraction digits beyond `scale` are cut, so round first).
bool FitsDecimal(const ExactNumber& n, int precision, int scale);
ExactNumber RoundToScale(ExactNumber n, int scale);
std::string FormatDecimal(const ExactNumber& n, int scale);

// "yyyy-mm-dd" (month and day may have one digit; year 0001..9999, a real
// calendar day; surrounding whitespace allowed) -> canonical "yyyy-mm-dd".
std::optional<std::string> ParseDateText(std::string_view text);

// "yyyy-mm-dd[( |T)hh:mm[:ss[.fffffffff]]]" -> canonical
// "yyyy-mm-dd hh:mm:ss.fffffffff" (always nine fraction digits, so canonical
// texts compare in time order as strings).
std::optional<std::string> ParseTimestampText(std::string_view text);

// The value of a text field as a scalar column of `type` reads it, in a
// canonical text form: the same value always gives the same text (used as
// the NDV hash input). nullopt when the text is not a valid value of the
// type, which Hive and Impala read as NULL:
//   BOOLEAN    "true"/"false" in any case        -> "true" / "false"
//   TINYINT..BIGINT  [+-]digits within range      -> decimal digits ("-12")
//   FLOAT, DOUBLE    a number, inf or nan         -> "%.9g" / "%.17g" of it
//   DECIMAL(p,s)     a number; rounded half away from zero to s digits;
//                    NULL if more than p-s integer digits -> "-1.50"
//   DATE, TIMESTAMP  see ParseDateText / ParseTimestampText
//   STRING, BINARY   the text itself
//   VARCHAR(n)       the first n bytes;  CHAR(n) truncated or space-padded to n
// Integers, floats and decimals allow surrounding whitespace, as Impala's
// text scanner does. Complex and unknown types give nullopt.
std::optional<std::string> CanonicalTextValue(std::string_view text,
                                              const impala::TColumnType& type);

// yyyy-mm-dd exactly (two-digit month and day), a real day.
bool IsStrictDate(std::string_view s);
// yyyy-mm-dd[( |T)hh:mm[:ss[.f{1,9}]]] with two-digit fields, a real time.
bool IsStrictTimestamp(std::string_view s);

// Days since 1970-01-01 of a canonical "yyyy-mm-dd" (as ParseDateText
// returns); nullopt if `date` is not one.
std::optional<int64_t> DateDays(std::string_view date);
// Days since 1970-01-01 of "yyyy-m[m]-d[d]" (one or two digit month and
// day, nothing around it); nullopt if it is not a valid date.
std::optional<int64_t> ParseDateDays(std::string_view text);
// "yyyy-mm-dd" of a day number (inverse of DateDays).
std::string FormatDate(int64_t days);

// The canonical form in which a partition key value of `type` is stored,
// or INVALID_ARGUMENT naming `key`, the value, the type and the rule:
//   ""/kDefaultPartitionName  -> kDefaultPartitionName (NULL)
//   TINYINT..BIGINT  [+-]digits within the type's range -> "-12"
//   BOOLEAN          true/false in any case            -> "true"/"false"
//   FLOAT, DOUBLE    a finite number                   -> as written
//   DECIMAL(p,s)     [+-]digits[.digits], at most p-s integer and s
//                    fraction digits, no exponent      -> as written
//   DATE             yyyy-mm-dd (two-digit month and day) -> as written
//   TIMESTAMP        yyyy-mm-dd[( |T)hh:mm[:ss[.f{1,9}]]] -> as written
//   VARCHAR(n), CHAR(n) at most n characters; STRING, BINARY anything
// Surrounding whitespace is never accepted. Complex types are refused.
Result<std::string> CanonicalPartitionValue(const impala::TColumnType& type, const std::string& key,
                                            const std::string& value);

// TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE or DECIMAL: the types whose
// values compare as numbers (exactly, as ExactNumbers).
bool IsNumericType(const impala::TColumnType& type);

// Whether two stored partition values of a key of `type` are the same value:
// numbers by exact value ("1.50" = "1.5" = "15e-1"), booleans in any case,
// everything else byte for byte. The NULL partition equals only itself.
bool PartitionValuesEqual(const impala::TColumnType& type, const std::string& a,
                          const std::string& b);

// A key of a stored partition value such that two values of one key of
// `type` have equal keys exactly when PartitionValuesEqual holds for them
// (what an index of partitions by value is keyed on). Not a display form.
std::string PartitionValueKey(const impala::TColumnType& type, const std::string& value);

}  // namespace ics
