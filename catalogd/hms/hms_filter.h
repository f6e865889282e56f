// HmsPartitionFilter: the filter of the Hive Metastore's
// get_partitions_by_filter, bound to one table's partition keys and
// evaluated against each partition's values. The language is the Hive
// Metastore dialect of the one partition filter language
// (common/sql/filter_parser.h, filter_dialects.h); this class binds it to a
// table's FieldSchema keys and evaluates the shared predicate
// (common/sql/predicate.h) over the partitions' stored text.
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
//     the Hive Metastore does (`part like "2020-.*"`): the subset of
//     sql::RegexSubsetMatches. The regular expression must be on the right
//     (key LIKE "...").
//   - `literal op key` means the same as `key flipped-op literal`.
// Errors (INVALID_ARGUMENT) name the 0-based byte position, e.g.
//   "filter: unknown partition key 'yr' at position 0 (keys: year, month)".
// Limits: kMaxHmsFilterBytes of text, kMaxHmsFilterDepth nesting levels.
//
// Thread-safety: an HmsPartitionFilter is immutable after Parse(); Matches()
// may run concurrently.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/sql/filter_dialects.h"
#include "common/sql/predicate.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

inline constexpr size_t kMaxHmsFilterBytes = sql::kHmsFilterMaxBytes;
inline constexpr int kMaxHmsFilterDepth = sql::kHmsFilterMaxDepth;

class HmsPartitionFilter {
 public:
  // Parses `text` against the partition keys (name and Hive type) of a
  // table. An empty or blank filter matches every partition.
  [[nodiscard]] static Result<HmsPartitionFilter> Parse(std::string_view text,
                                                        const std::vector<hive::FieldSchema>& keys);

  // True if a partition with these values (one per key, in key order)
  // satisfies the filter. Values of the wrong count never match.
  bool Matches(const std::vector<std::string>& values) const;

 private:
  HmsPartitionFilter(sql::Predicate predicate, size_t num_keys)
      : predicate_(std::move(predicate)), num_keys_(num_keys) {}

  sql::Predicate predicate_;
  size_t num_keys_ = 0;
};

// Whole-value match of the regular-expression subset described above.
// INVALID_ARGUMENT (with the position) for unsupported or malformed patterns.
[[nodiscard]] Result<bool> HmsLikeMatches(std::string_view pattern, std::string_view value);

}  // namespace ics::catalog::hms
