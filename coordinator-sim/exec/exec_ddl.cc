// DDL on databases and tables (CREATE/DROP/ALTER DATABASE, CREATE TABLE
// [LIKE], DROP TABLE/VIEW, TRUNCATE, DROP STATS, COMMENT ON): analysis
// against the local catalog, then one TDdlExecRequest to catalogd.
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

impala::TOwnerType::type OwnerType(sql::PrincipalType t) {
  return t == sql::PrincipalType::kRole ? impala::TOwnerType::ROLE : impala::TOwnerType::USER;
}

// The target of CREATE TABLE/VIEW: its database must exist, and unless
// IF NOT EXISTS the name must be free.
Status CheckCreateTarget(const ExecContext& ctx, const std::string& db, const std::string& name,
                         bool if_not_exists) {
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
  ICS_ASSIGN_OR_RETURN(bool exists, TableExists(ctx, db, name));
  if (exists && !if_not_exists) return AnalysisError("Table already exists: " + db + "." + name);
  return Status::OK();
}

}  // namespace

Result<StatementResult> ExecCreateDatabase(const ExecContext& ctx,
                                           const sql::CreateDatabaseStmt& s) {
  Result<hive::Database> existing = ctx.catalog()->GetDatabase(s.db);
  if (existing.ok() && !s.if_not_exists) return AnalysisError("Database already exists: " + s.db);
  if (!existing.ok() && !existing.status().Is(ErrorCode::kNotFound)) return existing.status();
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::CREATE_DATABASE;
  impala::TCreateDbParams p;
  p.db = s.db;
  p.__set_if_not_exists(s.if_not_exists);
  if (s.comment) p.__set_comment(*s.comment);
  if (s.location) p.__set_location(*s.location);
  p.owner = "";  // catalogd's default owner
  req.__set_create_db_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecDropDatabase(const ExecContext& ctx, const sql::DropDatabaseStmt& s) {
  if (!s.if_exists) ICS_RETURN_IF_ERROR(CheckDbExists(ctx, s.db));
  if (s.db == "default") return AnalysisError("Cannot drop default database: default");
  if (s.db == ctx.session->db) {
    return AnalysisError("Cannot drop current default database: " + s.db);
  }
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::DROP_DATABASE;
  impala::TDropDbParams p;
  p.db = s.db;
  p.if_exists = s.if_exists;
  p.cascade = s.cascade;
  req.__set_drop_db_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecAlterDatabaseSetOwner(const ExecContext& ctx,
                                                  const sql::AlterDatabaseSetOwnerStmt& s) {
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, s.db));
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::ALTER_DATABASE;
  impala::TAlterDbParams p;
  p.alter_type = impala::TAlterDbType::SET_OWNER;
  p.db = s.db;
  impala::TAlterDbSetOwnerParams o;
  o.owner_type = OwnerType(s.owner.type);
  o.owner_name = s.owner.name;
  p.__set_set_owner_params(o);
  req.__set_alter_db_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecCreateTable(const ExecContext& ctx, const sql::CreateTableStmt& s) {
  const std::string db = DbOf(s.table, ctx);
  ICS_RETURN_IF_ERROR(CheckCreateTarget(ctx, db, s.table.table, s.if_not_exists));
  impala::TCreateTableParams p;
  p.table_name = ToTTableName(s.table, ctx);
  ICS_ASSIGN_OR_RETURN(p.columns, ToTColumns(s.columns));
  if (!s.partition_columns.empty()) {
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TColumn> parts, ToTColumns(s.partition_columns));
    p.__set_partition_columns(std::move(parts));
  }
  p.file_format = s.file_format ? ToThriftFormat(*s.file_format) : impala::THdfsFileFormat::TEXT;
  if (p.file_format == impala::THdfsFileFormat::KUDU ||
      p.file_format == impala::THdfsFileFormat::ICEBERG) {
    return AnalysisError("STORED AS " + FileFormatSqlName(p.file_format) +
                         " is not supported by this catalog service");
  }
  p.is_external = s.external;
  p.if_not_exists = s.if_not_exists;
  p.owner = "";
  p.sorting_order = impala::TSortingOrder::LEXICAL;
  if (s.row_format) {
    impala::TTableRowFormat rf;
    if (s.row_format->field_terminator) rf.__set_field_terminator(*s.row_format->field_terminator);
    if (s.row_format->line_terminator) rf.__set_line_terminator(*s.row_format->line_terminator);
    if (s.row_format->escaped_by) rf.__set_escaped_by(*s.row_format->escaped_by);
    p.__set_row_format(rf);
  }
  if (s.comment) p.__set_comment(*s.comment);
  if (s.location) p.__set_location(*s.location);
  if (!s.tblproperties.empty()) {
    std::map<std::string, std::string> props(s.tblproperties.begin(), s.tblproperties.end());
    p.__set_table_properties(std::move(props));
  }
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::CREATE_TABLE;
  req.__set_create_table_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecCreateTableLike(const ExecContext& ctx,
                                            const sql::CreateTableLikeStmt& s) {
  const std::string db = DbOf(s.table, ctx);
  ICS_RETURN_IF_ERROR(CheckCreateTarget(ctx, db, s.table.table, s.if_not_exists));
  ICS_ASSIGN_OR_RETURN(TablePtr src, ResolveTable(ctx, s.source, /*need_loaded=*/false));
  impala::TCreateTableLikeParams p;
  p.table_name = ToTTableName(s.table, ctx);
  p.src_table_name.db_name = src->db;
  p.src_table_name.table_name = src->name;
  p.is_external = s.external;
  p.if_not_exists = s.if_not_exists;
  p.owner = "";
  p.sorting_order = impala::TSortingOrder::LEXICAL;
  if (s.file_format) p.__set_file_format(ToThriftFormat(*s.file_format));
  if (s.comment) p.__set_comment(*s.comment);
  if (s.location) p.__set_location(*s.location);
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::CREATE_TABLE_LIKE;
  req.__set_create_table_like_params(p);
  return RunDdl(ctx, std::move(req));
}

namespace {

Result<StatementResult> DropTableOrView(const ExecContext& ctx, const sql::TableName& name,
                                        bool if_exists, bool purge, bool is_table) {
  const std::string db = DbOf(name, ctx);
  Result<TablePtr> t = ResolveTable(ctx, name, /*need_loaded=*/false);
  if (!t.ok()) {
    // IF EXISTS tolerates a missing table, not a missing database.
    if (!if_exists || !t.status().Is(ErrorCode::kAnalysisError)) return t.status();
    ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
  } else if ((*t)->loaded || (*t)->is_view) {
    if (is_table && (*t)->is_view) {
      return AnalysisError("DROP TABLE not allowed on a view: " + FullName(**t));
    }
    if (!is_table && !(*t)->is_view) {
      return AnalysisError("DROP VIEW not allowed on a table: " + FullName(**t));
    }
  }
  impala::TDdlExecRequest req;
  req.ddl_type = is_table ? impala::TDdlType::DROP_TABLE : impala::TDdlType::DROP_VIEW;
  impala::TDropTableOrViewParams p;
  p.table_name = ToTTableName(name, ctx);
  p.if_exists = if_exists;
  p.purge = purge;
  p.__set_is_table(is_table);
  req.__set_drop_table_or_view_params(p);
  return RunDdl(ctx, std::move(req));
}

}  // namespace

Result<StatementResult> ExecDropTable(const ExecContext& ctx, const sql::DropTableStmt& s) {
  return DropTableOrView(ctx, s.table, s.if_exists, s.purge, true);
}

Result<StatementResult> ExecDropView(const ExecContext& ctx, const sql::DropViewStmt& s) {
  return DropTableOrView(ctx, s.view, s.if_exists, false, false);
}

Result<StatementResult> ExecTruncate(const ExecContext& ctx, const sql::TruncateStmt& s) {
  Result<TablePtr> t = ResolveTable(ctx, s.table, /*need_loaded=*/false);
  if (!t.ok()) {
    if (!s.if_exists || !t.status().Is(ErrorCode::kAnalysisError)) return t.status();
    ICS_RETURN_IF_ERROR(CheckDbExists(ctx, DbOf(s.table, ctx)));
  } else if ((*t)->is_view) {
    return AnalysisError("TRUNCATE TABLE not allowed on a view: " + FullName(**t));
  }
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::TRUNCATE_TABLE;
  impala::TTruncateParams p;
  p.table_name = ToTTableName(s.table, ctx);
  p.if_exists = s.if_exists;
  p.__set_delete_stats(true);
  req.__set_truncate_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecDropStats(const ExecContext& ctx, const sql::DropStatsStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveNonView(ctx, s.table, "DROP STATS"));
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::DROP_STATS;
  impala::TDropStatsParams p;
  p.table_name.db_name = t->db;
  p.table_name.table_name = t->name;
  if (s.partition) {
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> spec,
                         ToPartitionKeyValues(*t, *s.partition, /*require_full=*/false));
    if (MatchingPartitionIds(*t, spec).empty()) {
      return AnalysisError("No matching partition(s) found: " + SpecToString(spec));
    }
    p.__set_partition_set({spec});
  }
  req.__set_drop_stats_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecCommentOn(const ExecContext& ctx, const sql::CommentOnStmt& s) {
  impala::TCommentOnParams p;
  if (s.comment) p.__set_comment(*s.comment);
  switch (s.target) {
    case sql::CommentTarget::kDatabase:
      ICS_RETURN_IF_ERROR(CheckDbExists(ctx, s.db));
      p.__set_db(s.db);
      break;
    case sql::CommentTarget::kTable:
    case sql::CommentTarget::kView: {
      ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
      if (s.target == sql::CommentTarget::kTable && t->is_view) {
        return AnalysisError("COMMENT ON TABLE not allowed on a view: " + FullName(*t));
      }
      if (s.target == sql::CommentTarget::kView && !t->is_view) {
        return AnalysisError("COMMENT ON VIEW not allowed on a table: " + FullName(*t));
      }
      impala::TTableName n;
      n.db_name = t->db;
      n.table_name = t->name;
      p.__set_table_name(n);
      break;
    }
    case sql::CommentTarget::kColumn: {
      ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
      if (FindColumn(*t, s.column) == nullptr) return ColumnNotFound(s.column, *t);
      impala::TColumnName c;
      c.table_name.db_name = t->db;
      c.table_name.table_name = t->name;
      c.column_name = s.column;
      p.__set_column_name(c);
      break;
    }
  }
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::COMMENT_ON;
  req.__set_comment_on_params(p);
  return RunDdl(ctx, std::move(req));
}

}  // namespace ics::coord::exec
