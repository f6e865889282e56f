// PartitionNameIndex: a table's partitions by name.
//
// Each entry holds the partition itself (the same shared PartitionState as
// the table's by-id map) under a key that views that partition's own name,
// so a name is stored once, in its partition, however many indexes and
// table versions hold it. An entry is 32 bytes in a chunk of a persistent
// map: the next state of a table shares every chunk a change did not touch.
//
// Invariant: the key of an entry is the name of the partition it holds (Put
// replaces key and value together), so a key never outlives its bytes.
//
// Thread-safety: as PersistentMap (a const index from any number of
// threads; copies are independent).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/util/persistent_map.h"

namespace ics::catalog {

struct PartitionState;

class PartitionNameIndex {
 public:
  using Map = PersistentMap<std::string_view, std::shared_ptr<const PartitionState>>;

  // The partition named `name`, or nullptr.
  const PartitionState* Find(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : it->second.get();
  }
  // The same, shared; null if there is none.
  std::shared_ptr<const PartitionState> Get(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : it->second;
  }
  bool Contains(std::string_view name) const { return map_.count(name) != 0; }
  // Indexes `p` under its name, replacing the partition of that name.
  void Put(std::shared_ptr<const PartitionState> p);
  // Drops the entry of `name`, if there is one.
  void Erase(std::string_view name) { map_.erase(name); }
  void Clear() { map_.clear(); }
  size_t size() const { return map_.size(); }
  const Map& map() const { return map_; }

 private:
  Map map_;
};

}  // namespace ics::catalog
