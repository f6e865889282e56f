// Partition locations as Impala compresses them: a prefix shared by many
// partitions (the table directory, usually) and a per-partition suffix.
//
// Thread-safety: the functions are pure; a PrefixCollector is used by one
// thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "CatalogObjects_types.h"

namespace ics::catalog {

// Impala's partition location compression: the prefix of a location is the
// location minus its last `num_clustering_cols` path components (so all
// partitions under the table directory share the table location); the
// suffix is the rest, starting with '/'. For 0 clustering columns the whole
// location is the prefix.
struct SplitLocation {
  std::string prefix;
  std::string suffix;
};
SplitLocation SplitPartitionLocation(const std::string& location, size_t num_clustering_cols);

// Index of `location`'s prefix in `prefixes` with its suffix, as sent in
// THdfsPartition.location; prefix_index -1 (whole location as suffix) if
// the prefix is not listed.
impala::THdfsPartitionLocation CompressPartitionLocation(const std::vector<std::string>& prefixes,
                                                         const std::string& location,
                                                         size_t num_clustering_cols);

// Collects the distinct prefixes (SplitPartitionLocation) of a table's
// partition locations into *prefixes, in the order first seen, after those
// it already holds. A partition whose location is derived from a base
// directory by a name of exactly k components has the prefix that base
// gives every such name; after one such partition, the next ones from the
// same base need neither their location built nor a set lookup.
class PrefixCollector {
 public:
  PrefixCollector(size_t k, std::vector<std::string>* prefixes) : k_(k), prefixes_(prefixes) {}

  // Notes p's prefix. p's shape must outlive the collector.
  void Add(const PartitionState& p);

 private:
  // "k1=v1/.../kk=vk": k components, none empty at the start.
  bool HasKComponents(std::string_view name) const;

  const size_t k_;
  std::vector<std::string>* const prefixes_;
  std::unordered_set<std::string> seen_;
  std::string_view last_base_;
  bool has_last_ = false;
};

}  // namespace ics::catalog
