// The steps every DDL operation takes (ddl_steps_internal.h).
#include <glog/logging.h>

#include "catalogd/ddl/ddl_steps_internal.h"
#include "common/hive/names.h"

namespace ics::catalog::ddl {

// ---- names and messages ----

Result<TableRef> NormalizeTableRef(const impala::TTableName& name) {
  return NormalizeTableRef(name.db_name, name.table_name);
}

Result<TableRef> NormalizeTableRef(const std::string& db_name, const std::string& table_name) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(db_name));
  ICS_ASSIGN_OR_RETURN(std::string table, NormalizeTableName(table_name));
  return TableRef{std::move(db), std::move(table)};
}

Status DatabaseNotFound(const std::string& db) {
  return Status::NotFound("Database does not exist: " + db);
}

Status TableNotFound(const TableRef& t) {
  return Status::NotFound("Table does not exist: " + t.full());
}

std::string ObjectWord(bool is_view) { return is_view ? "View" : "Table"; }

// ---- catalog reads ----

Result<TablePtr> LoadedTableLocked(CatalogContext* ctx, const TableRef& t) {
  if (ctx->catalog->GetDatabase(t.db) == nullptr) return DatabaseNotFound(t.db);
  TablePtr current = ctx->catalog->GetTable(t.db, t.table);
  if (current == nullptr) return TableNotFound(t);
  if (current->loaded) return current;
  Result<TablePtr> loaded = ctx->loads->ReloadLocked(t.db, t.table);
  if (!loaded.ok()) return loaded.status();
  return std::move(loaded).value();
}

Result<hive::Table> MetastoreTable(CatalogContext* ctx, const TableRef& t) {
  Result<hive::Table> r = ctx->metastore->GetTable(t.db, t.table);
  if (!r.ok() && r.status().Is(ErrorCode::kNotFound)) return TableNotFound(t);
  return r;
}

// ---- metastore ----

Status Commit(CatalogContext* ctx, const MetastoreTxn& txn) {
  if (txn.ops.empty()) return Status::OK();
  Result<int64_t> r = ctx->metastore->Commit(txn);
  return r.ok() ? Status::OK() : r.status();
}

void Compensate(CatalogContext* ctx, const MetastoreTxn& undo, const std::string& what) {
  Status s = Commit(ctx, undo);
  if (!s.ok()) {
    LOG(ERROR) << "could not undo the metastore change of " << what
               << " after a filesystem failure: " << s.ToString();
  }
}

MetastoreOp AlterTableOp(const TableRef& old_name, hive::Table table) {
  return MetastoreOp::AlterTable(old_name.db, old_name.table, std::move(table));
}

MetastoreOp SetColumnStatsOp(const TableRef& t, ColumnStatsEdit stats) {
  if (stats.partition.empty()) {
    return MetastoreOp::SetTableColumnStats(t.db, t.table, std::move(stats.columns));
  }
  return MetastoreOp::SetPartitionColumnStats(t.db, t.table, std::move(stats.partition),
                                              std::move(stats.columns));
}

MetastoreOp AddPartitionOp(const hive::Partition& part) {
  return MetastoreOp::AddPartition(part.dbName, part.tableName, part);
}

MetastoreTxn DropPartitionsTxn(const TableRef& t, const std::vector<std::string>& names) {
  MetastoreTxn txn;
  for (const std::string& name : names) {
    txn.ops.push_back(MetastoreOp::DropPartition(t.db, t.table, name));
  }
  return txn;
}

MetastoreOp AlterPartitionOp(hive::Partition partition) {
  std::string db = partition.dbName;
  std::string table = partition.tableName;
  return MetastoreOp::AlterPartition(std::move(db), std::move(table), std::move(partition));
}

// ---- new states ----

DdlOutcome InstallTable(CatalogContext* ctx, std::shared_ptr<TableState> t, std::string summary) {
  DdlOutcome out;
  out.version = InstallTableState(ctx, t);
  out.tables.push_back(t);
  out.summary = std::move(summary);
  return out;
}

DdlOutcome InstallAfterCommit(CatalogContext* ctx, const TableRef& t,
                              Result<std::shared_ptr<TableState>> next, std::string summary) {
  if (next.ok()) return InstallTable(ctx, std::move(next).value(), std::move(summary));
  LOG(WARNING) << "metadata of " << t.full() << " could not be rebuilt after a DDL; "
               << "it will be reloaded on next use: " << next.status().ToString();
  auto unloaded = MakeUnloadedTable(t.db, t.table);
  unloaded->load_status = next.status().WithContext("loading " + t.full());
  return InstallTable(ctx, std::move(unloaded), std::move(summary));
}

DdlOutcome NoOp(CatalogContext* ctx, std::string summary) {
  DdlOutcome out;
  out.version = ctx->catalog->version();
  out.summary = std::move(summary);
  return out;
}

}  // namespace ics::catalog::ddl
