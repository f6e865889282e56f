// PartitionNameIndex: a table's partitions by name.
//
// Each entry is the partition itself (the same shared PartitionState as the
// table's by-id map), and its key is read from the partition's own name, so
// a name is stored once, in its partition, however many indexes and table
// versions hold it. An entry is 8 bytes (a PartitionPtr) in a chunk of a
// persistent map: the next state of a table shares every chunk a change did
// not touch.
//
// Invariant: partitions are immutable once indexed (their names never
// change under the index).
//
// Thread-safety: as PersistentMap (a const index from any number of
// threads; copies are independent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalogd/catalog/partition_ptr.h"
#include "common/util/persistent_map.h"

namespace ics::catalog {

// PersistentMap entries that are partitions keyed by their names.
struct PartitionsByName {
  using Entry = PartitionPtr;
  static std::string_view Key(const Entry& e);
  static const Entry& Value(const Entry& e) { return e; }
  static Entry& Value(Entry& e) { return e; }
  // `name` must be p's name.
  static Entry Make(std::string_view /*name*/, Entry p) { return p; }
};

class PartitionNameIndex {
 public:
  using Map = PersistentMap<std::string_view, PartitionPtr, PartitionsByName>;

  // The partition named `name`, or nullptr.
  const PartitionState* Find(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : it->get();
  }
  // The same, shared; null if there is none.
  PartitionPtr Get(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : *it;
  }
  bool Contains(std::string_view name) const { return map_.count(name) != 0; }
  // Indexes `p` under its name, replacing the partition of that name.
  void Put(PartitionPtr p);
  // Drops the entry of `name`, if there is one.
  void Erase(std::string_view name) { map_.erase(name); }
  void Clear() { map_.clear(); }
  size_t size() const { return map_.size(); }
  const Map& map() const { return map_; }

 private:
  Map map_;
};

}  // namespace ics::catalog
