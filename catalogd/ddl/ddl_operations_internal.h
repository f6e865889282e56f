// The operations of the DDL executor (ddl_executor.h), one entry point
// each, which DdlExecutor's methods and its Impala dispatch call. Private
// to catalogd/ddl. Every operation takes the steps of ddl_steps_internal.h.
//
// Layout of the implementation:
//   ddl_executor.cc         the executor's methods, Impala's ExecDdl dispatch
//   ddl_steps.cc            the shared steps (ddl_steps_internal.h)
//   ddl_locations.cc        locations and data removal (ddl_locations_internal.h)
//   ddl_schema.cc           formats, columns, statistics checks (ddl_schema_internal.h)
//   ddl_partition_specs.cc  partition specs (ddl_partition_specs_internal.h)
//   ddl_database.cc         CREATE/DROP/ALTER DATABASE, COMMENT ON
//   ddl_table.cc            CREATE TABLE [LIKE], CREATE/ALTER VIEW, DROP, TRUNCATE
//   ddl_alter_table.cc      ALTER TABLE (columns, rename, formats, properties, ...)
//   ddl_view_properties.cc  ALTER VIEW SET/UNSET TBLPROPERTIES
//   ddl_partitions.cc       ADD/DROP/RECOVER PARTITIONS, INSERT's metadata step
//   ddl_partition_batch.cc  batches of partition adds/alters/drops
//   ddl_table_change.cc     planned single-table changes (TableEdits)
//   ddl_stats.cc            UPDATE_STATS, DROP STATS, the column statistics rule
//   ddl_functions.cc        CREATE/DROP FUNCTION
//   ddl_reset.cc            REFRESH / INVALIDATE METADATA
//
// Thread-safety: as ddl_steps_internal.h says.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "JniCatalog_types.h"
#include "catalogd/ddl/ddl_steps_internal.h"

namespace ics::catalog::ddl {

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

Result<DdlOutcome> CommentOn(CatalogContext* ctx, const impala::TCommentOnParams& p);

Result<DdlOutcome> CreateTable(CatalogContext* ctx, const impala::TCreateTableParams& p);
Result<DdlOutcome> CreateTableLike(CatalogContext* ctx, const impala::TCreateTableLikeParams& p);
Result<DdlOutcome> CreateView(CatalogContext* ctx, const impala::TCreateOrAlterViewParams& p);
Result<DdlOutcome> AlterView(CatalogContext* ctx, const impala::TCreateOrAlterViewParams& p);
Result<DdlOutcome> TruncateTable(CatalogContext* ctx, const TruncateTableCommand& c);

Result<DdlOutcome> AlterTable(CatalogContext* ctx, const impala::TAlterTableParams& p);
Result<DdlOutcome> RenameTable(CatalogContext* ctx, const impala::TAlterTableParams& p);

Result<DdlOutcome> AddPartitions(CatalogContext* ctx, const TableRef& t,
                                 const impala::TAlterTableAddPartitionParams& p);
Result<DdlOutcome> DropPartitions(CatalogContext* ctx, const TableRef& t,
                                  const impala::TAlterTableDropPartitionParams& p);
Result<DdlOutcome> RecoverPartitions(CatalogContext* ctx, const TableRef& t);
Result<DdlOutcome> Insert(CatalogContext* ctx, const InsertCommand& c);
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

// REFRESH of a table or of the partitions `c` names (duplicates count
// once). Every named partition must exist in the catalog or the metastore,
// else NOT_FOUND and nothing changes; all of them are reloaded in one
// catalog install.
Result<DdlOutcome> RefreshTable(CatalogContext* ctx, const ResetCommand& c);
Result<DdlOutcome> InvalidateTable(CatalogContext* ctx, const TableRef& t);
Result<DdlOutcome> InvalidateDatabase(CatalogContext* ctx, const std::string& db_name);
// Global INVALIDATE METADATA; the caller holds reset_mu_ exclusively.
Result<DdlOutcome> InvalidateAll(CatalogContext* ctx);

}  // namespace ics::catalog::ddl
