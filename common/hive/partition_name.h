// Hive-compatible partition names: "k1=v1/k2=v2".
//
// A partition of a table partitioned by keys (k1, k2) with values (v1, v2)
// is named, and its directory under the table location is laid out, as
// "k1=v1/k2=v2", exactly as the Hive Metastore does (Warehouse.makePartName,
// FileUtils.escapePathName). Keys and values are escaped: every byte Hive's
// FileUtils.escapePathName escapes becomes "%XX" (two upper-case hex digits):
//   0x01-0x1F (and 0x00), '"', '#', '%', '\'', '*', '/', ':', '=', '?', '\\',
//   0x7F, '{', '[', ']', '^'.
// Other bytes, including non-ASCII UTF-8, are kept as they are. An empty
// value is named by kDefaultPartitionName, as Hive does for NULL/empty.
//
// Parsing is stricter than Hive's (which silently skips what it cannot
// read): a malformed name is an INVALID_ARGUMENT error saying what is wrong.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "CatalogObjects_types.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics {

// The name Hive gives a NULL or empty partition value (hive.exec.default.partition.name).
inline constexpr char kDefaultPartitionName[] = "__HIVE_DEFAULT_PARTITION__";

// Hive's FileUtils.escapePathName: escapes the bytes listed above as %XX.
// An empty input yields kDefaultPartitionName.
std::string EscapePathName(std::string_view s);

// Inverse of EscapePathName for one key or value: "%XX" (hex, either case)
// becomes the byte 0xXX. INVALID_ARGUMENT if a '%' is not followed by two
// hex digits. Does not map kDefaultPartitionName back to "".
Result<std::string> UnescapePathName(std::string_view s);

// Builds "k1=v1/k2=v2". Keys are lower-cased (ASCII) as Hive does; keys and
// values are escaped. INVALID_ARGUMENT if there are no keys, the counts
// differ, or a key is empty.
Result<std::string> MakePartitionName(const std::vector<std::string>& keys,
                                      const std::vector<std::string>& values);

// The partition key names of a metastore table, in order.
std::vector<std::string> PartitionKeyNames(const hive::Table& table);
// The same from a catalog table's clustering columns.
std::vector<std::string> PartitionKeyNames(const std::vector<impala::TColumn>& clustering_columns);

using PartitionSpec = std::vector<std::pair<std::string, std::string>>;

// The unescaped values of a partition name the catalog itself made, in key
// order; "" (an unpartitioned table's partition) has none. Lenient: a
// component without '=' is taken as a value and a malformed escape is kept
// as written, so a catalog object is never rejected here.
std::vector<std::string> PartitionValuesFromName(std::string_view name);

// Splits a partition name into its unescaped (key, value) pairs, in order.
// INVALID_ARGUMENT (with the offending component) if the name is empty, a
// component is empty, lacks '=' or has more than one unescaped '=', a key or
// value is empty, an escape is malformed, or a key repeats.
Result<PartitionSpec> ParsePartitionName(std::string_view name);

}  // namespace ics
