// The requests and results of the table commands (table_commands.h): one
// table and its versions, listing, search, batch deletes and column
// statistics, in the catalog's own terms. A door (our Thrift TableService,
// Glue's table API) builds these from its wire messages and builds its
// replies from the results; nothing here is a wire type.
//
// Tables come out as the metastore's version records (TableVersionRecord:
// the hive::Table, its version id, since when it is current and, for an
// archived version, when it was replaced); a table's description is its
// "comment" parameter. Names are as the caller sent them; the commands
// validate and lower-case them. Version ids and page tokens are the
// caller's strings (decimal version ids), checked by the commands. An
// absent (nullopt) field is one the caller did not give.
//
// Per-item failures of a batch call are values (a Status per item) in an
// OK result; the call itself fails only as a whole.
//
// Thread-safety: value types.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalogd/ops/catalog_queries.h"
#include "common/util/status.h"
#include "hive_metastore_types.h"

namespace ics::catalog::ops {

// ---- one table and its versions ----

struct GetTableRequest {
  std::string db;
  std::string table;
  // At most one of these: the version current at that time (ms since the
  // epoch), or that version id. Neither: the current version.
  std::optional<int64_t> as_of_time_ms;
  std::optional<std::string> version_id;
};

// What UpdateTable replaces a table's definition with. The name must be the
// table's (no renames); partition keys (names and types) and the kind
// (view or not) cannot change. Absent sd, partition_keys and table_type
// keep the current ones; the other absent fields become empty. Statistics
// kept in table parameters (numRows, totalSize, incremental stats) are
// carried over unless the input sets them.
struct TableInput {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> owner;
  std::optional<int32_t> last_access_time;
  std::optional<int32_t> retention;
  std::optional<hive::StorageDescriptor> sd;
  std::optional<std::vector<hive::FieldSchema>> partition_keys;
  std::string view_original_text;
  std::string view_expanded_text;
  std::optional<std::string> table_type;
  std::map<std::string, std::string> parameters;
};

struct UpdateTableRequest {
  std::string db;
  TableInput input;
  // true: do not keep the replaced definition as an archived version.
  bool skip_archive = false;
  // If given, the update applies only if this is still the current version
  // id (else RECOVERABLE_ERROR).
  std::optional<std::string> expected_version_id;
};

struct UpdatedTable {
  int64_t version_id = 0;       // the new current version id
  int64_t catalog_version = 0;  // the catalog version of the change
};

struct GetTableVersionRequest {
  std::string db;
  std::string table;
  std::optional<std::string> version_id;  // absent: the current version
};

// Newest first: the current version, then archived ones.
struct ListTableVersionsRequest {
  std::string db;
  std::string table;
  std::optional<std::string> next_token;
  std::optional<int32_t> max_results;  // 1..100; absent: 100
};

struct TableVersionPage {
  std::vector<TableVersionRecord> versions;
  std::optional<std::string> next_token;  // absent on the last page
};

struct DeleteTableVersionsRequest {
  std::string db;
  std::string table;
  std::vector<std::string> version_ids;
};

struct TableVersionFailure {
  std::string table_name;
  std::string version_id;
  Status error;
};

// ---- listing and search ----

struct ListTablesRequest {
  std::string db;
  // Names matching the pattern (NamePattern, table_limits.h); absent or
  // empty: every table.
  std::optional<std::string> expression;
  std::optional<std::string> next_token;
  std::optional<int32_t> max_results;  // 1..100; absent: 100
  // Each listed table as it was at that time (ms since the epoch); tables
  // with no kept version at that time are left out.
  std::optional<int64_t> as_of_time_ms;
};

struct TablePage {
  std::vector<TableVersionRecord> tables;
  std::optional<std::string> next_token;  // absent on the last page
};

struct DeleteTablesRequest {
  std::string db;
  std::vector<std::string> tables;
};

struct TableFailure {
  std::string table_name;
  Status error;
};

// The values are the wire values of TableService.thrift's enums; a value
// outside the enum is INVALID_ARGUMENT from the commands.
enum class PropertyComparator : int32_t {
  kEquals = 0,
  kGreaterThan = 1,
  kLessThan = 2,
  kGreaterThanEquals = 3,
  kLessThanEquals = 4,
};
enum class SortDirection : int32_t { kAscending = 0, kDescending = 1 };
enum class ResourceShareType : int32_t { kAll = 0, kForeign = 1 };

// key: DatabaseName, Name, Description, Owner, TableType (a token of the
// field equals the value, case-insensitively); CreateTime, UpdateTime,
// LastAccessTime (seconds since the epoch, compared with `comparator`); any
// other key names a table parameter whose value must equal `value`.
struct PropertyFilter {
  std::string key;
  std::string value;
  std::optional<PropertyComparator> comparator;  // absent: kEquals
};

// field_name: Name, DatabaseName, Owner, TableType, CreateTime, UpdateTime.
struct SortCriterion {
  std::string field_name;
  std::optional<SortDirection> direction;  // absent: kAscending
};

struct SearchTablesRequest {
  std::optional<std::string> next_token;
  std::vector<PropertyFilter> filters;
  // Case-insensitive substring of a table's name, database name,
  // description, parameter keys or values, or column names. In double
  // quotes: one of those must equal it.
  std::optional<std::string> search_text;
  std::vector<SortCriterion> sort_criteria;              // at most 1
  std::optional<int32_t> max_results;                    // 1..1000; absent: 100
  std::optional<ResourceShareType> resource_share_type;  // absent: kAll
};

// ---- column statistics of a table or, with partition_values, a partition ----

struct GetColumnStatisticsRequest {
  std::string db;
  std::string table;
  std::optional<std::vector<std::string>> partition_values;
  std::vector<std::string> column_names;
};

struct ColumnFailure {
  std::string column_name;
  Status error;
};

struct ColumnStatistics {
  std::vector<hive::ColumnStatisticsObj> statistics;
  std::vector<ColumnFailure> errors;  // columns without statistics or not in the table
};

struct UpdateColumnStatisticsRequest {
  std::string db;
  std::string table;
  std::optional<std::vector<std::string>> partition_values;
  std::vector<hive::ColumnStatisticsObj> statistics;
};

struct DeleteColumnStatisticsRequest {
  std::string db;
  std::string table;
  std::optional<std::vector<std::string>> partition_values;
  std::string column_name;
};

}  // namespace ics::catalog::ops
