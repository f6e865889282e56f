#include "catalogd/service/impala_caller.h"

#include "common/util/unique_id.h"

namespace ics::catalog {

namespace {

using impala::TDdlType;

std::string NameOf(const impala::TTableName& t) { return t.db_name + "." + t.table_name; }

// The object a DDL request names ("" if none).
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
      if (c.__isset.column_name) {
        return NameOf(c.column_name.table_name) + "." + c.column_name.column_name;
      }
      if (c.__isset.table_name) return NameOf(c.table_name);
      return c.db;
    }
    default: return "";
  }
}

}  // namespace

ops::Caller ImpalaCaller(bool header_isset, const impala::TCatalogServiceRequestHeader& h) {
  ops::Caller c = ops::CallerOfCurrentRpc("CatalogService");
  if (!header_isset) return c;
  c.user = h.requesting_user;
  c.client = h.client_ip;
  c.via = h.coordinator_hostname;
  c.statement = h.redacted_sql_stmt;
  if (h.__isset.request_id) {
    c.request_id = PrintId(h.request_id);
    c.request_repeated = h.__isset.request_repeated && h.request_repeated;
  }
  return c;
}

ops::CommandLabel DdlLabel(const impala::TDdlExecRequest& req) {
  return {impala::to_string(req.ddl_type), DdlTarget(req)};
}

}  // namespace ics::catalog
