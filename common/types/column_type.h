// Column types: parsing Hive type strings (as stored in FieldSchema.type)
// into Impala's wire form, TColumnType, and printing them back.
//
// TColumnType is the type tree flattened in pre-order, as Impala sends it:
//   "map<string,array<int>>"  ->  [MAP, SCALAR(STRING), ARRAY, SCALAR(INT)]
//   "struct<a:int,b:string>"  ->  [STRUCT{fields a,b}, SCALAR(INT), SCALAR(STRING)]
// SCALAR nodes carry TScalarType (len for CHAR/VARCHAR, precision and scale
// for DECIMAL); STRUCT nodes carry struct_fields, one per child, in order.
//
// Accepted syntax (case-insensitive; whitespace allowed between tokens):
//   boolean tinyint smallint int|integer bigint float|real double|"double
//   precision" date timestamp string binary
//   decimal|dec|numeric [ "(" p [ "," s ] ")" ]   p in 1..38 (default 10), 0 <= s <= p
//   char "(" n ")"       n in 1..255
//   varchar "(" n ")"    n in 1..65535
//   array "<" type ">"
//   map "<" type "," type ">"   (the key must be a scalar type)
//   struct "<" name ":" type [comment 'text'] { "," ... } ">"
// Struct field names are identifiers ([A-Za-z0-9_]+) or `back-quoted`; they
// are stored lower-case, as Hive stores them. "real" is an alias of float
// (Hive's meaning is kept, not Impala SQL's), nesting is at most
// kMaxTypeNestingDepth levels deep.
//
// TypeToString prints the canonical lower-case Hive spelling, so
// ParseHiveType(TypeToString(t)) == t for every t ParseHiveType returns.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "Types_types.h"
#include "common/util/result.h"

namespace ics {

// Deepest nesting of ARRAY/MAP/STRUCT accepted (Impala's limit).
inline constexpr int kMaxTypeNestingDepth = 100;

inline constexpr int kMaxDecimalPrecision = 38;
inline constexpr int kDefaultDecimalPrecision = 10;  // Hive's "decimal"
inline constexpr int kMaxCharLength = 255;
inline constexpr int kMaxVarcharLength = 65535;

// Parses a Hive type string. INVALID_ARGUMENT with the offending position
// (0-based byte offset into `text`) on malformed input, e.g.
//   "invalid type 'decimal(40,2)': decimal precision 40 out of range 1..38 at position 8".
Result<impala::TColumnType> ParseHiveType(std::string_view text);

// Prints `type` as a Hive type string ("map<string,array<int>>").
// A malformed tree (wrong node count, missing scalar_type) prints as
// "<invalid type>" in place of the broken part; use ValidateColumnType to check.
std::string TypeToString(const impala::TColumnType& type);

// OK iff `type` is a well-formed pre-order tree (every node's children
// present, no extra nodes, scalar parameters in range).
[[nodiscard]] Status ValidateColumnType(const impala::TColumnType& type);

// A one-node scalar type; `len` is used for CHAR/VARCHAR, precision/scale
// for DECIMAL, and ignored otherwise.
impala::TColumnType MakeScalarType(impala::TPrimitiveType::type primitive, int len = 0,
                                   int precision = 0, int scale = 0);

// True if the type is a single SCALAR node.
bool IsScalar(const impala::TColumnType& type);

// The primitive type of a scalar type; INVALID_TYPE for complex or empty types.
impala::TPrimitiveType::type PrimitiveOf(const impala::TColumnType& type);

// Hive's name of a primitive type ("int", "decimal", ...); "invalid" if it
// has no Hive spelling.
std::string_view PrimitiveTypeName(impala::TPrimitiveType::type primitive);

}  // namespace ics
