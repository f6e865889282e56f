// ALTER TABLE in all its forms: each becomes one ALTER_TABLE TDdlExecRequest
// with the TAlterTableParams sub-struct of its alter type.
#include <set>

#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

using AT = impala::TAlterTableType;

Status CheckPartitionExists(const LocalTable& t, const std::vector<impala::TPartitionKeyValue>& spec) {
  if (MatchingPartitionIds(t, spec).empty()) {
    return AnalysisError("Partition spec does not exist: " + SpecToString(spec));
  }
  return Status::OK();
}

// A PARTITION clause that must name existing partitions (a partial spec
// selects every partition it matches).
Result<std::vector<std::vector<impala::TPartitionKeyValue>>> ExistingPartitionSet(
    const LocalTable& t, const sql::PartitionSpec& spec) {
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> kvs,
                       ToPartitionKeyValues(t, spec, /*require_full=*/false));
  ICS_RETURN_IF_ERROR(CheckPartitionExists(t, kvs));
  return std::vector<std::vector<impala::TPartitionKeyValue>>{kvs};
}

// New columns must not clash with partition columns (nor, unless allowed,
// with existing data columns).
Status CheckNewColumns(const LocalTable& t, const std::vector<sql::ColumnDef>& cols,
                       bool allow_existing_data_columns) {
  for (const sql::ColumnDef& c : cols) {
    if (IsPartitionColumn(t, c.name)) {
      return AnalysisError("Column name conflicts with existing partition column: " + c.name);
    }
    if (!allow_existing_data_columns && FindColumn(t, c.name) != nullptr) {
      return AnalysisError("Column already exists: " + c.name);
    }
  }
  return Status::OK();
}

Result<StatementResult> AddPartitions(const ExecContext& ctx, const LocalTable& t,
                                      const sql::AlterTableAddPartitionsStmt& s) {
  auto req = AlterTableRequest(t, AT::ADD_PARTITION);
  impala::TAlterTableAddPartitionParams p;
  p.if_not_exists = s.if_not_exists;
  for (const sql::PartitionDef& def : s.partitions) {
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> kvs,
                         ToPartitionKeyValues(t, def.spec, /*require_full=*/true));
    if (!s.if_not_exists && !MatchingPartitionIds(t, kvs).empty()) {
      return AnalysisError("Partition spec already exists: " + SpecToString(kvs));
    }
    impala::TPartitionDef d;
    d.partition_spec = std::move(kvs);
    if (def.location) d.__set_location(*def.location);
    p.partitions.push_back(std::move(d));
  }
  req.alter_table_params.__set_add_partition_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> DropPartitions(const ExecContext& ctx, const LocalTable& t,
                                       const sql::AlterTableDropPartitionsStmt& s) {
  auto req = AlterTableRequest(t, AT::DROP_PARTITION);
  impala::TAlterTableDropPartitionParams p;
  p.if_exists = s.if_exists;
  p.purge = s.purge;
  for (const sql::PartitionSpec& spec : s.partitions) {
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> kvs,
                         ToPartitionKeyValues(t, spec, /*require_full=*/false));
    if (!s.if_exists) ICS_RETURN_IF_ERROR(CheckPartitionExists(t, kvs));
    p.partition_set.push_back(std::move(kvs));
  }
  req.alter_table_params.__set_drop_partition_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> AlterOnTable(const ExecContext& ctx, const LocalTable& t,
                                     const sql::Statement& stmt) {
  using K = sql::StatementKind;
  switch (stmt.kind) {
    case K::kAlterTableAddPartitions:
      return AddPartitions(ctx, t, *stmt.As<sql::AlterTableAddPartitionsStmt>());
    case K::kAlterTableDropPartitions:
      return DropPartitions(ctx, t, *stmt.As<sql::AlterTableDropPartitionsStmt>());
    case K::kAlterTableAddColumns: {
      const auto& s = *stmt.As<sql::AlterTableAddColumnsStmt>();
      ICS_RETURN_IF_ERROR(CheckNewColumns(t, s.columns, s.if_not_exists));
      auto req = AlterTableRequest(t, AT::ADD_COLUMNS);
      impala::TAlterTableAddColsParams p;
      ICS_ASSIGN_OR_RETURN(std::vector<impala::TColumn> cols, ToTColumns(s.columns));
      p.__set_columns(std::move(cols));
      p.if_not_exists = s.if_not_exists;
      req.alter_table_params.__set_add_cols_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableReplaceColumns: {
      const auto& s = *stmt.As<sql::AlterTableReplaceColumnsStmt>();
      ICS_RETURN_IF_ERROR(CheckNewColumns(t, s.columns, true));
      auto req = AlterTableRequest(t, AT::REPLACE_COLUMNS);
      impala::TAlterTableReplaceColsParams p;
      ICS_ASSIGN_OR_RETURN(p.columns, ToTColumns(s.columns));
      req.alter_table_params.__set_replace_cols_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableDropColumn: {
      const auto& s = *stmt.As<sql::AlterTableDropColumnStmt>();
      if (IsPartitionColumn(t, s.column)) {
        return AnalysisError("Cannot drop partition column: " + s.column);
      }
      if (FindColumn(t, s.column) == nullptr) return ColumnNotFound(s.column, t);
      if (t.columns.size() == 1) {
        return AnalysisError("Cannot drop column '" + s.column + "' from " + FullName(t) +
                             ". Tables must contain at least 1 column.");
      }
      auto req = AlterTableRequest(t, AT::DROP_COLUMN);
      impala::TAlterTableDropColParams p;
      p.col_name = s.column;
      req.alter_table_params.__set_drop_col_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableChangeColumn: {
      const auto& s = *stmt.As<sql::AlterTableChangeColumnStmt>();
      if (IsPartitionColumn(t, s.old_name)) {
        return AnalysisError("Cannot modify partition column: " + s.old_name);
      }
      if (FindColumn(t, s.old_name) == nullptr) return ColumnNotFound(s.old_name, t);
      if (s.new_column.name != s.old_name && FindColumn(t, s.new_column.name) != nullptr) {
        return AnalysisError("Column already exists: " + s.new_column.name);
      }
      auto req = AlterTableRequest(t, AT::ALTER_COLUMN);
      impala::TAlterTableAlterColParams p;
      p.col_name = s.old_name;
      ICS_ASSIGN_OR_RETURN(std::vector<impala::TColumn> cols, ToTColumns({s.new_column}));
      p.new_col_def = std::move(cols[0]);
      req.alter_table_params.__set_alter_col_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableSetTblProperties: {
      const auto& s = *stmt.As<sql::AlterTableSetTblPropertiesStmt>();
      auto req = AlterTableRequest(t, AT::SET_TBL_PROPERTIES);
      impala::TAlterTableSetTblPropertiesParams p;
      p.target = impala::TTablePropertyType::TBL_PROPERTY;
      p.properties = std::map<std::string, std::string>(s.properties.begin(), s.properties.end());
      if (s.partition) {
        ICS_ASSIGN_OR_RETURN(auto set, ExistingPartitionSet(t, *s.partition));
        p.__set_partition_set(std::move(set));
      }
      req.alter_table_params.__set_set_tbl_properties_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableUnsetTblProperties: {
      const auto& s = *stmt.As<sql::AlterTableUnsetTblPropertiesStmt>();
      if (!s.if_exists) {
        for (const std::string& k : s.keys) {
          if (t.hms.parameters.count(k) == 0) {
            return AnalysisError("Table property '" + k + "' does not exist in " + FullName(t) +
                                 " (use UNSET TBLPROPERTIES IF EXISTS)");
          }
        }
      }
      auto req = AlterTableRequest(t, AT::UNSET_TBL_PROPERTIES);
      impala::TAlterTableUnSetTblPropertiesParams p;
      p.target = impala::TTablePropertyType::TBL_PROPERTY;
      p.property_keys = s.keys;
      p.if_exists = s.if_exists;
      req.alter_table_params.__set_unset_tbl_properties_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableSetLocation: {
      const auto& s = *stmt.As<sql::AlterTableSetLocationStmt>();
      auto req = AlterTableRequest(t, AT::SET_LOCATION);
      impala::TAlterTableSetLocationParams p;
      p.location = s.location;
      if (s.partition) {
        ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> kvs,
                             ToPartitionKeyValues(t, *s.partition, /*require_full=*/true));
        ICS_RETURN_IF_ERROR(CheckPartitionExists(t, kvs));
        p.__set_partition_spec(std::move(kvs));
      }
      req.alter_table_params.__set_set_location_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableSetFileFormat: {
      const auto& s = *stmt.As<sql::AlterTableSetFileFormatStmt>();
      auto req = AlterTableRequest(t, AT::SET_FILE_FORMAT);
      impala::TAlterTableSetFileFormatParams p;
      p.file_format = ToThriftFormat(s.file_format);
      if (p.file_format == impala::THdfsFileFormat::KUDU ||
          p.file_format == impala::THdfsFileFormat::ICEBERG) {
        return AnalysisError("ALTER TABLE SET FILEFORMAT " + FileFormatSqlName(p.file_format) +
                             " is not supported");
      }
      if (s.partition) {
        ICS_ASSIGN_OR_RETURN(auto set, ExistingPartitionSet(t, *s.partition));
        p.__set_partition_set(std::move(set));
      }
      req.alter_table_params.__set_set_file_format_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableSetOwner: {
      const auto& s = *stmt.As<sql::AlterTableSetOwnerStmt>();
      auto req = AlterTableRequest(t, AT::SET_OWNER);
      impala::TAlterTableOrViewSetOwnerParams p;
      p.owner_type = s.owner.type == sql::PrincipalType::kRole ? impala::TOwnerType::ROLE
                                                               : impala::TOwnerType::USER;
      p.owner_name = s.owner.name;
      req.alter_table_params.__set_set_owner_params(p);
      return RunDdl(ctx, std::move(req));
    }
    case K::kAlterTableRecoverPartitions: {
      if (t.clustering_columns.empty()) {
        return AnalysisError("Table is not partitioned: " + FullName(t));
      }
      return RunDdl(ctx, AlterTableRequest(t, AT::RECOVER_PARTITIONS));
    }
    default:
      return Status::Internal("not an ALTER TABLE statement: " +
                              std::string(sql::StatementKindName(stmt.kind)));
  }
}

const sql::TableName& TableOf(const sql::Statement& stmt) {
  using K = sql::StatementKind;
  switch (stmt.kind) {
    case K::kAlterTableAddPartitions: return stmt.As<sql::AlterTableAddPartitionsStmt>()->table;
    case K::kAlterTableDropPartitions: return stmt.As<sql::AlterTableDropPartitionsStmt>()->table;
    case K::kAlterTableAddColumns: return stmt.As<sql::AlterTableAddColumnsStmt>()->table;
    case K::kAlterTableReplaceColumns: return stmt.As<sql::AlterTableReplaceColumnsStmt>()->table;
    case K::kAlterTableDropColumn: return stmt.As<sql::AlterTableDropColumnStmt>()->table;
    case K::kAlterTableChangeColumn: return stmt.As<sql::AlterTableChangeColumnStmt>()->table;
    case K::kAlterTableRename: return stmt.As<sql::AlterTableRenameStmt>()->table;
    case K::kAlterTableSetTblProperties:
      return stmt.As<sql::AlterTableSetTblPropertiesStmt>()->table;
    case K::kAlterTableUnsetTblProperties:
      return stmt.As<sql::AlterTableUnsetTblPropertiesStmt>()->table;
    case K::kAlterTableSetLocation: return stmt.As<sql::AlterTableSetLocationStmt>()->table;
    case K::kAlterTableSetFileFormat: return stmt.As<sql::AlterTableSetFileFormatStmt>()->table;
    case K::kAlterTableSetOwner: return stmt.As<sql::AlterTableSetOwnerStmt>()->table;
    default: return stmt.As<sql::AlterTableRecoverPartitionsStmt>()->table;
  }
}

Result<StatementResult> Rename(const ExecContext& ctx, const sql::AlterTableRenameStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table, /*need_loaded=*/false));
  if (t->is_view) return AnalysisError("ALTER TABLE not allowed on a view: " + FullName(*t));
  const std::string new_db = DbOf(s.new_name, ctx);
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, new_db));
  ICS_ASSIGN_OR_RETURN(bool exists, TableExists(ctx, new_db, s.new_name.table));
  if (exists) return AnalysisError("Table already exists: " + new_db + "." + s.new_name.table);
  auto req = AlterTableRequest(*t, AT::RENAME_TABLE);
  impala::TAlterTableOrViewRenameParams p;
  p.new_table_name = ToTTableName(s.new_name, ctx);
  req.alter_table_params.__set_rename_params(p);
  return RunDdl(ctx, std::move(req));
}

}  // namespace

Result<StatementResult> ExecAlterTable(const ExecContext& ctx, const sql::Statement& stmt) {
  if (stmt.kind == sql::StatementKind::kAlterTableRename) {
    return Rename(ctx, *stmt.As<sql::AlterTableRenameStmt>());
  }
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, TableOf(stmt)));
  if (t->is_view) return AnalysisError("ALTER TABLE not allowed on a view: " + FullName(*t));
  return AlterOnTable(ctx, *t, stmt);
}

}  // namespace ics::coord::exec
