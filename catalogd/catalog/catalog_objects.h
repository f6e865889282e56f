// Conversions from catalog states (table_state.h) to the wire
// TCatalogObject forms Impala uses, and the topic keys that name them.
//
//   Full       everything, partitions with files (GetCatalogObject, DDL results)
//   V1 topic   full replica entries: TABLE with a minimal partition map (ids
//              and names, has_full_partitions=false); each partition is a
//              separate HDFS_PARTITION object with its file descriptors
//   Invalidation  type, names, catalog_version only (v2 topic entries,
//              want_minimal_response, delete-log entries)
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "CatalogObjects_types.h"
#include "catalogd/catalog/table_state.h"

namespace ics::catalog {

// How text tables write NULL column values.
inline constexpr const char* kNullColumnValue = "\\N";

impala::TCatalogObject DatabaseObject(const DatabaseState& db);
impala::TCatalogObject DatabaseInvalidation(const std::string& db, int64_t version);

impala::TCatalogObject TableObjectFull(const TableState& t);
impala::TCatalogObject TableObjectV1(const TableState& t);
impala::TCatalogObject TableInvalidation(const TableState& t, int64_t version);

impala::THdfsPartition PartitionToThrift(const TableState& t, const PartitionState& p,
                                         bool with_files);
impala::TCatalogObject PartitionObject(const TableState& t, const PartitionState& p);
impala::TCatalogObject PartitionInvalidation(const TableState& t, const PartitionState& p,
                                             int64_t version);
// The same from names and ids (the delete log keeps no states).
impala::TCatalogObject PartitionInvalidation(const std::string& db, const std::string& table,
                                             const std::string& partition_name, int64_t id,
                                             int64_t prev_id, int64_t version);

impala::TCatalogObject FunctionObject(const FunctionState& f);
impala::TCatalogObject FunctionInvalidation(const FunctionState& f, int64_t version);

impala::TCatalogObject CatalogServiceObject(const impala::TUniqueId& service_id, int64_t version,
                                            int64_t last_reset_version);

// The storage descriptor Impala derives from a table's HMS storage
// descriptor (file format, delimiters, block size).
impala::THdfsStorageDescriptor StorageDescriptorOf(const hive::StorageDescriptor& sd);

}  // namespace ics::catalog
