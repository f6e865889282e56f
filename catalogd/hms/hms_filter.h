// HmsPartitionFilter: the filter language of the Hive Metastore's
// get_partitions_by_filter call, parsed and bound to one table's partition
// keys, then evaluated against each partition's values.
//
// Grammar (keywords and key names case-insensitive):
//   filter     := or
//   or         := and { OR and }
//   and        := atom { AND atom }
//   atom       := '(' or ')' | key op literal | literal op key
//   op         := = | != | <> | < | <= | > | >= | LIKE
//   literal    := "text" | 'text' | [-]digits
//   key        := letter-or-digit-or-underscore...   (a partition key name)
// Inside quotes a backslash takes the next character literally.
//
// Semantics, as the Hive Metastore evaluates them:
//   - A key whose type is an integer type (tinyint, smallint, int, bigint)
//     compared with an integer literal compares numbers; a partition value
//     that is not a number (e.g. __HIVE_DEFAULT_PARTITION__) matches no
//     comparison. Every other comparison compares the value's text with the
//     literal's text (byte order); an integer literal is its decimal text.
//   - LIKE takes a regular expression that must match the whole value, as
//     the Hive Metastore does (`part like "2020-.*"`). The supported subset is
//     literal characters, '.' (any character), a postfix '*' (zero or more of
//     the previous character or '.') and '\' to quote the next character;
//     any other regular-expression operator is rejected. Matching takes time
//     proportional to pattern length x value length (no backtracking).
//     The regular expression must be on the right (key LIKE "...").
//   - `literal op key` means the same as `key flipped-op literal`.
// Errors (INVALID_ARGUMENT) name the 0-based byte position, e.g.
//   "filter: unknown partition key 'yr' at position 0 (keys: year, month)".
// Limits: kMaxHmsFilterBytes of text, kMaxHmsFilterDepth nesting levels.
//
// Thread-safety: an HmsPartitionFilter is immutable after Parse(); Matches()
// may run concurrently.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hive_metastore_types.h"
#include "common/util/result.h"

namespace ics::catalog::hms {

inline constexpr size_t kMaxHmsFilterBytes = 64 << 10;
inline constexpr int kMaxHmsFilterDepth = 100;

class HmsPartitionFilter {
 public:
  struct Node;  // the parsed tree (hms_filter.cc)

  // Parses `text` against the partition keys (name and Hive type) of a
  // table. An empty or blank filter matches every partition.
  static Result<HmsPartitionFilter> Parse(std::string_view text,
                                          const std::vector<hive::FieldSchema>& keys);

  // True if a partition with these values (one per key, in key order)
  // satisfies the filter. Values of the wrong count never match.
  bool Matches(const std::vector<std::string>& values) const;

  HmsPartitionFilter(HmsPartitionFilter&&) noexcept;
  HmsPartitionFilter& operator=(HmsPartitionFilter&&) noexcept;
  ~HmsPartitionFilter();

 private:
  HmsPartitionFilter();
  std::unique_ptr<Node> root_;  // nullptr: matches everything
  size_t num_keys_ = 0;
};

// Whole-value match of the regular-expression subset described above.
// INVALID_ARGUMENT (with the position) for unsupported or malformed patterns.
Result<bool> HmsLikeMatches(std::string_view pattern, std::string_view value);

}  // namespace ics::catalog::hms
