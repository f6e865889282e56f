// PartitionPredicate: a parsed partition filter (partition_filter.h) bound
// to one table's partition keys — columns resolved to key positions,
// literals converted to the key types — ready to evaluate against a
// partition's values, and to describe what it asks of each key so an index
// can narrow the search (KeyConstraint).
//
// Evaluation is SQL's three-valued logic: a comparison with NULL is
// unknown, NOT unknown is unknown, and a partition matches only when the
// whole filter is TRUE.
//
// Thread-safety: immutable after Bind(); Matches() may run concurrently.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalogd/mds/partition_filter.h"
#include "common/hive/typed_value.h"
#include "common/util/result.h"

namespace ics::catalog::mds {

struct PartitionKeyInfo {
  std::string name;  // lower-case
  KeyKind kind = KeyKind::kString;
};

// What a filter requires of one key, from the conjuncts at its top level
// (key = v, key IN (...), key BETWEEN a AND b, key < v, ...). A partition
// that matches the filter satisfies every constraint; the converse need not
// hold (the filter is still evaluated on every candidate).
struct KeyConstraint {
  bool impossible = false;            // no value can match (e.g. key = NULL)
  std::optional<std::vector<HiveValue>> points;  // one of these values (sorted, unique)
  std::optional<HiveValue> lo;                   // range bounds (non-NULL values)
  bool lo_inclusive = true;
  std::optional<HiveValue> hi;
  bool hi_inclusive = true;
};

class PartitionPredicate {
 public:
  // Binds `filter` (may be null: matches everything) to `keys`.
  // INVALID_ARGUMENT with the position for an unknown key or a literal that
  // does not fit its key's type.
  static Result<PartitionPredicate> Bind(const FilterNode* filter,
                                         const std::vector<PartitionKeyInfo>& keys);
  // Parse + Bind.
  static Result<PartitionPredicate> Compile(std::string_view filter,
                                            const std::vector<PartitionKeyInfo>& keys);

  bool matches_all() const { return root_ == nullptr; }

  // Positions of the keys the filter reads.
  const std::vector<size_t>& referenced_keys() const { return referenced_; }

  // Evaluates against typed values (one per key; only referenced positions
  // are read).
  bool Matches(const std::vector<HiveValue>& values) const;

  // Constraints by key position (keys without one are absent).
  std::map<size_t, KeyConstraint> Constraints() const;

  struct Node;  // bound tree (partition_predicate.cc)

 private:
  std::shared_ptr<const Node> root_;
  std::vector<size_t> referenced_;
};

// Typed values of stored partition values for `keys` (the positions in
// `which`; the others are left NULL). INVALID_ARGUMENT if one does not fit.
Result<std::vector<HiveValue>> TypedValues(const std::vector<PartitionKeyInfo>& keys,
                                           const std::vector<std::string>& stored,
                                           const std::vector<size_t>& which);

}  // namespace ics::catalog::mds
