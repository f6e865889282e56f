// DdlExecutor: request validation and dispatch to the operations in
// ddl_*.cc (see ddl_internal.h).
#include "catalogd/ddl/ddl_executor.h"

#include "catalogd/metastore/request_recording_metastore.h"

#include "catalogd/ddl/ddl_internal.h"
#include "common/rpc/peer.h"
#include "common/util/operation_log.h"
#include "common/util/unique_id.h"

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

// ---- the operation log (CatalogContext::operations) ----

std::string NameOf(const impala::TTableName& t) { return t.db_name + "." + t.table_name; }

// The object a DDL request names, for the operation log ("" if none).
std::string DdlTarget(const impala::TDdlExecRequest& req) {
  switch (req.ddl_type) {
    case TDdlType::CREATE_DATABASE: return req.create_db_params.db;
    case TDdlType::DROP_DATABASE: return req.drop_db_params.db;
    case TDdlType::ALTER_DATABASE: return req.alter_db_params.db;
    case TDdlType::CREATE_TABLE:
    case TDdlType::CREATE_TABLE_AS_SELECT: return NameOf(req.create_table_params.table_name);
    case TDdlType::CREATE_TABLE_LIKE: return NameOf(req.create_table_like_params.table_name);
    case TDdlType::CREATE_VIEW: return NameOf(req.create_view_params.view_name);
    case TDdlType::ALTER_VIEW: return NameOf(req.alter_view_params.view_name);
    case TDdlType::DROP_TABLE:
    case TDdlType::DROP_VIEW: return NameOf(req.drop_table_or_view_params.table_name);
    case TDdlType::TRUNCATE_TABLE: return NameOf(req.truncate_params.table_name);
    case TDdlType::ALTER_TABLE:
      return NameOf(req.alter_table_params.table_name) + " (" +
             impala::to_string(req.alter_table_params.alter_type) + ")";
    case TDdlType::DROP_STATS: return NameOf(req.drop_stats_params.table_name);
    case TDdlType::CREATE_FUNCTION:
      return req.create_fn_params.fn.name.db_name + "." +
             req.create_fn_params.fn.name.function_name;
    case TDdlType::DROP_FUNCTION:
      return req.drop_fn_params.fn_name.db_name + "." + req.drop_fn_params.fn_name.function_name;
    case TDdlType::COMMENT_ON: {
      const auto& c = req.comment_on_params;
      if (c.__isset.column_name) return NameOf(c.column_name.table_name) + "." + c.column_name.column_name;
      if (c.__isset.table_name) return NameOf(c.table_name);
      return c.db;
    }
    default: return "";
  }
}

// "user@client (statement)" from a request header, for the operation log.
std::string Requester(bool isset, const impala::TCatalogServiceRequestHeader& h) {
  if (!isset) return "";
  std::string out = h.requesting_user;
  if (!h.client_ip.empty()) out += "@" + h.client_ip;
  if (!h.coordinator_hostname.empty()) out += (out.empty() ? "" : " ") + std::string("via ") + h.coordinator_hostname;
  if (!h.redacted_sql_stmt.empty()) out += (out.empty() ? "" : ": ") + h.redacted_sql_stmt;
  return out;
}

Result<DdlOutcome> Logged(ScopedOperation* op, Result<DdlOutcome> r) {
  if (r.ok()) {
    op->End(Status::OK(), r->summary, r->version);
  } else {
    op->End(r.status());
  }
  return r;
}

}  // namespace

Result<DdlOutcome> DdlExecutor::ExecDdl(const impala::TDdlExecRequest& req) {
  ScopedOperation op(ctx_->operations, impala::to_string(req.ddl_type), DdlTarget(req),
                     Requester(req.__isset.header, req.header), CurrentOrigin());
  if (!(req.__isset.header && req.header.__isset.request_id)) return Logged(&op, RunDdl(req));
  // Exactly once (request_recording_metastore.h): a repeat of a request
  // that was carried out is answered from the record.
  const std::string id = PrintId(req.header.request_id);
  if (req.header.__isset.request_repeated && req.header.request_repeated) {
    Result<std::optional<RecordedRequest>> seen = ctx_->metastore->LookupRequest(id);
    if (!seen.ok() && !seen.status().Is(ErrorCode::kNotImplemented)) {
      return Logged(&op, seen.status());
    }
    if (seen.ok() && seen->has_value()) return Logged(&op, Repeated(**seen));
  }
  RequestScope scope(id, impala::to_string(req.ddl_type) + " " + DdlTarget(req));
  Result<DdlOutcome> r = RunDdl(req);
  if (!r.ok() && scope.repeated()) {
    return Logged(&op, Repeated(RecordedRequest{id, scope.summary(), 0}));
  }
  return Logged(&op, std::move(r));
}

DdlOutcome DdlExecutor::Repeated(const RecordedRequest& seen) const {
  DdlOutcome o;
  // The change is in the catalog at or below its current version: a
  // SYNC_DDL repeat waits for the coordinators to hold that.
  o.version = ctx_->catalog->version();
  o.summary = "Request " + seen.request_id + " was carried out before (" + seen.summary +
              "); not repeated.";
  return o;
}

Result<DdlOutcome> DdlExecutor::RunDdl(const impala::TDdlExecRequest& req) {
  ReaderLock reset(&reset_mu_);
  const TDdlType::type type = req.ddl_type;
#define ICS_REQUIRE_PARAMS(field) \
  if (!req.__isset.field) return MissingParams(type, #field)
  switch (type) {
    case TDdlType::CREATE_DATABASE:
      ICS_REQUIRE_PARAMS(create_db_params);
      return ddl::CreateDatabase(ctx_, req.create_db_params);
    case TDdlType::DROP_DATABASE:
      ICS_REQUIRE_PARAMS(drop_db_params);
      return ddl::DropDatabase(ctx_, req.drop_db_params);
    case TDdlType::ALTER_DATABASE:
      ICS_REQUIRE_PARAMS(alter_db_params);
      return ddl::AlterDatabase(ctx_, req.alter_db_params);
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
    case TDdlType::DROP_TABLE:
    case TDdlType::DROP_VIEW:
      ICS_REQUIRE_PARAMS(drop_table_or_view_params);
      return ddl::DropTableOrView(ctx_, req.drop_table_or_view_params, type == TDdlType::DROP_VIEW);
    case TDdlType::TRUNCATE_TABLE:
      ICS_REQUIRE_PARAMS(truncate_params);
      return ddl::TruncateTable(ctx_, req.truncate_params);
    case TDdlType::ALTER_TABLE:
      ICS_REQUIRE_PARAMS(alter_table_params);
      return ddl::AlterTable(ctx_, req.alter_table_params);
    case TDdlType::DROP_STATS:
      ICS_REQUIRE_PARAMS(drop_stats_params);
      return ddl::DropStats(ctx_, req.drop_stats_params);
    case TDdlType::CREATE_FUNCTION:
      ICS_REQUIRE_PARAMS(create_fn_params);
      return ddl::CreateFunction(ctx_, req.create_fn_params);
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
    default:
      // Roles, privileges, data sources, COPY_TESTCASE and unknown types.
      return Unsupported(type);
  }
#undef ICS_REQUIRE_PARAMS
}

Result<DdlOutcome> DdlExecutor::UpdateCatalog(const impala::TUpdateCatalogRequest& req) {
  ScopedOperation op(ctx_->operations, "UPDATE_CATALOG", req.db_name + "." + req.target_table,
                     Requester(req.__isset.header, req.header), CurrentOrigin());
  ReaderLock reset(&reset_mu_);
  return Logged(&op, ddl::UpdateCatalog(ctx_, req));
}

Result<PartitionBatchResult> DdlExecutor::ApplyPartitionBatch(const PartitionBatch& batch) {
  ReaderLock reset(&reset_mu_);
  return ddl::ApplyPartitionBatch(ctx_, batch);
}

Result<DdlOutcome> DdlExecutor::ChangeTable(const TableChange& change) {
  ReaderLock reset(&reset_mu_);
  return ddl::ChangeTable(ctx_, change);
}

Result<DdlOutcome> DdlExecutor::ResetMetadata(const impala::TResetMetadataRequest& req) {
  std::string target = req.__isset.table_name ? NameOf(req.table_name) : req.db_name;
  ScopedOperation op(ctx_->operations, req.is_refresh ? "REFRESH" : "INVALIDATE_METADATA",
                     target.empty() ? "(all)" : target, Requester(req.__isset.header, req.header),
                     CurrentOrigin());
  return Logged(&op, RunReset(req));
}

Result<DdlOutcome> DdlExecutor::RunReset(const impala::TResetMetadataRequest& req) {
  if (req.__isset.authorization && req.authorization) {
    return Status::NotImplemented(
        "REFRESH AUTHORIZATION is not supported: this catalog "
        "service has no authorization metadata");
  }
  if (req.__isset.table_name) {
    ReaderLock reset(&reset_mu_);
    if (req.is_refresh) return ddl::RefreshTable(ctx_, req);
    ICS_ASSIGN_OR_RETURN(ddl::TableRef t, ddl::NormalizeTableRef(req.table_name));
    if (ddl::NamesPartitions(req)) {
      return Status::InvalidArgument(
          "INVALIDATE METADATA does not take a partition; use "
          "REFRESH for partition " +
          t.full());
    }
    return ddl::InvalidateTable(ctx_, t);
  }
  if (req.__isset.db_name && !req.db_name.empty()) {
    ReaderLock reset(&reset_mu_);
    return ddl::InvalidateDatabase(ctx_, req.db_name);
  }
  if (req.is_refresh) {
    return Status::InvalidArgument("REFRESH needs a table (or a database for REFRESH FUNCTIONS)");
  }
  WriterLock reset(&reset_mu_);
  return ddl::InvalidateAll(ctx_);
}

}  // namespace ics::catalog
