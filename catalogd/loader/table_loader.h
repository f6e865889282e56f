// TableLoader: builds complete, immutable TableStates (and single
// PartitionStates) from the Metastore and the warehouse FileSystem.
//
// Load(db, table) reads the hive::Table, its partitions and its column
// statistics, parses every column type, lists each partition directory (in
// parallel on a bounded pool) and returns a fresh TableState with
// loaded = true and version 0 (the catalog stamps versions on install).
// Partition ids come from the shared allocator and are never reused.
//
// What a loaded state holds:
//  - columns: clustering (partition key) columns get positions 0..k-1, data
//    columns k..; types parsed with ParseHiveType.
//  - views (tableType "VIRTUAL_VIEW"): table_type VIEW, columns only.
//  - other tables: HDFS_TABLE; an unpartitioned table has one partition
//    named "" at the table location whose HMS object is synthesized from the table.
//  - per partition: location = sd.location, or <table location>/<name> when
//    empty; one FbFileDesc per listed file (relative_path = file name,
//    compression from the extension; on a store with block locations
//    (FileSystem::HasBlockLocations) blocks of block_size on host index 0,
//    otherwise none, as Impala describes local and object-store files);
//    num_rows from the "numRows" parameter (-1 if absent or not a number);
//    incremental stats from the chunked parameters (partition_stats_params.h),
//    kept deflate-compressed, chunk parameters removed from the HMS copy;
//    the HMS object's shape is shared with equal partitions (PartitionShapes).
//    Unreadable incremental stats are dropped with a warning, as Impala does.
//  - table_stats: num_rows from the table's "numRows" (-1 if absent),
//    total_file_bytes = the sum of the listed files, as Impala reports it
//    (not the "totalSize" parameter, which goes stale; views: unset).
//  - network_addresses = [{host, 0}] when any file has blocks;
//    partition_prefixes per CompressPartitionLocation.
// Sizes: a file's blocks follow SplitIntoBlocks (file_desc.h: overflow-safe,
// at most kMaxBlocksPerFile per file, larger blocks beyond); a negative file
// length from the file system fails the partition (CORRUPTION); byte and
// block totals saturate at INT64_MAX; block_size <= 0 means the default.
// Exceptions: a file system call or a listing task that throws fails the
// load with INTERNAL naming it (the listing pool's exception barrier,
// thread_pool.h); nothing escapes to the calling thread from there.
// Errors (metastore failure, unparsable column type, partition values not
// matching the keys, listing failure) come back as a Status naming the
// column or partition at fault; callers add the table name (the catalog
// records it as the table's load_status). Nothing is returned half-built.
//
// Ownership: the Metastore, FileSystem and id allocator are borrowed and
// must outlive the loader; the loader owns its listing thread pool.
//
// Thread-safety: thread-safe; any number of Load/LoadPartition/
// RefreshPartition calls may run concurrently (they share the pool).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/partition_location.h"
#include "catalogd/loader/thread_pool.h"
#include "catalogd/metastore/metastore.h"
#include "common/util/result.h"

namespace ics::catalog {

class PartitionDirs;  // table_loader.cc

struct LoaderOptions {
  // Listing threads shared by all loads (the calling thread works too).
  int num_threads = 8;
  // Files are described as blocks of this many bytes (<= 0: the default).
  int64_t block_size = 128LL << 20;
  // The single host every block replica is placed on.
  std::string host = "localhost";
};

class TableLoader {
 public:
  TableLoader(Metastore* metastore, FileSystem* fs, LoaderOptions options,
              std::atomic<int64_t>* next_partition_id);
  TableLoader(const TableLoader&) = delete;
  TableLoader& operator=(const TableLoader&) = delete;

  const LoaderOptions& options() const { return options_; }

  // Loads db.table completely. The state is fresh (not shared), so the
  // caller may still adjust it before installing it. With `previous` (the
  // table's current loaded state), a partition that comes out identical to
  // its namesake there (SameContent) is that state itself, with its id, so
  // a REFRESH of an unchanged table changes no partition; a changed one
  // gets a new id with prev_id = the old id. A partition whose stored form
  // has the digest its state in `previous` was built from
  // (PartitionReader::Peek) is not decoded again, only re-listed (as
  // RefreshPartition), when the table's partition keys and location are
  // unchanged.
  Result<std::shared_ptr<TableState>> Load(const std::string& db, const std::string& table,
                                           const TableState* previous = nullptr);

  // Builds one partition of `table` from its HMS object, listing its
  // directory: a new id; prev_id as given (-1 for a new partition). For an
  // unpartitioned table pass a partition with no values (name "").
  // Used by ADD PARTITION, REFRESH of a partition and INSERT.
  Result<MutablePartitionPtr> LoadPartition(const TableState& table,
                                                        const hive::Partition& partition,
                                                        int64_t prev_id = -1);

  // Re-lists old's directory. Returns `old` itself if the listing is
  // unchanged (same names, sizes and mtimes); otherwise a copy with the new
  // file descriptors, a new id and prev_id = old->id (added_version 0).
  Result<PartitionPtr> RefreshPartition(const PartitionPtr& old);

  // Recomputes a state's derived fields from its partitions:
  // partition_ids_by_name, table_stats.total_file_bytes, num_blocks,
  // network_addresses and partition_prefixes. Call after adding/replacing/
  // removing partitions. With `base` (a finished state of the same table,
  // typically the one `table` was derived from) only the partitions that
  // differ between the two are visited: the derived fields are base's,
  // updated for them (PersistentMap::ForEachDifference), so a change to a
  // large table costs what it changed. Prefixes then keep base's order with
  // new ones appended, and a prefix no partition uses any more may stay
  // listed (harmless: nothing refers to it).
  void FinishTableState(TableState* table, const TableState* base = nullptr) const;

 private:
  // Sets part's file descriptors, totals and listed_at_s from a listing.
  // CORRUPTION for a negative file length; totals saturate at INT64_MAX.
  // The descriptors are encoded against `shapes`' reference, or else
  // against `reference` (a refreshed partition's old one).
  [[nodiscard]] Status FillFiles(const std::vector<FileStatus>& files, PartitionShapes* shapes,
                                 const FileDescList::Reference& reference,
                                 PartitionState* part) const;
  // RefreshPartition, the changed copy getting `id` (< 0: a new one).
  Result<PartitionPtr> Relist(const PartitionPtr& old, int64_t id, const PartitionDirs& dirs);
  Result<MutablePartitionPtr> BuildPartition(const TableState& table,
                                                         hive::Partition partition, int64_t id,
                                                         int64_t prev_id, PartitionShapes* shapes,
                                                         const PartitionDirs& dirs);

  Metastore* const metastore_;
  FileSystem* const fs_;
  const LoaderOptions options_;
  std::atomic<int64_t>* const next_partition_id_;
  ThreadPool pool_;
};

// Builds the columns of a table from its HMS object (clustering columns,
// then data columns, positions in that order). INVALID_ARGUMENT naming the
// column if a type does not parse.
[[nodiscard]] Status BuildColumns(const hive::Table& hms, std::vector<impala::TColumn>* clustering,
                                  std::vector<impala::TColumn>* columns);

// The HMS-shaped partition of an unpartitioned table: no values, the
// table's storage descriptor and parameters (what Load puts in the single
// partition's HMS object).
hive::Partition SynthesizePartition(const hive::Table& table);

// The partition as it must be written back to the metastore (ALTER
// PARTITION, COMPUTE STATS): p.Hms() with the incremental stats, which Load
// strips from the in-memory copy, put back as chunked parameters. Writing
// p.Hms() directly would silently drop them. CORRUPTION if p.partition_stats
// does not decode.
Result<hive::Partition> PartitionForMetastore(const PartitionState& p);

}  // namespace ics::catalog
