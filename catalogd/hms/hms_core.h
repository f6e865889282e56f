// HmsCore: the Hive Metastore API (the calls of hive_metastore_service.thrift)
// over the catalog. Every change (databases, tables, partitions, column
// statistics, functions) is a command of the command core
// (catalogd/ops/command_core.h): the same validation, admission, locks,
// operation record, metastore transaction, directories and catalog install
// as from every other door; the catalog holds it when the call returns.
// HmsCore translates: it fills in what Hive clients leave to the metastore
// and keeps Hive's naming of things. Every read is a query of the core's
// read side (catalogd/ops/catalog_queries.h); this door holds no metastore.
//
// Names: database, table, column and function names are validated with the
// catalog's rules (common/hive/names.h) and lower-cased, as Hive does.
// Partitions are named "k1=v1/k2=v2" (common/hive/partition_name.h).
//
// Errors are Status codes; the Thrift handler (hms_handler.h) turns them into
// each call's declared exceptions:
//   NOT_FOUND        the database/table/partition/function/statistics is absent
//   ALREADY_EXISTS   the object to create exists
//   INVALID_ARGUMENT the request is malformed (bad name, wrong value count,
//                    malformed filter, unsupported feature, non-empty database
//                    dropped without cascade, ...); the message says why
//   LIMIT_EXCEEDED   the result or request is larger than the configured bound
//   other codes      metastore failures (IO_ERROR, CORRUPTION, ...)
//
// Bounds: a request naming more than max_objects_per_request objects fails;
// a partition listing whose max_parts is negative (= all) fails with
// LIMIT_EXCEEDED when the table has more than max_partitions_per_request
// matching partitions (as hive.metastore.limit.partition.request does);
// notification reads return at most max_notification_events events.
//
// Directories: the command core's (created with a new database, table or
// partition; removed by drops with deleteData; a managed table renamed with
// its location unchanged moves, as Hive's metastore moves it).
//
// Thread-safety: thread-safe (stateless apart from the thread-safe core it
// uses, which must outlive it).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hive_metastore_types.h"
#include "common/util/result.h"

namespace ics::catalog::ops {
class CatalogQueries;
class CommandCore;
}  // namespace ics::catalog::ops

namespace ics::catalog::hms {

struct HmsCoreOptions {
  std::string warehouse_dir;  // required: default locations and deleteData bound
  int max_partitions_per_request = 100000;
  int max_objects_per_request = 10000;
  int max_notification_events = 10000;
};

class HmsCore {
 public:
  // Reads through `reads`; `commands` carries out every change (both
  // required, both outlive the HmsCore).
  HmsCore(ops::CatalogQueries* reads, ops::CommandCore* commands, HmsCoreOptions options);

  const HmsCoreOptions& options() const { return opts_; }
  // The command core this door's changes go through.
  ops::CommandCore* commands() const { return commands_; }

  // ---- configuration ----
  // getMetaConf: the supported keys (see kSupportedConfKeys in the .cc);
  // INVALID_ARGUMENT for any other key.
  Result<std::string> GetMetaConf(const std::string& key) const;
  // get_config_value: a supported key's value, else `default_value`;
  // INVALID_ARGUMENT (security) for keys not starting with hive., mapred., hdfs.
  Result<std::string> GetConfigValue(const std::string& name,
                                     const std::string& default_value) const;

  // ---- databases ----
  Result<std::vector<std::string>> GetDatabases(const std::string& pattern);
  Result<hive::Database> GetDatabase(const std::string& name);
  [[nodiscard]] Status CreateDatabase(hive::Database db);
  [[nodiscard]] Status DropDatabase(const std::string& name, bool delete_data, bool cascade);
  [[nodiscard]] Status AlterDatabase(const std::string& name, hive::Database db);

  // ---- tables ----
  Result<std::vector<std::string>> GetTables(const std::string& db, const std::string& pattern);
  Result<std::vector<hive::TableMeta>> GetTableMeta(const std::string& db_patterns,
                                                    const std::string& tbl_patterns,
                                                    const std::vector<std::string>& types);
  Result<hive::Table> GetTable(const std::string& db, const std::string& table);
  // Tables that exist, in request order; absent names are skipped.
  Result<std::vector<hive::Table>> GetTablesByName(const std::string& db,
                                                   const std::vector<std::string>& names);
  [[nodiscard]] Status CreateTable(hive::Table table);
  [[nodiscard]] Status DropTable(const std::string& db, const std::string& table,
                                 bool delete_data);
  [[nodiscard]] Status AlterTable(const std::string& db, const std::string& table,
                                  hive::Table new_table);

  // ---- partitions: writes ----
  // Adds partitions of one table in one transaction (each partition's
  // dbName/tableName must be empty or name db.table). With if_not_exists,
  // partitions that already exist are skipped. Returns the added partitions.
  Result<std::vector<hive::Partition>> AddPartitions(const std::string& db,
                                                     const std::string& table,
                                                     std::vector<hive::Partition> parts,
                                                     bool if_not_exists);
  // add_partition(s): the db/table come from the partitions themselves.
  Result<std::vector<hive::Partition>> AddPartitionObjects(std::vector<hive::Partition> parts);
  Result<hive::Partition> AppendPartition(const std::string& db, const std::string& table,
                                          const std::vector<std::string>& values);
  Result<hive::Partition> AppendPartitionByName(const std::string& db, const std::string& table,
                                                const std::string& name);
  // Drops partitions by name in one transaction; with if_exists, absent
  // names are skipped. Returns the dropped partitions.
  Result<std::vector<hive::Partition>> DropPartitions(const std::string& db,
                                                      const std::string& table,
                                                      const std::vector<std::string>& names,
                                                      bool if_exists, bool delete_data);
  // The partition name of `values` for db.table.
  Result<std::string> PartitionNameOf(const std::string& db, const std::string& table,
                                      const std::vector<std::string>& values);
  // Replaces partitions (identified by their values) in one transaction.
  [[nodiscard]] Status AlterPartitions(const std::string& db, const std::string& table,
                                       std::vector<hive::Partition> parts);
  // Renames the partition with `old_values` to new_part.values; its column
  // statistics move with it.
  [[nodiscard]] Status RenamePartition(const std::string& db, const std::string& table,
                                       const std::vector<std::string>& old_values,
                                       hive::Partition new_part);

  // ---- partitions: reads ----
  Result<hive::Partition> GetPartitionByName(const std::string& db, const std::string& table,
                                             const std::string& name);
  // Partitions ordered by name; max_parts < 0 means all (bounded, see above).
  // `values` (get_partitions_ps): a prefix of the key values, "" = any value.
  // `filter` (get_partitions_by_filter): see hms_filter.h.
  struct PartitionQuery {
    int max_parts = -1;
    bool by_values = false;
    std::vector<std::string> values;
    bool by_filter = false;
    std::string filter;
  };
  Result<std::vector<hive::Partition>> ListPartitions(const std::string& db,
                                                      const std::string& table,
                                                      const PartitionQuery& query);
  Result<std::vector<std::string>> ListPartitionNames(const std::string& db,
                                                      const std::string& table,
                                                      const PartitionQuery& query);
  Result<std::vector<hive::Partition>> GetPartitionsByNames(const std::string& db,
                                                            const std::string& table,
                                                            const std::vector<std::string>& names);

  // ---- column statistics ----
  // Upserts the given columns' statistics of a table (desc.isTblLevel) or a
  // partition (desc.partName), as a change of the command core. INVALID_ARGUMENT for a column the table does
  // not have or a level/partName mismatch.
  [[nodiscard]] Status UpdateColumnStatistics(const hive::ColumnStatistics& stats,
                                              bool partition_level);
  // Which levels a SetStatistics request may carry.
  enum class StatsLevel { kAny, kTable, kPartition };
  // set_aggr_stats_for / update_*_column_statistics_req: every statistics
  // object of the request (each checked as UpdateColumnStatistics does, its
  // level from its own desc) as one change of the command core per table
  // (ONE transaction for a request about one table, the usual case). needMerge=true (merge with
  // the stored statistics) is INVALID_ARGUMENT: statistics are replaced,
  // never merged. The engine is accepted whatever it is (or absent, as from
  // Hive 2 clients); statistics are kept once, not per engine.
  [[nodiscard]] Status SetStatistics(const hive::SetPartitionsStatsRequest& request,
                                     StatsLevel level);
  // The statistics of the named columns that have any (others are skipped).
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table, const std::vector<std::string>& columns);
  // Per partition name, the statistics of the named columns; partitions
  // (or columns) without statistics are left out.
  Result<std::map<std::string, std::vector<hive::ColumnStatisticsObj>>> GetPartitionsColumnStats(
      const std::string& db, const std::string& table, const std::vector<std::string>& columns,
      const std::vector<std::string>& partition_names);
  // Statistics merged over the named partitions (see the .cc for the rules).
  Result<hive::AggrStats> GetAggrStats(const std::string& db, const std::string& table,
                                       const std::vector<std::string>& columns,
                                       const std::vector<std::string>& partition_names);
  // Deletes one column's statistics (column "" = every column) at table
  // level (partition_name "") or of one partition. NOT_FOUND if none exist.
  [[nodiscard]] Status DeleteColumnStats(const std::string& db, const std::string& table,
                                         const std::string& partition_name,
                                         const std::string& column);

  // ---- functions (mapping: common/hive/function_map.h) ----
  [[nodiscard]] Status CreateFunction(const hive::Function& fn);
  [[nodiscard]] Status DropFunction(const std::string& db, const std::string& name);
  Result<std::vector<std::string>> GetFunctionNames(const std::string& db,
                                                    const std::string& pattern);
  Result<hive::Function> GetFunction(const std::string& db, const std::string& name);
  Result<std::vector<hive::Function>> GetAllFunctions();

  // ---- notification log ----
  Result<std::vector<hive::NotificationEvent>> GetNextNotifications(int64_t last_event,
                                                                    int max_events);
  Result<int64_t> CurrentNotificationEventId();

 private:
  struct TableStatsEdit;  // hms_core_internal.h
  struct TableStatsDrop;
  // The validated statistics edit of one ColumnStatistics.
  Result<TableStatsEdit> StatsEdit(const hive::ColumnStatistics& stats, bool partition_level);
  // Commits statistics edits through the command core: one planned change
  // per table, in table order, recorded as ALTER_TABLE "<db.t> (<what>)".
  [[nodiscard]] Status CommitStats(const std::string& what, std::vector<TableStatsEdit> set,
                                   std::vector<TableStatsDrop> drops);

  ops::CatalogQueries* const reads_;
  ops::CommandCore* const commands_;
  const HmsCoreOptions opts_;
};

// HMS name patterns (get_databases, get_tables, get_functions,
// get_table_meta): '*' matches any characters, '|' separates alternatives,
// everything else matches itself, case-insensitively. "" matches everything.
bool MatchesHmsPattern(const std::string& pattern, const std::string& name);

}  // namespace ics::catalog::hms
