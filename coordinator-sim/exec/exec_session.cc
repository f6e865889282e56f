// Session and metadata statements: USE, SET, INVALIDATE METADATA, REFRESH.
#include <algorithm>
#include <cctype>

#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string LowerCopy(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Options this coordinator interprets, with their defaults.
const std::map<std::string, std::string>& KnownOptions() {
  static const std::map<std::string, std::string> kOptions = {{"SYNC_DDL", "0"}};
  return kOptions;
}

}  // namespace

Result<StatementResult> ExecUse(const ExecContext& ctx, const sql::UseStmt& s) {
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, s.db));
  ctx.session->db = s.db;
  return StatementResult{};
}

Result<StatementResult> ExecSet(const ExecContext& ctx, const sql::SetStmt& s) {
  if (s.name.empty() || s.show_all) {
    std::map<std::string, std::string> all = KnownOptions();
    for (const auto& [k, v] : ctx.session->options) all[k] = v;
    StatementResult out;
    out.columns = {"option", "value", "level"};
    for (const auto& [k, v] : all) out.rows.push_back({k, v, "REGULAR"});
    return out;
  }
  const std::string key = Upper(s.name);
  std::string value = s.value;
  if (value.empty()) {  // SET x='' restores the default
    ctx.session->options.erase(key);
    return StatementResult{};
  }
  if (key == "SYNC_DDL") {
    const std::string v = LowerCopy(value);
    if (v == "1" || v == "true") {
      value = "1";
    } else if (v == "0" || v == "false") {
      value = "0";
    } else {
      return AnalysisError("Invalid value for query option SYNC_DDL: '" + s.value +
                           "' (expected 0, 1, true or false)");
    }
  }
  ctx.session->options[key] = value;
  return StatementResult{};
}

Result<StatementResult> ExecInvalidate(const ExecContext& ctx,
                                       const sql::InvalidateMetadataStmt& s) {
  impala::TResetMetadataRequest req;
  req.is_refresh = false;
  if (s.table) {
    // The table may exist only in the metastore so far: no existence check
    // beyond its database.
    ICS_RETURN_IF_ERROR(CheckDbExists(ctx, DbOf(*s.table, ctx)));
    req.__set_table_name(ToTTableName(*s.table, ctx));
  }
  ctx.side_effects = true;
  Result<impala::TCatalogUpdateResult> r = ctx.backend->ResetMetadata(std::move(req), ctx.sync_ddl());
  if (!r.ok()) return r.status();
  StatementResult out;
  out.messages.push_back(s.table ? "Table metadata has been invalidated."
                                 : "Catalog metadata has been invalidated.");
  return out;
}

// A whole-table REFRESH checks only that the table is listed, as Impala's
// analysis does: fetching the table here would make catalogd load a table
// it has not loaded yet, and the REFRESH would then load it a second time.
// Nor is it fetched afterwards: a view is refreshed like a table (catalogd
// re-reads its definition), and the next statement that needs the table
// fetches it, its partition list included.
static Result<StatementResult> ExecWholeTableRefresh(const ExecContext& ctx, const sql::RefreshStmt& s) {
  const std::string db = DbOf(s.table, ctx);
  ICS_ASSIGN_OR_RETURN(bool listed, TableListed(ctx, db, s.table.table));
  if (!listed) return AnalysisError("Table does not exist: " + db + "." + s.table.table);
  impala::TResetMetadataRequest req;
  req.is_refresh = true;
  req.__set_table_name(ToTTableName(s.table, ctx));
  ctx.side_effects = true;
  Result<impala::TCatalogUpdateResult> r = ctx.backend->ResetMetadata(std::move(req), ctx.sync_ddl());
  if (!r.ok()) return r.status();
  StatementResult out;
  out.messages.push_back("Table has been refreshed.");
  return out;
}

Result<StatementResult> ExecRefresh(const ExecContext& ctx, const sql::RefreshStmt& s) {
  const bool partitions = !s.partitions.empty();
  if (!partitions) return ExecWholeTableRefresh(ctx, s);
  // Partition keys need the table's metadata.
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table, /*need_loaded=*/true));
  if (t->is_view) return AnalysisError("REFRESH not allowed on a view: " + FullName(*t));
  impala::TResetMetadataRequest req;
  req.is_refresh = true;
  impala::TTableName name;
  name.db_name = t->db;
  name.table_name = t->name;
  req.__set_table_name(name);
  {
    // As Impala's coordinators do: every partition in partition_spec_list, none
    // in the older single partition_spec.
    std::vector<std::vector<impala::TPartitionKeyValue>> specs;
    for (const sql::PartitionSpec& p : s.partitions) {
      ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> spec,
                           ToPartitionKeyValues(*t, p, /*require_full=*/true));
      specs.push_back(std::move(spec));
    }
    req.__set_partition_spec_list(std::move(specs));
  }
  ctx.side_effects = true;
  Result<impala::TCatalogUpdateResult> r = ctx.backend->ResetMetadata(std::move(req), ctx.sync_ddl());
  if (!r.ok()) return r.status();
  StatementResult out;
  out.messages.push_back(s.partitions.size() == 1 ? "Partition has been refreshed."
                                                 : "Partitions have been refreshed.");
  return out;
}

}  // namespace ics::coord::exec
