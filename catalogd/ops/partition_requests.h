// The requests and results of the partition commands (partition_commands.h):
// batch writes of one table's partitions, filtered listing, write streams
// and partition indexes, in the catalog's own terms. A door (our Thrift
// PartitionService, the Glue and BigQuery endpoints) builds these from its
// wire messages and builds its replies from the results; nothing here is a
// wire type.
//
// Names of databases and tables are as the caller sent them; the commands
// validate and lower-case them. Partitions going in are PartitionInput
// (partition_input.h); partitions coming out are the catalog's
// hive::Partition as stored.
//
// Thread-safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalogd/ops/partition_index.h"
#include "catalogd/ops/partition_index_manager.h"
#include "catalogd/ops/partition_input.h"
#include "hive_metastore_types.h"

namespace ics::catalog::ops {

// A table whose partitions a request is about.
struct PartitionTable {
  std::string db;
  std::string table;
};

// ---- batch writes (at most kMaxPartitionsPerBatch items each) ----

struct CreatePartitionsRequest {
  PartitionTable table;
  std::vector<PartitionInput> partitions;
  // false: ALREADY_EXISTS (and nothing written) if any partition exists.
  // true: existing partitions are skipped, the others created.
  bool skip_existing = false;
};

struct UpdatePartitionsRequest {
  PartitionTable table;
  std::vector<PartitionUpdateInput> updates;
};

struct DeletePartitionsRequest {
  PartitionTable table;
  std::vector<std::vector<std::string>> partition_values;
};

// What a create or update did: the partitions created (skipped ones are
// not listed) or as updated, and the catalog version of the change (the
// current version if nothing changed).
struct ChangedPartitions {
  std::vector<hive::Partition> partitions;
  int64_t catalog_version = 0;
};

// ---- listing ----

struct ListPartitionsRequest {
  PartitionTable table;
  // A SQL boolean expression over the partition keys (partition_filter.h);
  // empty: every partition.
  std::string filter;
  // 1..kMaxPageSize; absent: kDefaultPageSize.
  std::optional<int32_t> page_size;
  // The next_page_token of the previous page; empty: the first page.
  std::string page_token;
};

struct PartitionPage {
  // Ordered by partition name ("k1=v1/k2=v2").
  std::vector<hive::Partition> partitions;
  std::string next_page_token;  // empty: no more
  std::string index_used;       // the index that narrowed the search; empty: a scan
  int64_t catalog_version = 0;  // of the table snapshot that was listed
};

// ---- write streams ----

struct OpenWriteStreamRequest {
  PartitionTable table;
  bool skip_existing = false;  // as in CreatePartitionsRequest; every append repeats it
};

struct OpenedWriteStream {
  std::string stream_id;
  int64_t idle_timeout_ms = 0;
};

struct AppendWriteStreamRequest {
  std::string stream_id;
  std::vector<PartitionInput> partitions;
  bool skip_existing = false;
};

struct CommittedWriteStream {
  int64_t partitions_streamed = 0;
  int64_t partitions_inserted = 0;
  int64_t catalog_version = 0;
};

// ---- partition indexes ----

struct CreatePartitionIndexRequest {
  PartitionTable table;
  std::string index_name;
  std::vector<std::string> keys;  // partition keys, in index order
};

struct PartitionIndexKey {
  std::string name;
  std::string type;  // Hive type string
};

struct PartitionIndexDescription {
  std::string index_name;
  std::vector<PartitionIndexKey> keys;
  IndexState state = IndexState::kCreating;
  // Partitions the index could not take, by reason; an index FAILED for
  // another reason has one error coded "INTERNAL_ERROR: <why>".
  std::vector<BackfillError> backfill_errors;
};

struct GetPartitionIndexesRequest {
  PartitionTable table;
  std::string page_token;  // empty: the first page
};

struct PartitionIndexList {
  std::vector<PartitionIndexDescription> indexes;  // by name
  std::string next_page_token;                     // empty: no more
};

struct DeletePartitionIndexRequest {
  PartitionTable table;
  std::string index_name;
};

}  // namespace ics::catalog::ops
