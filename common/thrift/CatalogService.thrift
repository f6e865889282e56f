// The CatalogService RPC interface of catalogd and its request/response structs.
// Method names, argument ids, field ids, types, requiredness and defaults match
// Apache Impala's CatalogService.thrift for wire compatibility.

namespace cpp impala

include "CatalogObjects.thrift"
include "JniCatalog.thrift"
include "Types.thrift"
include "Status.thrift"
include "Results.thrift"
include "RuntimeProfile.thrift"
include "hive_metastore.thrift"
include "SqlConstraints.thrift"

// Protocol version carried by every request; V1 clients are refused
// (CATALOG_INCOMPATIBLE_PROTOCOL).
enum CatalogServiceVersion {
  V1 = 0
  V2 = 1
}

// Topic key prefix of entries for coordinators that take full metadata from the topic.
const string CATALOG_TOPIC_V1_PREFIX = "1:";

// Topic key prefix of invalidation entries for coordinators that fetch on demand.
const string CATALOG_TOPIC_V2_PREFIX = "2:";

// Caller context attached to requests.
struct TCatalogServiceRequestHeader {
  1: optional string requesting_user
  2: optional string redacted_sql_stmt
  3: optional string client_ip
  // Ask for invalidation-only objects in the result instead of full ones.
  4: optional bool want_minimal_response
  5: optional Types.TUniqueId query_id
  6: optional string coordinator_hostname
  // This project's own fields (ids far from Impala's, which skips them):
  // exactly-once writes. A write that may be sent again (its reply was lost:
  // catalogd was killed or replaced mid-call) carries an id unique to it,
  // the same in every attempt; catalogd records it with the change, in the
  // same metastore transaction, and answers a repeat whose id is recorded
  // with success, without carrying it out again. `request_repeated` marks
  // the attempts after the first (only they need the lookup).
  100: optional Types.TUniqueId request_id
  101: optional bool request_repeated
}

// Result of a catalog-changing operation: status, the catalog version that holds the
// change, and the objects added/changed and removed.
struct TCatalogUpdateResult {
  1: required Types.TUniqueId catalog_service_id
  2: required i64 version
  3: required Status.TStatus status
  4: required bool is_invalidate
  5: optional list<CatalogObjects.TCatalogObject> updated_catalog_objects
  6: optional list<CatalogObjects.TCatalogObject> removed_catalog_objects
}

// Query options that matter to DDL execution.
struct TDdlQueryOptions {
  1: required bool sync_ddl
  2: optional string debug_action
  3: optional i32 lock_max_wait_time_s
  4: optional i32 kudu_table_reserve_seconds
}

// A DDL statement to run; the params struct matching ddl_type is set.
struct TDdlExecRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: optional TCatalogServiceRequestHeader header
  3: required JniCatalog.TDdlType ddl_type
  4: optional JniCatalog.TAlterTableParams alter_table_params
  5: optional JniCatalog.TCreateOrAlterViewParams alter_view_params
  6: optional JniCatalog.TCreateDbParams create_db_params
  7: optional JniCatalog.TCreateTableParams create_table_params
  8: optional JniCatalog.TCreateTableLikeParams create_table_like_params
  9: optional JniCatalog.TCreateOrAlterViewParams create_view_params
  10: optional JniCatalog.TCreateFunctionParams create_fn_params
  11: optional JniCatalog.TDropDbParams drop_db_params
  12: optional JniCatalog.TDropTableOrViewParams drop_table_or_view_params
  13: optional JniCatalog.TTruncateParams truncate_params
  14: optional JniCatalog.TDropFunctionParams drop_fn_params
  15: optional JniCatalog.TComputeStatsParams compute_stats_params
  16: optional JniCatalog.TCreateDataSourceParams create_data_source_params
  17: optional JniCatalog.TDropDataSourceParams drop_data_source_params
  18: optional JniCatalog.TDropStatsParams drop_stats_params
  19: optional JniCatalog.TCreateDropRoleParams create_drop_role_params
  20: optional JniCatalog.TGrantRevokeRoleParams grant_revoke_role_params
  21: optional JniCatalog.TGrantRevokePrivParams grant_revoke_priv_params
  22: optional JniCatalog.TCommentOnParams comment_on_params
  23: optional JniCatalog.TAlterDbParams alter_db_params
  24: optional JniCatalog.TCopyTestCaseReq copy_test_case_params
  25: required TDdlQueryOptions query_options
}

// Outcome of ExecDdl.
struct TDdlExecResponse {
  1: required TCatalogUpdateResult result
  // CTAS only: true if the target table was actually created.
  2: optional bool new_table_created;
  // Summary rows shown to the user.
  3: optional Results.TResultSet result_set
  // CREATE TABLE/VIEW variants: name, create time and (external) location in HMS.
  4: optional string table_name
  5: optional i64 table_create_time
  6: optional string table_location
  7: optional RuntimeProfile.TRuntimeProfileNode profile
}

// Files written into one partition by an INSERT.
struct TUpdatedPartition {
  1: required list<string> files;
}

// Post-INSERT metadata update. Partition names map to their new files; "" is the
// root of an unpartitioned table. Omitted optional field: 10 iceberg_operation.
struct TUpdateCatalogRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required bool sync_ddl
  3: optional TCatalogServiceRequestHeader header
  4: required string target_table;
  5: required string db_name;
  6: required map<string, TUpdatedPartition> updated_partitions;
  7: required bool is_overwrite;
  8: optional i64 transaction_id
  9: optional i64 write_id
  11: optional string debug_action
}

struct TUpdateCatalogResponse {
  1: required TCatalogUpdateResult result
  2: optional RuntimeProfile.TRuntimeProfileNode profile
}

// REFRESH (is_refresh) or INVALIDATE METADATA of a table, some of its partitions, a
// database's functions, authorization data, or (no target) the whole catalog.
// Partitions: current coordinators name them in partition_spec_list (11); older ones
// send a single one in partition_spec (5). With neither, a REFRESH covers the table.
struct TResetMetadataRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: optional TCatalogServiceRequestHeader header
  3: required bool is_refresh
  4: optional CatalogObjects.TTableName table_name
  5: optional list<CatalogObjects.TPartitionKeyValue> partition_spec
  6: optional string db_name
  7: required bool sync_ddl
  8: optional bool authorization
  9: optional bool refresh_updated_hms_partitions
  10: optional string debug_action
  // The partitions a REFRESH reloads, each a complete key/value spec.
  11: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_spec_list
}

struct TResetMetadataResponse {
  1: required TCatalogUpdateResult result
  2: optional RuntimeProfile.TRuntimeProfileNode profile
}

// Lists user functions, optionally of one database.
struct TGetFunctionsRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  3: optional TCatalogServiceRequestHeader header
  2: optional string db_name;
}

struct TGetFunctionsResponse {
  1: optional Status.TStatus status
  2: optional list<Types.TFunction> functions;
}

// What to return about the catalog as a whole.
struct TCatalogInfoSelector {
  1: bool want_db_names
}

struct TPartialCatalogInfo {
  1: list<string> db_names
}

// What to return about a table. partition_ids unset with any want_partition_* flag
// means all partitions; set but empty means none.
struct TTableInfoSelector {
  1: bool want_hms_table
  2: optional list<i64> partition_ids
  3: bool want_partition_names
  4: bool want_partition_metadata
  5: bool want_partition_files
  6: optional list<string> want_stats_for_column_names
  7: bool want_partition_stats
  8: bool want_table_constraints
  9: optional CatalogObjects.TValidWriteIdList valid_write_ids
  10: optional i64 table_id = -1
  11: optional bool want_stats_for_all_columns
  12: bool want_hms_partition
  13: bool want_iceberg_table
  // Start offset for paging Iceberg file lists (unused here).
  14: optional i64 iceberg_file_offset
}

// Requested details of one partition; which fields are set follows the selector.
struct TPartialPartitionInfo {
  1: required i64 id
  2: optional string name
  // Held by pointer in C++ ('&'): a default HMS partition is over a kilobyte,
  // and a listing of names only would build one for every partition. The
  // wire form is the same.
  3: optional hive_metastore.Partition & hms_partition
  4: optional list<CatalogObjects.THdfsFileDesc> file_descriptors
  8: optional list<CatalogObjects.THdfsFileDesc> insert_file_descriptors
  9: optional list<CatalogObjects.THdfsFileDesc> delete_file_descriptors
  14: optional i64 last_compaction_id
  // Deflated, compact-encoded TPartitionStats.
  5: optional binary partition_stats
  6: optional bool has_incremental_stats
  7: optional bool is_marked_cached
  10: optional map<string, string> hms_parameters
  11: optional i64 write_id
  12: optional CatalogObjects.THdfsStorageDescriptor hdfs_storage_descriptor
  13: optional CatalogObjects.THdfsPartitionLocation location
}

// Requested details of a table. Explicitly requested partitions come back in request
// order. Omitted optional field: 13 iceberg_table.
struct TPartialTableInfo {
  1: optional hive_metastore.Table hms_table
  2: optional list<TPartialPartitionInfo> partitions
  3: optional list<hive_metastore.ColumnStatisticsObj> column_stats
  4: optional list<CatalogObjects.TColumn> virtual_columns
  5: optional i64 storage_metadata_load_time_ns
  // Datanodes referenced by index from the returned file descriptors.
  8: optional list<Types.TNetworkAddress> network_addresses
  9: optional SqlConstraints.TSqlConstraints sql_constraints
  10: optional CatalogObjects.TValidWriteIdList valid_write_ids;
  11: optional bool is_marked_cached
  12: optional list<string> partition_prefixes
}

// Table kind as shown to users.
enum TImpalaTableType {
  TABLE,
  VIEW,
  UNKNOWN,
  MATERIALIZED_VIEW
}

// Short table description for listings; fields other than name unset if unloaded.
struct TBriefTableMeta {
  1: required string name
  2: optional string msType
  3: optional string comment
  4: optional TImpalaTableType tblType
}

// What to return about a database.
struct TDbInfoSelector {
  1: bool want_hms_database
  2: bool want_brief_meta_of_tables
  3: bool want_function_names
}

struct TPartialDbInfo {
  1: optional hive_metastore.Database hms_database
  2: optional list<TBriefTableMeta> brief_meta_of_tables
  3: optional list<string> function_names
}

// On-demand fetch of part of one object; object_desc carries only type and names.
struct TGetPartialCatalogObjectRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required CatalogObjects.TCatalogObject object_desc
  3: optional TTableInfoSelector table_info_selector
  4: optional TDbInfoSelector db_info_selector
  5: optional TCatalogInfoSelector catalog_info_selector
}

// Lookup outcome of a partial fetch.
enum CatalogLookupStatus {
  OK,
  DB_NOT_FOUND,
  TABLE_NOT_FOUND,
  TABLE_NOT_LOADED,
  FUNCTION_NOT_FOUND,
  PARTITION_NOT_FOUND,
  DATA_SOURCE_NOT_FOUND,
  VERSION_MISMATCH,
  CATALOG_SERVICE_CHANGED
}

// Result of GetPartialCatalogObject; unset status means OK.
struct TGetPartialCatalogObjectResponse {
  1: optional Status.TStatus status
  2: optional CatalogLookupStatus lookup_status = CatalogLookupStatus.OK
  3: optional i64 object_version_number
  4: optional TPartialTableInfo table_info
  5: optional TPartialDbInfo db_info
  6: optional TPartialCatalogInfo catalog_info
  7: optional list<Types.TFunction> functions
  8: optional list<CatalogObjects.TDataSource> data_srcs
  // catalogd load time (ms) belonging to object_version_number.
  9: optional i64 object_loaded_time_ms
  10: optional Types.TUniqueId catalog_service_id
}

// Full fetch of one object (may trigger loading it).
struct TGetCatalogObjectRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  3: optional TCatalogServiceRequestHeader header
  2: required CatalogObjects.TCatalogObject object_desc
}

struct TGetCatalogObjectResponse {
  1: required Status.TStatus status;
  2: required CatalogObjects.TCatalogObject catalog_object
}

// Fetch of all partition stats of a table. valid_write_ids/table_id apply to ACID
// tables only.
struct TGetPartitionStatsRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required CatalogObjects.TTableName table_name
  3: optional CatalogObjects.TValidWriteIdList valid_write_ids
  4: optional i64 table_id = -1
}

// Partition name -> deflated TPartitionStats; partitions without stats are absent.
struct TGetPartitionStatsResponse {
  1: optional Status.TStatus status
  2: optional map<string, binary> partition_stats
}

// Asks for the metastore's default (NULL) partition name.
struct TGetNullPartitionNameRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
}

struct TGetNullPartitionNameResponse {
  1: required Status.TStatus status
  2: required string partition_value
}

// Asks for compactions newer than last_compaction_id. The misspelt field name is the
// peer's and is kept.
struct TGetLatestCompactionsRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required string db_name
  3: required string table_name
  4: required string non_parition_name
  5: optional list<string> partition_names
  6: required i64 last_compaction_id
}

struct TGetLatestCompactionsResponse {
  1: required Status.TStatus status
  2: required map<string, i64> partition_to_compaction_id
}

// Moves the listed tables to the front of the load queue.
struct TPrioritizeLoadRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: optional TCatalogServiceRequestHeader header
  3: required list<CatalogObjects.TCatalogObject> object_descs
}

struct TPrioritizeLoadResponse {
  1: required Status.TStatus status
}

// Use count of one table since the previous report.
struct TTableUsage {
  1: required CatalogObjects.TTableName table_name
  2: required i32 num_usages
}

struct TUpdateTableUsageRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required list<TTableUsage> usages
}

struct TUpdateTableUsageResponse {
  1: optional Status.TStatus status
}

// Command for the HMS event processor; action is a string on purpose.
struct TEventProcessorCmdParams {
  1: required string action
  2: optional i64 event_id
}

struct TSetEventProcessorStatusRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: optional TCatalogServiceRequestHeader header
  3: required TEventProcessorCmdParams params
}

struct TSetEventProcessorStatusResponse {
  1: required Status.TStatus status
  2: optional string info
}

// Waits (up to timeout_s) until catalogd has applied the latest HMS events relevant
// to the listed objects (or db/table lists).
struct TWaitForHmsEventRequest {
  1: required CatalogServiceVersion protocol_version = CatalogServiceVersion.V2
  2: required TCatalogServiceRequestHeader header
  3: required i32 timeout_s
  4: required bool want_db_list
  5: required bool want_table_list
  6: optional list<CatalogObjects.TCatalogObject> object_descs
}

struct TWaitForHmsEventResponse {
  1: required Status.TStatus status
  2: optional TCatalogUpdateResult result
}

// catalogd's RPC interface.
service CatalogService {
  TDdlExecResponse ExecDdl(1: TDdlExecRequest req);

  TGetCatalogObjectResponse GetCatalogObject(1: TGetCatalogObjectRequest req);

  TGetPartitionStatsResponse GetPartitionStats(1: TGetPartitionStatsRequest req);

  TResetMetadataResponse ResetMetadata(1: TResetMetadataRequest req);

  TUpdateCatalogResponse UpdateCatalog(1: TUpdateCatalogRequest req);

  TGetFunctionsResponse GetFunctions(1: TGetFunctionsRequest req);

  TPrioritizeLoadResponse PrioritizeLoad(1: TPrioritizeLoadRequest req);

  TGetPartialCatalogObjectResponse GetPartialCatalogObject(
      1: TGetPartialCatalogObjectRequest req);

  TUpdateTableUsageResponse UpdateTableUsage(1: TUpdateTableUsageRequest req);

  TGetNullPartitionNameResponse GetNullPartitionName(1: TGetNullPartitionNameRequest req);

  TGetLatestCompactionsResponse GetLatestCompactions(1: TGetLatestCompactionsRequest req);

  TSetEventProcessorStatusResponse SetEventProcessorStatus(
      1: TSetEventProcessorStatusRequest req);

  TWaitForHmsEventResponse WaitForHmsEvent(1: TWaitForHmsEventRequest req);
}
