// PartitionList: a table's partitions as a coordinator's local catalog knows
// them: id -> name, and an index of the partitions by value, so that a
// PARTITION clause naming every key finds its partitions in O(log n).
//
// Both maps are persistent (common/util/persistent_map.h): a copy shares
// their storage with the original, so the next version of a table (one
// partition added or dropped) costs O(changed) to derive, not O(partitions).
//
// Values are compared as PartitionValuesEqual compares them ("01" = "1" for
// a number), by the key types given at construction (none: nothing is found
// by value). A name whose values do not match the key count is listed but
// never found by value (as no spec could match it).
//
// Thread-safety: like std::map; immutable copies are safe to share.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "CatalogObjects_types.h"
#include "common/util/persistent_map.h"

namespace ics::coord {

class PartitionList {
 public:
  using Names = PersistentMap<int64_t, std::string>;
  using const_iterator = Names::const_iterator;

  PartitionList() = default;
  // `keys`: the table's partition keys (clustering columns), in order.
  explicit PartitionList(const std::vector<impala::TColumn>& keys);
  // The same with `names` (id, name) added, as Add() would in turn (of a
  // repeated id the last name counts), but built at once: a table's whole
  // list, as a coordinator fetches it, in a fraction of the time.
  PartitionList(const std::vector<impala::TColumn>& keys,
                std::vector<std::pair<int64_t, std::string>> names);

  // Adds (or renames) partition `id`.
  void Add(int64_t id, std::string name);
  // Removes partition `id`; false if it is not listed.
  bool Erase(int64_t id);
  void Clear();

  bool empty() const { return names_.empty(); }
  size_t size() const { return names_.size(); }
  size_t count(int64_t id) const { return names_.count(id); }
  // The name of partition `id`; nullptr if not listed.
  const std::string* Name(int64_t id) const;
  // In id order, as std::pair<int64_t, std::string>.
  const_iterator begin() const { return names_.begin(); }
  const_iterator end() const { return names_.end(); }

  // Whether the list was made with its key types (FindByValues answers).
  bool indexed() const { return key_types_ != nullptr; }
  // Ids (ascending) of the partitions whose values equal `values` (one per
  // key, in key order). Empty if values.size() is not the key count, or
  // the list is not indexed.
  std::vector<int64_t> FindByValues(const std::vector<std::string>& values) const;

  // Approximate heap bytes held (for cache accounting), kept as entries
  // come and go.
  int64_t EstimateBytes() const { return bytes_; }

  std::map<int64_t, std::string> ToMap() const;

 private:
  // The index key of a full set of values: each value's PartitionValueKey,
  // length-prefixed; then 8 bytes of partition id (FindByValues looks up
  // the prefix).
  std::string ValuesKey(const std::vector<std::string>& values) const;
  static std::string IdSuffix(int64_t id);
  // The by_value_ key of partition `id` named `name`; nullopt when it is
  // not indexed (no key types, or values that do not match the keys).
  std::optional<std::string> IndexKey(int64_t id, const std::string& name) const;
  void Index(int64_t id, const std::string& name, bool add);

  std::shared_ptr<const std::vector<impala::TColumnType>> key_types_;
  Names names_;
  PersistentMap<std::string, char> by_value_;
  int64_t bytes_ = 0;
};

}  // namespace ics::coord
