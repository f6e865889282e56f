// DdlExecutor: carries out the typed commands of ddl_commands.h against the
// metastore and the catalog (databases and tables as metastore objects,
// their definitions, partitions one at a time and in batches, statistics,
// functions, planned table changes, INSERT's metadata step, metadata
// resets).
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
// What surrounds an operation (the caller's admission, the operation log
// and audit line, exactly-once by request id) is the command core's
// (catalogd/ops/command_core.h), which every door goes through; the
// executor itself records nothing.
//
// Thread-safety: thread-safe; besides the context it only holds reset_mu_.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_commands.h"
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

class DdlExecutor {
 public:
  explicit DdlExecutor(CatalogContext* ctx) : ctx_(ctx) {}

  Result<DdlOutcome> CreateDatabase(const CreateDatabaseCommand& c);
  Result<DdlOutcome> DropDatabase(const DropDatabaseCommand& c);
  Result<DdlOutcome> AlterDatabase(const AlterDatabaseCommand& c);
  Result<DdlOutcome> CreateTable(const CreateTableCommand& c);
  Result<DdlOutcome> DropTable(const DropTableCommand& c);
  Result<DdlOutcome> TruncateTable(const TruncateTableCommand& c);
  Result<DdlOutcome> AlterTable(const AlterTableCommand& c);
  Result<DdlOutcome> CreateTableLike(const CreateTableLikeCommand& c);
  Result<DdlOutcome> AlterView(const AlterViewCommand& c);
  Result<DdlOutcome> RenameTable(const RenameTableCommand& c);
  Result<DdlOutcome> AlterTableDefinition(const TableAlterationCommand& c);
  Result<DdlOutcome> AddPartitions(const AddPartitionsCommand& c);
  Result<DdlOutcome> DropPartitions(const DropPartitionsCommand& c);
  Result<DdlOutcome> RecoverPartitions(const RecoverPartitionsCommand& c);
  Result<DdlOutcome> UpdateStats(const UpdateStatsCommand& c);
  Result<DdlOutcome> DropStats(const DropStatsCommand& c);
  Result<DdlOutcome> CommentOn(const CommentOnCommand& c);
  Result<DdlOutcome> CreateFunction(const CreateFunctionCommand& c);
  Result<DdlOutcome> DropFunction(const DropFunctionCommand& c);
  Result<DdlOutcome> Insert(const InsertCommand& c);
  Result<DdlOutcome> Reset(const ResetCommand& c);
  // See PartitionBatch. NOT_FOUND for a missing table or partition,
  // ALREADY_EXISTS for an existing add (unless skip_existing),
  // INVALID_ARGUMENT for bad values, duplicates or an unpartitioned table.
  Result<PartitionBatchResult> ApplyPartitionBatch(const PartitionBatch& batch);
  // See TableChange. NOT_FOUND for a missing database or table; errors of
  // `plan` and of the commit as they are. An empty plan is a no-op (returns
  // the current version, nothing installed).
  Result<DdlOutcome> ChangeTable(const TableChange& change);

 private:
  // Runs `fn` holding reset_mu_ shared.
  template <typename Fn>
  auto Shared(Fn&& fn) -> decltype(fn());

  CatalogContext* const ctx_;
  // Shared by every operation; exclusive for a global INVALIDATE METADATA.
  // Acquired before any database or table lock.
  SharedMutex reset_mu_;
};

}  // namespace ics::catalog
