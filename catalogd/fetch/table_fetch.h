// Builds the table part (TPartialTableInfo) of a GetPartialCatalogObject
// answer from one loaded, immutable TableState and a TTableInfoSelector.
//
// Selector rules (as Impala's catalogd):
//   want_hms_table           hms_table = the table's HMS object.
//   want_stats_for_column_names / want_stats_for_all_columns
//                            column_stats: the stored ColumnStatisticsObj of
//                            each named column that has stats (unknown
//                            names and columns without stats are skipped;
//                            names match case-insensitively; a column named
//                            more than once is answered once, at its first
//                            mention); "all" means
//                            every column of the table, partition keys
//                            first, in schema order.
//   partition selection      partition_ids listed: exactly those, in request
//                            order, each id once (a repeated id is answered
//                            at its first position only, so the answer is
//                            bounded by the table, not the request); any
//                            unknown id makes
//                            the whole answer PARTITION_NOT_FOUND. Unset:
//                            every partition in ascending id order when any
//                            of want_partition_names/_metadata/_files/_stats
//                            or want_hms_partition is set, otherwise no
//                            `partitions` field at all. Empty list: an empty
//                            `partitions` list. Views have no partitions.
//   per partition            id always;
//     want_partition_names     name ("" for an unpartitioned table);
//     want_hms_partition       hms_partition;
//     want_partition_metadata  hms_parameters, has_incremental_stats,
//                              hdfs_storage_descriptor, location (prefix_index
//                              -1: the suffix is the whole path);
//     want_partition_files     file_descriptors (the stored FlatBuffer bytes);
//     want_partition_stats     partition_stats (deflated bytes as stored; unset
//                              when the partition has none), has_incremental_stats.
//   want_partition_files     also network_addresses and partition_prefixes
//                            of the whole table.
//   always                   storage_metadata_load_time_ns.
//   ignored                  want_table_constraints, valid_write_ids, table_id,
//                            want_iceberg_table, iceberg_file_offset (no
//                            ACID or Iceberg tables here).
//
// Cap: with want_partition_files, partitions are added in selection order
// while the running descriptor total stays <= max_file_descs; the first
// partition is always added (so the caller always makes progress).
// max_file_descs <= 0 disables the cap. See partial_fetcher.h for how a
// caller continues.
//
// Thread-safety: stateless function over immutable input.
#pragma once

#include <cstdint>
#include <vector>

#include "CatalogService_types.h"
#include "catalogd/catalog/table_state.h"

namespace ics::catalog {

struct TableFetchResult {
  impala::CatalogLookupStatus::type lookup_status = impala::CatalogLookupStatus::OK;
  impala::TPartialTableInfo info;  // meaningful iff lookup_status is OK
  int64_t num_partitions_selected = 0;
  int64_t num_file_descs = 0;  // descriptors included in the answer
  bool truncated = false;      // cap hit: the answer holds a prefix of the selection
  // Whether the answer has a `partitions` field (possibly empty).
  bool has_partitions = false;
  // The answer's partitions, in order, pointing into `table` (which the
  // caller keeps alive until they are written). info.partitions stays unset:
  // the partitions are rendered, by the per-partition rules above, only by
  // the answer's writer (partial_response_writer.h), one at a time while it
  // serializes the answer, so that no copy of them all is built first.
  std::vector<const PartitionState*> selected;
};

TableFetchResult BuildPartialTableInfo(const TableState& table,
                                       const impala::TTableInfoSelector& selector,
                                       int64_t max_file_descs);

}  // namespace ics::catalog
