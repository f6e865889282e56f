// How statements print names, types, sizes and values (exec_common.cc), as
// Impala prints them.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>

#include "Types_types.h"

namespace ics::coord::exec {

// ---- formatting ----
// Impala's PrintUtils.printBytes: "512B", "1.50KB", "2.00MB", ...
std::string PrintBytes(int64_t bytes);
// Impala's SQL spelling of a type: upper-case keywords ("DECIMAL(10,2)",
// "ARRAY<INT>", "STRUCT<a:INT>").
std::string TypeSql(const impala::TColumnType& type);
std::string TypeString(const impala::TColumnType& type);  // Hive's lower-case form
// Impala's SHOW pattern: '*' matches any run, '|' separates alternatives,
// case-insensitive, whole-name match.
bool MatchesPattern(const std::string& name, const std::string& pattern);
// A name, back-quoted when it is not a plain identifier (reserved word, odd characters).
std::string QuoteIdent(const std::string& name);
// 'text' with backslash escapes for ' \ and control characters.
std::string QuoteString(const std::string& s);
std::string FormatDouble(double d);

}  // namespace ics::coord::exec
