// TableService: this project's own table API in the style of cloud data
// catalogs (not part of Impala's IDL): table versions, filtered and paged
// listing, search, batch deletes, column statistics. catalogd serves it on
// the metastore service port, multiplexed under the service name
// "TableService" (next to "PartitionService").
//
// Every write goes through catalogd's DDL path: one request (or one table
// of a batch delete) = one metastore transaction = one new catalog version,
// published on the catalog topic like any DDL.
//
// Errors: every response starts with `status` (TMetastoreServiceStatus, shared
// with PartitionService); no RPC declares exceptions. A protocol_version
// other than V1 is INVALID_ARGUMENT. A non-OK status
// means nothing was written. Batch calls report per-item failures in their
// `errors` list with an OK status.
//
// Tables are the Hive Metastore's objects (hive_metastore.thrift); a
// table's description is its "comment" parameter. Names of databases,
// tables and columns are case-insensitive and returned lower-case.
//
// Limits (INVALID_ARGUMENT; RESOURCE_EXHAUSTED with batch_size_too_large
// for list sizes):
//   names (database, table, column, owner, SerDe, parameter keys,
//   version ids)                          1-255 bytes, one line
//   description                           2048 bytes
//   parameter values                      512000 bytes
//   column type                           131072 bytes, one line
//   column comment                        255 bytes, one line
//   location                              2056 bytes
//   input / output format                 128 bytes, one line
//   view texts                            409600 bytes each
//   GetTables expression                  2048 bytes; max_results 1-100
//   GetTableVersions max_results          1-100
//   SearchTables search text              1024 bytes; max_results 1-1000;
//                                         at most 1 sort criterion
//   BatchDeleteTable, BatchDeleteTableVersion   100 names
//   column statistics: get 100 names, update 25 columns

namespace cpp ics.thrift

include "hive_metastore.thrift"
include "MetastoreServiceStatus.thrift"

enum TTableServiceVersion {
  V1 = 1
}

// A table as this service returns it.
struct TTableInfo {
  // The metastore object; parameters include "comment" (the description).
  1: required hive_metastore.Table table
  // Current (or, for an archived version, that) version id: a decimal integer
  // that grows by one with every UpdateTable.
  2: required string version_id
  // When this version became current (UpdateTime), ms since the epoch.
  3: required i64 update_time_ms
}

// What UpdateTable replaces a table's definition with. The name must be the
// table's (no renames); partition keys (names and types) and the kind
// (view or not) cannot change. Absent sd, partition_keys and table_type keep
// the current ones; the other absent fields become empty. Statistics kept
// in table parameters (numRows, totalSize, incremental stats) are carried
// over unless the input sets them.
struct TTableInput {
  1: required string name
  2: optional string description
  3: optional string owner
  4: optional i32 last_access_time
  5: optional i32 retention
  6: optional hive_metastore.StorageDescriptor sd
  7: optional list<hive_metastore.FieldSchema> partition_keys
  8: optional string view_original_text
  9: optional string view_expanded_text
  10: optional string table_type
  11: optional map<string, string> parameters
}

struct TGetTableRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  // At most one of these: the version current at that time (ms since the
  // epoch), or that version id.
  4: optional i64 query_as_of_time_ms
  5: optional string version_id
}

struct TGetTableResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional TTableInfo table
}

struct TUpdateTableRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required TTableInput table_input
  // true: do not keep the replaced definition as an archived version.
  4: optional bool skip_archive = false
  // If set, the update applies only if this is still the current version id
  // (else FAILED_PRECONDITION).
  5: optional string expected_version_id
}

struct TUpdateTableResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional string version_id        // the new current version id
  3: optional i64 catalog_version      // the catalog version of the change
}

struct TTableVersion {
  1: required TTableInfo table
  2: required string version_id
  // 0 for the current version.
  3: optional i64 archived_time_ms
}

struct TGetTableVersionRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  // Absent: the current version.
  4: optional string version_id
}

struct TGetTableVersionResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional TTableVersion table_version
}

// Newest first: the current version, then archived ones.
struct TGetTableVersionsRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: optional string next_token
  5: optional i32 max_results = 100
}

struct TGetTableVersionsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TTableVersion> table_versions
  3: optional string next_token   // absent on the last page
}

struct TDeleteTableVersionRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: required string version_id
}

struct TDeleteTableVersionResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
}

struct TBatchDeleteTableVersionRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: required list<string> version_ids
}

struct TTableVersionError {
  1: required string table_name
  2: required string version_id
  3: required MetastoreServiceStatus.TMetastoreServiceStatus error
}

struct TBatchDeleteTableVersionResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TTableVersionError> errors
}

struct TGetTablesRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  // Names matching the pattern: alternatives separated by '|'; '*' (or
  // '.*') matches any run of characters, '.' any one character; everything
  // else is literal; case-insensitive.
  3: optional string expression
  4: optional string next_token
  5: optional i32 max_results = 100
  // Each listed table as it was at that time (ms since the epoch); tables
  // with no kept version at that time (created later, or that version was
  // not archived) are left out. Tables dropped since are not listed.
  6: optional i64 query_as_of_time_ms
}

struct TGetTablesResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TTableInfo> tables
  3: optional string next_token
}

struct TBatchDeleteTableRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required list<string> tables_to_delete
}

struct TTableError {
  1: required string table_name
  2: required MetastoreServiceStatus.TMetastoreServiceStatus error
}

struct TBatchDeleteTableResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TTableError> errors
}

enum TPropertyComparator {
  EQUALS = 0
  GREATER_THAN = 1
  LESS_THAN = 2
  GREATER_THAN_EQUALS = 3
  LESS_THAN_EQUALS = 4
}

// key: DatabaseName, Name, Description, Owner, TableType (string fields:
// the field is split into tokens at punctuation and whitespace, and one
// token must equal the value, case-insensitively); CreateTime, UpdateTime,
// LastAccessTime (seconds since the epoch, compared with `comparator`); any
// other key names a table parameter whose value must equal `value`.
struct TPropertyPredicate {
  1: required string key
  2: required string value
  3: optional TPropertyComparator comparator = TPropertyComparator.EQUALS
}

enum TSortDirection {
  ASCENDING = 0
  DESCENDING = 1
}

// field_name: Name, DatabaseName, Owner, TableType, CreateTime, UpdateTime.
struct TSortCriterion {
  1: required string field_name
  2: optional TSortDirection sort = TSortDirection.ASCENDING
}

enum TResourceShareType {
  ALL = 0
  FOREIGN = 1
}

struct TSearchTablesRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: optional string next_token
  3: optional list<TPropertyPredicate> filters
  // Case-insensitive substring of a table's name, database name,
  // description, parameter keys or values, or column names (data and
  // partition columns). In double quotes: one of those must equal it.
  4: optional string search_text
  5: optional list<TSortCriterion> sort_criteria
  6: optional i32 max_results = 100
  // FOREIGN: tables shared from other catalogs (there are none here).
  7: optional TResourceShareType resource_share_type = TResourceShareType.ALL
}

struct TSearchTablesResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TTableInfo> tables
  // The position of the next page in the sorted matches; tables created or
  // dropped between calls may shift pages.
  3: optional string next_token
}

// Column statistics of a table or, with partition_values (one per
// partition key, in key order), of one partition.
struct TGetColumnStatisticsRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: optional list<string> partition_values
  5: required list<string> column_names
}

struct TColumnError {
  1: required string column_name
  2: required MetastoreServiceStatus.TMetastoreServiceStatus error
}

struct TGetColumnStatisticsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<hive_metastore.ColumnStatisticsObj> column_statistics
  // Columns without statistics or not in the table.
  3: optional list<TColumnError> errors
}

// Upserts by column name; colType may be empty (the column's type is used)
// or, for the table's own statistics, must equal it (a partition's may name
// the type it was written with). Valid columns are written together (one
// version); invalid ones are reported in errors.
struct TUpdateColumnStatisticsRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: optional list<string> partition_values
  5: required list<hive_metastore.ColumnStatisticsObj> column_statistics
}

struct TUpdateColumnStatisticsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TColumnError> errors
}

struct TDeleteColumnStatisticsRequest {
  1: required TTableServiceVersion protocol_version = TTableServiceVersion.V1
  2: required string db_name
  3: required string table_name
  4: optional list<string> partition_values
  5: required string column_name
}

struct TDeleteColumnStatisticsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
}

service TableService {
  TGetTableResponse GetTable(1: TGetTableRequest req)
  TUpdateTableResponse UpdateTable(1: TUpdateTableRequest req)
  TGetTableVersionResponse GetTableVersion(1: TGetTableVersionRequest req)
  TGetTableVersionsResponse GetTableVersions(1: TGetTableVersionsRequest req)
  TDeleteTableVersionResponse DeleteTableVersion(1: TDeleteTableVersionRequest req)
  TBatchDeleteTableVersionResponse BatchDeleteTableVersion(
      1: TBatchDeleteTableVersionRequest req)
  TGetTablesResponse GetTables(1: TGetTablesRequest req)
  TBatchDeleteTableResponse BatchDeleteTable(1: TBatchDeleteTableRequest req)
  TSearchTablesResponse SearchTables(1: TSearchTablesRequest req)
  TGetColumnStatisticsResponse GetColumnStatistics(1: TGetColumnStatisticsRequest req)
  TUpdateColumnStatisticsResponse UpdateColumnStatistics(1: TUpdateColumnStatisticsRequest req)
  TDeleteColumnStatisticsResponse DeleteColumnStatistics(1: TDeleteColumnStatisticsRequest req)
}
