// The Hive Metastore service as catalogd serves it (the HMS endpoint) and as the
// remote-metastore backend calls it. Only the calls engines actually use are declared;
// each keeps the method name, argument ids/types, result type and exception ids/types
// of the Hive metastore IDL so that stock Hive clients interoperate. It does not extend
// the fb303 base service. Data types live in hive_metastore.thrift.

include "hive_metastore.thrift"

namespace cpp hive

service ThriftHiveMetastore {
  // ---- Configuration ----
  string getMetaConf(1: string key) throws (1: hive_metastore.MetaException o1)
  string get_config_value(1: string name, 2: string defaultValue)
      throws (1: hive_metastore.ConfigValSecurityException o1)

  // The user and groups a client connects as; answers the groups.
  list<string> set_ugi(1: string user_name, 2: list<string> group_names)
      throws (1: hive_metastore.MetaException o1)

  // ---- Catalogs (one is served) ----
  hive_metastore.GetCatalogResponse get_catalog(1: hive_metastore.GetCatalogRequest catName)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  hive_metastore.GetCatalogsResponse get_catalogs() throws (1: hive_metastore.MetaException o1)

  // ---- Databases ----
  hive_metastore.Database get_database_req(1: hive_metastore.GetDatabaseRequest request)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  void create_database(1: hive_metastore.Database database)
      throws (1: hive_metastore.AlreadyExistsException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3)
  hive_metastore.Database get_database(1: string name)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  void drop_database(1: string name, 2: bool deleteData, 3: bool cascade)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidOperationException o2,
              3: hive_metastore.MetaException o3)
  list<string> get_databases(1: string pattern) throws (1: hive_metastore.MetaException o1)
  list<string> get_all_databases() throws (1: hive_metastore.MetaException o1)
  void alter_database(1: string dbname, 2: hive_metastore.Database db)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)

  // ---- Tables ----
  // A table's columns (get_fields) or its columns then its partition keys
  // (get_schema).
  list<hive_metastore.FieldSchema> get_fields(1: string db_name, 2: string table_name)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  list<hive_metastore.FieldSchema> get_fields_with_environment_context(1: string db_name,
      2: string table_name, 3: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  hive_metastore.GetFieldsResponse get_fields_req(1: hive_metastore.GetFieldsRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  list<hive_metastore.FieldSchema> get_schema(1: string db_name, 2: string table_name)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  list<hive_metastore.FieldSchema> get_schema_with_environment_context(1: string db_name,
      2: string table_name, 3: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  hive_metastore.GetSchemaResponse get_schema_req(1: hive_metastore.GetSchemaRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.UnknownTableException o2,
              3: hive_metastore.UnknownDBException o3)
  hive_metastore.GetTableResult get_table_req(1: hive_metastore.GetTableRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  hive_metastore.GetTablesResult get_table_objects_by_name_req(
      1: hive_metastore.GetTablesRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.InvalidOperationException o2,
              3: hive_metastore.UnknownDBException o3)
  void create_table(1: hive_metastore.Table tbl)
      throws (1: hive_metastore.AlreadyExistsException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.NoSuchObjectException o4)
  void create_table_with_environment_context(1: hive_metastore.Table tbl,
      2: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.AlreadyExistsException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.NoSuchObjectException o4)
  void drop_table(1: string dbname, 2: string name, 3: bool deleteData)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o3)
  void drop_table_with_environment_context(1: string dbname, 2: string name,
      3: bool deleteData, 4: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o3)
  list<string> get_tables(1: string db_name, 2: string pattern)
      throws (1: hive_metastore.MetaException o1)
  list<hive_metastore.TableMeta> get_table_meta(1: string db_patterns,
      2: string tbl_patterns, 3: list<string> tbl_types)
      throws (1: hive_metastore.MetaException o1)
  list<string> get_all_tables(1: string db_name) throws (1: hive_metastore.MetaException o1)
  hive_metastore.Table get_table(1: string dbname, 2: string tbl_name)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  list<hive_metastore.Table> get_table_objects_by_name(1: string dbname,
      2: list<string> tbl_names)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.InvalidOperationException o2,
              3: hive_metastore.UnknownDBException o3)
  void alter_table(1: string dbname, 2: string tbl_name, 3: hive_metastore.Table new_tbl)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)
  void alter_table_with_environment_context(1: string dbname, 2: string tbl_name,
      3: hive_metastore.Table new_tbl,
      4: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)

  // ---- Partitions: add, append, drop ----
  hive_metastore.Partition add_partition(1: hive_metastore.Partition new_part)
      throws (1: hive_metastore.InvalidObjectException o1,
              2: hive_metastore.AlreadyExistsException o2,
              3: hive_metastore.MetaException o3)
  i32 add_partitions(1: list<hive_metastore.Partition> new_parts)
      throws (1: hive_metastore.InvalidObjectException o1,
              2: hive_metastore.AlreadyExistsException o2,
              3: hive_metastore.MetaException o3)
  hive_metastore.Partition append_partition(1: string db_name, 2: string tbl_name,
      3: list<string> part_vals)
      throws (1: hive_metastore.InvalidObjectException o1,
              2: hive_metastore.AlreadyExistsException o2,
              3: hive_metastore.MetaException o3)
  hive_metastore.AddPartitionsResult add_partitions_req(
      1: hive_metastore.AddPartitionsRequest request)
      throws (1: hive_metastore.InvalidObjectException o1,
              2: hive_metastore.AlreadyExistsException o2,
              3: hive_metastore.MetaException o3)
  hive_metastore.Partition append_partition_by_name(1: string db_name, 2: string tbl_name,
      3: string part_name)
      throws (1: hive_metastore.InvalidObjectException o1,
              2: hive_metastore.AlreadyExistsException o2,
              3: hive_metastore.MetaException o3)
  bool drop_partition(1: string db_name, 2: string tbl_name, 3: list<string> part_vals,
      4: bool deleteData)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  bool drop_partition_by_name(1: string db_name, 2: string tbl_name, 3: string part_name,
      4: bool deleteData)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  hive_metastore.DropPartitionsResult drop_partitions_req(
      1: hive_metastore.DropPartitionsRequest req)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)

  // ---- Partitions: read ----
  hive_metastore.Partition get_partition(1: string db_name, 2: string tbl_name,
      3: list<string> part_vals)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  hive_metastore.Partition get_partition_by_name(1: string db_name, 2: string tbl_name,
      3: string part_name)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  list<hive_metastore.Partition> get_partitions(1: string db_name, 2: string tbl_name,
      3: i16 max_parts = -1)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  list<string> get_partition_names(1: string db_name, 2: string tbl_name,
      3: i16 max_parts = -1)
      throws (1: hive_metastore.MetaException o2)
  list<hive_metastore.Partition> get_partitions_ps(1: string db_name, 2: string tbl_name,
      3: list<string> part_vals, 4: i16 max_parts = -1)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  list<string> get_partition_names_ps(1: string db_name, 2: string tbl_name,
      3: list<string> part_vals, 4: i16 max_parts = -1)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  hive_metastore.GetPartitionNamesPsResponse get_partition_names_ps_req(
      1: hive_metastore.GetPartitionNamesPsRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  // As get_partitions_ps: the user and groups are not checked (no
  // authorization is kept by this metastore yet).
  list<hive_metastore.Partition> get_partitions_ps_with_auth(1: string db_name,
      2: string tbl_name, 3: list<string> part_vals, 4: i16 max_parts = -1,
      5: string user_name, 6: list<string> group_names)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  hive_metastore.GetPartitionsPsWithAuthResponse get_partitions_ps_with_auth_req(
      1: hive_metastore.GetPartitionsPsWithAuthRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  list<hive_metastore.Partition> get_partitions_by_filter(1: string db_name,
      2: string tbl_name, 3: string filter, 4: i16 max_parts = -1)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  list<hive_metastore.Partition> get_partitions_by_names(1: string db_name,
      2: string tbl_name, 3: list<string> names)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  hive_metastore.GetPartitionsByNamesResult get_partitions_by_names_req(
      1: hive_metastore.GetPartitionsByNamesRequest req)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)

  // ---- Partitions: alter, rename, names ----
  void alter_partition(1: string db_name, 2: string tbl_name,
      3: hive_metastore.Partition new_part)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)
  void alter_partitions(1: string db_name, 2: string tbl_name,
      3: list<hive_metastore.Partition> new_parts)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)
  // The call Spark's Hive client sends to alter partitions.
  void alter_partitions_with_environment_context(1: string db_name, 2: string tbl_name,
      3: list<hive_metastore.Partition> new_parts,
      4: hive_metastore.EnvironmentContext environment_context)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)
  void rename_partition(1: string db_name, 2: string tbl_name, 3: list<string> part_vals,
      4: hive_metastore.Partition new_part)
      throws (1: hive_metastore.InvalidOperationException o1,
              2: hive_metastore.MetaException o2)
  list<string> partition_name_to_vals(1: string part_name)
      throws (1: hive_metastore.MetaException o1)
  map<string, string> partition_name_to_spec(1: string part_name)
      throws (1: hive_metastore.MetaException o1)

  // ---- Column statistics ----
  bool update_table_column_statistics(1: hive_metastore.ColumnStatistics stats_obj)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.InvalidInputException o4)
  bool update_partition_column_statistics(1: hive_metastore.ColumnStatistics stats_obj)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.InvalidInputException o4)
  hive_metastore.ColumnStatistics get_table_column_statistics(1: string db_name,
      2: string tbl_name, 3: string col_name)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2,
              3: hive_metastore.InvalidInputException o3,
              4: hive_metastore.InvalidObjectException o4)
  hive_metastore.ColumnStatistics get_partition_column_statistics(1: string db_name,
      2: string tbl_name, 3: string part_name, 4: string col_name)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2,
              3: hive_metastore.InvalidInputException o3,
              4: hive_metastore.InvalidObjectException o4)
  hive_metastore.TableStatsResult get_table_statistics_req(
      1: hive_metastore.TableStatsRequest request)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  hive_metastore.PartitionsStatsResult get_partitions_statistics_req(
      1: hive_metastore.PartitionsStatsRequest request)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  hive_metastore.AggrStats get_aggr_stats_for(1: hive_metastore.PartitionsStatsRequest request)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2)
  // Writes several table- or partition-level statistics objects in one call
  // (Impala's and Hive's batch path).
  bool set_aggr_stats_for(1: hive_metastore.SetPartitionsStatsRequest request)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.InvalidInputException o4)
  // The request forms Hive 4 clients use for the two update calls above.
  hive_metastore.SetPartitionsStatsResponse update_table_column_statistics_req(
      1: hive_metastore.SetPartitionsStatsRequest req)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.InvalidInputException o4)
  hive_metastore.SetPartitionsStatsResponse update_partition_column_statistics_req(
      1: hive_metastore.SetPartitionsStatsRequest req)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.InvalidInputException o4)
  // engine (Hive 4) is absent from Hive 2 clients' calls and then arrives empty.
  bool delete_partition_column_statistics(1: string db_name, 2: string tbl_name,
      3: string part_name, 4: string col_name, 5: string engine)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2,
              3: hive_metastore.InvalidObjectException o3,
              4: hive_metastore.InvalidInputException o4)
  bool delete_table_column_statistics(1: string db_name, 2: string tbl_name,
      3: string col_name, 4: string engine)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o2,
              3: hive_metastore.InvalidObjectException o3,
              4: hive_metastore.InvalidInputException o4)

  // ---- User-defined functions ----
  void create_function(1: hive_metastore.Function func)
      throws (1: hive_metastore.AlreadyExistsException o1,
              2: hive_metastore.InvalidObjectException o2,
              3: hive_metastore.MetaException o3,
              4: hive_metastore.NoSuchObjectException o4)
  void drop_function(1: string dbName, 2: string funcName)
      throws (1: hive_metastore.NoSuchObjectException o1,
              2: hive_metastore.MetaException o3)
  list<string> get_functions(1: string dbName, 2: string pattern)
      throws (1: hive_metastore.MetaException o1)
  hive_metastore.Function get_function(1: string dbName, 2: string funcName)
      throws (1: hive_metastore.MetaException o1,
              2: hive_metastore.NoSuchObjectException o2)
  hive_metastore.GetAllFunctionsResponse get_all_functions()
      throws (1: hive_metastore.MetaException o1)

  // ---- Notification log ----
  hive_metastore.NotificationEventResponse get_next_notification(
      1: hive_metastore.NotificationEventRequest rqst)
  hive_metastore.CurrentNotificationEventId get_current_notificationEventId()
}
