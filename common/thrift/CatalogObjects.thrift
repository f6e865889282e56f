// Catalog objects (databases, tables, partitions, functions, principals, ...) that
// catalogd publishes and serves. Field ids, types, requiredness and enum values match
// Apache Impala's CatalogObjects.thrift for wire compatibility.

namespace cpp impala

include "Data.thrift"
include "Exprs.thrift"
include "Status.thrift"
include "Types.thrift"
include "hive_metastore.thrift"
include "SqlConstraints.thrift"

// Kind of object carried by a TCatalogObject (also the type word of topic keys).
enum TCatalogObjectType {
  UNKNOWN = 0
  CATALOG = 1
  DATABASE = 2
  TABLE = 3
  VIEW = 4
  FUNCTION = 5
  DATA_SOURCE = 6
  PRINCIPAL = 7
  PRIVILEGE = 8
  HDFS_CACHE_POOL = 9
  AUTHZ_CACHE_INVALIDATION = 10
  HDFS_PARTITION = 11
}

// Storage kind of a table. UNLOADED_TABLE: metadata not loaded yet (but not a view).
enum TTableType {
  HDFS_TABLE = 0
  HBASE_TABLE = 1
  VIEW = 2
  DATA_SOURCE_TABLE = 3
  KUDU_TABLE = 4
  ICEBERG_TABLE = 5
  UNLOADED_TABLE = 6
  MATERIALIZED_VIEW = 7
  SYSTEM_TABLE = 8
}

// File format of a table or partition.
enum THdfsFileFormat {
  TEXT = 0
  RC_FILE = 1
  SEQUENCE_FILE = 2
  AVRO = 3
  PARQUET = 4
  KUDU = 5
  ORC = 6
  HUDI_PARQUET = 7
  ICEBERG = 8
  JSON = 9
  JDBC = 10
}

// Kind of a virtual (engine-generated) column; NONE for ordinary columns.
enum TVirtualColumnType {
  NONE,
  INPUT_FILE_NAME,
  FILE_POSITION,
  PARTITION_SPEC_ID,
  ICEBERG_PARTITION_SERIALIZED,
  ICEBERG_DATA_SEQUENCE_NUMBER
}

// Compression codecs.
enum THdfsCompression {
  NONE = 0
  DEFAULT = 1
  GZIP = 2
  DEFLATE = 3
  BZIP2 = 4
  SNAPPY = 5
  SNAPPY_BLOCKED = 6
  LZO = 7
  LZ4 = 8
  ZLIB = 9
  ZSTD = 10
  BROTLI = 11
  LZ4_BLOCKED = 12
}

// Iceberg data file format (enum kept for value compatibility only).
enum TIcebergFileFormat {
  PARQUET = 0
  ORC = 1
  AVRO = 2
}

// Iceberg catalog implementation (enum kept for value compatibility only).
enum TIcebergCatalog {
  HADOOP_TABLES = 0
  HADOOP_CATALOG = 1
  HIVE_CATALOG = 2
  CATALOGS = 3
}

// Column encodings (Kudu).
enum TColumnEncoding {
  AUTO = 0
  PLAIN = 1
  PREFIX = 2
  GROUP_VARINT = 3
  RLE = 4
  DICTIONARY = 5
  BIT_SHUFFLE = 6
}

// Sequence file compression granularity.
enum THdfsSeqCompressionMode {
  RECORD = 0
  BLOCK = 1
}

// Whether a property change targets table (TBLPROPERTIES) or serde properties.
enum TTablePropertyType {
  TBL_PROPERTY = 0
  SERDE_PROPERTY = 1
}

// What the engine may do with the underlying files.
enum TAccessLevel {
  NONE = 0
  READ_WRITE = 1
  READ_ONLY = 2
  WRITE_ONLY = 3
}

// Iceberg partition transforms (enum kept for value compatibility only).
enum TIcebergPartitionTransformType {
  IDENTITY = 0
  HOUR = 1
  DAY = 2
  MONTH = 3
  YEAR = 4
  BUCKET = 5
  TRUNCATE = 6
  VOID = 7
}

// Bucketing scheme; HASH is Hive-compatible hash bucketing.
enum TBucketType {
  NONE = 0
  HASH = 1
}

// column=value element of a partition spec.
struct TPartitionKeyValue {
  1: required string name,
  2: required string value
}

// Database-qualified table name.
struct TTableName {
  1: required string db_name
  2: required string table_name
}

// Row count (-1 if unknown) and total file size of a table or partition.
struct TTableStats {
  1: required i64 num_rows
  2: optional i64 total_file_bytes
}

// Bucketing of a table.
struct TBucketInfo {
  1: required TBucketType bucket_type
  2: optional list<string> bucket_columns
  3: required i32 num_bucket
}

// Final statistics of one column, as used by the planner.
struct TColumnStats {
  1: required double avg_size
  2: required i64 max_size
  3: required i64 num_distinct_values
  4: required i64 num_nulls
  5: required i64 num_trues
  6: required i64 num_falses
  7: optional Data.TColumnValue low_value
  8: optional Data.TColumnValue high_value
}

// Mergeable per-partition column statistics for incremental stats. All optional
// because these are persisted in metastore partition parameters.
struct TIntermediateColumnStats {
  1: optional binary intermediate_ndv
  2: optional bool is_ndv_encoded
  3: optional i64 num_nulls
  4: optional i32 max_width
  5: optional double avg_width
  6: optional i64 num_rows
  7: optional i64 num_trues
  8: optional i64 num_falses
  9: optional Data.TColumnValue low_value
  10: optional Data.TColumnValue high_value
}

// Statistics of one partition. Sent compact-encoded and deflated.
struct TPartitionStats {
  1: required TTableStats stats
  2: optional map<string, TIntermediateColumnStats> intermediate_col_stats
}

// A table column. Omitted optional engine-specific fields: 8-11 (HBase),
// 12-19, 24, 25 (Kudu), 20-23 (Iceberg).
struct TColumn {
  1: required string columnName
  2: required Types.TColumnType columnType
  3: optional string comment
  4: optional TColumnStats col_stats
  5: optional i32 position
  6: optional TVirtualColumnType virtual_column_type = TVirtualColumnType.NONE
  7: optional bool is_hidden
}

// One data file. file_desc_data is a FlatBuffer FbFileDesc (see CatalogObjects.fbs).
struct THdfsFileDesc {
  1: required binary file_desc_data
  2: optional binary file_metadata
}

// Partition location split into a shared prefix (index into
// THdfsTable.partition_prefixes, -1 = not compressed) and the remaining suffix.
struct THdfsPartitionLocation {
  1: required i32 prefix_index = -1
  2: required string suffix
}

// Text delimiters, file format and block size of a table or partition.
struct THdfsStorageDescriptor {
  1: required i8 lineDelim
  2: required i8 fieldDelim
  3: required i8 collectionDelim
  4: required i8 mapKeyDelim
  5: required i8 escapeChar
  6: required i8 quoteChar
  7: required THdfsFileFormat fileFormat
  8: required i32 blockSize
}

// One partition of an HDFS table. Ids are unique per catalogd process; a changed
// partition gets a new id and names the old one in prev_id.
struct THdfsPartition {
  // Literal expressions holding the partition key values.
  7: list<Exprs.TExpr> partitionKeyExprs
  10: optional THdfsPartitionLocation location
  14: optional i64 id
  26: optional i64 prev_id = -1

  // File lists: regular files, then ACID insert and delete deltas.
  9: optional list<THdfsFileDesc> file_desc
  21: optional list<THdfsFileDesc> insert_file_desc
  22: optional list<THdfsFileDesc> delete_file_desc
  11: optional TAccessLevel access_level
  12: optional TTableStats stats
  13: optional bool is_marked_cached
  15: optional map<string, string> hms_parameters
  16: optional i64 num_blocks
  17: optional i64 total_file_size_bytes
  // Deflated, compact-encoded TPartitionStats.
  18: optional binary partition_stats
  19: optional bool has_incremental_stats
  20: optional i64 write_id

  // Names used by coordinators to place a standalone partition topic entry.
  23: optional string db_name
  24: optional string tbl_name
  25: optional string partition_name
  27: optional THdfsStorageDescriptor hdfs_storage_descriptor
}

// Id used for the prototype partition (never a real partition).
const i64 PROTOTYPE_PARTITION_ID = -1;

// ACID valid write id list of a table snapshot.
struct TValidWriteIdList {
  1: optional i64 high_watermark
  2: optional i64 min_open_write_id
  3: optional list<i64> invalid_write_ids
  // Positions in invalid_write_ids that are aborted (the rest are open).
  4: optional list<i32> aborted_indexes
}

// HDFS-specific part of a table.
struct THdfsTable {
  1: required string hdfsBaseDir
  2: required list<string> colNames;
  3: required string nullPartitionKeyValue
  5: required string nullColumnValue
  6: optional string avroSchema

  // Partition id -> partition. Values may be empty or names only, see the flags below.
  4: required map<i64, THdfsPartition> partitions
  14: optional bool has_full_partitions
  15: optional bool has_partition_names

  // Template used when inserts create new partitions.
  10: required THdfsPartition prototype_partition
  9: optional list<string> partition_prefixes

  // Datanodes referenced by index from file block replicas.
  7: optional list<Types.TNetworkAddress> network_addresses,
  11: optional SqlConstraints.TSqlConstraints sql_constraints
  12: optional bool is_full_acid = false
  13: optional TValidWriteIdList valid_write_ids
  16: optional TBucketInfo bucket_info

  // Partitions dropped but not yet published on the topic (catalogd-internal).
  17: optional list<THdfsPartition> dropped_partitions
}

// An external data source library.
struct TDataSource {
  1: required string name
  2: required string hdfs_location
  3: required string class_name
  4: required string api_version
}

// A table read through an external data source.
struct TDataSourceTable {
  1: required TDataSource data_source
  2: required string init_string
}

// Built-in system tables.
enum TSystemTableName {
  QUERY_LIVE = 0
}

struct TSystemTable {
  1: required TSystemTableName table_name
}

// A table or view. Names are lower case. If load_status is an error the other
// fields may be missing. Omitted optional engine-specific fields: 11 hbase_table,
// 14 kudu_table, 17 iceberg_table, 20 paimon_table.
struct TTable {
  1: required string db_name
  2: required string tbl_name
  3: optional Status.TStatus load_status
  4: optional TAccessLevel access_level
  5: optional list<TColumn> columns
  6: optional list<TColumn> clustering_columns
  7: optional list<TColumn> virtual_columns
  8: optional TTableStats table_stats
  9: optional TTableType table_type
  10: optional THdfsTable hdfs_table
  12: optional hive_metastore.Table metastore_table
  13: optional TDataSourceTable data_source_table
  // Storage loading time in nanoseconds.
  16: optional i64 storage_metadata_load_time_ns
  // Only for tables whose metastore object is not available.
  18: optional string tbl_comment
  19: optional TSystemTable system_table
}

// A database (lower-case name) with its metastore object.
struct TDatabase {
  1: required string db_name
  2: optional hive_metastore.Database metastore_db
}

// Kind of authorization principal.
enum TPrincipalType {
  ROLE = 0
  USER = 1
  GROUP = 2
}

// An authorization principal (role, user or group).
struct TPrincipal {
  1: required string principal_name
  2: required i32 principal_id
  3: required TPrincipalType principal_type
  4: required list<string> grant_groups
}

// Object level a privilege applies to.
enum TPrivilegeScope {
  SERVER = 0
  URI = 1
  DATABASE = 2
  TABLE = 3
  COLUMN = 4
  STORAGE_TYPE = 5
  STORAGEHANDLER_URI = 6
  USER_DEFINED_FN = 7
}

// Action a privilege allows.
enum TPrivilegeLevel {
  ALL = 0
  INSERT = 1
  SELECT = 2
  REFRESH = 3
  CREATE = 4
  ALTER = 5
  DROP = 6
  OWNER = 7
  RWSTORAGE = 8
}

// A privilege held by a principal. Id 1 is retired and must not be reused.
// The object path fields that are set depend on the scope.
struct TPrivilege {
  2: required TPrivilegeLevel privilege_level
  3: required TPrivilegeScope scope
  4: required bool has_grant_opt
  5: optional i32 principal_id
  6: optional TPrincipalType principal_type
  7: optional string server_name
  8: optional string db_name
  9: optional string table_name
  10: optional string uri
  11: optional i64 create_time_ms
  12: optional string column_name
  13: optional string storage_type
  14: optional string storage_url
  15: optional string fn_name
}

// An HDFS cache pool.
struct THdfsCachePool {
  1: required string pool_name
}

// Marker object whose publication tells coordinators to flush authorization caches.
struct TAuthzCacheInvalidation {
  1: required string marker_name
}

// Catalog-wide state: the service id of this catalogd run and the version of the
// last global reset (INVALIDATE METADATA).
struct TCatalog {
  1: required Types.TUniqueId catalog_service_id
  2: required i64 last_reset_catalog_version
}

// Envelope for any catalog object; the member matching 'type' is set.
struct TCatalogObject {
  1: required TCatalogObjectType type
  2: required i64 catalog_version
  3: optional TCatalog catalog
  4: optional TDatabase db
  5: optional TTable table
  6: optional Types.TFunction fn
  7: optional TDataSource data_source
  8: optional TPrincipal principal
  9: optional TPrivilege privilege
  10: optional THdfsCachePool cache_pool
  11: optional TAuthzCacheInvalidation authz_cache_invalidation
  12: optional THdfsPartition hdfs_partition
  // Wall-clock time (ms) of the last version change in catalogd.
  13: optional i64 last_modified_time_ms
  // Our own extension (upstream has no field 100). On a TABLE invalidation in
  // a minimal DDL result: the catalog_version of the table state the change
  // was applied to. It is set only when the same result lists every partition
  // the change added (HDFS_PARTITION in updated_catalog_objects) and removed
  // (in removed_catalog_objects), so that a coordinator holding exactly that
  // version can apply the change to its partition list instead of fetching
  // the whole list again. Peers that do not know the field skip it.
  100: optional i64 base_catalog_version
}
