#include "catalogd/catalog/partition_name_index.h"

#include <utility>

#include "catalogd/catalog/table_state.h"

namespace ics::catalog {

std::string_view PartitionsByName::Key(const Entry& e) { return e->name(); }

void PartitionNameIndex::Put(PartitionPtr p) {
  const std::string_view key = p->name();
  map_.insert_or_assign(key, std::move(p));
}

}  // namespace ics::catalog
