#include "catalogd/loader/partition_location.h"

#include <algorithm>
#include <utility>

namespace ics::catalog {

SplitLocation SplitPartitionLocation(const std::string& location, size_t num_clustering_cols) {
  size_t idx = location.size();
  for (size_t i = 0; i < num_clustering_cols; ++i) {
    if (idx == 0) break;
    const size_t slash = location.rfind('/', idx - 1);
    if (slash == std::string::npos) {
      idx = 0;
      break;
    }
    idx = slash;
  }
  return {location.substr(0, idx), location.substr(idx)};
}

impala::THdfsPartitionLocation CompressPartitionLocation(const std::vector<std::string>& prefixes,
                                                         const std::string& location,
                                                         size_t num_clustering_cols) {
  SplitLocation split = SplitPartitionLocation(location, num_clustering_cols);
  impala::THdfsPartitionLocation out;
  out.prefix_index = -1;
  out.suffix = location;
  for (size_t i = 0; i < prefixes.size(); ++i) {
    if (prefixes[i] == split.prefix) {
      out.prefix_index = static_cast<int32_t>(i);
      out.suffix = std::move(split.suffix);
      break;
    }
  }
  return out;
}

void PrefixCollector::Add(const PartitionState& p) {
  const std::string_view base = p.location_base();
  const bool derived = !base.empty() && HasKComponents(p.name());
  if (derived && has_last_ && base == last_base_) return;
  std::string prefix = SplitPartitionLocation(p.location(), k_).prefix;
  if (seen_.insert(prefix).second &&
      std::find(prefixes_->begin(), prefixes_->end(), prefix) == prefixes_->end()) {
    prefixes_->push_back(std::move(prefix));
  }
  if (derived) {
    last_base_ = base;
    has_last_ = true;
  }
}

bool PrefixCollector::HasKComponents(std::string_view name) const {
  return k_ > 0 && !name.empty() && name.front() != '/' &&
         static_cast<size_t>(std::count(name.begin(), name.end(), '/')) == k_ - 1;
}

}  // namespace ics::catalog
