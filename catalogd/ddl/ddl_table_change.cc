// DdlExecutor::ChangeTable: a single-table change planned by another
// catalogd service (TableService: UpdateTable with version archiving, column
// statistics), run through the same steps as every DDL (ddl_internal.h).
#include <glog/logging.h>

#include "catalogd/ddl/ddl_internal.h"

namespace ics::catalog::ddl {

namespace {

using Kind = MetastoreOp::Kind;

bool SameKeys(const std::vector<hive::FieldSchema>& a, const std::vector<hive::FieldSchema>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].type != b[i].type) return false;
  }
  return true;
}

// Whether the new object needs a full reload rather than a derived state:
// a new location (other directories), other partition keys, or a table
// that became a view or the reverse.
bool NeedsReload(const hive::Table& before, const hive::Table& after) {
  return before.sd.location != after.sd.location ||
         !SameKeys(before.partitionKeys, after.partitionKeys) || IsView(before) != IsView(after);
}

}  // namespace

Result<DdlOutcome> ChangeTable(CatalogContext* ctx, const TableChange& change) {
  const TableRef t{change.db, change.table};
  if (!change.plan) return Status::InvalidArgument("table change of " + t.full() + " has no plan");
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  ICS_ASSIGN_OR_RETURN(MetastoreTxn txn, change.plan(*old, hms));
  if (txn.ops.empty()) return NoOp(ctx, change.summary);

  hive::Table next_hms = hms;
  bool stats_changed = false;
  for (const MetastoreOp& op : txn.ops) {
    if (op.db_name != t.db || op.table_name != t.table) {
      return Status::Internal("a planned change of " + t.full() + " touches another table");
    }
    if (op.kind == Kind::kAlterTable) {
      if (op.table.dbName != t.db || op.table.tableName != t.table) {
        return Status::Internal("a planned change of " + t.full() + " renames it");
      }
      next_hms = op.table;
    }
    stats_changed |= op.kind == Kind::kSetTableColumnStats ||
                     op.kind == Kind::kDeleteColumnStat || op.kind == Kind::kDeleteColumnStats;
  }
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  if (NeedsReload(hms, next_hms)) {
    return InstallTable(ctx, LoadOrUnloaded(ctx, t.db, t.table, next_hms), change.summary);
  }
  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    ICS_ASSIGN_OR_RETURN(std::shared_ptr<TableState> next, DeriveTable(ctx, *old, next_hms));
    if (stats_changed) {
      ICS_ASSIGN_OR_RETURN(std::vector<hive::ColumnStatisticsObj> stats,
                           ctx->metastore->GetTableColumnStats(t.db, t.table));
      std::map<std::string, hive::ColumnStatisticsObj> by_name;
      for (hive::ColumnStatisticsObj& s : stats) {
        std::string name = s.colName;
        by_name.emplace(std::move(name), std::move(s));
      }
      next->column_stats = std::move(by_name);
    }
    return next;
  };
  return InstallAfterCommit(ctx, t, build(), change.summary);
}

}  // namespace ics::catalog::ddl
