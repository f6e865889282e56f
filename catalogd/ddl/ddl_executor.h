// DdlExecutor: executes DDL (ExecDdl), post-INSERT catalog updates
// (UpdateCatalog) and metadata resets (ResetMetadata) against the metastore
// and the catalog.
//
// Every operation: validates its input (names, types, existence) and fails
// with a clear Status before changing anything; takes the table's DDL lock
// (catalog.TableLock) so operations on one table are serialized while
// different tables proceed in parallel; writes the metastore in ONE
// transaction; only then changes the warehouse directories and installs
// the new immutable states in the catalog under one new version. A failure
// at any step leaves the catalog unchanged (no partial state).
//
// A global INVALIDATE METADATA rebuilds the whole catalog: it runs alone
// (reset_mu_ exclusive) while every other operation holds reset_mu_ shared.
//
// ExecDdl, UpdateCatalog and ResetMetadata are recorded (kind, target,
// requester, duration, outcome) in ctx->operations when it is set, for
// catalogd's /operations page.
//
// Exactly once: an ExecDdl whose header carries a request_id runs in a
// RequestScope, so that its metastore transaction records the id
// (request_recording_metastore.h; ctx->metastore must include a
// RequestRecordingMetastore); a repeat (request_repeated) whose id is
// recorded, or one that finds it recorded at commit, answers OK with the
// current catalog version and carries out nothing.
//
// Thread-safety: thread-safe; besides the context it only holds reset_mu_.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "catalogd/core/catalog_context.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

// What a change did, as the immutable states it installed and the keys of
// what it removed. The RPC adapter renders them as the wire objects a caller
// asked for (full, or minimal for on-demand coordinators), so the executor
// never builds a wire object nobody reads.
struct DdlOutcome {
  int64_t version = 0;  // the change's catalog version; current version for no-ops
  // Created or altered, in this order on the wire: databases, tables, functions.
  std::vector<DatabasePtr> databases;
  std::vector<TablePtr> tables;
  std::vector<FunctionPtr> functions;
  // Dropped (or renamed away), removed at `version`.
  std::vector<std::string> removed_databases;  // names
  std::vector<TablePtr> removed_tables;        // their last states
  std::vector<FunctionPtr> removed_functions;
  std::string summary;                          // one line, e.g. "Table has been created."
  bool new_table_created = false;
  std::string table_location;
  bool is_invalidate = false;  // global INVALIDATE METADATA
  // Set by a change that only added and removed partitions of tables[0]
  // (ADD / DROP PARTITION): the version of the state it was applied to and
  // the partitions it added and removed. A minimal result carries them, so
  // a coordinator holding that version patches its partition list.
  struct PartitionDelta {
    int64_t base_version = 0;
    std::vector<PartitionPtr> added;
    std::vector<PartitionPtr> removed;
  };
  std::optional<PartitionDelta> partition_delta;
};

// A batch of partition changes to one partitioned table, applied by
// DdlExecutor::ApplyPartitionBatch as one DDL: validated against the table
// under its DDL lock, written in ONE metastore transaction, then the
// directories, then ONE catalog install (one version). Partitions are named
// by their values (one per key, in key order; canonicalized as ADD
// PARTITION does). A partition may appear in only one list, once.
using PartitionPatch = std::function<Status(hive::Partition*)>;
struct PartitionBatch {
  std::string db;
  std::string table;
  struct Add {
    std::vector<std::string> values;
    // Applied to the default new partition (the table's storage descriptor
    // at <table location>/<name>, creation time now); may set sd fields,
    // parameters and sd.location. Values and names are restored after it.
    PartitionPatch patch;
  };
  std::vector<Add> adds;
  // true: adds that exist are skipped; false: ALREADY_EXISTS.
  bool skip_existing = false;
  struct Alter {
    std::vector<std::string> values;
    PartitionPatch patch;  // applied to the metastore's current object
  };
  std::vector<Alter> alters;
  std::vector<std::vector<std::string>> drops;
  // Optional: applied to the table's parameters (same transaction).
  std::function<Status(std::map<std::string, std::string>*)> table_params_patch;
};

struct PartitionBatchResult {
  int64_t version = 0;   // the change's version; the current one if nothing changed
  bool changed = false;  // false: every add was skipped and nothing else asked
  std::vector<hive::Partition> added;    // as committed, in request order
  std::vector<hive::Partition> altered;  // as committed, in request order
  size_t dropped = 0;
  TablePtr table;        // the table state after the batch
};

// A change to one table planned by another catalogd service (TableService,
// catalogd/mds), applied by DdlExecutor::ChangeTable as one DDL: under the
// table's DDL lock, `plan` sees the loaded table and its metastore object
// (every parameter) and returns the ops of ONE metastore transaction (any
// ops on this table: kNewTableVersion, kAlterTable keeping its name,
// column-stats ops); after the commit the table is rebuilt (reloaded when
// its location, partition keys or kind changed; table column stats re-read)
// and installed under ONE new catalog version. An error from `plan` changes
// nothing; an empty txn is a no-op (nothing written, no new version).
struct TableChange {
  std::string db;     // normalized (lower-case) names
  std::string table;
  std::function<Result<MetastoreTxn>(const TableState& loaded, const hive::Table& hms)> plan;
  std::string summary;
};

class DdlExecutor {
 public:
  explicit DdlExecutor(CatalogContext* ctx) : ctx_(ctx) {}

  Result<DdlOutcome> ExecDdl(const impala::TDdlExecRequest& req);
  Result<DdlOutcome> UpdateCatalog(const impala::TUpdateCatalogRequest& req);
  Result<DdlOutcome> ResetMetadata(const impala::TResetMetadataRequest& req);
  // See PartitionBatch. NOT_FOUND for a missing table or partition,
  // ALREADY_EXISTS for an existing add (unless skip_existing),
  // INVALID_ARGUMENT for bad values, duplicates or an unpartitioned table.
  Result<PartitionBatchResult> ApplyPartitionBatch(const PartitionBatch& batch);
  // See TableChange. NOT_FOUND for a missing database or table; errors of
  // `plan` and of the commit as they are. An empty plan is a no-op (returns
  // the current version, nothing installed).
  Result<DdlOutcome> ChangeTable(const TableChange& change);

 private:
  // ExecDdl and ResetMetadata without the operation log.
  Result<DdlOutcome> RunDdl(const impala::TDdlExecRequest& req);
  // The answer to a repeat of a request that was carried out before.
  DdlOutcome Repeated(const RecordedRequest& seen) const;
  Result<DdlOutcome> RunReset(const impala::TResetMetadataRequest& req);

  CatalogContext* const ctx_;
  // Shared by every operation; exclusive for a global INVALIDATE METADATA.
  // Acquired before any database or table lock.
  SharedMutex reset_mu_;
};

}  // namespace ics::catalog
