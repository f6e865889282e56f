#include "catalogd/ops/table_directory.h"

#include <algorithm>

namespace ics::catalog::ops {

Result<TableInfoPtr> TableDirectory::Get(const ops::Caller& caller, const TableState& state) {
  const auto key = std::make_pair(state.db, state.name);
  {
    MutexLock l(&mu_);
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.catalog_version == state.version) return it->second.info;
  }
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r,
                       queries_->CurrentTableVersion(caller, state.db, state.name));
  auto info = std::make_shared<const TableVersionRecord>(std::move(r));
  MutexLock l(&mu_);
  Entry& e = entries_[key];
  // Keep the newest state's entry if another reader raced ahead.
  if (e.info == nullptr || e.catalog_version <= state.version) {
    e.catalog_version = state.version;
    e.info = info;
  }
  return TableInfoPtr(info);
}

void TableDirectory::Prune(const std::vector<std::pair<std::string, std::string>>& live) {
  MutexLock l(&mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (std::binary_search(live.begin(), live.end(), it->first)) {
      ++it;
    } else {
      it = entries_.erase(it);
    }
  }
}

size_t TableDirectory::size() const {
  MutexLock l(&mu_);
  return entries_.size();
}

}  // namespace ics::catalog::ops
