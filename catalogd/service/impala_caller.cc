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

namespace {

CreateDatabaseCommand CreateDatabaseCommandOf(const impala::TCreateDbParams& p) {
  CreateDatabaseCommand c;
  c.db.name = p.db;
  if (p.__isset.comment) c.db.description = p.comment;
  if (p.__isset.location) c.db.locationUri = p.location;
  if (p.__isset.properties) c.db.parameters = p.properties;
  if (!p.owner.empty()) c.db.__set_ownerName(p.owner);
  c.if_not_exists = p.__isset.if_not_exists && p.if_not_exists;
  return c;
}

DropDatabaseCommand DropDatabaseCommandOf(const impala::TDropDbParams& p) {
  DropDatabaseCommand c;
  c.name = p.db;
  c.if_exists = p.if_exists;
  c.cascade = p.cascade;
  return c;
}

// ALTER DATABASE SET OWNER / SET DBPROPERTIES as an edit of the current
// object (the patch runs under the database's lock); `p` outlives it.
AlterDatabaseCommand AlterDatabaseCommandOf(const impala::TAlterDbParams& p) {
  AlterDatabaseCommand c;
  c.name = p.db;
  c.patch = [&p](hive::Database* hms) -> Status {
    switch (p.alter_type) {
      case impala::TAlterDbType::SET_OWNER:
        if (!p.__isset.set_owner_params) {
          return Status::InvalidArgument("ALTER DATABASE SET OWNER without set_owner_params");
        }
        if (p.set_owner_params.owner_name.empty()) {
          return Status::InvalidArgument("ALTER DATABASE SET OWNER: the owner name is empty");
        }
        hms->__set_ownerName(p.set_owner_params.owner_name);
        hms->__set_ownerType(p.set_owner_params.owner_type == impala::TOwnerType::ROLE
                                 ? hive::PrincipalType::ROLE
                                 : hive::PrincipalType::USER);
        return Status::OK();
      case impala::TAlterDbType::SET_DBPROPERTIES:
        if (!p.__isset.set_dbproperties_params) {
          return Status::InvalidArgument(
              "ALTER DATABASE SET DBPROPERTIES without set_dbproperties_params");
        }
        for (const auto& [k, v] : p.set_dbproperties_params.properties) hms->parameters[k] = v;
        return Status::OK();
      default:
        return Status::NotImplemented("ALTER DATABASE type " + impala::to_string(p.alter_type) +
                                      " is not supported");
    }
  };
  return c;
}

DropTableCommand DropTableCommandOf(const impala::TDropTableOrViewParams& p, bool is_view_stmt) {
  DropTableCommand c;
  c.db = p.table_name.db_name;
  c.table = p.table_name.table_name;
  const bool want_view = is_view_stmt || (p.__isset.is_table && !p.is_table);
  c.kind = want_view ? DropTableCommand::Kind::kView : DropTableCommand::Kind::kTable;
  c.if_exists = p.if_exists;
  return c;
}

TruncateTableCommand TruncateTableCommandOf(const impala::TTruncateParams& p) {
  TruncateTableCommand c;
  c.db = p.table_name.db_name;
  c.table = p.table_name.table_name;
  c.if_exists = p.if_exists;
  c.delete_stats = p.delete_stats;  // the IDL's default is true
  return c;
}

CreateFunctionCommand CreateFunctionCommandOf(const impala::TCreateFunctionParams& p) {
  CreateFunctionCommand c;
  c.fn = p.fn;
  c.if_not_exists = p.__isset.if_not_exists && p.if_not_exists;
  return c;
}

}  // namespace

Result<DdlOutcome> ExecImpalaDdl(ops::CommandCore* core, const ops::Caller& caller,
                                 const impala::TDdlExecRequest& req) {
  // A typed type without its params is refused here, recorded as the core
  // records commands.
  auto missing = [&](const char* field) -> Status {
    Status s =
        Status::InvalidArgument(impala::to_string(req.ddl_type) + " request without " + field);
    core->Refused(caller, DdlLabel(req), s);
    return s;
  };
  switch (req.ddl_type) {
    case TDdlType::CREATE_DATABASE:
      if (!req.__isset.create_db_params) return missing("create_db_params");
      return core->CreateDatabase(caller, CreateDatabaseCommandOf(req.create_db_params));
    case TDdlType::DROP_DATABASE:
      if (!req.__isset.drop_db_params) return missing("drop_db_params");
      return core->DropDatabase(caller, DropDatabaseCommandOf(req.drop_db_params));
    case TDdlType::ALTER_DATABASE:
      if (!req.__isset.alter_db_params) return missing("alter_db_params");
      return core->AlterDatabase(caller, AlterDatabaseCommandOf(req.alter_db_params));
    case TDdlType::DROP_TABLE:
    case TDdlType::DROP_VIEW:
      if (!req.__isset.drop_table_or_view_params) return missing("drop_table_or_view_params");
      return core->DropTable(caller, DropTableCommandOf(req.drop_table_or_view_params,
                                                        req.ddl_type == TDdlType::DROP_VIEW));
    case TDdlType::TRUNCATE_TABLE:
      if (!req.__isset.truncate_params) return missing("truncate_params");
      return core->TruncateTable(caller, TruncateTableCommandOf(req.truncate_params));
    case TDdlType::CREATE_FUNCTION:
      if (!req.__isset.create_fn_params) return missing("create_fn_params");
      return core->CreateFunction(caller, CreateFunctionCommandOf(req.create_fn_params));
    default:
      return core->Run(caller, DdlLabel(req), [&] { return core->executor()->ExecDdl(req); });
  }
}

InsertCommand InsertCommandOf(const impala::TUpdateCatalogRequest& req) {
  InsertCommand c;
  c.db = req.db_name;
  c.table = req.target_table;
  for (const auto& [name, updated] : req.updated_partitions) {
    c.files_by_partition[name] = updated.files;
  }
  c.overwrite = req.is_overwrite;
  return c;
}

ResetCommand ResetCommandOf(const impala::TResetMetadataRequest& req) {
  using Kind = ResetCommand::Kind;
  ResetCommand c;
  if (req.__isset.authorization && req.authorization) {
    c.kind = Kind::kRefreshAuthorization;
  } else if (req.__isset.table_name) {
    c.kind = req.is_refresh ? Kind::kRefreshTable : Kind::kInvalidateTable;
    c.db = req.table_name.db_name;
    c.table = req.table_name.table_name;
    auto add = [&c](const std::vector<impala::TPartitionKeyValue>& spec) {
      if (spec.empty()) return;
      PartitionSpec& out = c.partitions.emplace_back();
      for (const impala::TPartitionKeyValue& kv : spec) out.emplace_back(kv.name, kv.value);
    };
    if (req.__isset.partition_spec_list) {
      for (const auto& spec : req.partition_spec_list) add(spec);
    }
    if (req.__isset.partition_spec) add(req.partition_spec);
  } else if (req.__isset.db_name && !req.db_name.empty()) {
    c.kind = Kind::kInvalidateDatabase;
    c.db = req.db_name;
  } else {
    c.kind = req.is_refresh ? Kind::kRefreshTable : Kind::kInvalidateAll;
  }
  return c;
}

}  // namespace ics::catalog
