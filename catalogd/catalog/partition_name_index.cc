#include "catalogd/catalog/partition_name_index.h"

#include <utility>

#include "catalogd/catalog/table_state.h"

namespace ics::catalog {

void PartitionNameIndex::Put(std::shared_ptr<const PartitionState> p) {
  // Erase first: assigning would keep the old key, a view of the replaced
  // partition's name.
  const std::string_view key = p->name();
  map_.erase(key);
  map_.emplace(key, std::move(p));
}

}  // namespace ics::catalog
