// Partitions as DDL names them: full and partial partition specs resolved
// against a loaded table, their canonical values and display names, the
// metastore objects of catalog partitions, and new partition objects.
// Private to catalogd/ddl.
//
// Thread-safety: stateless functions; the context objects are thread-safe.
#pragma once

#include <string>
#include <vector>

#include "catalogd/ddl/ddl_steps_internal.h"

namespace ics::catalog::ddl {

// The canonical values (in key order) of a full partition spec of `t`.
Result<std::vector<std::string>> PartitionValues(const TableState& t, const PartitionSpec& spec);

// Partitions of `t` matched by each spec of `set` (a spec may give only
// some keys; it then matches every partition with those values). A spec
// matching nothing is NOT_FOUND unless `if_exists`. Result in id order,
// without duplicates.
Result<std::vector<PartitionPtr>> ResolvePartitionSet(const TableState& t,
                                                      const std::vector<PartitionSpec>& set,
                                                      bool if_exists);

std::string PartitionDisplayName(const TableRef& t, const std::string& part_name);

// The partition of `t` with exactly these values (the one named by them,
// if its values are these), or null.
PartitionPtr PartitionWithValues(const TableState& t, const std::vector<std::string>& values);

// Metastore objects of `parts` (with every parameter). INTERNAL if one is
// missing (the catalog and the metastore disagree).
Result<std::vector<hive::Partition>> MetastorePartitions(CatalogContext* ctx, const TableRef& t,
                                                         const std::vector<PartitionPtr>& parts);

// The loaded, partitioned, non-view table a partition operation works on.
Result<TablePtr> PartitionedTable(CatalogContext* ctx, const TableRef& t);
// A new partition of `hms` with `values` at `location` (the table's storage
// descriptor, creation time now).
hive::Partition NewPartition(const hive::Table& hms, std::vector<std::string> values,
                             const std::string& location);

}  // namespace ics::catalog::ddl
