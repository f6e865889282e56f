// HmsHandler: the calls Hive 3/4 clients make with request objects (and the
// older calls that engines still send next to them): each maps its request
// to the same parts the older calls use. A request's catName is checked
// like a "@<catalog>#<db>" name (WithCatalog).
#include "catalogd/hms/hms_handler.h"
#include "catalogd/hms/hms_handler_internal.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::hms {

using namespace handler_internal;  // NOLINT: the handler's own helpers

namespace {

// UnknownDBException / UnknownTableException as get_fields and get_schema
// declare them.
constexpr Errs kUnknownDb{Ex::kUnknownDB, Ex::kMeta, Ex::kMeta};
constexpr Errs kUnknownTable{Ex::kUnknownTable, Ex::kMeta, Ex::kMeta};

// A table's columns, and with `keys` its partition keys after them. One
// read; the database is looked up only to name what is missing.
std::vector<hive::FieldSchema> Fields(HmsCore* core, const std::string& db,
                                      const std::string& table, bool keys) {
  Result<hive::Table> read = core->objects().GetTable(db, table);
  if (!read.ok() && read.status().Is(ErrorCode::kNotFound)) {
    Get(core->objects().GetDatabase(db), kUnknownDb);
  }
  hive::Table t = Get(std::move(read), kUnknownTable);
  std::vector<hive::FieldSchema> out = std::move(t.sd.cols);
  if (keys) out.insert(out.end(), t.partitionKeys.begin(), t.partitionKeys.end());
  return out;
}

}  // namespace

void HmsHandler::set_ugi(std::vector<std::string>& _return, const std::string& /*user_name*/,
                         const std::vector<std::string>& group_names) {
  // The caller is the connection's authenticated peer, not what it says
  // here; the call only echoes the groups, as Hive's metastore does.
  Guard("set_ugi", Ex::kMeta, [&] { _return = group_names; });
}

void HmsHandler::get_catalog(hive::GetCatalogResponse& _return,
                             const hive::GetCatalogRequest& req) {
  Guard("get_catalog", Ex::kMeta,
        [&] { _return.catalog = Get(core_->config().GetCatalog(req.name), kLookup); });
}

void HmsHandler::get_catalogs(hive::GetCatalogsResponse& _return) {
  Guard("get_catalogs", Ex::kMeta, [&] { _return.names = {core_->config().CatalogName()}; });
}

void HmsHandler::get_database_req(hive::Database& _return, const hive::GetDatabaseRequest& req) {
  Guard("get_database_req", Ex::kMeta, [&] {
    _return = Get(core_->objects().GetDatabase(
                      WithCatalog(req.__isset.catalogName, req.catalogName, req.name)),
                  kLookup);
  });
}

void HmsHandler::get_fields(std::vector<hive::FieldSchema>& _return, const std::string& db_name,
                            const std::string& table_name) {
  Guard("get_fields", Ex::kMeta, [&] { _return = Fields(core_, db_name, table_name, false); });
}

void HmsHandler::get_fields_with_environment_context(std::vector<hive::FieldSchema>& _return,
                                                     const std::string& db_name,
                                                     const std::string& table_name,
                                                     const hive::EnvironmentContext&) {
  Guard("get_fields_with_environment_context", Ex::kMeta,
        [&] { _return = Fields(core_, db_name, table_name, false); });
}

void HmsHandler::get_fields_req(hive::GetFieldsResponse& _return,
                                const hive::GetFieldsRequest& req) {
  Guard("get_fields_req", Ex::kMeta, [&] {
    _return.fields = Fields(core_, WithCatalog(req.__isset.catName, req.catName, req.dbName),
                            req.tblName, false);
  });
}

void HmsHandler::get_schema(std::vector<hive::FieldSchema>& _return, const std::string& db_name,
                            const std::string& table_name) {
  Guard("get_schema", Ex::kMeta, [&] { _return = Fields(core_, db_name, table_name, true); });
}

void HmsHandler::get_schema_with_environment_context(std::vector<hive::FieldSchema>& _return,
                                                     const std::string& db_name,
                                                     const std::string& table_name,
                                                     const hive::EnvironmentContext&) {
  Guard("get_schema_with_environment_context", Ex::kMeta,
        [&] { _return = Fields(core_, db_name, table_name, true); });
}

void HmsHandler::get_schema_req(hive::GetSchemaResponse& _return,
                                const hive::GetSchemaRequest& req) {
  Guard("get_schema_req", Ex::kMeta, [&] {
    _return.fields =
        Fields(core_, WithCatalog(req.__isset.catName, req.catName, req.dbName), req.tblName, true);
  });
}

void HmsHandler::get_table_req(hive::GetTableResult& _return, const hive::GetTableRequest& req) {
  Guard("get_table_req", Ex::kMeta, [&] {
    const std::string db = WithCatalog(req.__isset.catName, req.catName, req.dbName);
    _return.table = Get(core_->objects().GetTable(db, req.tblName), kLookup);
    if (!req.__isset.getColumnStats || !req.getColumnStats) return;
    // The table's column statistics (statistics are kept once, whatever
    // the engine asked for).
    std::vector<std::string> columns;
    for (const hive::FieldSchema& f : _return.table.sd.cols) columns.push_back(f.name);
    hive::ColumnStatistics stats;
    stats.statsDesc.isTblLevel = true;
    stats.statsDesc.dbName = _return.table.dbName;
    stats.statsDesc.tableName = _return.table.tableName;
    stats.statsObj =
        Get(core_->statistics().GetTableColumnStats(db, req.tblName, columns), kLookup);
    if (req.__isset.engine) stats.__set_engine(req.engine);
    _return.table.__set_colStats(std::move(stats));
  });
}

void HmsHandler::get_table_objects_by_name_req(hive::GetTablesResult& _return,
                                               const hive::GetTablesRequest& req) {
  Guard("get_table_objects_by_name_req", Ex::kMeta, [&] {
    constexpr Errs errs{Ex::kUnknownDB, Ex::kMeta, Ex::kInvalidOperation};
    const std::string db = WithCatalog(req.__isset.catName, req.catName, req.dbName);
    std::vector<std::string> names = req.tblNames;
    if (!req.__isset.tblNames) {
      names = Get(
          core_->objects().GetTables(db, req.__isset.tablesPattern ? req.tablesPattern : ""), errs);
    }
    _return.tables = Get(core_->objects().GetTablesByName(db, names), errs);
  });
}

void HmsHandler::get_partitions_ps_with_auth(std::vector<hive::Partition>& _return,
                                             const std::string& db_name,
                                             const std::string& tbl_name,
                                             const std::vector<std::string>& part_vals,
                                             int16_t max_parts, const std::string& /*user_name*/,
                                             const std::vector<std::string>& /*group_names*/) {
  get_partitions_ps(_return, db_name, tbl_name, part_vals, max_parts);
}

void HmsHandler::get_partitions_ps_with_auth_req(hive::GetPartitionsPsWithAuthResponse& _return,
                                                 const hive::GetPartitionsPsWithAuthRequest& req) {
  get_partitions_ps(_return.partitions, WithCatalog(req.__isset.catName, req.catName, req.dbName),
                    req.tblName, req.partVals, req.maxParts);
}

void HmsHandler::get_partitions_by_names_req(hive::GetPartitionsByNamesResult& _return,
                                             const hive::GetPartitionsByNamesRequest& req) {
  Guard("get_partitions_by_names_req", Ex::kMeta, [&] {
    _return.partitions = Get(
        core_->partitions().GetPartitionsByNames(req.db_name, req.tbl_name, req.names), kLookup);
    if (!req.__isset.get_col_stats || !req.get_col_stats || _return.partitions.empty()) return;
    // Each partition's statistics of the table's columns (kept once,
    // whatever the engine asked for).
    const hive::Table table = Get(core_->objects().GetTable(req.db_name, req.tbl_name), kLookup);
    std::vector<std::string> columns;
    for (const hive::FieldSchema& f : table.sd.cols) columns.push_back(f.name);
    std::vector<std::string> keys;
    for (const hive::FieldSchema& f : table.partitionKeys) keys.push_back(f.name);
    std::vector<std::string> names;
    for (const hive::Partition& p : _return.partitions) {
      names.push_back(Get(MakePartitionName(keys, p.values), kLookup));
    }
    std::map<std::string, std::vector<hive::ColumnStatisticsObj>> stats =
        Get(core_->statistics().GetPartitionsColumnStats(req.db_name, req.tbl_name, columns, names),
            kLookup);
    for (size_t i = 0; i < _return.partitions.size(); ++i) {
      hive::ColumnStatistics cs;
      cs.statsDesc.isTblLevel = false;
      cs.statsDesc.dbName = table.dbName;
      cs.statsDesc.tableName = table.tableName;
      cs.statsDesc.__set_partName(names[i]);
      auto it = stats.find(names[i]);
      if (it != stats.end()) cs.statsObj = std::move(it->second);
      if (req.__isset.engine) cs.__set_engine(req.engine);
      _return.partitions[i].__set_colStats(std::move(cs));
    }
  });
}

void HmsHandler::get_partition_names_ps_req(hive::GetPartitionNamesPsResponse& _return,
                                            const hive::GetPartitionNamesPsRequest& req) {
  get_partition_names_ps(_return.names, WithCatalog(req.__isset.catName, req.catName, req.dbName),
                         req.tblName, req.partValues, req.maxParts);
}

void HmsHandler::alter_partitions_with_environment_context(
    const std::string& db_name, const std::string& tbl_name,
    const std::vector<hive::Partition>& new_parts, const hive::EnvironmentContext&) {
  alter_partitions(db_name, tbl_name, new_parts);
}

}  // namespace ics::catalog::hms
