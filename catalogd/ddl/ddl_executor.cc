// DdlExecutor: request validation and dispatch to the operations in
// ddl_*.cc (see ddl_operations_internal.h).
#include "catalogd/ddl/ddl_executor.h"

#include "catalogd/ddl/ddl_operations_internal.h"

namespace ics::catalog {

namespace {

using impala::TDdlType;

Status MissingParams(TDdlType::type type, const char* field) {
  return Status::InvalidArgument(impala::to_string(type) + " request without " + field);
}

Status Unsupported(TDdlType::type type) {
  return Status::NotImplemented("DDL type " + impala::to_string(type) +
                                " is not supported by this catalog service");
}

}  // namespace

Result<DdlOutcome> DdlExecutor::ExecDdl(const impala::TDdlExecRequest& req) {
  ReaderLock reset(&reset_mu_);
  const TDdlType::type type = req.ddl_type;
#define ICS_REQUIRE_PARAMS(field) \
  if (!req.__isset.field) return MissingParams(type, #field)
  switch (type) {
    case TDdlType::CREATE_TABLE:
      ICS_REQUIRE_PARAMS(create_table_params);
      return ddl::CreateTable(ctx_, req.create_table_params);
    case TDdlType::CREATE_TABLE_AS_SELECT:
      // The table part of CTAS; the coordinator inserts the rows afterwards.
      ICS_REQUIRE_PARAMS(create_table_params);
      return ddl::CreateTable(ctx_, req.create_table_params);
    case TDdlType::CREATE_TABLE_LIKE:
      ICS_REQUIRE_PARAMS(create_table_like_params);
      return ddl::CreateTableLike(ctx_, req.create_table_like_params);
    case TDdlType::CREATE_VIEW:
      ICS_REQUIRE_PARAMS(create_view_params);
      return ddl::CreateView(ctx_, req.create_view_params);
    case TDdlType::ALTER_VIEW:
      ICS_REQUIRE_PARAMS(alter_view_params);
      return ddl::AlterView(ctx_, req.alter_view_params);
    case TDdlType::ALTER_TABLE:
      ICS_REQUIRE_PARAMS(alter_table_params);
      return ddl::AlterTable(ctx_, req.alter_table_params);
    case TDdlType::DROP_STATS:
      ICS_REQUIRE_PARAMS(drop_stats_params);
      return ddl::DropStats(ctx_, req.drop_stats_params);
    case TDdlType::DROP_FUNCTION:
      ICS_REQUIRE_PARAMS(drop_fn_params);
      return ddl::DropFunction(ctx_, req.drop_fn_params);
    case TDdlType::COMMENT_ON:
      ICS_REQUIRE_PARAMS(comment_on_params);
      return ddl::CommentOn(ctx_, req.comment_on_params);
    case TDdlType::COMPUTE_STATS:
      return Status::NotImplemented(
          "DDL type COMPUTE_STATS is not supported: the coordinator computes the statistics "
          "and sends them as ALTER_TABLE UPDATE_STATS");
    case TDdlType::CREATE_DATABASE:
    case TDdlType::DROP_DATABASE:
    case TDdlType::ALTER_DATABASE:
    case TDdlType::DROP_TABLE:
    case TDdlType::DROP_VIEW:
    case TDdlType::TRUNCATE_TABLE:
    case TDdlType::CREATE_FUNCTION:
      // Typed commands: the CatalogService door translates these
      // (catalogd/service/impala_caller.h, ExecImpalaDdl).
      return Status::InvalidArgument(impala::to_string(type) +
                                     " is a typed command; send it through the command core");
    default:
      // Roles, privileges, data sources, COPY_TESTCASE and unknown types.
      return Unsupported(type);
  }
#undef ICS_REQUIRE_PARAMS
}

Result<DdlOutcome> DdlExecutor::Insert(const InsertCommand& c) {
  ReaderLock reset(&reset_mu_);
  return ddl::Insert(ctx_, c);
}

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
