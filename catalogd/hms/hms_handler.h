// HmsHandler: the ThriftHiveMetastore Thrift handler. Thin: each call
// delegates to HmsCore and maps a failed Status to one of the exceptions the
// call declares (NOT_FOUND, ALREADY_EXISTS and INVALID_ARGUMENT per call, as
// the Hive Metastore reports them; everything else a MetaException). An
// unexpected C++ exception also becomes a MetaException (or, for the calls
// that declare none, a Thrift application error); the connection is never
// dropped because of a request.
//
// Read-your-writes: every write is a command of the command core
// (HmsCore), which records it and installs it in the catalog before the
// call replies, so a client that created a table here finds it through
// catalogd's other services as soon as the call returns.
//
// Column statistics calls take the Hive 4 `engine` argument or field when a
// client sends one; statistics are kept once, whatever the engine.
//
// Thread-safety: thread-safe (HmsCore is); one handler serves all connections.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ThriftHiveMetastore.h"
#include "catalogd/hms/hms_core.h"

namespace ics::catalog::hms {

class HmsHandler : public hive::ThriftHiveMetastoreIf {
 public:
  explicit HmsHandler(HmsCore* core) : core_(core) {}

  void getMetaConf(std::string& _return, const std::string& key) override;
  void set_ugi(std::vector<std::string>& _return, const std::string& user_name,
               const std::vector<std::string>& group_names) override;

  // ---- the request-object calls of Hive 3/4 clients (hms_handler_requests.cc)
  void get_catalog(hive::GetCatalogResponse& _return, const hive::GetCatalogRequest& req) override;
  void get_catalogs(hive::GetCatalogsResponse& _return) override;
  void get_database_req(hive::Database& _return, const hive::GetDatabaseRequest& req) override;
  void get_fields(std::vector<hive::FieldSchema>& _return, const std::string& db_name,
                  const std::string& table_name) override;
  void get_fields_with_environment_context(std::vector<hive::FieldSchema>& _return,
                                           const std::string& db_name,
                                           const std::string& table_name,
                                           const hive::EnvironmentContext& ctx) override;
  void get_fields_req(hive::GetFieldsResponse& _return, const hive::GetFieldsRequest& req) override;
  void get_schema(std::vector<hive::FieldSchema>& _return, const std::string& db_name,
                  const std::string& table_name) override;
  void get_schema_with_environment_context(std::vector<hive::FieldSchema>& _return,
                                           const std::string& db_name,
                                           const std::string& table_name,
                                           const hive::EnvironmentContext& ctx) override;
  void get_schema_req(hive::GetSchemaResponse& _return, const hive::GetSchemaRequest& req) override;
  void get_table_req(hive::GetTableResult& _return, const hive::GetTableRequest& req) override;
  void get_table_objects_by_name_req(hive::GetTablesResult& _return,
                                     const hive::GetTablesRequest& req) override;
  void get_partitions_ps_with_auth(std::vector<hive::Partition>& _return,
                                   const std::string& db_name, const std::string& tbl_name,
                                   const std::vector<std::string>& part_vals, int16_t max_parts,
                                   const std::string& user_name,
                                   const std::vector<std::string>& group_names) override;
  void get_partitions_ps_with_auth_req(hive::GetPartitionsPsWithAuthResponse& _return,
                                       const hive::GetPartitionsPsWithAuthRequest& req) override;
  void get_partitions_by_names_req(hive::GetPartitionsByNamesResult& _return,
                                   const hive::GetPartitionsByNamesRequest& req) override;
  void get_partition_names_ps_req(hive::GetPartitionNamesPsResponse& _return,
                                  const hive::GetPartitionNamesPsRequest& req) override;
  void alter_partitions_with_environment_context(
      const std::string& db_name, const std::string& tbl_name,
      const std::vector<hive::Partition>& new_parts,
      const hive::EnvironmentContext& environment_context) override;
  void get_config_value(std::string& _return, const std::string& name,
                        const std::string& defaultValue) override;

  void create_database(const hive::Database& database) override;
  void get_database(hive::Database& _return, const std::string& name) override;
  void drop_database(const std::string& name, bool deleteData, bool cascade) override;
  void get_databases(std::vector<std::string>& _return, const std::string& pattern) override;
  void get_all_databases(std::vector<std::string>& _return) override;
  void alter_database(const std::string& dbname, const hive::Database& db) override;

  void create_table(const hive::Table& tbl) override;
  void create_table_with_environment_context(const hive::Table& tbl,
                                             const hive::EnvironmentContext& ctx) override;
  void drop_table(const std::string& dbname, const std::string& name, bool deleteData) override;
  void drop_table_with_environment_context(const std::string& dbname, const std::string& name,
                                           bool deleteData,
                                           const hive::EnvironmentContext& ctx) override;
  void get_tables(std::vector<std::string>& _return, const std::string& db_name,
                  const std::string& pattern) override;
  void get_table_meta(std::vector<hive::TableMeta>& _return, const std::string& db_patterns,
                      const std::string& tbl_patterns,
                      const std::vector<std::string>& tbl_types) override;
  void get_all_tables(std::vector<std::string>& _return, const std::string& db_name) override;
  void get_table(hive::Table& _return, const std::string& dbname,
                 const std::string& tbl_name) override;
  void get_table_objects_by_name(std::vector<hive::Table>& _return, const std::string& dbname,
                                 const std::vector<std::string>& tbl_names) override;
  void alter_table(const std::string& dbname, const std::string& tbl_name,
                   const hive::Table& new_tbl) override;
  void alter_table_with_environment_context(const std::string& dbname,
                                            const std::string& tbl_name,
                                            const hive::Table& new_tbl,
                                            const hive::EnvironmentContext& ctx) override;

  void add_partition(hive::Partition& _return, const hive::Partition& new_part) override;
  int32_t add_partitions(const std::vector<hive::Partition>& new_parts) override;
  void append_partition(hive::Partition& _return, const std::string& db_name,
                        const std::string& tbl_name,
                        const std::vector<std::string>& part_vals) override;
  void add_partitions_req(hive::AddPartitionsResult& _return,
                          const hive::AddPartitionsRequest& request) override;
  void append_partition_by_name(hive::Partition& _return, const std::string& db_name,
                                const std::string& tbl_name,
                                const std::string& part_name) override;
  bool drop_partition(const std::string& db_name, const std::string& tbl_name,
                      const std::vector<std::string>& part_vals, bool deleteData) override;
  bool drop_partition_by_name(const std::string& db_name, const std::string& tbl_name,
                              const std::string& part_name, bool deleteData) override;
  void drop_partitions_req(hive::DropPartitionsResult& _return,
                           const hive::DropPartitionsRequest& req) override;

  void get_partition(hive::Partition& _return, const std::string& db_name,
                     const std::string& tbl_name,
                     const std::vector<std::string>& part_vals) override;
  void get_partition_by_name(hive::Partition& _return, const std::string& db_name,
                             const std::string& tbl_name, const std::string& part_name) override;
  void get_partitions(std::vector<hive::Partition>& _return, const std::string& db_name,
                      const std::string& tbl_name, int16_t max_parts) override;
  void get_partition_names(std::vector<std::string>& _return, const std::string& db_name,
                           const std::string& tbl_name, int16_t max_parts) override;
  void get_partitions_ps(std::vector<hive::Partition>& _return, const std::string& db_name,
                         const std::string& tbl_name, const std::vector<std::string>& part_vals,
                         int16_t max_parts) override;
  void get_partition_names_ps(std::vector<std::string>& _return, const std::string& db_name,
                              const std::string& tbl_name,
                              const std::vector<std::string>& part_vals,
                              int16_t max_parts) override;
  void get_partitions_by_filter(std::vector<hive::Partition>& _return,
                                const std::string& db_name, const std::string& tbl_name,
                                const std::string& filter, int16_t max_parts) override;
  void get_partitions_by_names(std::vector<hive::Partition>& _return,
                               const std::string& db_name, const std::string& tbl_name,
                               const std::vector<std::string>& names) override;
  void alter_partition(const std::string& db_name, const std::string& tbl_name,
                       const hive::Partition& new_part) override;
  void alter_partitions(const std::string& db_name, const std::string& tbl_name,
                        const std::vector<hive::Partition>& new_parts) override;
  void rename_partition(const std::string& db_name, const std::string& tbl_name,
                        const std::vector<std::string>& part_vals,
                        const hive::Partition& new_part) override;
  void partition_name_to_vals(std::vector<std::string>& _return,
                              const std::string& part_name) override;
  void partition_name_to_spec(std::map<std::string, std::string>& _return,
                              const std::string& part_name) override;

  bool update_table_column_statistics(const hive::ColumnStatistics& stats_obj) override;
  bool update_partition_column_statistics(const hive::ColumnStatistics& stats_obj) override;
  void get_table_column_statistics(hive::ColumnStatistics& _return, const std::string& db_name,
                                   const std::string& tbl_name,
                                   const std::string& col_name) override;
  void get_partition_column_statistics(hive::ColumnStatistics& _return,
                                       const std::string& db_name, const std::string& tbl_name,
                                       const std::string& part_name,
                                       const std::string& col_name) override;
  void get_table_statistics_req(hive::TableStatsResult& _return,
                                const hive::TableStatsRequest& request) override;
  void get_partitions_statistics_req(hive::PartitionsStatsResult& _return,
                                     const hive::PartitionsStatsRequest& request) override;
  void get_aggr_stats_for(hive::AggrStats& _return,
                          const hive::PartitionsStatsRequest& request) override;
  bool set_aggr_stats_for(const hive::SetPartitionsStatsRequest& request) override;
  void update_table_column_statistics_req(hive::SetPartitionsStatsResponse& _return,
                                          const hive::SetPartitionsStatsRequest& req) override;
  void update_partition_column_statistics_req(hive::SetPartitionsStatsResponse& _return,
                                              const hive::SetPartitionsStatsRequest& req) override;
  bool delete_partition_column_statistics(const std::string& db_name, const std::string& tbl_name,
                                          const std::string& part_name,
                                          const std::string& col_name,
                                          const std::string& engine) override;
  bool delete_table_column_statistics(const std::string& db_name, const std::string& tbl_name,
                                      const std::string& col_name,
                                      const std::string& engine) override;

  void create_function(const hive::Function& func) override;
  void drop_function(const std::string& dbName, const std::string& funcName) override;
  void get_functions(std::vector<std::string>& _return, const std::string& dbName,
                     const std::string& pattern) override;
  void get_function(hive::Function& _return, const std::string& dbName,
                    const std::string& funcName) override;
  void get_all_functions(hive::GetAllFunctionsResponse& _return) override;

  void get_next_notification(hive::NotificationEventResponse& _return,
                             const hive::NotificationEventRequest& rqst) override;
  void get_current_notificationEventId(hive::CurrentNotificationEventId& _return) override;

 private:
  HmsCore* const core_;
};

}  // namespace ics::catalog::hms
