// The steps every DDL operation of the executor (ddl_executor.h) takes, in
// this order: normalize and validate names, take the locks (ScopedLocks,
// catalogd/core/catalog_writer.h), check existence against the catalog,
// build ONE MetastoreTxn and commit it, apply file system changes
// (compensating the commit when they fail), then install the new states in
// one ChangeSet. Nothing is changed before all checks pass. Private to
// catalogd/ddl.
//
// Lock order: DdlExecutor::reset_mu_ (shared for every operation, exclusive
// for a global INVALIDATE), then the catalog writer's order: database
// locks, table locks, catalog internals. Who takes what: ALTER / TRUNCATE /
// stats / partitions / UpdateCatalog / REFRESH lock the table only (so
// different tables proceed in parallel); CREATE and DROP of a table or view
// also lock its database (the database's table list), RENAME locks both
// databases and both names; database and function DDL lock the database;
// DROP DATABASE CASCADE locks the database and all its tables.
//
// Thread-safety: stateless functions; the context objects are thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalogd/core/catalog_context.h"
#include "catalogd/core/catalog_writer.h"
#include "catalogd/ddl/ddl_executor.h"
#include "common/hive/scalar_text.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"
#include "common/util/wall_clock.h"

namespace ics::catalog::ddl {

// ---- names and messages ----

struct TableRef {
  std::string db;
  std::string table;
  std::string full() const { return db + "." + table; }
};

Result<TableRef> NormalizeTableRef(const impala::TTableName& name);
Result<TableRef> NormalizeTableRef(const std::string& db, const std::string& table);

Status DatabaseNotFound(const std::string& db);  // "Database does not exist: db"
Status TableNotFound(const TableRef& t);         // "Table does not exist: db.t"
std::string ObjectWord(bool is_view);            // "Table" / "View"

// ---- catalog reads (caller holds the table's lock) ----

// The table's loaded state: loads it first (under the held lock) if it is
// names-only. NOT_FOUND with the standard messages if the database or the
// table is missing.
Result<TablePtr> LoadedTableLocked(CatalogContext* ctx, const TableRef& t);

// The metastore's object of a table (with every parameter, including the
// incremental-stats chunks the loaded state drops).
Result<hive::Table> MetastoreTable(CatalogContext* ctx, const TableRef& t);

// ---- the one metastore transaction ----

[[nodiscard]] Status Commit(CatalogContext* ctx, const MetastoreTxn& txn);
// Best effort undo of a committed txn after a later step failed; logs failures.
void Compensate(CatalogContext* ctx, const MetastoreTxn& undo, const std::string& what);

MetastoreOp AlterTableOp(const TableRef& old_name, hive::Table table);
MetastoreOp AlterPartitionOp(hive::Partition partition);
// Writes `stats` of table t (partition "" = the table level).
MetastoreOp SetColumnStatsOp(const TableRef& t, ColumnStatsEdit stats);
MetastoreOp AddPartitionOp(const hive::Partition& part);
MetastoreTxn DropPartitionsTxn(const TableRef& t, const std::vector<std::string>& names);

// ---- new states ----

// Installs `t` (after FinishTableState) and returns the outcome.
DdlOutcome InstallTable(CatalogContext* ctx, std::shared_ptr<TableState> t, std::string summary);

// For the step after a committed metastore change: installs `next`, or, if
// building it failed (e.g. a directory could not be listed), installs the
// table names-only with that error as its load status, so the catalog never
// keeps a state the metastore contradicts; the next use reloads it. The DDL
// itself took effect, so this reports success either way.
DdlOutcome InstallAfterCommit(CatalogContext* ctx, const TableRef& t,
                              Result<std::shared_ptr<TableState>> next, std::string summary);

DdlOutcome NoOp(CatalogContext* ctx, std::string summary);

}  // namespace ics::catalog::ddl
