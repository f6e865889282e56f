// The operations of the DDL executor (ddl_executor.h), one entry point
// per typed command, which DdlExecutor's methods call. Private
// to catalogd/ddl. Every operation takes the steps of ddl_steps_internal.h.
//
// Layout of the implementation:
//   ddl_executor.cc         the executor's methods
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

#include "catalogd/ddl/ddl_steps_internal.h"

namespace ics::catalog::ddl {

// The typed commands (ddl_commands.h), one entry point each.
Result<DdlOutcome> CreateDatabase(CatalogContext* ctx, const CreateDatabaseCommand& c);
Result<DdlOutcome> DropDatabase(CatalogContext* ctx, const DropDatabaseCommand& c);
Result<DdlOutcome> AlterDatabase(CatalogContext* ctx, const AlterDatabaseCommand& c);
Result<DdlOutcome> CommentOn(CatalogContext* ctx, const CommentOnCommand& c);

Result<DdlOutcome> CreateTable(CatalogContext* ctx, const CreateTableCommand& c);
Result<DdlOutcome> CreateTableLike(CatalogContext* ctx, const CreateTableLikeCommand& c);
Result<DdlOutcome> AlterView(CatalogContext* ctx, const AlterViewCommand& c);
Result<DdlOutcome> DropTable(CatalogContext* ctx, const DropTableCommand& c);
Result<DdlOutcome> TruncateTable(CatalogContext* ctx, const TruncateTableCommand& c);

Result<DdlOutcome> AlterTable(CatalogContext* ctx, const AlterTableCommand& c);
Result<DdlOutcome> AlterTableDefinition(CatalogContext* ctx, const TableAlterationCommand& c);
Result<DdlOutcome> RenameTable(CatalogContext* ctx, const RenameTableCommand& c);

Result<DdlOutcome> AddPartitions(CatalogContext* ctx, const AddPartitionsCommand& c);
Result<DdlOutcome> DropPartitions(CatalogContext* ctx, const DropPartitionsCommand& c);
Result<DdlOutcome> RecoverPartitions(CatalogContext* ctx, const RecoverPartitionsCommand& c);
Result<DdlOutcome> Insert(CatalogContext* ctx, const InsertCommand& c);
// DdlExecutor::ApplyPartitionBatch (ddl_partition_batch.cc).
Result<PartitionBatchResult> ApplyPartitionBatch(CatalogContext* ctx, const PartitionBatch& batch);
// DdlExecutor::ChangeTable (ddl_table_change.cc).
Result<DdlOutcome> ChangeTable(CatalogContext* ctx, const TableChange& change);

// Removes the row count, total size and incremental stats chunks from
// table or partition parameters; true if anything was removed.
bool StripStatsParams(std::map<std::string, std::string>* params);

Result<DdlOutcome> UpdateStats(CatalogContext* ctx, const UpdateStatsCommand& c);
Result<DdlOutcome> DropStats(CatalogContext* ctx, const DropStatsCommand& c);

Result<DdlOutcome> CreateFunction(CatalogContext* ctx, const CreateFunctionCommand& c);
Result<DdlOutcome> DropFunction(CatalogContext* ctx, const DropFunctionCommand& c);
// "name(type1,type2)" / "name(type1,type2...)" for var args.
Result<std::string> FunctionSignature(const std::string& name,
                                      const std::vector<impala::TColumnType>& arg_types,
                                      bool var_args);

// ALTER VIEW SET / UNSET TBLPROPERTIES on `params`, the parameters of
// `view`. INVALID_ARGUMENT if `view` is not a view, the list is empty, or a
// key is reserved (storage_handler, statistics keys). Unset without
// if_exists: NOT_FOUND naming every absent key, `params` unchanged; with
// if_exists absent keys are skipped.
[[nodiscard]] Status SetViewProperties(const alter::SetViewProperties& p, const TableRef& t,
                                       const hive::Table& view,
                                       std::map<std::string, std::string>* params);
[[nodiscard]] Status UnsetViewProperties(const alter::UnsetViewProperties& p, const TableRef& t,
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
