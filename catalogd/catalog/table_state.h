// Immutable in-memory states of catalog objects.
//
// A table's loaded metadata is a TableState behind shared_ptr<const>; a DDL
// builds a new TableState (sharing the unchanged PartitionStates) and swaps
// it in, so readers (topic publisher, partial fetch) never block writers and
// never see half a change. Nothing here is mutated after it is published to
// the catalog.
//
// Partitions: ids are unique per catalogd process and never reused; a
// modified partition becomes a new PartitionState with a new id and
// prev_id = the old id. added_version records the catalog version of the
// table state that introduced the partition object, which is how the topic
// publisher finds new/changed partitions since its last delta.
//
// File descriptors are finished FlatBuffers (common/codec/file_desc.h);
// partition stats are kept deflate-compressed (common/codec/partition_stats.h)
// and never inflated in catalogd.
//
// Thread-safety: immutable after construction; share freely.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "CatalogObjects_types.h"
#include "Types_types.h"
#include "hive_metastore_types.h"
#include "common/util/status.h"

namespace ics::catalog {

struct PartitionState {
  int64_t id = 0;
  int64_t prev_id = -1;
  int64_t added_version = 0;
  // "k1=v1/k2=v2" (Hive-escaped); empty for the single partition of an
  // unpartitioned table.
  std::string name;
  std::vector<std::string> values;
  hive::Partition hms;  // for unpartitioned tables: synthesized from the table
  std::string location; // absolute directory path
  std::vector<std::string> file_descs;  // FbFileDesc buffers
  int64_t total_file_bytes = 0;
  int64_t num_blocks = 0;
  int64_t num_rows = -1;               // from HMS parameter numRows; -1 unknown
  std::string partition_stats;         // deflate(compact(TPartitionStats)); empty = none
  bool has_incremental_stats = false;
  int64_t last_refresh_ms = 0;         // when its directory was last listed

  // Approximate heap bytes held by this partition (for metrics/benchmarks).
  int64_t EstimateBytes() const;
};

using PartitionPtr = std::shared_ptr<const PartitionState>;

struct TableState {
  std::string db;
  std::string name;
  int64_t version = 0;        // catalog version of this state
  bool loaded = false;        // false: names only (incomplete table)
  Status load_status;         // why a load failed (loaded stays false)
  hive::Table hms;            // always set (names-only tables carry what HMS listed)
  impala::TTableType::type table_type = impala::TTableType::HDFS_TABLE;
  std::vector<impala::TColumn> clustering_columns;  // partition keys, in order
  std::vector<impala::TColumn> columns;             // data columns, in order
  std::map<int64_t, PartitionPtr> partitions;       // by id
  std::unordered_map<std::string, int64_t> partition_ids_by_name;
  std::map<std::string, hive::ColumnStatisticsObj> column_stats;  // by column name
  impala::TTableStats table_stats;  // num_rows (-1 unknown), total_file_bytes
  std::vector<impala::TNetworkAddress> network_addresses;  // hosts of file blocks
  std::vector<std::string> partition_prefixes;  // shared location prefixes
  int64_t load_time_ms = 0;
  int64_t storage_load_time_ns = 0;

  bool is_view() const { return table_type == impala::TTableType::VIEW; }
  bool is_partitioned() const { return !clustering_columns.empty(); }
  const PartitionState* FindPartition(const std::string& part_name) const;
  int64_t NumFiles() const;
  int64_t EstimateBytes() const;
};

using TablePtr = std::shared_ptr<const TableState>;

struct DatabaseState {
  std::string name;
  int64_t version = 0;
  hive::Database hms;
};

using DatabasePtr = std::shared_ptr<const DatabaseState>;

struct FunctionState {
  std::string db;
  std::string signature;  // "name(type1,type2)"; the function's key in its db
  int64_t version = 0;
  impala::TFunction fn;
};

using FunctionPtr = std::shared_ptr<const FunctionState>;

}  // namespace ics::catalog
