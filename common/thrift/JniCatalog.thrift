// Parameters of DDL operations sent to catalogd inside TDdlExecRequest. Field ids,
// types, requiredness and enum values match Apache Impala's JniCatalog.thrift for
// wire compatibility.

namespace cpp impala

include "CatalogObjects.thrift"
include "Types.thrift"
include "hive_metastore.thrift"

// Default HDFS cache replication when CACHED IN gives none.
const i16 HDFS_DEFAULT_CACHE_REPLICATION_FACTOR = 1

// Which DDL a TDdlExecRequest performs.
enum TDdlType {
  ALTER_TABLE = 0
  ALTER_VIEW = 1
  CREATE_DATABASE = 2
  CREATE_TABLE = 3
  CREATE_TABLE_AS_SELECT = 4
  CREATE_TABLE_LIKE = 5
  CREATE_VIEW = 6
  CREATE_FUNCTION = 7
  COMPUTE_STATS = 8
  DROP_DATABASE = 9
  DROP_TABLE = 10
  DROP_VIEW = 11
  DROP_FUNCTION = 12
  CREATE_DATA_SOURCE = 13
  DROP_DATA_SOURCE = 14
  DROP_STATS = 15
  CREATE_ROLE = 16
  DROP_ROLE = 17
  GRANT_ROLE = 18
  REVOKE_ROLE = 19
  GRANT_PRIVILEGE = 20
  REVOKE_PRIVILEGE = 21
  TRUNCATE_TABLE = 22
  COMMENT_ON = 23
  ALTER_DATABASE = 24
  COPY_TESTCASE = 25
}

// Kind of owner named in ALTER ... SET OWNER.
enum TOwnerType {
  USER = 0
  ROLE = 1
}

// ---- ALTER DATABASE ----

enum TAlterDbType {
  SET_OWNER = 0
  SET_DBPROPERTIES = 1
}

struct TAlterDbSetOwnerParams {
  1: required TOwnerType owner_type
  2: required string owner_name
  3: optional string server_name
}

struct TAlterDbSetDbPropertiesParams {
  1: map<string, string> properties
}

// The sub-struct matching alter_type is set.
struct TAlterDbParams {
  1: required TAlterDbType alter_type
  2: required string db
  3: optional TAlterDbSetOwnerParams set_owner_params
  4: optional TAlterDbSetDbPropertiesParams set_dbproperties_params
}

// ---- ALTER TABLE ----

// Kind of ALTER TABLE/VIEW. The view-property kinds (20, 21) carry their keys in
// set_tbl_properties_params / unset_tbl_properties_params and apply to views only;
// the Iceberg kinds (18, 19) are listed for completeness and refused.
enum TAlterTableType {
  ADD_COLUMNS = 0
  REPLACE_COLUMNS = 1
  ADD_PARTITION = 2
  ADD_DROP_RANGE_PARTITION = 3
  ALTER_COLUMN = 4
  DROP_COLUMN = 5
  DROP_PARTITION = 6
  RENAME_TABLE = 7
  RENAME_VIEW = 8
  SET_FILE_FORMAT = 9
  SET_LOCATION = 10
  SET_TBL_PROPERTIES = 11
  UPDATE_STATS = 12
  SET_CACHED = 13
  RECOVER_PARTITIONS = 14
  SET_ROW_FORMAT = 15
  SET_OWNER = 16
  UNSET_TBL_PROPERTIES = 17
  SET_PARTITION_SPEC = 18
  EXECUTE = 19
  SET_VIEW_PROPERTIES = 20
  UNSET_VIEW_PROPERTIES = 21
}

// ---- CREATE DATABASE / DATA SOURCE, DROP STATS, CREATE FUNCTION ----

struct TCreateDbParams {
  1: required string db
  2: optional string comment
  3: optional string location
  4: optional bool if_not_exists
  5: required string owner
  6: optional string server_name
  7: optional string managed_location
  8: optional map<string, string> properties
}

struct TCreateDataSourceParams {
  1: required CatalogObjects.TDataSource data_source
  2: optional bool if_not_exists
}

struct TDropDataSourceParams {
  1: required string data_source
  2: optional bool if_exists
}

// Drops table stats, or the stats of the listed partitions when partition_set is set.
struct TDropStatsParams {
  1: required CatalogObjects.TTableName table_name
  2: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

struct TCreateFunctionParams {
  1: required Types.TFunction fn
  2: optional bool if_not_exists
}

// ROW FORMAT DELIMITED settings.
struct TTableRowFormat {
  1: optional string field_terminator
  2: optional string line_terminator
  3: optional string escaped_by
}

// CACHED IN / UNCACHED request.
struct THdfsCachingOp {
  1: required bool set_cached
  2: optional string cache_pool_name
  3: optional i16 replication
}

// ---- ALTER TABLE sub-parameters ----

struct TAlterTableOrViewRenameParams {
  1: required CatalogObjects.TTableName new_table_name
}

struct TAlterTableAddColsParams {
  1: optional list<CatalogObjects.TColumn> columns
  2: required bool if_not_exists
}

struct TAlterTableReplaceColsParams {
  1: required list<CatalogObjects.TColumn> columns
}

// One partition to add, with optional location and caching.
struct TPartitionDef {
  1: required list<CatalogObjects.TPartitionKeyValue> partition_spec
  2: optional string location
  3: optional THdfsCachingOp cache_op
}

struct TAlterTableAddPartitionParams {
  1: required bool if_not_exists
  2: required list<TPartitionDef> partitions
}

struct TAlterTableDropColParams {
  1: required string col_name
}

// Omitted optional field: 4 iceberg_drop_partition_request.
struct TAlterTableDropPartitionParams {
  1: required list<list<CatalogObjects.TPartitionKeyValue>> partition_set
  2: required bool if_exists
  3: required bool purge
}

struct TAlterTableAlterColParams {
  1: required string col_name
  2: required CatalogObjects.TColumn new_col_def
}

struct TAlterTableSetTblPropertiesParams {
  1: required CatalogObjects.TTablePropertyType target
  2: required map<string, string> properties
  3: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

struct TAlterTableSetFileFormatParams {
  1: required CatalogObjects.THdfsFileFormat file_format
  2: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

struct TAlterTableSetRowFormatParams {
  1: required TTableRowFormat row_format
  2: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

struct TAlterTableSetLocationParams {
  1: required string location
  2: optional list<CatalogObjects.TPartitionKeyValue> partition_spec
}

struct TAlterTableOrViewSetOwnerParams {
  1: required TOwnerType owner_type
  2: required string owner_name
  3: optional string server_name
}

// Statistics computed by the coordinator (COMPUTE STATS) to be stored. Partition
// stats are keyed by the list of partition values. Omitted optional field: 7 snapshot_id.
struct TAlterTableUpdateStatsParams {
  1: required CatalogObjects.TTableName table_name
  2: optional CatalogObjects.TTableStats table_stats
  3: optional map<list<string>, CatalogObjects.TPartitionStats> partition_stats
  4: optional map<string, CatalogObjects.TColumnStats> column_stats
  5: optional bool expect_all_partitions
  6: optional bool is_incremental
}

struct TAlterTableSetCachedParams {
  1: required THdfsCachingOp cache_op
  2: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

struct TAlterTableUnSetTblPropertiesParams {
  1: required CatalogObjects.TTablePropertyType target
  2: required list<string> property_keys
  3: required bool if_exists
  4: optional list<list<CatalogObjects.TPartitionKeyValue>> partition_set
}

// The sub-struct matching alter_type is set. Omitted optional fields:
// 14 add_drop_range_partition_params (Kudu), 19 set_partition_spec_params and
// 20 set_execute_params (Iceberg).
struct TAlterTableParams {
  1: required TAlterTableType alter_type
  2: required CatalogObjects.TTableName table_name
  3: optional TAlterTableOrViewRenameParams rename_params
  4: optional TAlterTableAddColsParams add_cols_params
  5: optional TAlterTableAddPartitionParams add_partition_params
  6: optional TAlterTableAlterColParams alter_col_params
  7: optional TAlterTableDropColParams drop_col_params
  8: optional TAlterTableDropPartitionParams drop_partition_params
  9: optional TAlterTableSetFileFormatParams set_file_format_params
  10: optional TAlterTableSetLocationParams set_location_params
  11: optional TAlterTableSetTblPropertiesParams set_tbl_properties_params
  12: optional TAlterTableUpdateStatsParams update_stats_params
  13: optional TAlterTableSetCachedParams set_cached_params
  15: optional TAlterTableSetRowFormatParams set_row_format_params
  16: optional TAlterTableOrViewSetOwnerParams set_owner_params
  17: optional TAlterTableReplaceColsParams replace_cols_params
  18: optional TAlterTableUnSetTblPropertiesParams unset_tbl_properties_params
}

// ---- CREATE TABLE / VIEW ----

struct TCreateTableLikeParams {
  1: required CatalogObjects.TTableName table_name
  2: required CatalogObjects.TTableName src_table_name
  3: required bool is_external
  4: required bool if_not_exists
  5: required string owner
  6: optional CatalogObjects.THdfsFileFormat file_format
  7: optional string comment
  8: optional string location
  9: optional list<string> sort_columns
  10: optional string server_name
  11: required Types.TSortingOrder sorting_order
}

// Omitted optional fields: 14 partition_by (Kudu), 21 partition_spec (Iceberg).
struct TCreateTableParams {
  1: required CatalogObjects.TTableName table_name
  2: required list<CatalogObjects.TColumn> columns
  3: optional list<CatalogObjects.TColumn> partition_columns
  4: required CatalogObjects.THdfsFileFormat file_format
  5: required bool is_external
  6: required bool if_not_exists
  7: required string owner
  8: optional TTableRowFormat row_format
  9: optional string comment
  10: optional string location
  11: optional map<string, string> table_properties
  12: optional map<string, string> serde_properties
  13: optional THdfsCachingOp cache_op
  15: optional list<string> primary_key_column_names;
  16: optional list<string> sort_columns
  17: optional string server_name
  18: required Types.TSortingOrder sorting_order
  19: optional list<hive_metastore.SQLPrimaryKey> primary_keys;
  20: optional list<hive_metastore.SQLForeignKey> foreign_keys;
  22: optional CatalogObjects.TBucketInfo bucket_info
  23: optional bool is_primary_key_unique
}

// Used for both CREATE VIEW and ALTER VIEW ... AS.
struct TCreateOrAlterViewParams {
  1: required CatalogObjects.TTableName view_name
  2: required list<CatalogObjects.TColumn> columns
  3: required string owner
  4: required string original_view_def
  5: required string expanded_view_def
  6: optional string comment
  7: optional bool if_not_exists
  8: optional string server_name
  9: optional map<string, string> tblproperties
}

// COMPUTE STATS as planned by the coordinator (the peer sends UPDATE_STATS instead).
// Omitted optional field: 10 iceberg_snapshot_id.
struct TComputeStatsParams {
  1: required CatalogObjects.TTableName table_name
  2: optional string tbl_stats_query
  3: optional string col_stats_query
  4: optional bool is_incremental
  5: optional list<CatalogObjects.TPartitionStats> existing_part_stats
  6: optional list<list<string>> expected_partitions
  7: optional bool expect_all_partitions
  8: optional i32 num_partition_cols
  9: optional i64 total_file_bytes
}

// ---- Roles and privileges ----

struct TCreateDropRoleParams {
  1: required bool is_drop
  2: required string role_name
}

struct TGrantRevokeRoleParams {
  1: required list<string> role_names
  2: required list<string> group_names
  3: required bool is_grant
  4: optional list<string> user_names
  5: optional bool has_admin_opt
}

struct TGrantRevokePrivParams {
  1: required list<CatalogObjects.TPrivilege> privileges
  2: required string principal_name
  3: required bool is_grant
  4: required bool has_grant_opt
  5: required CatalogObjects.TPrincipalType principal_type
  6: optional string owner_name
}

// ---- DROP / TRUNCATE ----

struct TDropDbParams {
  1: required string db
  2: required bool if_exists
  3: required bool cascade
  4: optional string server_name
}

struct TDropTableOrViewParams {
  1: required CatalogObjects.TTableName table_name
  2: required bool if_exists
  3: required bool purge
  4: optional bool is_table
  5: optional string server_name
}

struct TTruncateParams {
  1: required CatalogObjects.TTableName table_name
  2: required bool if_exists
  3: optional bool delete_stats = true
}

// Identifies the overload to drop by name and argument types (or signature).
struct TDropFunctionParams {
  1: required Types.TFunctionName fn_name
  2: required list<Types.TColumnType> arg_types
  3: required bool if_exists
  4: optional string signature
}

// ---- COMMENT ON ----

struct TColumnName {
  1: required CatalogObjects.TTableName table_name
  2: required string column_name
}

// Exactly one target (db, table_name or column_name) is set; an unset comment
// removes it.
struct TCommentOnParams {
  1: optional string comment
  2: optional string db
  3: optional CatalogObjects.TTableName table_name
  4: optional TColumnName column_name
}

// ---- Test case replay ----

struct TCopyTestCaseReq {
  1: required string input_path
}
