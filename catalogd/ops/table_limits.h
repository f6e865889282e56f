// The table commands' limits and input checks (table_commands.h): the name
// and field limits of the table API (TableService.thrift and Glue's table
// API list them), name lower-casing, the GetTables name pattern, and paging
// tokens.
//
// Every check returns INVALID_ARGUMENT naming the field and the rule;
// list-size checks return LIMIT_EXCEEDED (a door turns it into its wire
// error, e.g. RESOURCE_EXHAUSTED with the list's maximum).
//
// Thread-safety: constants and stateless functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::ops {

inline constexpr size_t kMaxNameBytes = 255;
inline constexpr size_t kMaxDescriptionBytes = 2048;
inline constexpr size_t kMaxParamValueBytes = 512000;
inline constexpr size_t kMaxColumnTypeBytes = 131072;
inline constexpr size_t kMaxColumnCommentBytes = 255;
inline constexpr size_t kMaxLocationBytes = 2056;
inline constexpr size_t kMaxFormatBytes = 128;
inline constexpr size_t kMaxViewTextBytes = 409600;
inline constexpr size_t kMaxTableTypeBytes = 255;
inline constexpr size_t kMaxExpressionBytes = 2048;
inline constexpr size_t kMaxSearchTextBytes = 1024;
inline constexpr size_t kMaxSortFieldBytes = 1024;
inline constexpr int kMaxGetTablesResults = 100;
inline constexpr int kMaxTableVersionsResults = 100;
inline constexpr int kMaxSearchResults = 1000;
inline constexpr size_t kMaxSortCriteria = 1;
inline constexpr size_t kMaxBatchDeleteTables = 100;
inline constexpr size_t kMaxBatchDeleteVersions = 100;
inline constexpr size_t kMaxStatsColumnsGet = 100;
inline constexpr size_t kMaxStatsColumnsUpdate = 25;

// The parameter that holds a table's description (as Hive keeps comments).
inline constexpr char kDescriptionParam[] = "comment";

// Database / table / column name: validated (1-255 bytes, UTF-8, one line)
// and lower-cased.
Result<std::string> NormalizeDb(std::string_view name);
Result<std::string> NormalizeTable(std::string_view name);
Result<std::string> NormalizeColumn(std::string_view name);
// A table and its database, both normalized as above.
struct NormalizedTable {
  std::string db;
  std::string table;
};
Result<NormalizedTable> NormalizeTableName(std::string_view db, std::string_view table);

// A string field: at most `max` bytes (and at least `min`), valid UTF-8;
// `single_line` forbids control characters, otherwise only tab, CR and LF
// are allowed.
[[nodiscard]] Status CheckField(std::string_view field, std::string_view value, size_t min,
                                size_t max, bool single_line);

// Parameter maps: keys 1-255 bytes one line, values <= 512000 bytes.
[[nodiscard]] Status CheckParameters(std::string_view field,
                                     const std::map<std::string, std::string>& params);

// Everything of a storage descriptor and a column list the limits cover.
// Column names are lower-cased in place; types must parse as Hive types.
[[nodiscard]] Status CheckColumns(std::string_view field, std::vector<hive::FieldSchema>* cols);
[[nodiscard]] Status CheckStorageDescriptor(hive::StorageDescriptor* sd);

// A version id: a positive decimal integer (1-255 bytes).
Result<int64_t> ParseVersionId(std::string_view id);

// max_results: default when unset, else 1..max.
Result<int> CheckMaxResults(bool is_set, int32_t value, int max, int default_value);

// A list of at most `max` items (LIMIT_EXCEEDED otherwise).
[[nodiscard]] Status CheckListSize(std::string_view field, size_t size, size_t max);

// The GetTables pattern (see TableService.thrift): '|' separates
// alternatives, '*' and ".*" match any run, '.' one character. Matching is
// case-insensitive and linear-time per alternative (no backtracking blow-up).
class NamePattern {
 public:
  static Result<NamePattern> Parse(std::string_view expression);
  bool Matches(std::string_view name) const;

 private:
  // Each alternative as tokens: '\0' = any run, '\1' = any one char.
  std::vector<std::string> alternatives_;
};

}  // namespace ics::catalog::ops
