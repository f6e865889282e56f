#include "catalogd/ops/command_core.h"

#include <optional>
#include <utility>

#include "catalogd/metastore/request_recording_metastore.h"
#include "common/hive/table_type.h"
#include "common/util/operation_log.h"

namespace ics::catalog::ops {

namespace {

std::string TableTarget(const std::string& db, const std::string& table) {
  return db + "." + table;
}

// Commands the current thread brought to the core (CommandsOnThisThread).
thread_local uint64_t commands_on_this_thread = 0;

}  // namespace

CommandCore::CommandCore(CatalogContext* ctx, DdlExecutor* ddl, std::function<Status()> admit)
    : ctx_(ctx), ddl_(ddl), admit_(std::move(admit)) {}

Result<DdlOutcome> CommandCore::Run(const Caller& caller, const CommandLabel& label,
                                    const std::function<Result<DdlOutcome>()>& body) {
  ++commands_on_this_thread;
  ScopedOperation op(ctx_->operations, label.kind, label.target, caller.Detail(), caller.origin);
  auto logged = [&op](Result<DdlOutcome> r) {
    if (r.ok()) {
      op.End(Status::OK(), r->summary, r->version);
    } else {
      op.End(r.status());
    }
    return r;
  };
  if (admit_) {
    Status admitted = admit_();
    if (!admitted.ok()) return logged(admitted);
  }
  if (caller.request_id.empty()) return logged(body());
  const std::string& id = caller.request_id;
  if (caller.request_repeated) {
    Result<std::optional<RecordedRequest>> seen = ctx_->metastore->LookupRequest(id);
    if (!seen.ok() && !seen.status().Is(ErrorCode::kNotImplemented)) {
      return logged(seen.status());
    }
    if (seen.ok() && seen->has_value()) return logged(Repeated(id, (*seen)->summary));
  }
  RequestScope scope(id, label.kind + " " + label.target);
  Result<DdlOutcome> r = body();
  if (!r.ok() && scope.repeated()) return logged(Repeated(id, scope.summary()));
  return logged(std::move(r));
}

void CommandCore::Refused(const Caller& caller, const CommandLabel& label, const Status& why) {
  ScopedOperation op(ctx_->operations, label.kind, label.target, caller.Detail(), caller.origin);
  op.End(why);
}

uint64_t CommandCore::CommandsOnThisThread() { return commands_on_this_thread; }

DoorCall::DoorCall(CommandCore* core, Caller caller, CommandLabel label)
    : core_(core),
      caller_(std::move(caller)),
      label_(std::move(label)),
      commands_before_(CommandCore::CommandsOnThisThread()) {}

void DoorCall::Failed(const Status& why) {
  if (core_ == nullptr || CommandCore::CommandsOnThisThread() != commands_before_) return;
  core_->Refused(caller_, label_, why);
}

DdlOutcome CommandCore::Repeated(const std::string& id, const std::string& summary) const {
  DdlOutcome o;
  // The change is in the catalog at or below its current version: a
  // SYNC_DDL repeat waits for the coordinators to hold that.
  o.version = ctx_->catalog->version();
  o.summary = "Request " + id + " was carried out before (" + summary + "); not repeated.";
  return o;
}

Result<DdlOutcome> CommandCore::CreateDatabase(const Caller& caller,
                                               const CreateDatabaseCommand& c) {
  return Run(caller, {"CREATE_DATABASE", c.db.name}, [&] { return ddl_->CreateDatabase(c); });
}

Result<DdlOutcome> CommandCore::DropDatabase(const Caller& caller, const DropDatabaseCommand& c) {
  return Run(caller, {"DROP_DATABASE", c.name}, [&] { return ddl_->DropDatabase(c); });
}

Result<DdlOutcome> CommandCore::AlterDatabase(const Caller& caller,
                                              const AlterDatabaseCommand& c) {
  return Run(caller, {"ALTER_DATABASE", c.name}, [&] { return ddl_->AlterDatabase(c); });
}

Result<DdlOutcome> CommandCore::CreateTable(const Caller& caller, const CreateTableCommand& c) {
  const char* kind = c.table.tableType == kVirtualView ? "CREATE_VIEW" : "CREATE_TABLE";
  return Run(caller, {kind, TableTarget(c.table.dbName, c.table.tableName)},
             [&] { return ddl_->CreateTable(c); });
}

Result<DdlOutcome> CommandCore::CreateTableLike(const Caller& caller,
                                                const CreateTableLikeCommand& c) {
  return Run(caller, {"CREATE_TABLE_LIKE", TableTarget(c.db, c.table)},
             [&] { return ddl_->CreateTableLike(c); });
}

Result<DdlOutcome> CommandCore::AlterView(const Caller& caller, const AlterViewCommand& c) {
  return Run(caller, {"ALTER_VIEW", TableTarget(c.db, c.view)}, [&] { return ddl_->AlterView(c); });
}

Result<DdlOutcome> CommandCore::RunAlter(const Caller& caller, const std::string& db,
                                         const std::string& table, const std::string& what,
                                         const std::function<Result<DdlOutcome>()>& body) {
  return Run(caller, {"ALTER_TABLE", TableTarget(db, table) + " (" + what + ")"}, body);
}

Result<DdlOutcome> CommandCore::RenameTable(const Caller& caller, const RenameTableCommand& c) {
  const char* what = c.kind == TableKind::kView ? "RENAME_VIEW" : "RENAME_TABLE";
  return RunAlter(caller, c.db, c.table, what, [&] { return ddl_->RenameTable(c); });
}

Result<DdlOutcome> CommandCore::AlterTableDefinition(const Caller& caller,
                                                     const TableAlterationCommand& c) {
  return RunAlter(caller, c.db, c.table, AlterationName(c.change),
                  [&] { return ddl_->AlterTableDefinition(c); });
}

Result<DdlOutcome> CommandCore::AddPartitions(const Caller& caller, const AddPartitionsCommand& c) {
  return RunAlter(caller, c.db, c.table, "ADD_PARTITION", [&] { return ddl_->AddPartitions(c); });
}

Result<DdlOutcome> CommandCore::DropPartitions(const Caller& caller,
                                               const DropPartitionsCommand& c) {
  return RunAlter(caller, c.db, c.table, "DROP_PARTITION", [&] { return ddl_->DropPartitions(c); });
}

Result<DdlOutcome> CommandCore::RecoverPartitions(const Caller& caller,
                                                  const RecoverPartitionsCommand& c) {
  return RunAlter(caller, c.db, c.table, "RECOVER_PARTITIONS",
                  [&] { return ddl_->RecoverPartitions(c); });
}

Result<DdlOutcome> CommandCore::UpdateStats(const Caller& caller, const UpdateStatsCommand& c) {
  return RunAlter(caller, c.db, c.table, "UPDATE_STATS", [&] { return ddl_->UpdateStats(c); });
}

Result<DdlOutcome> CommandCore::DropStats(const Caller& caller, const DropStatsCommand& c) {
  return Run(caller, {"DROP_STATS", TableTarget(c.db, c.table)},
             [&] { return ddl_->DropStats(c); });
}

Result<DdlOutcome> CommandCore::CommentOn(const Caller& caller, const CommentOnCommand& c) {
  using Target = CommentOnCommand::Target;
  const std::string target = c.target == Target::kDatabase ? c.db
                             : c.target == Target::kTable
                                 ? TableTarget(c.db, c.table)
                                 : TableTarget(c.db, c.table) + "." + c.column;
  return Run(caller, {"COMMENT_ON", target}, [&] { return ddl_->CommentOn(c); });
}

Result<DdlOutcome> CommandCore::DropTable(const Caller& caller, const DropTableCommand& c) {
  const char* kind = c.kind == DropTableCommand::Kind::kView ? "DROP_VIEW" : "DROP_TABLE";
  return Run(caller, {kind, TableTarget(c.db, c.table)}, [&] { return ddl_->DropTable(c); });
}

Result<DdlOutcome> CommandCore::TruncateTable(const Caller& caller, const TruncateTableCommand& c) {
  return Run(caller, {"TRUNCATE_TABLE", TableTarget(c.db, c.table)},
             [&] { return ddl_->TruncateTable(c); });
}

Result<DdlOutcome> CommandCore::AlterTable(const Caller& caller, const AlterTableCommand& c) {
  return Run(caller, {"ALTER_TABLE", TableTarget(c.db, c.table)},
             [&] { return ddl_->AlterTable(c); });
}

Result<DdlOutcome> CommandCore::CreateFunction(const Caller& caller,
                                               const CreateFunctionCommand& c) {
  const std::string target = c.fn.name.db_name + "." + c.fn.name.function_name;
  return Run(caller, {"CREATE_FUNCTION", target}, [&] { return ddl_->CreateFunction(c); });
}

Result<DdlOutcome> CommandCore::DropFunction(const Caller& caller, const DropFunctionCommand& c) {
  return Run(caller, {"DROP_FUNCTION", c.db + "." + (c.name.empty() ? c.signature : c.name)},
             [&] { return ddl_->DropFunction(c); });
}

Result<DdlOutcome> CommandCore::Insert(const Caller& caller, const InsertCommand& c) {
  return Run(caller, {"UPDATE_CATALOG", TableTarget(c.db, c.table)},
             [&] { return ddl_->Insert(c); });
}

Result<DdlOutcome> CommandCore::Reset(const Caller& caller, const ResetCommand& c) {
  using Kind = ResetCommand::Kind;
  const std::string target = c.kind == Kind::kInvalidateAll        ? "(all)"
                             : c.kind == Kind::kInvalidateDatabase ? c.db
                             : c.table.empty()                     ? "(all)"
                                                                   : TableTarget(c.db, c.table);
  const bool refresh = c.kind == Kind::kRefreshTable || c.kind == Kind::kRefreshAuthorization;
  return Run(caller, {refresh ? "REFRESH" : "INVALIDATE_METADATA", target},
             [&] { return ddl_->Reset(c); });
}

Result<DdlOutcome> CommandCore::ChangeTable(const Caller& caller, const std::string& what,
                                            const TableChange& change) {
  return Run(caller, {"ALTER_TABLE", TableTarget(change.db, change.table) + " (" + what + ")"},
             [&] { return ddl_->ChangeTable(change); });
}

Result<PartitionBatchResult> CommandCore::ChangePartitions(const Caller& caller,
                                                          const PartitionBatch& b) {
  // Labelled as Impala labels ALTER TABLE ... ADD/DROP PARTITION.
  const int kinds = int{!b.adds.empty()} + int{!b.alters.empty()} + int{!b.drops.empty()};
  const char* what = kinds != 1          ? "PARTITIONS"
                     : !b.adds.empty()   ? "ADD_PARTITION"
                     : !b.drops.empty()  ? "DROP_PARTITION"
                                         : "ALTER_PARTITION";
  std::optional<PartitionBatchResult> batch;
  Result<DdlOutcome> r = Run(
      caller, {"ALTER_TABLE", TableTarget(b.db, b.table) + " (" + what + ")"},
      [&]() -> Result<DdlOutcome> {
        Result<PartitionBatchResult> applied = ddl_->ApplyPartitionBatch(b);
        if (!applied.ok()) return applied.status();
        DdlOutcome o;
        o.version = applied->version;
        o.summary = "Added " + std::to_string(applied->added.size()) + ", altered " +
                    std::to_string(applied->altered.size()) + ", dropped " +
                    std::to_string(applied->dropped) + " partition(s) of " +
                    TableTarget(b.db, b.table) + ".";
        batch = std::move(applied).value();
        return o;
      });
  if (!r.ok()) return r.status();
  if (batch.has_value()) return std::move(*batch);
  PartitionBatchResult repeated;  // answered from the record
  repeated.version = r->version;
  return repeated;
}

}  // namespace ics::catalog::ops
