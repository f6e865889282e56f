// Private helpers and per-operation entry points of the DDL executor
// (ddl_executor.h). Not a public interface: only catalogd/ddl/*.cc use it.
//
// Layout of the implementation:
//   ddl_executor.cc     dispatch (ExecDdl / UpdateCatalog / ResetMetadata)
//   ddl_common.cc       these helpers
//   ddl_database.cc     CREATE/DROP/ALTER DATABASE, COMMENT ON
//   ddl_table.cc        CREATE TABLE [LIKE], CREATE/ALTER VIEW, DROP, TRUNCATE
//   ddl_alter_table.cc  ALTER TABLE (columns, rename, formats, properties, ...)
//   ddl_partitions.cc   ADD/DROP/RECOVER PARTITIONS, UpdateCatalog
//   ddl_partition_batch.cc  batches of partition adds/alters/drops (PartitionService)
//   ddl_table_change.cc     planned single-table changes (TableService)
//   ddl_stats.cc        UPDATE_STATS, DROP STATS
//   ddl_functions.cc    CREATE/DROP FUNCTION
//   ddl_reset.cc        REFRESH / INVALIDATE METADATA
//
// Every operation follows the same shape: normalize and validate names,
// take the locks (ScopedLocks), check existence against the catalog, build
// one MetastoreTxn, commit it, apply filesystem changes, then install the
// new states in one ChangeSet. Nothing is changed before all checks pass.
//
// Lock order: DdlExecutor::reset_mu_ (shared for every operation, exclusive
// for a global INVALIDATE), then the catalog writer's order
// (catalogd/core/catalog_writer.h): database locks, table locks, catalog
// internals.
//
// Who takes what: ALTER / TRUNCATE / stats / partitions / UpdateCatalog /
// REFRESH lock the table only (so different tables proceed in parallel);
// CREATE and DROP of a table or view also lock its database (the database's
// table list), RENAME locks both databases and both names; database and
// function DDL lock the database; DROP DATABASE CASCADE locks the database
// and all its tables.
//
// Thread-safety: stateless functions; the context objects are thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "JniCatalog_types.h"
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

// ---- locks ----

// ---- catalog reads (caller holds the table's lock) ----

// The table's loaded state: loads it first (under the held lock) if it is
// names-only. NOT_FOUND with the standard messages if the database or the
// table is missing.
Result<TablePtr> LoadedTableLocked(CatalogContext* ctx, const TableRef& t);

// The metastore's object of a table (with every parameter, including the
// incremental-stats chunks the loaded state drops).
Result<hive::Table> MetastoreTable(CatalogContext* ctx, const TableRef& t);

// ---- metastore ----

[[nodiscard]] Status Commit(CatalogContext* ctx, const MetastoreTxn& txn);
// Best effort undo of a committed txn after a later step failed; logs failures.
void Compensate(CatalogContext* ctx, const MetastoreTxn& undo, const std::string& what);

MetastoreOp AlterTableOp(const TableRef& old_name, hive::Table table);
MetastoreOp AlterPartitionOp(hive::Partition partition);
// Every column of `edits` through CheckColumnStats (ddl_executor.h) against
// `table`, each replaced by its stored form; the first error.
[[nodiscard]] Status CheckColumnStatsEdits(const hive::Table& table,
                                           std::vector<ColumnStatsEdit>* edits);
// Writes `stats` of table t (partition "" = the table level).
MetastoreOp SetColumnStatsOp(const TableRef& t, ColumnStatsEdit stats);

// ---- tables ----

// NOT_IMPLEMENTED for formats this service cannot store (Kudu, Iceberg, ...).
[[nodiscard]] Status CheckSupportedFormat(impala::THdfsFileFormat::type format);
// Sets the input/output format and SerDe of `sd` for `format`.
void SetFileFormat(impala::THdfsFileFormat::type format, hive::StorageDescriptor* sd);

// ---- locations ----

// Accepts "/abs/path" or "file:/..." / "file:///..."; returns a plain
// absolute path without a trailing '/'. INVALID_ARGUMENT otherwise.
Result<std::string> NormalizeLocation(const std::string& location);
// <warehouse>/<db>.db
std::string DefaultDatabaseLocation(const CatalogContext& ctx, const std::string& db);
// The db's location (or its default) + "/" + table.
std::string DefaultTableLocation(const CatalogContext& ctx, const std::string& db,
                                 const std::string& table);
// Whether `path` is `dir` or inside it.
bool IsUnder(const std::string& path, const std::string& dir);
std::string ParentDir(const std::string& path);

// Removes the data of a dropped managed table: its directory and the
// directories of partitions that live outside it, except what another table
// still uses (metastore/data_ownership.h; the kept ones are logged).
[[nodiscard]] Status RemoveTableData(CatalogContext* ctx, const hive::Table& table,
                                     const std::vector<hive::Partition>& partitions);

// Removes the directories of partitions dropped from the managed table
// `hms` (whose state before the drop is `old`), except those the table's
// remaining partitions (plus `also_remaining`, e.g. partitions added in the
// same batch), the table directory or another table still use. Appends a
// note about kept directories to `*note`. Returns the first file system
// error.
[[nodiscard]] Status RemoveDroppedPartitionData(CatalogContext* ctx, const TableRef& t,
                                                const hive::Table& hms, const TableState& old,
                                                const std::vector<PartitionPtr>& dropped,
                                                const std::vector<std::string>& also_remaining,
                                                std::string* note);

// ---- columns ----

// Converts columns to HMS field schemas: names validated and lower-cased,
// types validated (complex types allowed unless `scalar_only`). `seen`
// collects the names; a name already in it is an error.
Result<std::vector<hive::FieldSchema>> ToFieldSchemas(const std::vector<impala::TColumn>& cols,
                                                      bool scalar_only,
                                                      std::set<std::string>* seen);
Result<hive::FieldSchema> ToFieldSchema(const impala::TColumn& col, bool scalar_only);
// The one column rule set, for metastore objects from any door: names
// validated and lower-cased, Hive type strings parsed, partition keys
// scalar, no name twice across the columns and the keys ("Duplicate column
// name: x").
[[nodiscard]] Status ValidateColumns(std::vector<hive::FieldSchema>* cols,
                                     std::vector<hive::FieldSchema>* partition_keys);

// ---- partitions ----

// The canonical values (in key order) of a full partition spec of `t`.
Result<std::vector<std::string>> PartitionValues(
    const TableState& t, const std::vector<impala::TPartitionKeyValue>& spec);

// Partitions of `t` matched by each spec of `set` (a spec may give only
// some keys; it then matches every partition with those values). A spec
// matching nothing is NOT_FOUND unless `if_exists`. Result in id order,
// without duplicates.
Result<std::vector<PartitionPtr>> ResolvePartitionSet(
    const TableState& t, const std::vector<std::vector<impala::TPartitionKeyValue>>& set,
    bool if_exists);

std::string PartitionDisplayName(const TableRef& t, const std::string& part_name);

// The partition of `t` with exactly these values (the one named by them,
// if its values are these), or null.
PartitionPtr PartitionWithValues(const TableState& t, const std::vector<std::string>& values);

// Metastore objects of `parts` (with every parameter). INTERNAL if one is
// missing (the catalog and the metastore disagree).
Result<std::vector<hive::Partition>> MetastorePartitions(CatalogContext* ctx, const TableRef& t,
                                                         const std::vector<PartitionPtr>& parts);

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

// ---- partition helpers (ddl_partitions.cc) ----

// The loaded, partitioned, non-view table a partition operation works on.
Result<TablePtr> PartitionedTable(CatalogContext* ctx, const TableRef& t);
// A new partition of `hms` with `values` at `location` (the table's storage
// descriptor, creation time now).
hive::Partition NewPartition(const hive::Table& hms, std::vector<std::string> values,
                             const std::string& location);
MetastoreOp AddPartitionOp(const hive::Partition& part);
MetastoreTxn DropPartitionsTxn(const TableRef& t, const std::vector<std::string>& names);
// The table's normalized location; INVALID_ARGUMENT if it has none.
Result<std::string> TableLocation(const hive::Table& hms, const TableRef& t);

// ---- operations ----

// Typed commands (ddl_executor.h); the Impala-shaped operations below that
// overlap them translate their params and call these.
Result<DdlOutcome> CreateDatabase(CatalogContext* ctx, const CreateDatabaseCommand& c);
Result<DdlOutcome> DropDatabase(CatalogContext* ctx, const DropDatabaseCommand& c);
Result<DdlOutcome> AlterDatabase(CatalogContext* ctx, const AlterDatabaseCommand& c);
Result<DdlOutcome> CreateTable(CatalogContext* ctx, const CreateTableCommand& c);
Result<DdlOutcome> DropTable(CatalogContext* ctx, const DropTableCommand& c);
Result<DdlOutcome> AlterTable(CatalogContext* ctx, const AlterTableCommand& c);
Result<DdlOutcome> CreateFunction(CatalogContext* ctx, const CreateFunctionCommand& c);
Result<DdlOutcome> DropFunction(CatalogContext* ctx, const DropFunctionCommand& c);

Result<DdlOutcome> CreateDatabase(CatalogContext* ctx, const impala::TCreateDbParams& p);
Result<DdlOutcome> DropDatabase(CatalogContext* ctx, const impala::TDropDbParams& p);
Result<DdlOutcome> AlterDatabase(CatalogContext* ctx, const impala::TAlterDbParams& p);
Result<DdlOutcome> CommentOn(CatalogContext* ctx, const impala::TCommentOnParams& p);

Result<DdlOutcome> CreateTable(CatalogContext* ctx, const impala::TCreateTableParams& p);
Result<DdlOutcome> CreateTableLike(CatalogContext* ctx, const impala::TCreateTableLikeParams& p);
Result<DdlOutcome> CreateView(CatalogContext* ctx, const impala::TCreateOrAlterViewParams& p);
Result<DdlOutcome> AlterView(CatalogContext* ctx, const impala::TCreateOrAlterViewParams& p);
Result<DdlOutcome> DropTableOrView(CatalogContext* ctx, const impala::TDropTableOrViewParams& p,
                                   bool is_view_stmt);
Result<DdlOutcome> TruncateTable(CatalogContext* ctx, const impala::TTruncateParams& p);

Result<DdlOutcome> AlterTable(CatalogContext* ctx, const impala::TAlterTableParams& p);
Result<DdlOutcome> RenameTable(CatalogContext* ctx, const impala::TAlterTableParams& p);

Result<DdlOutcome> AddPartitions(CatalogContext* ctx, const TableRef& t,
                                 const impala::TAlterTableAddPartitionParams& p);
Result<DdlOutcome> DropPartitions(CatalogContext* ctx, const TableRef& t,
                                  const impala::TAlterTableDropPartitionParams& p);
Result<DdlOutcome> RecoverPartitions(CatalogContext* ctx, const TableRef& t);
Result<DdlOutcome> UpdateCatalog(CatalogContext* ctx, const impala::TUpdateCatalogRequest& req);
// DdlExecutor::ApplyPartitionBatch (ddl_partition_batch.cc).
Result<PartitionBatchResult> ApplyPartitionBatch(CatalogContext* ctx, const PartitionBatch& batch);
// DdlExecutor::ChangeTable (ddl_table_change.cc).
Result<DdlOutcome> ChangeTable(CatalogContext* ctx, const TableChange& change);

// Removes the row count, total size and incremental stats chunks from
// table or partition parameters; true if anything was removed.
bool StripStatsParams(std::map<std::string, std::string>* params);

Result<DdlOutcome> UpdateStats(CatalogContext* ctx, const TableRef& t,
                               const impala::TAlterTableUpdateStatsParams& p);
Result<DdlOutcome> DropStats(CatalogContext* ctx, const impala::TDropStatsParams& p);

Result<DdlOutcome> CreateFunction(CatalogContext* ctx, const impala::TCreateFunctionParams& p);
Result<DdlOutcome> DropFunction(CatalogContext* ctx, const impala::TDropFunctionParams& p);
// "name(type1,type2)" / "name(type1,type2...)" for var args.
Result<std::string> FunctionSignature(const std::string& name,
                                      const std::vector<impala::TColumnType>& arg_types,
                                      bool var_args);

// ALTER VIEW SET/UNSET TBLPROPERTIES (alter types SET_VIEW_PROPERTIES and
// UNSET_VIEW_PROPERTIES) on `params`, the parameters of `view`.
// INVALID_ARGUMENT if `view` is not a view, the sub-struct is missing, the
// list is empty, or a key is reserved (storage_handler, statistics keys).
// UNSET without IF EXISTS: NOT_FOUND naming every absent key, `params`
// unchanged; with IF EXISTS absent keys are skipped.
[[nodiscard]] Status EditViewProperties(const impala::TAlterTableParams& p, const TableRef& t,
                                        const hive::Table& view,
                                        std::map<std::string, std::string>* params);

// REFRESH of a table or of the partitions it names in partition_spec_list and/or
// partition_spec (both are honoured; duplicates count once). Every named
// partition must exist in the catalog or the metastore, else NOT_FOUND and
// nothing changes; all of them are reloaded in one catalog install.
Result<DdlOutcome> RefreshTable(CatalogContext* ctx, const impala::TResetMetadataRequest& req);
// True if `req` names at least one partition (either field).
bool NamesPartitions(const impala::TResetMetadataRequest& req);
Result<DdlOutcome> InvalidateTable(CatalogContext* ctx, const TableRef& t);
Result<DdlOutcome> InvalidateDatabase(CatalogContext* ctx, const std::string& db_name);
// Global INVALIDATE METADATA; the caller holds reset_mu_ exclusively.
Result<DdlOutcome> InvalidateAll(CatalogContext* ctx);

}  // namespace ics::catalog::ddl
