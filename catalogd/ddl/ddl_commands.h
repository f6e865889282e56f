// The typed commands of catalogd's catalog: what a door asks the command
// core (catalogd/ops/command_core.h) to change, in the catalog's own terms
// (metastore objects, partition specs by key and value, the catalog's
// statistics and function objects), never a wire request. Each door
// translates its protocol into these; the DDL executor (ddl_executor.h)
// carries them out with the same validation and messages whichever door
// sent them.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "CatalogObjects_types.h"
#include "catalogd/catalog/table_state.h"
#include "common/hive/partition_name.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog {

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
  int64_t version = 0;                   // the change's version; the current one if nothing changed
  bool changed = false;                  // false: every add was skipped and nothing else asked
  std::vector<hive::Partition> added;    // as committed, in request order
  std::vector<hive::Partition> altered;  // as committed, in request order
  size_t dropped = 0;
  std::vector<hive::Partition> removed;  // the dropped ones as they were
  TablePtr table;                        // the table state after the batch
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
  std::string db;  // normalized (lower-case) names
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

// Whether a command on a table accepts a table, a view, or either.
enum class TableKind { kAny, kTable, kView };

// SORT BY / ZORDER BY columns of a table (none when `columns` is empty).
struct SortBy {
  std::vector<std::string> columns;
  bool zorder = false;
};

// Delimiters of a text or sequence file table (ROW FORMAT DELIMITED), kept
// as its SerDe's parameters (field.delim and serialization.format,
// line.delim, escape.delim).
struct RowFormat {
  std::optional<std::string> field_terminator;
  std::optional<std::string> line_terminator;
  std::optional<std::string> escaped_by;
};

// CREATE TABLE / VIEW from a whole metastore object. Names, columns and
// partition keys are validated (one rule set: ValidateColumns in
// ddl_schema_internal.h); an empty table type is MANAGED_TABLE, or EXTERNAL_TABLE
// when the EXTERNAL parameter is TRUE; a table without storage formats gets
// the text formats; an empty location is the default one under the
// database. The table's directory is created after the commit.
//
// Sort columns (sort_by) must be columns of the table; they are kept in the
// table's parameters "sort.columns" and "sort.order", as Impala keeps them.
// A row format's delimiters are set in the SerDe's parameters. A
// `file_format` (STORED AS) sets the storage formats (NOT_IMPLEMENTED for
// one this catalog cannot store: Kudu, Iceberg, ...).
struct CreateTableCommand {
  hive::Table table;
  std::optional<impala::THdfsFileFormat::type> file_format;
  SortBy sort_by;
  RowFormat row_format;
  bool if_not_exists = false;
};

// DROP TABLE / VIEW. `kind` kTable refuses a view and kView a table
// (INVALID_ARGUMENT); kAny drops either. With delete_data a managed
// table's data (and partitions outside its directory that no other table
// uses) is removed.
struct DropTableCommand {
  using Kind = TableKind;
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

// DROP FUNCTION of db, by name and argument types (the overload with
// exactly these, else its var-args form, else `signature` if given), or by
// `signature` alone when `name` is empty (a Hive Metastore client's key).
// NOT_FOUND names the exact signature (or `signature`).
struct DropFunctionCommand {
  std::string db;
  std::string name;
  std::vector<impala::TColumnType> arg_types;
  std::string signature;
  bool if_exists = false;
};

// CREATE TABLE LIKE: db.table with the columns, partition keys and storage
// of src_db.src_table (a view's columns only, stored as text), without its
// statistics, comment or location. `location` "" = the default one;
// `file_format`, `comment`, `sort_by` replace the copied ones; `external`
// makes an EXTERNAL_TABLE, else a managed one.
struct CreateTableLikeCommand {
  std::string db;
  std::string table;
  std::string src_db;
  std::string src_table;
  std::string owner;
  std::string location;
  std::optional<impala::THdfsFileFormat::type> file_format;
  std::optional<std::string> comment;
  bool external = false;
  SortBy sort_by;
  bool if_not_exists = false;
};

// ALTER VIEW ... AS: a view's columns and texts replaced; `comment` and
// `properties` (merged) when given. A table is INVALID_ARGUMENT.
struct AlterViewCommand {
  std::string db;
  std::string view;
  std::vector<hive::FieldSchema> columns;
  std::string original_text;
  std::string expanded_text;
  std::optional<std::string> comment;
  std::map<std::string, std::string> properties;
};

// RENAME of db.table to new_db.new_table; `kind` kTable refuses a view and
// kView a table. A managed table whose data lies at its default location
// moves with it to the new name's default location.
struct RenameTableCommand {
  std::string db;
  std::string table;
  std::string new_db;
  std::string new_table;
  TableKind kind = TableKind::kAny;
};

// One change of a table's definition (ALTER TABLE / ALTER VIEW), applied by
// TableAlterationCommand. Partition sets (`partitions`) name partitions by
// key and value; a spec may give only some keys and then names every
// partition with those values; when a partition set is given (even empty)
// only those partitions change, not the table.
namespace alter {
// New columns at the end; a name that exists is ALREADY_EXISTS unless
// if_not_exists (then skipped).
struct AddColumns {
  std::vector<hive::FieldSchema> columns;
  bool if_not_exists = false;
};
// Every data column replaced (partition keys stay).
struct ReplaceColumns {
  std::vector<hive::FieldSchema> columns;
};
// Column `column` replaced by `definition` (rename and type change);
// keep_comment keeps its comment.
struct ChangeColumn {
  std::string column;
  hive::FieldSchema definition;
  bool keep_comment = false;
};
struct DropColumn {
  std::string column;
};
struct SetFileFormat {
  impala::THdfsFileFormat::type format = impala::THdfsFileFormat::TEXT;
  std::optional<std::vector<PartitionSpec>> partitions;
};
struct SetRowFormat {
  RowFormat format;
  std::optional<std::vector<PartitionSpec>> partitions;
};
// The table's location (its partitions are read again there) or one
// partition's; the directory is created.
struct SetLocation {
  std::string location;
  std::optional<PartitionSpec> partition;
};
// TBLPROPERTIES (serde = false) or SERDEPROPERTIES set; statistics keys
// are reserved. EXTERNAL=TRUE/FALSE turns a table external / managed.
struct SetProperties {
  bool serde = false;
  std::map<std::string, std::string> properties;
  std::optional<std::vector<PartitionSpec>> partitions;
};
// Keys removed; a missing key is NOT_FOUND unless if_exists.
struct UnsetProperties {
  bool serde = false;
  std::vector<std::string> keys;
  bool if_exists = false;
  std::optional<std::vector<PartitionSpec>> partitions;
};
// A view's TBLPROPERTIES: its definition stays; storage_handler and
// statistics keys are refused. Unset without if_exists: NOT_FOUND naming
// every absent key, nothing removed.
struct SetViewProperties {
  std::map<std::string, std::string> properties;
};
struct UnsetViewProperties {
  std::vector<std::string> keys;
  bool if_exists = false;
};
struct SetOwner {
  std::string owner;
};
}  // namespace alter

using TableAlteration =
    std::variant<alter::AddColumns, alter::ReplaceColumns, alter::ChangeColumn, alter::DropColumn,
                 alter::SetFileFormat, alter::SetRowFormat, alter::SetLocation,
                 alter::SetProperties, alter::UnsetProperties, alter::SetViewProperties,
                 alter::UnsetViewProperties, alter::SetOwner>;

// The name of an alteration as the operation log writes it (Impala's
// names: ADD_COLUMNS, SET_TBL_PROPERTIES, ...).
const char* AlterationName(const TableAlteration& a);

// ALTER TABLE / VIEW db.table with one alteration, as one change. A view
// accepts only SetProperties / UnsetProperties of the table (not serde, no
// partitions), the view properties and SetOwner; other alterations of a
// view are INVALID_ARGUMENT.
struct TableAlterationCommand {
  std::string db;
  std::string table;
  TableAlteration change;
};

// ALTER TABLE ADD PARTITION: each partition by its full spec, at its
// location ("" = <table location>/<name>); its directory is created. An
// existing one is ALREADY_EXISTS unless if_not_exists (skipped).
struct AddPartitionsCommand {
  std::string db;
  std::string table;
  struct Partition {
    PartitionSpec spec;
    std::string location;
  };
  std::vector<Partition> partitions;
  bool if_not_exists = false;
};

// ALTER TABLE DROP PARTITION of every partition each (partial) spec
// matches; a spec matching nothing is NOT_FOUND unless if_exists. A
// managed table's partition data inside the data roots is removed.
struct DropPartitionsCommand {
  std::string db;
  std::string table;
  std::vector<PartitionSpec> partitions;
  bool if_exists = false;
};

// ALTER TABLE RECOVER PARTITIONS: partition directories under the table's
// location that the catalog does not have are added.
struct RecoverPartitionsCommand {
  std::string db;
  std::string table;
};

// Statistics a coordinator computed (COMPUTE [INCREMENTAL] STATS), in the
// catalog's statistics objects: the table's row count and size, each
// partition's statistics by its values (an unpartitioned table's under no
// values), and column statistics by column name.
struct UpdateStatsCommand {
  std::string db;
  std::string table;
  std::optional<impala::TTableStats> table_stats;
  std::map<std::vector<std::string>, impala::TPartitionStats> partition_stats;
  std::map<std::string, impala::TColumnStats> column_stats;
};

// DROP STATS of a whole table (row counts, sizes, incremental and column
// statistics), or DROP INCREMENTAL STATS of the partitions `partitions`
// names (only their incremental statistics).
struct DropStatsCommand {
  std::string db;
  std::string table;
  std::optional<std::vector<PartitionSpec>> partitions;
};

// COMMENT ON DATABASE db / TABLE db.table / COLUMN db.table.column; an
// absent comment removes it.
struct CommentOnCommand {
  enum class Target { kDatabase, kTable, kColumn };
  Target target = Target::kDatabase;
  std::string db;
  std::string table;
  std::string column;
  std::optional<std::string> comment;
};

}  // namespace ics::catalog
