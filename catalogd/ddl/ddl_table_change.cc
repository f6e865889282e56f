// DdlExecutor::ChangeTable: a single-table change planned as TableEdits (a
// new definition, version archiving, column statistics), run through the
// same steps as every DDL (ddl_steps_internal.h).
#include <glog/logging.h>

#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_schema_internal.h"

namespace ics::catalog::ddl {

namespace {

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
  ICS_ASSIGN_OR_RETURN(TableEdits edits, change.plan(*old, hms));
  if (edits.empty()) return NoOp(ctx, change.summary);

  // Table-level statistics are part of the installed state; re-read them.
  bool stats_changed = !edits.drop_stats.empty();
  for (const ColumnStatsEdit& s : edits.set_stats) stats_changed |= s.partition.empty();
  hive::Table next_hms = hms;
  if (edits.definition) {
    if (edits.definition->dbName != t.db || edits.definition->tableName != t.table) {
      return Status::Internal("a planned change of " + t.full() + " renames it");
    }
    next_hms = *edits.definition;
  }
  ICS_RETURN_IF_ERROR(CheckColumnStatsEdits(next_hms, &edits.set_stats));
  MetastoreTxn txn;
  if (edits.definition) {
    if (edits.new_version) {
      txn.ops.push_back(MetastoreOp::NewTableVersion(t.db, t.table, edits.archive_replaced));
    }
    txn.ops.push_back(AlterTableOp(t, std::move(*edits.definition)));
  }
  for (ColumnStatsEdit& s : edits.set_stats) txn.ops.push_back(SetColumnStatsOp(t, std::move(s)));
  for (const ColumnStatsDrop& d : edits.drop_stats) {
    txn.ops.push_back(MetastoreOp::DeleteColumnStat(t.db, t.table, d.partition, d.column));
  }
  for (int64_t id : edits.deleted_versions) {
    txn.ops.push_back(MetastoreOp::DeleteTableVersion(t.db, t.table, id));
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
