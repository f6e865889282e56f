// DdlExecutor: each typed command to its operation in ddl_*.cc (see
// ddl_operations_internal.h), holding reset_mu_ shared.
#include "catalogd/ddl/ddl_executor.h"

#include "catalogd/ddl/ddl_operations_internal.h"

namespace ics::catalog {

template <typename Fn>
auto DdlExecutor::Shared(Fn&& fn) -> decltype(fn()) {
  ReaderLock reset(&reset_mu_);
  return fn();
}

Result<DdlOutcome> DdlExecutor::CreateDatabase(const CreateDatabaseCommand& c) {
  return Shared([&] { return ddl::CreateDatabase(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::DropDatabase(const DropDatabaseCommand& c) {
  return Shared([&] { return ddl::DropDatabase(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::AlterDatabase(const AlterDatabaseCommand& c) {
  return Shared([&] { return ddl::AlterDatabase(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::CreateTable(const CreateTableCommand& c) {
  return Shared([&] { return ddl::CreateTable(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::DropTable(const DropTableCommand& c) {
  return Shared([&] { return ddl::DropTable(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::TruncateTable(const TruncateTableCommand& c) {
  return Shared([&] { return ddl::TruncateTable(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::AlterTable(const AlterTableCommand& c) {
  return Shared([&] { return ddl::AlterTable(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::CreateTableLike(const CreateTableLikeCommand& c) {
  return Shared([&] { return ddl::CreateTableLike(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::AlterView(const AlterViewCommand& c) {
  return Shared([&] { return ddl::AlterView(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::RenameTable(const RenameTableCommand& c) {
  return Shared([&] { return ddl::RenameTable(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::AlterTableDefinition(const TableAlterationCommand& c) {
  return Shared([&] { return ddl::AlterTableDefinition(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::AddPartitions(const AddPartitionsCommand& c) {
  return Shared([&] { return ddl::AddPartitions(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::DropPartitions(const DropPartitionsCommand& c) {
  return Shared([&] { return ddl::DropPartitions(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::RecoverPartitions(const RecoverPartitionsCommand& c) {
  return Shared([&] { return ddl::RecoverPartitions(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::UpdateStats(const UpdateStatsCommand& c) {
  return Shared([&] { return ddl::UpdateStats(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::DropStats(const DropStatsCommand& c) {
  return Shared([&] { return ddl::DropStats(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::CommentOn(const CommentOnCommand& c) {
  return Shared([&] { return ddl::CommentOn(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::Insert(const InsertCommand& c) {
  return Shared([&] { return ddl::Insert(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::CreateFunction(const CreateFunctionCommand& c) {
  return Shared([&] { return ddl::CreateFunction(ctx_, c); });
}
Result<DdlOutcome> DdlExecutor::DropFunction(const DropFunctionCommand& c) {
  return Shared([&] { return ddl::DropFunction(ctx_, c); });
}

Result<PartitionBatchResult> DdlExecutor::ApplyPartitionBatch(const PartitionBatch& batch) {
  ReaderLock reset(&reset_mu_);
  return ddl::ApplyPartitionBatch(ctx_, batch);
}

Result<DdlOutcome> DdlExecutor::ChangeTable(const TableChange& change) {
  ReaderLock reset(&reset_mu_);
  return ddl::ChangeTable(ctx_, change);
}

Result<DdlOutcome> DdlExecutor::Reset(const ResetCommand& c) {
  using Kind = ResetCommand::Kind;
  switch (c.kind) {
    case Kind::kRefreshTable: {
      if (c.table.empty()) {
        return Status::InvalidArgument(
            "REFRESH needs a table (or a database for REFRESH FUNCTIONS)");
      }
      ReaderLock reset(&reset_mu_);
      return ddl::RefreshTable(ctx_, c);
    }
    case Kind::kInvalidateTable: {
      ICS_ASSIGN_OR_RETURN(ddl::TableRef t, ddl::NormalizeTableRef(c.db, c.table));
      if (!c.partitions.empty()) {
        return Status::InvalidArgument(
            "INVALIDATE METADATA does not take a partition; use REFRESH for partition " + t.full());
      }
      ReaderLock reset(&reset_mu_);
      return ddl::InvalidateTable(ctx_, t);
    }
    case Kind::kInvalidateDatabase: {
      ReaderLock reset(&reset_mu_);
      return ddl::InvalidateDatabase(ctx_, c.db);
    }
    case Kind::kInvalidateAll: {
      WriterLock reset(&reset_mu_);
      return ddl::InvalidateAll(ctx_);
    }
    case Kind::kRefreshAuthorization:
      return Status::NotImplemented(
          "REFRESH AUTHORIZATION is not supported: this catalog service has no authorization "
          "metadata");
  }
  return Status::InvalidArgument("unknown kind of metadata reset");
}

}  // namespace ics::catalog
