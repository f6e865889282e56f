// PartitionService: this project's own batch API over the partitions of one
// table (not part of Impala's IDL). catalogd serves it on the metastore
// service port, multiplexed under the service name "PartitionService".
//
// Every write goes through catalogd's DDL path: one request (or one committed
// write stream) = one metastore transaction = one new catalog version,
// published on the catalog topic like any DDL.
//
// Errors: every response starts with `status` (TMetastoreServiceStatus); no
// RPC declares exceptions. A non-OK status means nothing was written. Only
// transport failures surface as Thrift exceptions.
//
// A partition is identified by its values (one per partition key, in key
// order); it has no separate name or id here.
//
// Limits (INVALID_ARGUMENT when exceeded; RESOURCE_EXHAUSTED with
// batch_size_too_large for batch sizes):
//   partitions per batch call           900
//   a partition value                   1024 characters
//   a field (column) name or type       1024 characters
//   partition parameters (keys+values)  10 KiB
//   SerDe name, serialization library   256 characters; SerDe parameters 10 KiB
//   input / output format               128 characters
//   list filter                         1 MiB
//   indexes per table                   3

namespace cpp ics.thrift

include "MetastoreServiceStatus.thrift"

enum TPartitionServiceVersion {
  V1 = 1
}

struct TPartitionTableName {
  1: required string db_name
  2: required string table_name
}

// A column of a partition (stored in the partition's storage descriptor).
struct TPartitionFieldSchema {
  1: required string name
  2: required string type
  3: optional string comment
}

struct TPartitionSerDeInfo {
  1: optional string name
  2: optional string serialization_library
  3: optional map<string, string> parameters
}

struct TPartitionStorageDescriptor {
  // Absolute directory ("/path" or "file:/path"). Default on create:
  // <table location>/<k1=v1/k2=v2>.
  1: optional string location_uri
  2: optional string input_format
  3: optional string output_format
  4: optional TPartitionSerDeInfo serde_info
}

struct TMetastorePartition {
  1: required list<string> values
  // Output only: seconds since the epoch.
  2: optional i64 create_time
  // On create, unset parts are taken from the table's storage descriptor.
  3: optional TPartitionStorageDescriptor storage_descriptor
  4: optional map<string, string> parameters
  // On create, unset means the table's data columns.
  5: optional list<TPartitionFieldSchema> fields
}

// ---- batch writes ----

struct TBatchCreatePartitionsRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: required list<TMetastorePartition> partitions
  // false: ALREADY_EXISTS (and nothing written) if any partition exists.
  // true: existing partitions are skipped, the others created.
  4: optional bool skip_existing_partitions = false
}

struct TBatchCreatePartitionsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  // The partitions created (skipped ones are not listed).
  2: optional list<TMetastorePartition> partitions
  // The catalog version of the change (the current version if nothing changed).
  3: optional i64 catalog_version
}

// update_mask names the fields to replace: "storage_descriptor" (all of it),
// "storage_descriptor.location_uri", "storage_descriptor.input_format",
// "storage_descriptor.output_format", "storage_descriptor.serde_info",
// "parameters", "fields". Empty or unset: every one of them.
struct TPartitionUpdate {
  1: required TMetastorePartition partition
  2: optional list<string> update_mask
}

struct TBatchUpdatePartitionsRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: required list<TPartitionUpdate> updates
}

struct TBatchUpdatePartitionsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  // The partitions as updated.
  2: optional list<TMetastorePartition> partitions
  3: optional i64 catalog_version
}

struct TBatchDeletePartitionsRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: required list<list<string>> partition_values
}

struct TBatchDeletePartitionsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional i64 catalog_version
}

// ---- listing ----

// filter: a SQL boolean expression over the partition keys, e.g.
//   year >= 2020 AND month IN (1, 2) AND region IS NOT NULL
//   dt BETWEEN DATE '2024-01-01' AND CAST('2024-01-31' AS DATE)
// Comparisons, IN, BETWEEN, IS [NOT] NULL, AND/OR/NOT and parentheses;
// literals are typed by the key they are compared with. Empty: all.
// Partitions are returned ordered by values; page_token is the
// next_page_token of the previous page.
struct TListPartitionsRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: optional string filter
  // 1..10000; default 1000.
  4: optional i32 page_size
  5: optional string page_token
}

struct TListPartitionsResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TMetastorePartition> partitions
  // Set when more partitions match.
  3: optional string next_page_token
  // The index that narrowed the search, if one did.
  4: optional string index_used
  // The catalog version of the table snapshot that was listed.
  5: optional i64 catalog_version
}

// ---- streaming writes ----
// A write stream stages partitions over several calls and creates all of
// them at commit in one transaction (all or nothing). Streams expire after
// an idle timeout; staged data is bounded.

struct TOpenWriteStreamRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  // As in TBatchCreatePartitionsRequest; every append must repeat it.
  3: optional bool skip_existing_partitions = false
}

struct TOpenWriteStreamResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional string stream_id
  3: optional i64 idle_timeout_ms
}

struct TAppendWriteStreamRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required string stream_id
  3: required list<TMetastorePartition> partitions
  4: optional bool skip_existing_partitions = false
}

struct TAppendWriteStreamResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  // Partitions staged so far.
  2: optional i64 total_partitions_streamed_count
}

// Commit creates every staged partition in one transaction, or none. The
// stream ends with the commit, whatever its outcome.
struct TCommitWriteStreamRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required string stream_id
}

struct TCommitWriteStreamResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional i64 total_partitions_streamed_count
  3: optional i64 total_partitions_inserted_count
  4: optional i64 catalog_version
}

struct TAbortWriteStreamRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required string stream_id
}

struct TAbortWriteStreamResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
}

// ---- partition indexes ----
// An index over some partition keys (in the given order) speeds up listing
// with filters that constrain a prefix of them (=, IN, ranges). Definitions
// are stored in the table's parameters; the index itself is built in memory
// in the background (CREATING, then ACTIVE or FAILED).

enum TPartitionIndexState {
  CREATING = 1
  ACTIVE = 2
  FAILED = 3
  DELETING = 4
}

struct TPartitionIndexKey {
  1: required string name
  2: required string type
}

// Partitions the index could not take, by reason
// (INVALID_PARTITION_TYPE_DATA_ERROR, MISSING_PARTITION_VALUE_ERROR,
// INTERNAL_ERROR); at most 10 partitions per reason are listed.
struct TPartitionIndexBackfillError {
  1: required string code
  2: optional list<list<string>> partitions
}

struct TPartitionIndexDescriptor {
  1: required string index_name
  2: required list<TPartitionIndexKey> keys
  3: required TPartitionIndexState state
  4: optional list<TPartitionIndexBackfillError> backfill_errors
}

struct TCreatePartitionIndexRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: required string index_name
  4: required list<string> keys
}

struct TCreatePartitionIndexResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional i64 catalog_version
}

struct TGetPartitionIndexesRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: optional string page_token
}

struct TGetPartitionIndexesResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional list<TPartitionIndexDescriptor> indexes
  3: optional string next_page_token
}

struct TDeletePartitionIndexRequest {
  1: required TPartitionServiceVersion protocol_version = TPartitionServiceVersion.V1
  2: required TPartitionTableName table
  3: required string index_name
}

struct TDeletePartitionIndexResponse {
  1: required MetastoreServiceStatus.TMetastoreServiceStatus status
  2: optional i64 catalog_version
}

service PartitionService {
  TBatchCreatePartitionsResponse BatchCreatePartitions(1: TBatchCreatePartitionsRequest req)
  TBatchUpdatePartitionsResponse BatchUpdatePartitions(1: TBatchUpdatePartitionsRequest req)
  TBatchDeletePartitionsResponse BatchDeletePartitions(1: TBatchDeletePartitionsRequest req)
  TListPartitionsResponse ListPartitions(1: TListPartitionsRequest req)

  TOpenWriteStreamResponse OpenWriteStream(1: TOpenWriteStreamRequest req)
  TAppendWriteStreamResponse AppendWriteStream(1: TAppendWriteStreamRequest req)
  TCommitWriteStreamResponse CommitWriteStream(1: TCommitWriteStreamRequest req)
  TAbortWriteStreamResponse AbortWriteStream(1: TAbortWriteStreamRequest req)

  TCreatePartitionIndexResponse CreatePartitionIndex(1: TCreatePartitionIndexRequest req)
  TGetPartitionIndexesResponse GetPartitionIndexes(1: TGetPartitionIndexesRequest req)
  TDeletePartitionIndexResponse DeletePartitionIndex(1: TDeletePartitionIndexRequest req)
}
