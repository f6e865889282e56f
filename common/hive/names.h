// Validation and normalization of catalog object names (databases, tables,
// views, columns, functions).
//
// Names are case-insensitive and stored lower-case (ASCII letters only are
// folded, as Hive does). A valid name:
//   - is 1..kMaxNameBytes bytes long,
//   - is well-formed UTF-8 (no overlong forms, surrogates or code points
//     above U+10FFFF),
//   - contains no control characters (U+0000..U+001F, U+007F..U+009F), so
//     it is a single line,
//   - contains none of  / \ . ` : ;  (path separators, the db.table
//     separator, the quoting character and Hive's own separators).
// Violations are INVALID_ARGUMENT errors naming the kind of object, the
// offending name and the rule it breaks, e.g.
//   "Invalid table name 'a.b': '.' is not allowed in names".
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/util/ascii.h"
#include "common/util/result.h"

namespace ics {

inline constexpr size_t kMaxNameBytes = 255;

// `kind` is the object kind for messages: "database", "table", "column", ...
// Returns OK if `name` is valid as written (before lower-casing).
[[nodiscard]] Status ValidateName(std::string_view kind, std::string_view name);

// Validates `name` and returns it lower-cased.
Result<std::string> NormalizeName(std::string_view kind, std::string_view name);

inline Result<std::string> NormalizeDatabaseName(std::string_view name) {
  return NormalizeName("database", name);
}
inline Result<std::string> NormalizeTableName(std::string_view name) {
  return NormalizeName("table", name);
}
inline Result<std::string> NormalizeColumnName(std::string_view name) {
  return NormalizeName("column", name);
}
inline Result<std::string> NormalizeFunctionName(std::string_view name) {
  return NormalizeName("function", name);
}

}  // namespace ics
