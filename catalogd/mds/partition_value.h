// Typed partition key values for filtering and indexing partitions.
//
// Partition values are stored as strings (canonical forms, see
// CanonicalPartitionValue in the DDL layer); a filter or an index compares
// them by the key's type. KeyKind classifies a key's Hive type; Value holds
// one typed value (or NULL: Hive's default partition name). Numbers compare
// numerically across integer and floating kinds; dates compare as days.
//
// Thread-safety: value types and stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Types_types.h"
#include "common/util/result.h"

namespace ics::catalog::mds {

// How a partition key's values compare. DECIMAL compares as a double.
enum class KeyKind : uint8_t { kBool, kInt, kFloat, kString, kDate, kTimestamp };

// The kind of a partition key type; INVALID_ARGUMENT for complex types.
Result<KeyKind> KeyKindOf(const impala::TColumnType& type);
std::string_view KeyKindName(KeyKind kind);

struct Value {
  enum class Kind : uint8_t { kNull, kBool, kInt, kFloat, kString, kDate };
  Kind kind = Kind::kNull;
  int64_t i = 0;  // kBool (0/1), kInt, kDate (days since 1970-01-01)
  double f = 0;   // kFloat
  std::string s;  // kString (also timestamps, compared as text)

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t v);
  static Value Float(double v);
  static Value String(std::string v);
  static Value Date(int64_t days);

  bool is_null() const { return kind == Kind::kNull; }
  bool is_numeric() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  // For messages: 42, 1.5, 'text', DATE '2024-01-31', TRUE, NULL.
  std::string ToString() const;
};

// Three-way comparison of two non-null values of comparable kinds (both
// numeric, or the same kind); nullopt otherwise (or if either is NULL).
std::optional<int> CompareValues(const Value& a, const Value& b);

// A total order for sorting (index keys): NULL first, then by kind class,
// then by CompareValues. Numeric kinds form one class.
bool ValueLess(const Value& a, const Value& b);

// Parses a stored partition value of a key of `kind`; the default
// partition name (and "") is NULL. INVALID_ARGUMENT if it does not fit.
Result<Value> ParseStoredValue(KeyKind kind, const std::string& text);

// Days since 1970-01-01 of "yyyy-m-d" (one or two digit month and day);
// nullopt if it is not a valid date.
std::optional<int64_t> ParseDateDays(std::string_view text);
// "yyyy-mm-dd" of a day number.
std::string FormatDate(int64_t days);

// Converts a filter literal to the kind of a key it is compared with.
// Numbers stay numbers for numeric keys (1.5 vs an INT key compares
// numerically); a string literal is accepted for DATE keys (parsed as a
// date) and TIMESTAMP keys. NULL stays NULL. INVALID_ARGUMENT otherwise.
Result<Value> CoerceLiteral(const Value& literal, KeyKind key_kind);

}  // namespace ics::catalog::mds
