// Immutable in-memory states of catalog objects.
//
// A table's loaded metadata is a TableState behind shared_ptr<const>; a DDL
// builds a new TableState (sharing the unchanged PartitionStates and every
// chunk of its partition maps that the change did not touch, see
// persistent_map.h) and swaps it in, so readers (topic publisher, partial
// fetch) never block writers and never see half a change, and a change to a
// large table costs what it changed. Nothing here is mutated after it is
// published to the catalog.
//
// Partitions: ids are unique per catalogd process and never reused; a
// modified partition becomes a new PartitionState with a new id and
// prev_id = the old id. added_version records the catalog version of the
// table state that introduced the partition object, which is how the topic
// publisher finds new/changed partitions since its last delta.
//
// File descriptors are finished FlatBuffers (common/codec/file_desc.h),
// packed per partition (file_desc_list.h); partition stats are kept
// deflate-compressed (common/codec/partition_stats.h) and never inflated in
// catalogd; the HMS object of a partition shares its storage descriptor with
// the table's other partitions (hms_shape).
//
// Thread-safety: immutable after construction; share freely.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "CatalogObjects_types.h"
#include "Types_types.h"
#include "catalogd/catalog/compact_string_map.h"
#include "catalogd/catalog/file_desc_list.h"
#include "catalogd/catalog/partition_name_index.h"
#include "catalogd/catalog/partition_ptr.h"
#include "catalogd/catalog/partition_strings.h"
#include "common/util/intrusive_count.h"
#include "common/util/mutex.h"
#include "common/util/persistent_map.h"
#include "common/util/status.h"
#include "hive_metastore_types.h"

namespace ics::catalog {

class PartitionShapes;
struct TableState;

struct PartitionState {
  int64_t id = 0;
  int64_t prev_id = -1;
  int64_t added_version = 0;
  // "k1=v1/k2=v2" (Hive-escaped); empty for the single partition of an
  // unpartitioned table. The view lives as long as this state (and until
  // the next set_* call).
  std::string_view name() const { return strings_.Get(PartitionStrings::kName); }
  void set_name(std::string_view name) { strings_.Set(PartitionStrings::kName, name); }
  // The partition's values, in key order. Not stored when the name gives
  // them back (PartitionValuesFromName), as it does for all but values the
  // name cannot spell (an empty value, named as the default partition).
  std::vector<std::string> values() const;
  // Sets the values against the current name: set `name` first, and set
  // the values again after changing it.
  void set_values(const std::vector<std::string>& values);
  // The partition's HMS object (for unpartitioned tables: synthesized from
  // the table), kept in parts; Hms() puts them back together. hms_shape is
  // what the partitions of a table usually have in common: db and table
  // names, the storage descriptor without its location, privileges, ...,
  // with values, parameters and the times cleared and sd.location the
  // directory the partition's is derived from (or cleared). Partitions
  // with equal shapes share one object (PartitionShapes), so a table's
  // columns are not copied into each of its partitions.
  std::shared_ptr<const hive::Partition> hms_shape;
  // The HMS parameters, incremental-stats chunks removed (SetHms sets them).
  // The view lives as long as the name's.
  CompactStringMap hms_parameters() const {
    return CompactStringMap(strings_.Get(PartitionStrings::kParameters));
  }
  int32_t hms_create_time = 0;
  int32_t hms_last_access_time = 0;
  // When the listing it holds was taken, in seconds since the epoch. A
  // reload that finds a partition unchanged keeps the old state (id,
  // version and this time).
  uint32_t listed_at_s = 0;
  // The PartitionPtrs holding this partition (not content: a copy starts
  // at zero). In the padding beside the 4-byte fields.
  IntrusiveCount refs;
  FileDescList file_descs;  // FbFileDesc buffers, packed, with their totals
  int64_t total_file_bytes() const { return file_descs.total_bytes(); }
  int64_t num_blocks() const { return file_descs.num_blocks(); }
  // deflate(compact(TPartitionStats)); empty = none. The view lives as long
  // as the name's.
  std::string_view partition_stats() const { return strings_.Get(PartitionStrings::kStats); }
  void set_partition_stats(std::string_view compressed) {
    strings_.Set(PartitionStrings::kStats, compressed);
  }
  // The HMS parameter numRows; -1 unknown (absent or not a count).
  int64_t num_rows() const;
  // The digest of the metastore form it was built from
  // (PartitionReader::Stored::digest), 0 when unknown. A reload finding the
  // same digest for this partition skips decoding and rebuilding it. Not
  // content: SameContent ignores it.
  uint64_t source_digest() const;
  void set_source_digest(uint64_t digest);

  // Whether the stats hold intermediate column stats (incremental stats).
  bool has_incremental_stats() const {
    return strings_.flag(PartitionStrings::kHasIncrementalStats);
  }
  void set_has_incremental_stats(bool on) {
    strings_.set_flag(PartitionStrings::kHasIncrementalStats, on);
  }
  // Whether sd.location was set in the metastore (it is location()).
  bool hms_has_location() const { return strings_.flag(PartitionStrings::kHmsHasLocation); }

  // The partition's directory, an absolute path.
  std::string location() const;
  // The directory location() joins name() to when the location is not
  // stored (JoinPath(location_base(), name())); empty when it is stored.
  std::string_view location_base() const;
  // Sets the directory as given (no shape to derive it from).
  void set_location(const std::string& dir) { strings_.Set(PartitionStrings::kLocation, dir); }

  // The HMS object: the shape with values, parameters, location and times.
  hive::Partition Hms() const;
  // Sets the hms_* parts from `hms` and the directory from `location`. The
  // values must already be in `values` (they are not kept twice), and
  // `name` set. A directory that is JoinPath(table_location, name), as
  // most are, is not stored: the shape holds table_location and
  // location() derives it. With `shapes` the shape is interned there.
  void SetHms(hive::Partition hms, const std::string& location, const std::string& table_location,
              PartitionShapes* shapes = nullptr);
  // The shape's storage descriptor (formats, serde, columns); its location
  // is the table directory the partition's is derived from, or unset.
  const hive::StorageDescriptor& sd() const;

  // Approximate heap bytes held by this partition (for metrics/benchmarks),
  // the shared shape not included (TableState::EstimateBytes counts it once).
  int64_t EstimateBytes() const;

 private:
  friend bool SameContent(const PartitionState& a, const PartitionState& b);
  // Name, parameters, stats and, when they are not derived, the directory
  // (see SetHms) and the values (a varint count, then each value as a
  // varint length and its bytes), in one block with the two flags.
  PartitionStrings strings_;
};

// A new partition, empty or a copy of `from` (ids and all: the caller sets
// what differs), for building before it is published as a PartitionPtr.
// The copy has no source digest (a caller that changes nothing the
// metastore holds sets it again).
MutablePartitionPtr NewPartition();
MutablePartitionPtr NewPartition(const PartitionState& from);

// Interns partition shapes (PartitionState::hms_shape): an equal shape
// seen before is returned instead of a new object. Keeps at most
// kMaxShapes distinct shapes (a table whose partitions all differ gets no
// sharing beyond them). Thread-safe (the loader builds partitions in
// parallel). Also holds the load's file descriptor reference (see
// FileDescList): what the partitions' descriptors are encoded against.
class PartitionShapes {
 public:
  static constexpr size_t kMaxShapes = 16;
  PartitionShapes() = default;
  // Seeded with the shapes of `t`'s first and last partitions, and with
  // the descriptor reference of its first partition (so that a reload of
  // unchanged files encodes them as before).
  explicit PartitionShapes(const TableState& t);
  std::shared_ptr<const hive::Partition> Intern(hive::Partition shape) EXCLUDES(mu_);
  // The load's descriptor reference; the first call sets it to `candidate`
  // (a descriptor of the first partition built) unless it is seeded.
  FileDescList::Reference DescReference(std::string_view candidate) EXCLUDES(mu_);

 private:
  void Add(std::shared_ptr<const hive::Partition> shape) REQUIRES(mu_);
  Mutex mu_;
  std::vector<std::shared_ptr<const hive::Partition>> shapes_ GUARDED_BY(mu_);
  FileDescList::Reference desc_reference_ GUARDED_BY(mu_);
};

// Whether two partition states describe the same partition identically
// (name, values, HMS object, location, files, stats), ignoring ids,
// versions and listing times. A reload keeps the old state when this holds.
bool SameContent(const PartitionState& a, const PartitionState& b);

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
  // By id, and by name (the same partitions). Persistent maps: the next
  // state of a table shares them with this one except for the chunks a
  // change touches.
  PersistentMap<int64_t, PartitionPtr> partitions;
  PartitionNameIndex partitions_by_name;
  std::map<std::string, hive::ColumnStatisticsObj> column_stats;  // by column name
  impala::TTableStats table_stats;  // num_rows (-1 unknown), total_file_bytes
  std::vector<impala::TNetworkAddress> network_addresses;  // hosts of file blocks
  std::vector<std::string> partition_prefixes;  // shared location prefixes
  int64_t load_time_ms = 0;
  int64_t storage_load_time_ns = 0;
  int64_t num_blocks = 0;  // over all partitions (saturating); derived like table_stats

  bool is_view() const { return table_type == impala::TTableType::VIEW; }
  bool is_partitioned() const { return !clustering_columns.empty(); }
  const PartitionState* FindPartition(std::string_view part_name) const;
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
