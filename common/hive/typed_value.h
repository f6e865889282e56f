// Typed partition key values, for filtering, indexing and sorting partitions.
//
// Partition values are stored as text (canonical forms, see
// CanonicalPartitionValue in scalar_text.h); a filter or an index compares
// them by the key's type. KeyKind classifies a key's Hive type; HiveValue
// holds one typed value, or NULL (Hive's default partition name).
//   * Numbers of every kind (integers, FLOAT, DOUBLE, DECIMAL) compare
//     exactly as the decimal values they are written as (ExactNumber), so
//     DECIMAL '0.1' equals the literal 0.1 and 2^63 is not 2^63 - 1.
//   * Dates compare as days; timestamps as their canonical text.
//
// Thread-safety: value types and stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Types_types.h"
#include "common/hive/scalar_text.h"
#include "common/util/result.h"

namespace ics {

// How a partition key's values compare.
enum class KeyKind : uint8_t { kBool, kInt, kFloat, kDecimal, kString, kDate, kTimestamp };

// The kind of a partition key type; INVALID_ARGUMENT for complex types.
Result<KeyKind> KeyKindOf(const impala::TColumnType& type);
std::string_view KeyKindName(KeyKind kind);
// kInt, kFloat and kDecimal: values compare as numbers.
inline bool IsNumericKind(KeyKind k) {
  return k == KeyKind::kInt || k == KeyKind::kFloat || k == KeyKind::kDecimal;
}

struct HiveValue {
  enum class Kind : uint8_t { kNull, kBool, kInt, kNumber, kString, kDate };
  Kind kind = Kind::kNull;
  int64_t i = 0;    // kBool (0/1), kInt, kDate (days since 1970-01-01)
  ExactNumber num;  // kNumber: a number that is not (or not known as) an int64
  std::string s;    // kString (also timestamps, compared as text)

  static HiveValue Null() { return HiveValue(); }
  static HiveValue Bool(bool b);
  static HiveValue Int(int64_t v);
  static HiveValue Number(ExactNumber v);
  static HiveValue String(std::string v);
  static HiveValue Date(int64_t days);

  bool is_null() const { return kind == Kind::kNull; }
  bool is_numeric() const { return kind == Kind::kInt || kind == Kind::kNumber; }
  // The exact value of a numeric value (kInt or kNumber).
  ExactNumber AsNumber() const;
  // For messages: 42, 1.5, 'text', DATE '2024-01-31', TRUE, NULL.
  std::string ToString() const;
};

// Three-way comparison of two non-null values of comparable kinds (both
// numeric, or the same kind); nullopt otherwise (or if either is NULL).
std::optional<int> CompareValues(const HiveValue& a, const HiveValue& b);

// A total order for sorting (index keys): NULL first, then by kind class,
// then by CompareValues. Numeric kinds form one class.
bool ValueLess(const HiveValue& a, const HiveValue& b);

// Parses a stored partition value of a key of `kind`; the default
// partition name (and "") is NULL. INVALID_ARGUMENT if it does not fit.
Result<HiveValue> ParseStoredValue(KeyKind kind, const std::string& text);

// A numeric literal's value: an Int when it is an integer within int64,
// otherwise an exact Number; nullopt for anything that is not a finite
// decimal number ([+-]digits[.digits][e[+-]digits]).
std::optional<HiveValue> ParseNumericLiteral(std::string_view text);

// Converts a filter literal to the kind of a key it is compared with.
// Numbers stay numbers for numeric keys (1.5 vs an INT key compares
// numerically); a string literal is accepted for DATE keys (parsed as a
// date) and TIMESTAMP keys. NULL stays NULL. INVALID_ARGUMENT otherwise.
Result<HiveValue> CoerceLiteral(const HiveValue& literal, KeyKind key_kind);

}  // namespace ics
