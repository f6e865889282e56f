#include "catalogd/service/impala_commands.h"

#include <functional>
#include <utility>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/service/impala_caller.h"
#include "common/hive/table_type.h"
#include "common/types/column_type.h"

namespace ics::catalog {

namespace {

using impala::TAlterTableType;
using impala::TDdlType;

// A refusal at the door: recorded as the core records commands, then
// returned.
using Refuse = std::function<Status(Status)>;

// Runs `run` on the translated command, or refuses the translation's error.
template <typename Cmd, typename Run>
Result<DdlOutcome> RunOrRefuse(const Refuse& refuse, Result<Cmd> cmd, Run run) {
  if (!cmd.ok()) return refuse(cmd.status());
  return run(*cmd);
}

// ---- names, columns, partition specs

// An Impala column as a metastore field: its type as Hive writes it. The
// core validates the name and the type string; a type that cannot be
// written (malformed) is refused here.
Result<hive::FieldSchema> FieldOf(const impala::TColumn& col) {
  Status valid = ValidateColumnType(col.columnType);
  if (!valid.ok()) {
    return Status::InvalidArgument("Invalid type of column '" + col.columnName +
                                   "': " + valid.message());
  }
  hive::FieldSchema f;
  f.name = col.columnName;
  f.type = TypeToString(col.columnType);
  if (col.__isset.comment) f.comment = col.comment;
  return f;
}

Result<std::vector<hive::FieldSchema>> FieldsOf(const std::vector<impala::TColumn>& cols) {
  std::vector<hive::FieldSchema> out;
  out.reserve(cols.size());
  for (const impala::TColumn& c : cols) {
    ICS_ASSIGN_OR_RETURN(hive::FieldSchema f, FieldOf(c));
    out.push_back(std::move(f));
  }
  return out;
}

PartitionSpec SpecOf(const std::vector<impala::TPartitionKeyValue>& spec) {
  PartitionSpec out;
  out.reserve(spec.size());
  for (const impala::TPartitionKeyValue& kv : spec) out.emplace_back(kv.name, kv.value);
  return out;
}

std::vector<PartitionSpec> SpecsOf(
    const std::vector<std::vector<impala::TPartitionKeyValue>>& set) {
  std::vector<PartitionSpec> out;
  out.reserve(set.size());
  for (const auto& spec : set) out.push_back(SpecOf(spec));
  return out;
}

// A partition set that is given (even empty) names the partitions to change.
template <typename Params>
std::optional<std::vector<PartitionSpec>> PartitionSetOf(const Params& p) {
  if (!p.__isset.partition_set) return std::nullopt;
  return SpecsOf(p.partition_set);
}

RowFormat RowFormatOf(const impala::TTableRowFormat& rf) {
  RowFormat out;
  if (rf.__isset.field_terminator) out.field_terminator = rf.field_terminator;
  if (rf.__isset.line_terminator) out.line_terminator = rf.line_terminator;
  if (rf.__isset.escaped_by) out.escaped_by = rf.escaped_by;
  return out;
}

SortBy SortByOf(const std::vector<std::string>& columns, impala::TSortingOrder::type order) {
  return SortBy{columns, order == impala::TSortingOrder::ZORDER};
}

// ---- databases, tables, views, functions

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

Result<CreateTableCommand> CreateTableCommandOf(const impala::TCreateTableParams& p) {
  if (p.__isset.cache_op && p.cache_op.set_cached) {
    return Status::NotImplemented("HDFS caching (CACHED IN) is not supported");
  }
  if (p.__isset.bucket_info && p.bucket_info.num_bucket > 0) {
    return Status::NotImplemented(
        "Bucketed tables (CLUSTERED BY ... INTO BUCKETS) are not supported");
  }
  CreateTableCommand c;
  hive::Table& hms = c.table;
  hms.dbName = p.table_name.db_name;
  hms.tableName = p.table_name.table_name;
  hms.owner = p.owner;
  ICS_ASSIGN_OR_RETURN(hms.sd.cols, FieldsOf(p.columns));
  if (p.__isset.partition_columns) {
    ICS_ASSIGN_OR_RETURN(hms.partitionKeys, FieldsOf(p.partition_columns));
  }
  if (p.__isset.location) hms.sd.location = p.location;
  c.file_format = p.file_format;
  hms.sd.compressed = false;
  hms.sd.numBuckets = -1;
  if (p.__isset.serde_properties) hms.sd.serdeInfo.parameters = p.serde_properties;
  if (p.__isset.row_format) c.row_format = RowFormatOf(p.row_format);
  if (p.__isset.table_properties) hms.parameters = p.table_properties;
  // Impala reserves these for COMPUTE INCREMENTAL STATS.
  RemoveStatsParams(&hms.parameters);
  if (p.__isset.comment) hms.parameters["comment"] = p.comment;
  if (p.is_external) hms.parameters["EXTERNAL"] = "TRUE";
  // TBLPROPERTIES ('EXTERNAL'='TRUE') makes a table external too, as in Hive.
  hms.tableType = IsExternal(hms) ? kExternalTable : kManagedTable;
  if (p.__isset.sort_columns) c.sort_by = SortByOf(p.sort_columns, p.sorting_order);
  c.if_not_exists = p.if_not_exists;
  return c;
}

CreateTableLikeCommand CreateTableLikeCommandOf(const impala::TCreateTableLikeParams& p) {
  CreateTableLikeCommand c;
  c.db = p.table_name.db_name;
  c.table = p.table_name.table_name;
  c.src_db = p.src_table_name.db_name;
  c.src_table = p.src_table_name.table_name;
  c.owner = p.owner;
  if (p.__isset.location) c.location = p.location;
  if (p.__isset.file_format) c.file_format = p.file_format;
  if (p.__isset.comment) c.comment = p.comment;
  c.external = p.is_external;
  if (p.__isset.sort_columns) c.sort_by = SortByOf(p.sort_columns, p.sorting_order);
  c.if_not_exists = p.if_not_exists;
  return c;
}

Result<CreateTableCommand> CreateViewCommandOf(const impala::TCreateOrAlterViewParams& p) {
  CreateTableCommand c;
  hive::Table& hms = c.table;
  hms.dbName = p.view_name.db_name;
  hms.tableName = p.view_name.table_name;
  hms.owner = p.owner;
  hms.tableType = kVirtualView;
  hms.viewOriginalText = p.original_view_def;
  hms.viewExpandedText = p.expanded_view_def;
  ICS_ASSIGN_OR_RETURN(hms.sd.cols, FieldsOf(p.columns));
  if (p.__isset.tblproperties) hms.parameters = p.tblproperties;
  if (p.__isset.comment) hms.parameters["comment"] = p.comment;
  c.if_not_exists = p.__isset.if_not_exists && p.if_not_exists;
  return c;
}

Result<AlterViewCommand> AlterViewCommandOf(const impala::TCreateOrAlterViewParams& p) {
  AlterViewCommand c;
  c.db = p.view_name.db_name;
  c.view = p.view_name.table_name;
  ICS_ASSIGN_OR_RETURN(c.columns, FieldsOf(p.columns));
  c.original_text = p.original_view_def;
  c.expanded_text = p.expanded_view_def;
  if (p.__isset.comment) c.comment = p.comment;
  if (p.__isset.tblproperties) c.properties = p.tblproperties;
  return c;
}

DropStatsCommand DropStatsCommandOf(const impala::TDropStatsParams& p) {
  DropStatsCommand c;
  c.db = p.table_name.db_name;
  c.table = p.table_name.table_name;
  c.partitions = PartitionSetOf(p);
  return c;
}

DropFunctionCommand DropFunctionCommandOf(const impala::TDropFunctionParams& p) {
  DropFunctionCommand c;
  if (p.fn_name.__isset.db_name) c.db = p.fn_name.db_name;
  c.name = p.fn_name.function_name;
  c.arg_types = p.arg_types;
  if (p.__isset.signature) c.signature = p.signature;
  c.if_exists = p.if_exists;
  return c;
}

Result<CommentOnCommand> CommentOnCommandOf(const impala::TCommentOnParams& p) {
  using Target = CommentOnCommand::Target;
  const int targets = int{p.__isset.db} + int{p.__isset.table_name} + int{p.__isset.column_name};
  if (targets != 1) {
    return Status::InvalidArgument("COMMENT ON needs exactly one of db, table_name, column_name");
  }
  CommentOnCommand c;
  if (p.__isset.db) {
    c.target = Target::kDatabase;
    c.db = p.db;
  } else if (p.__isset.table_name) {
    c.target = Target::kTable;
    c.db = p.table_name.db_name;
    c.table = p.table_name.table_name;
  } else {
    c.target = Target::kColumn;
    c.db = p.column_name.table_name.db_name;
    c.table = p.column_name.table_name.table_name;
    c.column = p.column_name.column_name;
  }
  if (p.__isset.comment) c.comment = p.comment;
  return c;
}

// ---- ALTER TABLE

// The alteration of a simple ALTER TABLE type; `missing` names an absent
// sub-struct.
Result<TableAlteration> AlterationOf(const impala::TAlterTableParams& p,
                                     const std::function<Status(const char*)>& missing) {
  switch (p.alter_type) {
    case TAlterTableType::ADD_COLUMNS: {
      if (!p.__isset.add_cols_params) return missing("add_cols_params");
      alter::AddColumns a;
      ICS_ASSIGN_OR_RETURN(a.columns, FieldsOf(p.add_cols_params.columns));
      a.if_not_exists = p.add_cols_params.if_not_exists;
      return TableAlteration(std::move(a));
    }
    case TAlterTableType::REPLACE_COLUMNS: {
      if (!p.__isset.replace_cols_params) return missing("replace_cols_params");
      alter::ReplaceColumns a;
      ICS_ASSIGN_OR_RETURN(a.columns, FieldsOf(p.replace_cols_params.columns));
      return TableAlteration(std::move(a));
    }
    case TAlterTableType::ALTER_COLUMN: {
      if (!p.__isset.alter_col_params) return missing("alter_col_params");
      alter::ChangeColumn a;
      a.column = p.alter_col_params.col_name;
      ICS_ASSIGN_OR_RETURN(a.definition, FieldOf(p.alter_col_params.new_col_def));
      a.keep_comment = !p.alter_col_params.new_col_def.__isset.comment;
      return TableAlteration(std::move(a));
    }
    case TAlterTableType::DROP_COLUMN:
      if (!p.__isset.drop_col_params) return missing("drop_col_params");
      return TableAlteration(alter::DropColumn{p.drop_col_params.col_name});
    case TAlterTableType::SET_FILE_FORMAT:
      if (!p.__isset.set_file_format_params) return missing("set_file_format_params");
      return TableAlteration(alter::SetFileFormat{p.set_file_format_params.file_format,
                                                  PartitionSetOf(p.set_file_format_params)});
    case TAlterTableType::SET_ROW_FORMAT:
      if (!p.__isset.set_row_format_params) return missing("set_row_format_params");
      return TableAlteration(alter::SetRowFormat{RowFormatOf(p.set_row_format_params.row_format),
                                                 PartitionSetOf(p.set_row_format_params)});
    case TAlterTableType::SET_LOCATION: {
      if (!p.__isset.set_location_params) return missing("set_location_params");
      const auto& f = p.set_location_params;
      alter::SetLocation a;
      a.location = f.location;
      if (f.__isset.partition_spec) a.partition = SpecOf(f.partition_spec);
      return TableAlteration(std::move(a));
    }
    case TAlterTableType::SET_TBL_PROPERTIES: {
      if (!p.__isset.set_tbl_properties_params) return missing("set_tbl_properties_params");
      const auto& f = p.set_tbl_properties_params;
      return TableAlteration(alter::SetProperties{
          f.target == impala::TTablePropertyType::SERDE_PROPERTY, f.properties, PartitionSetOf(f)});
    }
    case TAlterTableType::UNSET_TBL_PROPERTIES: {
      if (!p.__isset.unset_tbl_properties_params) return missing("unset_tbl_properties_params");
      const auto& f = p.unset_tbl_properties_params;
      return TableAlteration(
          alter::UnsetProperties{f.target == impala::TTablePropertyType::SERDE_PROPERTY,
                                 f.property_keys, f.if_exists, PartitionSetOf(f)});
    }
    case TAlterTableType::SET_VIEW_PROPERTIES:
      if (!p.__isset.set_tbl_properties_params) {
        return Status::InvalidArgument(
            "ALTER VIEW SET TBLPROPERTIES request without set_tbl_properties_params");
      }
      return TableAlteration(alter::SetViewProperties{p.set_tbl_properties_params.properties});
    case TAlterTableType::UNSET_VIEW_PROPERTIES:
      if (!p.__isset.unset_tbl_properties_params) {
        return Status::InvalidArgument(
            "ALTER VIEW UNSET TBLPROPERTIES request without unset_tbl_properties_params");
      }
      return TableAlteration(alter::UnsetViewProperties{p.unset_tbl_properties_params.property_keys,
                                                        p.unset_tbl_properties_params.if_exists});
    case TAlterTableType::SET_OWNER:
      if (!p.__isset.set_owner_params) return missing("set_owner_params");
      return TableAlteration(alter::SetOwner{p.set_owner_params.owner_name});
    default:
      return Status::NotImplemented("ALTER TABLE type " + impala::to_string(p.alter_type) +
                                    " is not supported");
  }
}

Result<DdlOutcome> ExecImpalaAlter(ops::CommandCore* core, const ops::Caller& caller,
                                   const impala::TAlterTableParams& p, const Refuse& refuse) {
  const std::string db = p.table_name.db_name;
  const std::string table = p.table_name.table_name;
  auto missing = [&](const char* field) {
    return Status::InvalidArgument("ALTER TABLE " + impala::to_string(p.alter_type) +
                                   " request without " + field);
  };
  switch (p.alter_type) {
    case TAlterTableType::RENAME_TABLE:
    case TAlterTableType::RENAME_VIEW: {
      if (!p.__isset.rename_params) return refuse(missing("rename_params"));
      RenameTableCommand c;
      c.db = db;
      c.table = table;
      c.new_db = p.rename_params.new_table_name.db_name;
      c.new_table = p.rename_params.new_table_name.table_name;
      c.kind = p.alter_type == TAlterTableType::RENAME_VIEW ? TableKind::kView : TableKind::kTable;
      return core->RenameTable(caller, c);
    }
    case TAlterTableType::ADD_PARTITION: {
      if (!p.__isset.add_partition_params) return refuse(missing("add_partition_params"));
      AddPartitionsCommand c;
      c.db = db;
      c.table = table;
      for (const impala::TPartitionDef& def : p.add_partition_params.partitions) {
        if (def.__isset.cache_op && def.cache_op.set_cached) {
          return refuse(Status::NotImplemented("HDFS caching (CACHED IN) is not supported"));
        }
        c.partitions.push_back(
            {SpecOf(def.partition_spec), def.__isset.location ? def.location : ""});
      }
      c.if_not_exists = p.add_partition_params.if_not_exists;
      return core->AddPartitions(caller, c);
    }
    case TAlterTableType::DROP_PARTITION: {
      if (!p.__isset.drop_partition_params) return refuse(missing("drop_partition_params"));
      DropPartitionsCommand c;
      c.db = db;
      c.table = table;
      c.partitions = SpecsOf(p.drop_partition_params.partition_set);
      c.if_exists = p.drop_partition_params.if_exists;
      return core->DropPartitions(caller, c);
    }
    case TAlterTableType::RECOVER_PARTITIONS:
      return core->RecoverPartitions(caller, RecoverPartitionsCommand{db, table});
    case TAlterTableType::UPDATE_STATS: {
      if (!p.__isset.update_stats_params) return refuse(missing("update_stats_params"));
      const auto& s = p.update_stats_params;
      UpdateStatsCommand c;
      c.db = db;
      c.table = table;
      if (s.__isset.table_stats) c.table_stats = s.table_stats;
      if (s.__isset.partition_stats) c.partition_stats = s.partition_stats;
      if (s.__isset.column_stats) c.column_stats = s.column_stats;
      return core->UpdateStats(caller, c);
    }
    case TAlterTableType::SET_CACHED:
      return refuse(Status::NotImplemented(
          "ALTER TABLE SET CACHED / UNCACHED is not supported: this catalog service has no HDFS "
          "cache"));
    case TAlterTableType::ADD_DROP_RANGE_PARTITION:
      return refuse(
          Status::NotImplemented("ALTER TABLE ADD/DROP RANGE PARTITION (Kudu) is not supported"));
    default:
      return RunOrRefuse(refuse, AlterationOf(p, missing), [&](const TableAlteration& a) {
        return core->AlterTableDefinition(caller, TableAlterationCommand{db, table, a});
      });
  }
}

}  // namespace

Result<DdlOutcome> ExecImpalaDdl(ops::CommandCore* core, const ops::Caller& caller,
                                 const impala::TDdlExecRequest& req) {
  const Refuse refuse = [&](Status s) {
    core->Refused(caller, DdlLabel(req), s);
    return s;
  };
  auto missing = [&](const char* field) {
    return refuse(
        Status::InvalidArgument(impala::to_string(req.ddl_type) + " request without " + field));
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
    case TDdlType::CREATE_TABLE:
    case TDdlType::CREATE_TABLE_AS_SELECT:
      // CTAS: the table; the coordinator inserts the rows afterwards.
      if (!req.__isset.create_table_params) return missing("create_table_params");
      return RunOrRefuse(refuse, CreateTableCommandOf(req.create_table_params),
                         [&](const CreateTableCommand& c) { return core->CreateTable(caller, c); });
    case TDdlType::CREATE_TABLE_LIKE:
      if (!req.__isset.create_table_like_params) return missing("create_table_like_params");
      return core->CreateTableLike(caller, CreateTableLikeCommandOf(req.create_table_like_params));
    case TDdlType::CREATE_VIEW:
      if (!req.__isset.create_view_params) return missing("create_view_params");
      return RunOrRefuse(refuse, CreateViewCommandOf(req.create_view_params),
                         [&](const CreateTableCommand& c) { return core->CreateTable(caller, c); });
    case TDdlType::ALTER_VIEW:
      if (!req.__isset.alter_view_params) return missing("alter_view_params");
      return RunOrRefuse(refuse, AlterViewCommandOf(req.alter_view_params),
                         [&](const AlterViewCommand& c) { return core->AlterView(caller, c); });
    case TDdlType::ALTER_TABLE:
      if (!req.__isset.alter_table_params) return missing("alter_table_params");
      return ExecImpalaAlter(core, caller, req.alter_table_params, refuse);
    case TDdlType::DROP_TABLE:
    case TDdlType::DROP_VIEW:
      if (!req.__isset.drop_table_or_view_params) return missing("drop_table_or_view_params");
      return core->DropTable(caller, DropTableCommandOf(req.drop_table_or_view_params,
                                                        req.ddl_type == TDdlType::DROP_VIEW));
    case TDdlType::TRUNCATE_TABLE:
      if (!req.__isset.truncate_params) return missing("truncate_params");
      return core->TruncateTable(caller, TruncateTableCommandOf(req.truncate_params));
    case TDdlType::DROP_STATS:
      if (!req.__isset.drop_stats_params) return missing("drop_stats_params");
      return core->DropStats(caller, DropStatsCommandOf(req.drop_stats_params));
    case TDdlType::CREATE_FUNCTION:
      if (!req.__isset.create_fn_params) return missing("create_fn_params");
      return core->CreateFunction(caller, CreateFunctionCommandOf(req.create_fn_params));
    case TDdlType::DROP_FUNCTION:
      if (!req.__isset.drop_fn_params) return missing("drop_fn_params");
      return core->DropFunction(caller, DropFunctionCommandOf(req.drop_fn_params));
    case TDdlType::COMMENT_ON:
      if (!req.__isset.comment_on_params) return missing("comment_on_params");
      return RunOrRefuse(refuse, CommentOnCommandOf(req.comment_on_params),
                         [&](const CommentOnCommand& c) { return core->CommentOn(caller, c); });
    case TDdlType::COMPUTE_STATS:
      return refuse(Status::NotImplemented(
          "DDL type COMPUTE_STATS is not supported: the coordinator computes the statistics "
          "and sends them as ALTER_TABLE UPDATE_STATS"));
    default:
      // Roles, privileges, data sources, COPY_TESTCASE and unknown types.
      return refuse(Status::NotImplemented("DDL type " + impala::to_string(req.ddl_type) +
                                           " is not supported by this catalog service"));
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
