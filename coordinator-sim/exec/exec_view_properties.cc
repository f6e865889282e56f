// ALTER VIEW SET / UNSET TBLPROPERTIES: one ALTER_TABLE request with the
// view-property alter types, as Impala's coordinators send them. catalogd
// checks that the keys to unset exist (unless IF EXISTS).
#include <map>

#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

Result<TablePtr> ResolveView(const ExecContext& ctx, const sql::TableName& name) {
  ICS_ASSIGN_OR_RETURN(TablePtr v, ResolveTable(ctx, name));
  if (!v->is_view) return AnalysisError("ALTER VIEW not allowed on a table: " + FullName(*v));
  return v;
}

}  // namespace

Result<StatementResult> ExecAlterViewSetTblProperties(
    const ExecContext& ctx, const sql::AlterViewSetTblPropertiesStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr v, ResolveView(ctx, s.view));
  auto req = AlterTableRequest(*v, impala::TAlterTableType::SET_VIEW_PROPERTIES);
  impala::TAlterTableSetTblPropertiesParams p;
  p.target = impala::TTablePropertyType::TBL_PROPERTY;
  // A key given twice keeps its last value.
  for (const auto& [k, val] : s.properties) p.properties[k] = val;
  req.alter_table_params.__set_set_tbl_properties_params(std::move(p));
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecAlterViewUnsetTblProperties(
    const ExecContext& ctx, const sql::AlterViewUnsetTblPropertiesStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr v, ResolveView(ctx, s.view));
  auto req = AlterTableRequest(*v, impala::TAlterTableType::UNSET_VIEW_PROPERTIES);
  impala::TAlterTableUnSetTblPropertiesParams p;
  p.target = impala::TTablePropertyType::TBL_PROPERTY;
  p.property_keys = s.keys;
  p.if_exists = s.if_exists;
  req.alter_table_params.__set_unset_tbl_properties_params(std::move(p));
  return RunDdl(ctx, std::move(req));
}

}  // namespace ics::coord::exec
