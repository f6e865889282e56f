// CommandCore: the one way a door changes catalogd's catalog. A door
// (CatalogService for Impala, the Hive Metastore endpoint, ...) translates
// its wire request into a typed command and a Caller (caller.h), and maps
// the Status that comes back to its own wire errors; everything in
// between happens here, once, for every door:
//
//   1. admission: the `admit` check (catalogd HA: only the active catalogd
//      changes the catalog; a standby answers with its CheckActive status);
//   2. the operation record, and so the audit line: kind (e.g.
//      "CREATE_TABLE", the same word whichever door sent it), target
//      ("db.t"), the caller's detail and origin, outcome, message, catalog
//      version;
//   3. exactly-once: a caller with a request id runs in a RequestScope, so
//      its metastore transaction records the id; a repeat whose id is
//      recorded (looked up first when request_repeated, or found at
//      commit) answers OK with the current version and changes nothing;
//   4. the command itself, by the DDL executor (catalogd/ddl): validation
//      (names, columns, locations), locks, ONE metastore transaction,
//      directories with compensation, ONE catalog install (publication
//      follows from the install).
//
// The commands are those of catalogd/ddl/ddl_commands.h; a door's request
// that has no command (a feature this catalog does not have) is refused at
// the door and recorded with Refused.
//
// Errors are Status codes, the one vocabulary every door maps:
//   NOT_FOUND, ALREADY_EXISTS, INVALID_ARGUMENT (the message says why),
//   NOT_IMPLEMENTED (a feature this catalog does not have), the admission
//   status (a standby), and metastore or file system failures as they are.
//
// Thread-safety: thread-safe; the context, the executor and `admit` must be.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/ops/caller.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

// How the operation record names a command.
struct CommandLabel {
  std::string kind;    // e.g. "CREATE_TABLE"
  std::string target;  // e.g. "db.t"; "" = none
};

class CommandCore {
 public:
  // `admit` may be empty (every caller admitted). All pointers outlive the core.
  CommandCore(CatalogContext* ctx, DdlExecutor* ddl, std::function<Status()> admit = {});

  Result<DdlOutcome> CreateDatabase(const Caller& caller, const CreateDatabaseCommand& c);
  Result<DdlOutcome> DropDatabase(const Caller& caller, const DropDatabaseCommand& c);
  Result<DdlOutcome> AlterDatabase(const Caller& caller, const AlterDatabaseCommand& c);
  Result<DdlOutcome> CreateTable(const Caller& caller, const CreateTableCommand& c);
  Result<DdlOutcome> DropTable(const Caller& caller, const DropTableCommand& c);
  Result<DdlOutcome> TruncateTable(const Caller& caller, const TruncateTableCommand& c);
  Result<DdlOutcome> AlterTable(const Caller& caller, const AlterTableCommand& c);
  Result<DdlOutcome> CreateTableLike(const Caller& caller, const CreateTableLikeCommand& c);
  Result<DdlOutcome> AlterView(const Caller& caller, const AlterViewCommand& c);
  // The ALTER TABLE family, each recorded as ALTER_TABLE "<db.t> (<what>)",
  // what = RENAME_TABLE / RENAME_VIEW, the alteration's name
  // (AlterationName), ADD_PARTITION, DROP_PARTITION, RECOVER_PARTITIONS,
  // UPDATE_STATS.
  Result<DdlOutcome> RenameTable(const Caller& caller, const RenameTableCommand& c);
  Result<DdlOutcome> AlterTableDefinition(const Caller& caller, const TableAlterationCommand& c);
  Result<DdlOutcome> AddPartitions(const Caller& caller, const AddPartitionsCommand& c);
  Result<DdlOutcome> DropPartitions(const Caller& caller, const DropPartitionsCommand& c);
  Result<DdlOutcome> RecoverPartitions(const Caller& caller, const RecoverPartitionsCommand& c);
  Result<DdlOutcome> UpdateStats(const Caller& caller, const UpdateStatsCommand& c);
  Result<DdlOutcome> DropStats(const Caller& caller, const DropStatsCommand& c);
  Result<DdlOutcome> CommentOn(const Caller& caller, const CommentOnCommand& c);
  Result<DdlOutcome> CreateFunction(const Caller& caller, const CreateFunctionCommand& c);
  Result<DdlOutcome> DropFunction(const Caller& caller, const DropFunctionCommand& c);
  // Adds, alters and drops of one table's partitions as one change (see
  // PartitionBatch). A repeat of a recorded request answers changed=false
  // with the current version.
  Result<PartitionBatchResult> ChangePartitions(const Caller& caller, const PartitionBatch& b);
  // INSERT's metadata step (see InsertCommand), recorded as UPDATE_CATALOG
  // "db.t", as Impala names the call.
  Result<DdlOutcome> Insert(const Caller& caller, const InsertCommand& c);
  // REFRESH / INVALIDATE METADATA (see ResetCommand), recorded as REFRESH or
  // INVALIDATE_METADATA of "db.t", "db" or "(all)".
  Result<DdlOutcome> Reset(const Caller& caller, const ResetCommand& c);
  // A planned change of one table (see TableChange), recorded as
  // ALTER_TABLE "<db.t> (<what>)", e.g. what = "UPDATE_STATS".
  Result<DdlOutcome> ChangeTable(const Caller& caller, const std::string& what,
                                 const TableChange& change);

  // Records a request a door refused before it became a command (see
  // DoorCall): an operation record and audit line ending with `why`.
  void Refused(const Caller& caller, const CommandLabel& label, const Status& why);

  // How many commands the calling thread has brought to the core so far.
  static uint64_t CommandsOnThisThread();

 private:
  // Steps 1-3 around `body`, the executor's call for the command.
  Result<DdlOutcome> Run(const Caller& caller, const CommandLabel& label,
                         const std::function<Result<DdlOutcome>()>& body);
  // An ALTER TABLE of db.table recorded with `what` (see above).
  Result<DdlOutcome> RunAlter(const Caller& caller, const std::string& db, const std::string& table,
                              const std::string& what,
                              const std::function<Result<DdlOutcome>()>& body);

  // The answer to a repeat of request `id`, carried out before.
  DdlOutcome Repeated(const std::string& id, const std::string& summary) const;

  CatalogContext* const ctx_;
  DdlExecutor* const ddl_;
  const std::function<Status()> admit_;
};

// One request at a door that is meant to become commands. A door refuses
// some requests itself, before any command exists (a malformed request, an
// object its own lookup did not find); Failed() records such a refusal as
// the core records commands, so the audit log holds every refused change.
// When a command did run on this thread since the DoorCall began, the core
// has recorded it and Failed() records nothing more.
//
// Thread-safety: used by the one thread serving the request.
class DoorCall {
 public:
  DoorCall(CommandCore* core, Caller caller, CommandLabel label);
  void Failed(const Status& why);

 private:
  CommandCore* const core_;
  const Caller caller_;
  const CommandLabel label_;
  const uint64_t commands_before_;
};

}  // namespace ics::catalog::ops
