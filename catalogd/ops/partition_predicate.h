// PartitionPredicate: a parsed partition filter (partition_filter.h) bound
// to one table's partition keys — columns resolved to key positions,
// literals converted to the key types, by the filter language's binder
// (common/sql/filter_binder.h) — into the shared partition predicate
// (common/sql/predicate.h), which evaluates it against a partition's values
// and describes what it asks of each key so an index can narrow the search
// (KeyConstraint).
//
// Evaluation is SQL's three-valued logic: a comparison with NULL is
// unknown, NOT unknown is unknown, and a partition matches only when the
// whole filter is TRUE.
//
// Thread-safety: immutable after Bind(); Matches() may run concurrently.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogd/ops/partition_filter.h"
#include "common/hive/typed_value.h"
#include "common/sql/filter_binder.h"
#include "common/sql/predicate.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

// A partition key: its name (lower-case) and kind.
using PartitionKeyInfo = sql::FilterKey;

// What a filter requires of one key (the shared predicate's constraint).
using sql::KeyConstraint;

class PartitionPredicate {
 public:
  // Matches every partition.
  PartitionPredicate() = default;
  // Binds `filter` (may be null: matches everything) to `keys`.
  // INVALID_ARGUMENT with the position for an unknown key or a literal that
  // does not fit its key's type.
  [[nodiscard]] static Result<PartitionPredicate> Bind(const FilterNode* filter,
                                                       const std::vector<PartitionKeyInfo>& keys);
  // Parse + Bind.
  [[nodiscard]] static Result<PartitionPredicate> Compile(
      std::string_view filter, const std::vector<PartitionKeyInfo>& keys);

  bool matches_all() const { return predicate_.matches_all(); }

  // Positions of the keys the filter reads, ascending.
  const std::vector<size_t>& referenced_keys() const { return predicate_.referenced_keys(); }

  // Evaluates against typed values (one per key; only referenced positions
  // are read).
  bool Matches(const std::vector<HiveValue>& values) const { return predicate_.Matches(values); }

  // Constraints by key position (keys without one are absent).
  std::map<size_t, KeyConstraint> Constraints() const { return predicate_.Constraints(); }

 private:
  explicit PartitionPredicate(sql::Predicate p) : predicate_(std::move(p)) {}

  sql::Predicate predicate_;
};

// Typed values of stored partition values for `keys` (the positions in
// `which`; the others are left NULL). INVALID_ARGUMENT if one does not fit.
Result<std::vector<HiveValue>> TypedValues(const std::vector<PartitionKeyInfo>& keys,
                                           const std::vector<std::string>& stored,
                                           const std::vector<size_t>& which);

}  // namespace ics::catalog::ops
