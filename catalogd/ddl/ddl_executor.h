// DdlExecutor: carries out catalog changes against the metastore and the
// catalog: typed commands (databases and tables as metastore objects, batches
// of partition changes, planned table changes, INSERT's metadata step,
// metadata resets), and the DDL that CatalogService callers send in
// Impala's shape and that has no typed command yet.
//
// Every operation: validates its input (names, types, existence) and fails
// with a clear Status before changing anything; takes the table's DDL lock
// (catalog.TableLock) so operations on one table are serialized while
// different tables proceed in parallel; writes the metastore in ONE
// transaction; only then changes the warehouse directories and installs
// the new immutable states in the catalog under one new version. A failure
// at any step leaves the catalog unchanged (no partial state).
//
// A global INVALIDATE METADATA rebuilds the whole catalog: it runs alone
// (reset_mu_ exclusive) while every other operation holds reset_mu_ shared.
//
// What surrounds an operation (the caller's admission, the operation log
// and audit line, exactly-once by request id) is the command core's
// (catalogd/ops/command_core.h), which every door goes through; the
// executor itself records nothing.
//
// Thread-safety: thread-safe; besides the context it only holds reset_mu_.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "catalogd/core/catalog_context.h"
#include "common/hive/partition_name.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

// What a change did, as the immutable states it installed and the keys of
// what it removed. The RPC adapter renders them as the wire objects a caller
// asked for (full, or minimal for on-demand coordinators), so the executor
// never builds a wire object nobody reads.
struct DdlOutcome {
  int64_t version = 0;  // the change's catalog version; current version for no-ops
  // Created or altered, in this order on the wire: databases, tables, functions.
  std::vector<DatabasePtr> databases;
  std::vector<TablePtr> tables;
  std::vector<FunctionPtr> functions;
  // Dropped (or renamed away), removed at `version`.
  std::vector<std::string> removed_databases;  // names
  std::vector<TablePtr> removed_tables;        // their last states
  std::vector<FunctionPtr> removed_functions;
  std::string summary;                          // one line, e.g. "Table has been created."
  bool new_table_created = false;
  std::string table_location;
  bool is_invalidate = false;  // global INVALIDATE METADATA
  // Set by a change that only added and removed partitions of tables[0]
  // (ADD / DROP PARTITION): the version of the state it was applied to and
  // the partitions it added and removed. A minimal result carries them, so
  // a coordinator holding that version patches its partition list.
  struct PartitionDelta {
    int64_t base_version = 0;
    std::vector<PartitionPtr> added;
    std::vector<PartitionPtr> removed;
  };
  std::optional<PartitionDelta> partition_delta;
};

// Column statistics a change writes: those of the table (partition "") or
// of one of its partitions ("k1=v1/k2=v2"), replacing the stored ones of
// the same columns.
struct ColumnStatsEdit {
  std::string partition;
  std::vector<hive::ColumnStatisticsObj> columns;
};
// The one rule set for a column's statistics, whichever door sends them;
// every ColumnStatsEdit a change writes passes it (a door that answers per
// column may check each first):
//   - the column is one of `table`'s data or partition columns
//     (NOT_FOUND "Column does not exist: c in db.t");
//   - for the table's own statistics, a type, if given, is the column's
//     (INVALID_ARGUMENT "column c is bigint, not string"); a partition's
//     may name another type (partitions keep the schema they were written
//     with, e.g. before a column's type changed);
//   - the data carries statistics (INVALID_ARGUMENT "statistics of column c
//     carry no data").
// Returns the object as it is stored: the name normalized (an invalid name
// is INVALID_ARGUMENT), the type as given or else the column's, lower-cased.
Result<hive::ColumnStatisticsObj> CheckColumnStats(const hive::Table& table, bool partition_level,
                                                   hive::ColumnStatisticsObj stats);

// The statistics of one column (of the table, or of one partition) that a
// change deletes.
struct ColumnStatsDrop {
  std::string partition;
  std::string column;
};

// The metadata step of an INSERT into db.table: the files each written
// partition received (by partition name "k1=v1/k2=v2", the table root of an
// unpartitioned table as ""). Partitions that do not exist yet are added
// (their directories created); with overwrite, every other file in the
// written directories is removed (within the data roots). Each written
// partition is then read again, in one catalog install.
struct InsertCommand {
  std::string db;
  std::string table;
  std::map<std::string, std::vector<std::string>> files_by_partition;
  bool overwrite = false;
};

// REFRESH and INVALIDATE METADATA: what the catalog holds is read again
// from the metastore and the file system.
//   kRefreshTable       db.table reloaded, or only `partitions` of it (each
//                       must exist in the catalog or the metastore, else
//                       NOT_FOUND and nothing changes); a table that is not
//                       loaded is loaded whole;
//   kInvalidateTable    db.table back to names-only (loaded on next use);
//                       partitions are INVALID_ARGUMENT here;
//   kInvalidateDatabase db's tables and functions read again;
//   kInvalidateAll      the whole catalog, read again; runs alone;
//   kRefreshAuthorization  NOT_IMPLEMENTED: the catalog holds no
//                       authorization metadata yet.
struct ResetCommand {
  enum class Kind {
    kRefreshTable,
    kInvalidateTable,
    kInvalidateDatabase,
    kInvalidateAll,
    kRefreshAuthorization,
  };
  Kind kind = Kind::kRefreshTable;
  std::string db;
  std::string table;
  // (key, value) pairs (common/hive/partition_name.h); a spec may name only
  // some of the keys (it then means every partition with those values).
  std::vector<PartitionSpec> partitions;
};

// A batch of partition changes to one partitioned table, applied by
// DdlExecutor::ApplyPartitionBatch as one DDL: validated against the table
// under its DDL lock, written in ONE metastore transaction, then the
// directories, then ONE catalog install (one version). Partitions are named
// by their values (one per key, in key order; canonicalized as ADD
// PARTITION does). A partition may appear in only one list, once.
using PartitionPatch = std::function<Status(hive::Partition*)>;
struct PartitionBatch {
  std::string db;
  std::string table;
  struct Add {
    std::vector<std::string> values;
    // Applied to the default new partition (the table's storage descriptor
    // at <table location>/<name>, creation time now); may set sd fields,
    // parameters and sd.location. Values and names are restored after it.
    PartitionPatch patch;
  };
  std::vector<Add> adds;
  // true: adds that exist are skipped; false: ALREADY_EXISTS.
  bool skip_existing = false;
  struct Alter {
    std::vector<std::string> values;
    PartitionPatch patch;  // applied to the metastore's current object
  };
  std::vector<Alter> alters;
  std::vector<std::vector<std::string>> drops;
  // Optional: applied to the table's parameters (same transaction).
  std::function<Status(std::map<std::string, std::string>*)> table_params_patch;
  // false: values are kept as given (a Hive Metastore client's), each only
  // checked to form a partition name; true: canonicalized per key type.
  bool canonical_values = true;
  // false: the directories of dropped partitions are kept (HMS deleteData).
  bool delete_data = true;
  // Column statistics written in the same transaction, after the partition
  // changes: those of added partitions (a renamed partition's).
  std::vector<ColumnStatsEdit> set_stats;
};

struct PartitionBatchResult {
  int64_t version = 0;   // the change's version; the current one if nothing changed
  bool changed = false;  // false: every add was skipped and nothing else asked
  std::vector<hive::Partition> added;    // as committed, in request order
  std::vector<hive::Partition> altered;  // as committed, in request order
  size_t dropped = 0;
  std::vector<hive::Partition> removed;  // the dropped ones as they were
  TablePtr table;        // the table state after the batch
};

// What a planned change (TableChange) writes to its one table, in the
// catalog's terms; the executor turns it into ONE metastore transaction, in
// this order: the new definition (a new table version first when asked),
// statistics set, statistics dropped, archived versions deleted.
struct TableEdits {
  // The table's new object; it keeps the table's name (INTERNAL otherwise).
  std::optional<hive::Table> definition;
  // With a definition: it starts a new table version (the version id
  // advances), and with archive_replaced the replaced object is kept as an
  // archived version.
  bool new_version = false;
  bool archive_replaced = false;
  std::vector<ColumnStatsEdit> set_stats;
  std::vector<ColumnStatsDrop> drop_stats;
  std::vector<int64_t> deleted_versions;  // archived version ids

  bool empty() const {
    return !definition && set_stats.empty() && drop_stats.empty() && deleted_versions.empty();
  }
};

// A change to one table planned by a door or another DDL, applied by
// DdlExecutor::ChangeTable as one DDL: under the table's DDL lock, `plan`
// sees the loaded table and its metastore object (every parameter) and
// returns the edits of ONE metastore transaction; after the commit the table
// is rebuilt (reloaded when its location, partition keys or kind changed;
// table column stats re-read) and installed under ONE new catalog version.
// An error from `plan` changes nothing; empty edits are a no-op (nothing
// written, no new version).
struct TableChange {
  std::string db;     // normalized (lower-case) names
  std::string table;
  std::function<Result<TableEdits>(const TableState& loaded, const hive::Table& hms)> plan;
  std::string summary;
};

// ---- typed commands: one metastore object in, the same rules whichever door
// sent it (Impala's DDL params are translated into these where they overlap).

// CREATE DATABASE. The name is validated and lower-cased; an empty location
// is <warehouse>/<name>.db, a given one is normalized (ddl_locations_internal.h,
// NormalizeLocation); an empty owner is the context's default owner. The
// directory is created after the commit (its failure undoes the commit).
struct CreateDatabaseCommand {
  hive::Database db;
  bool if_not_exists = false;  // an existing database is a no-op, not ALREADY_EXISTS
};

// DROP DATABASE. Not `default`. Without cascade a database with tables or
// functions is INVALID_ARGUMENT. With delete_data the directories of its
// managed tables (and the database directory, once empty) are removed.
struct DropDatabaseCommand {
  std::string name;
  bool if_exists = false;
  bool cascade = false;
  bool delete_data = true;
};

// ALTER DATABASE: `patch` edits the current object under the database's
// lock. It may not rename the database (INVALID_ARGUMENT); an emptied
// location keeps the current one.
struct AlterDatabaseCommand {
  std::string name;
  std::function<Status(hive::Database*)> patch;
};

// CREATE TABLE / VIEW from a whole metastore object. Names, columns and
// partition keys are validated (one rule set: ValidateColumns in
// ddl_schema_internal.h); an empty table type is MANAGED_TABLE, or EXTERNAL_TABLE
// when the EXTERNAL parameter is TRUE; a table without storage formats gets
// the text formats; an empty location is the default one under the
// database. The table's directory is created after the commit.
struct CreateTableCommand {
  hive::Table table;
  bool if_not_exists = false;
};

// DROP TABLE / VIEW. `kind` kTable refuses a view and kView a table
// (INVALID_ARGUMENT); kAny drops either. With delete_data a managed
// table's data (and partitions outside its directory that no other table
// uses) is removed.
struct DropTableCommand {
  enum class Kind { kAny, kTable, kView };
  std::string db;
  std::string table;
  Kind kind = Kind::kAny;
  bool if_exists = false;
  bool delete_data = true;
};

// ALTER TABLE with a whole new metastore object for db.table (what a Hive
// Metastore client sends). Fields the caller left empty (names, type,
// location, create time) keep their current values; partition keys cannot
// change. A new name renames the table: a managed table whose location the
// caller did not change moves to the new name's default location, as
// Hive's metastore moves it; a location the caller changed is taken as is.
struct AlterTableCommand {
  std::string db;
  std::string table;
  hive::Table table_def;
};

// TRUNCATE TABLE: every data file of a managed table (and of its
// partitions) removed; with delete_stats, its statistics too (row counts
// and sizes, incremental statistics, the table's column statistics). A view
// or an external table is INVALID_ARGUMENT; with if_exists a missing table
// is a no-op.
struct TruncateTableCommand {
  std::string db;
  std::string table;
  bool if_exists = false;
  bool delete_stats = true;
};

// CREATE FUNCTION from the catalog's function object. Its signature is
// computed from the argument types ("name(type1,type2)") and the object is
// marked persistent with the current modification time, unless `signature`
// is given: a Hive Metastore client's function, keyed by that signature and
// stored as it came (so a catalog function that such a client read and
// creates again is stored exactly).
struct CreateFunctionCommand {
  impala::TFunction fn;
  std::string signature;  // "" = computed
  bool if_not_exists = false;
};

// DROP FUNCTION by signature.
struct DropFunctionCommand {
  std::string db;
  std::string signature;
  bool if_exists = false;
};

class DdlExecutor {
 public:
  explicit DdlExecutor(CatalogContext* ctx) : ctx_(ctx) {}

  Result<DdlOutcome> CreateDatabase(const CreateDatabaseCommand& c);
  Result<DdlOutcome> DropDatabase(const DropDatabaseCommand& c);
  Result<DdlOutcome> AlterDatabase(const AlterDatabaseCommand& c);
  Result<DdlOutcome> CreateTable(const CreateTableCommand& c);
  Result<DdlOutcome> DropTable(const DropTableCommand& c);
  Result<DdlOutcome> TruncateTable(const TruncateTableCommand& c);
  Result<DdlOutcome> AlterTable(const AlterTableCommand& c);
  Result<DdlOutcome> CreateFunction(const CreateFunctionCommand& c);
  Result<DdlOutcome> DropFunction(const DropFunctionCommand& c);
  Result<DdlOutcome> Insert(const InsertCommand& c);
  Result<DdlOutcome> Reset(const ResetCommand& c);

  // Impala's shape (CatalogService), for the DDL with no typed command yet.
  Result<DdlOutcome> ExecDdl(const impala::TDdlExecRequest& req);
  // See PartitionBatch. NOT_FOUND for a missing table or partition,
  // ALREADY_EXISTS for an existing add (unless skip_existing),
  // INVALID_ARGUMENT for bad values, duplicates or an unpartitioned table.
  Result<PartitionBatchResult> ApplyPartitionBatch(const PartitionBatch& batch);
  // See TableChange. NOT_FOUND for a missing database or table; errors of
  // `plan` and of the commit as they are. An empty plan is a no-op (returns
  // the current version, nothing installed).
  Result<DdlOutcome> ChangeTable(const TableChange& change);

 private:
  // Runs `fn` holding reset_mu_ shared.
  template <typename Fn>
  auto Shared(Fn&& fn) -> decltype(fn());

  CatalogContext* const ctx_;
  // Shared by every operation; exclusive for a global INVALIDATE METADATA.
  // Acquired before any database or table lock.
  SharedMutex reset_mu_;
};

}  // namespace ics::catalog
