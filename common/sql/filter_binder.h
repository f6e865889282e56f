// Binding a parsed partition filter (filter_parser.h) to one table's
// partition keys: key names resolved to positions, literals typed the way
// the filter's dialect says (FilterDialect::typing), into the one partition
// predicate (predicate.h) that every front end evaluates.
//
//   kTyped: a literal met by a key is converted to the key's kind
//     (CoerceLiteral); two keys compare only if their kinds do; a bare
//     operand must be a boolean key or TRUE/FALSE/NULL. Evaluate against
//     typed values (ParseStoredValue of each stored value).
//   kHiveText: evaluate against every key's stored text
//     (HiveValue::String). A kInt key against an integer literal compares
//     numbers (kAsInt; a value that is no integer matches nothing;
//     a literal beyond int64 is an error); every other comparison compares
//     text byte-wise, an integer literal as written. `literal op key` is
//     bound as `key flipped-op literal`. LIKE binds as a whole-value
//     regular-expression subset whose pattern is checked here; it needs the
//     key on its left and a string pattern. Only comparisons, LIKE, AND, OR
//     and NOT bind in this typing.
//
// Errors are INVALID_ARGUMENT in the dialect's words with byte positions.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/hive/typed_value.h"
#include "common/sql/filter_parser.h"
#include "common/sql/predicate.h"
#include "common/util/result.h"

namespace ics::sql {

// One partition key as a filter sees it. Names match case-insensitively.
struct FilterKey {
  std::string name;
  KeyKind kind = KeyKind::kString;
};

// Binds `filter` (null: matches every partition) to `keys`.
[[nodiscard]] Result<Predicate> BindFilter(const FilterExpr* filter, const FilterDialect& dialect,
                                           const std::vector<FilterKey>& keys);

// ParseFilter + BindFilter. In a dialect with errors_in_text_order, each
// leaf is bound as soon as it is parsed, so a key that is no key is reported
// before a later syntax error.
[[nodiscard]] Result<Predicate> CompileFilter(std::string_view text, const FilterDialect& dialect,
                                              const std::vector<FilterKey>& keys);

}  // namespace ics::sql
