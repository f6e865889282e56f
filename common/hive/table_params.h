// Parameter names Hive keeps in a table's or a partition's parameters map,
// and reading the ones the catalog interprets.
//
// Thread-safety: constants and stateless functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ics {

inline constexpr char kNumRowsParam[] = "numRows";
inline constexpr char kTotalSizeParam[] = "totalSize";
inline constexpr char kNumFilesParam[] = "numFiles";
inline constexpr char kLastDdlTimeParam[] = "transient_lastDdlTime";
inline constexpr char kExternalParam[] = "EXTERNAL";

// The "numRows" parameter; -1 if absent, not an integer, or below -1.
int64_t NumRowsOf(const std::map<std::string, std::string>& params);
// The same from the parameter's text.
int64_t NumRowsValue(std::string_view text);

}  // namespace ics
