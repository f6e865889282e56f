// Metastore: durable storage of Hive-Metastore-shaped metadata, the source
// of truth catalogd loads from and writes DDL to.
//
// Objects are the HMS Thrift structs (hive::Database, hive::Table,
// hive::Partition, hive::ColumnStatisticsObj) plus Impala functions
// (impala::TFunction). Names of databases, tables and columns are stored
// lower-case; callers pass them lower-case (the catalog validates names;
// Commit rejects an empty or upper-case name with INVALID_ARGUMENT).
// Partitions are identified by their name "k1=v1/k2=v2" (values escaped as
// Hive does; see partition_name.h) within a table; the metastore derives it
// from the table's partition keys and the partition's values.
//
// Writes are grouped into a MetastoreTxn and committed atomically: either
// every operation applies or none does, and a committed transaction survives
// a crash (kill -9) of the process. Every applied operation appends an entry
// to the notification log (event id strictly increasing), as the Hive
// Metastore does; the log feeds external-change polling. Event types and the
// JSON message format are in notification_message.h.
//
// Errors common to every method: IO_ERROR when the storage fails (SQLite
// I/O error, disk full, lock not obtained within the busy timeout);
// CORRUPTION when stored data cannot be decoded (a damaged object fails the
// call that reads it, not the whole store).
//
// Thread-safety: implementations are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "hive_metastore_types.h"
#include "common/util/result.h"

namespace ics::catalog {

// One operation of a transaction. Preconditions are checked at commit time
// inside the transaction, after the txn's earlier ops (so one txn may create
// a database and a table in it, or drop functions and then their database);
// a failed precondition aborts the whole txn with the stated status code.
// Each op appends one notification event (type in brackets), except the
// table version ops, which append none.
struct MetastoreOp {
  enum class Kind {
    // database; ALREADY_EXISTS if present.                       [CREATE_DATABASE]
    kCreateDatabase,
    // database (replaces by database.name); NOT_FOUND if absent; INVALID_ARGUMENT
    // if db_name is set and differs (no database renames).       [ALTER_DATABASE]
    kAlterDatabase,
    // db_name; NOT_FOUND if absent; INVALID_ARGUMENT if it still has tables or
    // functions (callers drop them first, in the same txn, for CASCADE).
    //                                                            [DROP_DATABASE]
    kDropDatabase,
    // table (keyed by table.dbName, table.tableName); NOT_FOUND if the db is
    // absent, ALREADY_EXISTS if present.                         [CREATE_TABLE]
    kCreateTable,
    // db_name, table_name = old names; table = new object. NOT_FOUND if absent;
    // INVALID_ARGUMENT if the partition key names change (as in Hive). A new
    // dbName/tableName is a rename: NOT_FOUND if the new db is absent,
    // ALREADY_EXISTS if the new name is taken; partitions and column stats move
    // with the table (partition locations are left as they are: callers that
    // move data add kAlterPartition ops to the same txn).         [ALTER_TABLE]
    kAlterTable,
    // db_name, table_name; NOT_FOUND if absent; drops its partitions and stats too.
    //                                                            [DROP_TABLE]
    kDropTable,
    // partition (keyed by partition.dbName, tableName and the name made from the
    // table's partition keys and partition.values); NOT_FOUND if the table is
    // absent, INVALID_ARGUMENT if the values do not match the keys (or
    // partition_name is set and differs from the derived name), ALREADY_EXISTS
    // if present.                                                [ADD_PARTITION]
    kAddPartition,
    // partition (replaces by values, keyed as kAddPartition); NOT_FOUND if absent.
    //                                                            [ALTER_PARTITION]
    kAlterPartition,
    // db_name, table_name, partition_name; NOT_FOUND if the table or partition
    // is absent; drops its column stats too.                     [DROP_PARTITION]
    kDropPartition,
    // function (keyed by function.name.db_name and function.signature);
    // INVALID_ARGUMENT if the signature is empty, NOT_FOUND if the db is absent,
    // ALREADY_EXISTS if (db, signature) present.                 [CREATE_FUNCTION]
    kCreateFunction,
    // db_name, function_signature; NOT_FOUND if absent.          [DROP_FUNCTION]
    kDropFunction,
    // db_name, table_name, column_stats (upsert by colName; names are not
    // checked against the schema); NOT_FOUND if the table is absent.
    //                                                    [UPDATE_TABLE_COLUMN_STAT]
    kSetTableColumnStats,
    // db_name, table_name, partition_name, column_stats (upsert by colName);
    // NOT_FOUND if the partition is absent.          [UPDATE_PARTITION_COLUMN_STAT]
    kSetPartitionColumnStats,
    // db_name, table_name; deletes all table and partition column stats;
    // NOT_FOUND if the table is absent.                  [DELETE_TABLE_COLUMN_STAT]
    kDeleteColumnStats,
    // db_name, table_name, partition_name ("" = table level), column_name:
    // deletes that one column's stats; NOT_FOUND if the table, the partition
    // or the stats are absent.  [DELETE_TABLE_COLUMN_STAT / DELETE_PARTITION_COLUMN_STAT]
    kDeleteColumnStat,
    // ---- table versions (see "Table versions" below) ----
    // db_name, table_name, archive: starts a new version of the table. With
    // `archive`, the table's stored object (as it is at this point of the
    // txn) is kept as an archived version under the current version id;
    // either way the current version id advances by one. Put it before the
    // kAlterTable that writes the new object. NOT_FOUND if the table is
    // absent.                                                    [no event]
    kNewTableVersion,
    // db_name, table_name, version_id: deletes one archived version;
    // NOT_FOUND if the table or that archived version is absent; INVALID_ARGUMENT
    // for the current version id (it is not archived).           [no event]
    kDeleteTableVersion,
    // ---- exactly-once writes (see "Recorded requests" below) ----
    // request_id, request_summary: records that this txn carries out that
    // request. ALREADY_EXISTS if the id is recorded (the request was carried
    // out before: nothing of the txn applies).                  [no event]
    kRecordRequest,
  };
  // Named constructors, one per kind, with the fields that kind reads.
  static MetastoreOp CreateDatabase(std::string db, hive::Database database);
  static MetastoreOp AlterDatabase(std::string db, hive::Database database);
  static MetastoreOp DropDatabase(std::string db);
  static MetastoreOp CreateTable(std::string db, std::string table, hive::Table object);
  // `db`, `table`: the current names; `object` may carry new ones (a rename).
  static MetastoreOp AlterTable(std::string db, std::string table, hive::Table object);
  static MetastoreOp DropTable(std::string db, std::string table);
  static MetastoreOp AddPartition(std::string db, std::string table, hive::Partition partition);
  static MetastoreOp AlterPartition(std::string db, std::string table, hive::Partition partition);
  static MetastoreOp DropPartition(std::string db, std::string table, std::string partition_name);
  static MetastoreOp CreateFunction(std::string db, std::string signature,
                                    impala::TFunction function);
  static MetastoreOp DropFunction(std::string db, std::string signature);
  static MetastoreOp SetTableColumnStats(std::string db, std::string table,
                                         std::vector<hive::ColumnStatisticsObj> stats);
  static MetastoreOp SetPartitionColumnStats(std::string db, std::string table,
                                             std::string partition_name,
                                             std::vector<hive::ColumnStatisticsObj> stats);
  static MetastoreOp DeleteColumnStats(std::string db, std::string table);
  // `partition_name` "" deletes the table-level statistics of `column`.
  static MetastoreOp DeleteColumnStat(std::string db, std::string table, std::string partition_name,
                                      std::string column);
  static MetastoreOp NewTableVersion(std::string db, std::string table, bool archive);
  static MetastoreOp DeleteTableVersion(std::string db, std::string table, int64_t version_id);
  static MetastoreOp RecordRequest(std::string request_id, std::string summary);

  Kind kind;
  std::string db_name;
  std::string table_name;
  std::string partition_name;
  std::string function_signature;
  hive::Database database;
  hive::Table table;
  hive::Partition partition;
  impala::TFunction function;
  std::vector<hive::ColumnStatisticsObj> column_stats;
  std::string column_name;  // kDeleteColumnStat
  int64_t version_id = 0;   // kDeleteTableVersion
  bool archive = true;      // kNewTableVersion
  std::string request_id;       // kRecordRequest
  std::string request_summary;  // kRecordRequest
};

struct MetastoreTxn {
  std::vector<MetastoreOp> ops;
};

// The metastore's writer epoch (Metastore::AcquireWriterEpoch).
struct WriterEpoch {
  int64_t epoch = 0;        // 0: never taken
  int64_t designation = 0;  // the catalogd HA designation it was taken (or re-keyed) for
  std::string holder;       // the CatalogService address of the catalogd that holds it
  std::string owner;        // who took it, for operators: address, service id, statestore
  int64_t acquired_ms = 0;
};

// A catalogd's claim on the writer epoch (Metastore::AcquireWriterEpoch).
struct WriterEpochClaim {
  int64_t designation = 0;  // the designation version that names it active (>= 1)
  std::string holder;       // its CatalogService address
  std::string owner;        // recorded for operators
  int64_t held_epoch = 0;   // the epoch it holds now (0: none)
};

// A request recorded with the change that carried it out
// (MetastoreOp::kRecordRequest, Metastore::LookupRequest).
struct RecordedRequest {
  std::string request_id;
  std::string summary;
  int64_t recorded_ms = 0;
};

// A row of the notification log.
using NotificationEvent = hive::NotificationEvent;

// Which notification events a reader wants (Hive 4's NotificationEventRequest
// filters): none of the types in `skip_types`; with `db`, only events of that
// database, and with `tables` too, only of those tables. Names lower-case.
// An empty filter matches every event. Callers bound the lists (the HMS
// endpoint: kMaxNotificationFilterNames each).
inline constexpr size_t kMaxNotificationFilterNames = 1024;
struct NotificationFilter {
  std::vector<std::string> skip_types;
  std::string db;
  std::vector<std::string> tables;

  bool empty() const { return skip_types.empty() && db.empty(); }
  bool Matches(const NotificationEvent& e) const;
};

// Table versions. Every table has a current version id (1 when created)
// and the time its current object was written; kNewTableVersion archives
// the current object (optional) and advances the id, so ids grow by one per
// new version and are never reused while the table exists. Archived
// versions are dropped with their table and follow it through a rename.
// ALTER TABLE through ExecDdl edits the current version in place; only
// operations that add kNewTableVersion make versions (catalogd/mds). Version
// ops write no notification event: the object change itself is logged by
// the kAlterTable next to them, so event consumers need not know them.
struct TableVersionRecord {
  int64_t version_id = 0;
  int64_t valid_from_ms = 0;  // when this object became the current one
  int64_t archived_ms = 0;    // when it was replaced (0 for the current version)
  hive::Table table;
};

// What PruneNotifications may delete: the oldest events, as one prefix of
// the log, so the kept events are always one contiguous id range. An event
// is deletable if it breaks a rule (with both rules, breaking either is
// enough) and its id is <= keep_after_event_id's bound.
struct NotificationRetention {
  // Keep at most this many newest events (<= 0: no count rule).
  int64_t max_events = 0;
  // Keep events younger than this (event_time >= now - max_age_seconds;
  // <= 0: no age rule). An old event behind a younger one (clock stepped
  // back) waits until that one ages too.
  int64_t max_age_seconds = 0;
  // Never delete an event with id > this (-1: no such bound): what a reader
  // that follows the log (catalogd's event processor) has not consumed yet.
  int64_t keep_after_event_id = -1;
  // Most events deleted by one call (one short transaction); >= 1.
  int batch_limit = 1000;
  // The current time, seconds since the epoch (0: the system clock).
  int64_t now_seconds = 0;
};

// A table's partitions as read in one snapshot, decoded one at a time when
// taken: a loader decodes them in parallel and keeps no second copy of the
// whole list. Ordered by name.
// Thread-safety: Take, Peek and Skip may run concurrently for distinct
// indexes.
class PartitionReader {
 public:
  // What a reader that keeps partitions in a stored form can tell about
  // one without decoding it: its name (as the metastore keys it) and a
  // 64-bit digest of its stored bytes, never 0. Two stored forms of one
  // table's partition with equal digests are taken to be equal (a refresh
  // skips decoding a partition whose digest it has seen before).
  struct Stored {
    std::string_view name;  // valid until i is taken or skipped
    uint64_t digest = 0;
  };

  virtual ~PartitionReader() = default;
  virtual size_t size() const = 0;
  // Partition i (< size()), decoded; its stored form is released. Each
  // index is taken (or skipped) at most once.
  virtual Result<hive::Partition> Take(size_t i) = 0;
  // Partition i's name and digest, before it is taken or skipped; nullopt
  // when the reader holds no stored form (the default).
  virtual std::optional<Stored> Peek(size_t /*i*/) const { return std::nullopt; }
  // Done with partition i without decoding it: its stored form is released
  // as Take would.
  virtual void Skip(size_t /*i*/) {}
};

// A PartitionReader over partitions already decoded.
std::unique_ptr<PartitionReader> ReaderOf(std::vector<hive::Partition> partitions);
// Every partition of `reader`, decoded, in order; the first decoding error.
Result<std::vector<hive::Partition>> TakeAll(PartitionReader* reader);

class Metastore {
 public:
  virtual ~Metastore() = default;

  // Database names, sorted.
  virtual Result<std::vector<std::string>> GetAllDatabases() = 0;
  // NOT_FOUND if absent.
  virtual Result<hive::Database> GetDatabase(const std::string& db) = 0;
  // Table names of a database, sorted; NOT_FOUND if the database is absent.
  virtual Result<std::vector<std::string>> GetAllTables(const std::string& db) = 0;
  // NOT_FOUND if absent.
  virtual Result<hive::Table> GetTable(const std::string& db, const std::string& table) = 0;
  // All partitions of a table, ordered by name; NOT_FOUND if the table is absent.
  virtual Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                             const std::string& table) = 0;
  // The same partitions as GetPartitions, decoded as they are taken. The
  // default reads them with GetPartitions.
  virtual Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                                  const std::string& table);
  // Partitions by name, ordered by name; names that do not exist are skipped
  // and repeated names collapse. NOT_FOUND if the table is absent.
  virtual Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table, const std::vector<std::string>& names) = 0;
  // Functions of a database, ordered by signature; NOT_FOUND if the db is absent.
  virtual Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) = 0;
  // Ordered by column name; NOT_FOUND if the table is absent.
  virtual Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) = 0;
  // Ordered by column name; NOT_FOUND if the table or partition is absent.
  virtual Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table, const std::string& partition_name) = 0;

  // ---- table versions: an optional capability ----
  // Backends that do not keep versions (e.g. a remote Hive Metastore) keep
  // these defaults, which fail with NOT_IMPLEMENTED; so do the version ops
  // in Commit. The embedded SQLite backend implements them.

  // The table's current object with its version id and valid_from_ms (read
  // together); NOT_FOUND if the table is absent.
  virtual Result<TableVersionRecord> GetCurrentTableVersion(const std::string& db,
                                                            const std::string& table);
  // One archived version; NOT_FOUND if the table or the version is absent.
  virtual Result<TableVersionRecord> GetArchivedTableVersion(const std::string& db,
                                                             const std::string& table,
                                                             int64_t version_id);
  // Archived versions with id < below_version_id (0: no bound), newest first,
  // at most `limit` (INVALID_ARGUMENT unless limit > 0); NOT_FOUND if the
  // table is absent.
  virtual Result<std::vector<TableVersionRecord>> ListArchivedTableVersions(
      const std::string& db, const std::string& table, int64_t below_version_id, int limit);
  // The version that was current at `at_ms` (current or archived);
  // NOT_FOUND if the table is absent or no kept version covers that time
  // (before the table existed, or its version was not archived or deleted).
  virtual Result<TableVersionRecord> GetTableVersionAsOf(const std::string& db,
                                                         const std::string& table,
                                                         int64_t at_ms);

  // Applies every op atomically and durably (on disk before it returns),
  // appending one notification event per op. Returns the id of the last
  // event written (0 for an empty txn). On a failed op, returns that op's
  // status with the context "metastore txn op <i> of <n> (<EVENT_TYPE>)" and
  // nothing of the txn is applied. An IO_ERROR from the final commit step
  // itself (the disk failed while committing) leaves the outcome unknown;
  // callers should re-read the affected objects.
  virtual Result<int64_t> Commit(const MetastoreTxn& txn) = 0;

  // Notification log: events with id > after_event_id in id order, at most
  // max_events (INVALID_ARGUMENT unless max_events > 0). A backend with
  // retention (PruneNotifications) answers INVALID_ARGUMENT "... no longer
  // kept ..." when events right after after_event_id were deleted, i.e.
  // max(after_event_id, 0) + 1 < FirstRetainedNotificationEventId(): the
  // reader missed changes and must start over from a full reload (as a Hive
  // client fails on missing notification events).
  virtual Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                                      int max_events) = 0;
  // The same for the events `filter` matches: at most max_events of those,
  // in id order, the retention answer as above. Default: reads pages of
  // GetNextNotifications and keeps the matching events (so it may read far
  // ahead when few match); a backend that filters where it reads overrides it.
  virtual Result<std::vector<NotificationEvent>> GetMatchingNotifications(
      int64_t after_event_id, int max_events, const NotificationFilter& filter);
  // The highest event id ever assigned (0 if none); ids are never reused.
  virtual Result<int64_t> CurrentNotificationEventId() = 0;

  // ---- retention: an optional capability ----
  // The lowest event id the log still holds (CurrentNotificationEventId()+1
  // when it holds none); every event below it was deleted by retention (1 if
  // nothing ever was). Default: the first event GetNextNotifications(0, 1)
  // returns, which suits backends that cannot say (a remote Hive Metastore).
  virtual Result<int64_t> FirstRetainedNotificationEventId();
  // Deletes up to r.batch_limit of the oldest events that `r` allows
  // (see NotificationRetention); returns how many. NOT_IMPLEMENTED by
  // default (the remote backend: Hive prunes its own log).
  virtual Result<int64_t> PruneNotifications(const NotificationRetention& r);
  // Deletes up to batch_limit archived table versions beyond the newest
  // keep_per_table of each table (INVALID_ARGUMENT unless both are >= 1);
  // returns how many. The current version is never touched. Readers asking
  // for a deleted version get NOT_FOUND as for any absent version.
  // NOT_IMPLEMENTED by default (backends without versions).
  virtual Result<int64_t> PruneTableVersions(int64_t keep_per_table, int batch_limit);

  // ---- recorded requests (exactly-once writes): an optional capability ----
  // A writer that may repeat a request (its reply was lost: catalogd was
  // killed or replaced mid-call) records the request's id in the txn that
  // carries it out (kRecordRequest); a repeat then finds it here and is
  // answered without being carried out again, by whichever catalogd shares
  // this metastore. Ids are kept as long as the notification log's events
  // of their time (PruneNotifications prunes both). nullopt when the id is
  // not recorded; NOT_IMPLEMENTED by default (the remote Hive backend).
  virtual Result<std::optional<RecordedRequest>> LookupRequest(const std::string& request_id);

  // ---- writer epochs (catalogd HA fencing): an optional capability ----
  // The metastore keeps one writer epoch: a counter, the designation it was
  // taken for and its holder. A catalogd that becomes active takes the next
  // epoch (AcquireWriterEpoch) and commits with CommitFenced(txn, its
  // epoch), which applies the txn, as Commit does, only if the epoch is
  // still the metastore's current one, in the same write transaction;
  // otherwise nothing is applied and the answer is CATALOG_IN_STANDBY_MODE
  // naming the current epoch and owner. So once another catalogd took the
  // role, a catalogd that has not heard yet (paused, cut off) cannot commit.
  //
  // Epochs are ordered by designation, not by who wrote last: a claim takes
  // the epoch, in one write transaction, only when the stored designation is
  // older than the claim's, or the same one held by the same catalogd (a
  // takeover repeated after a failure); otherwise CATALOG_IN_STANDBY_MODE
  // naming the holder, and nothing changes. So a takeover for a designation
  // that was overtaken can never fence the newer designee, and the newest
  // designee can always take the role. A claim by the current holder with
  // the epoch it holds re-keys it to the newer designation in place (the
  // same epoch: its commits in flight still apply); any other successful
  // claim takes epoch + 1. NOT_IMPLEMENTED by default (the remote Hive
  // backend has no such row).
  virtual Result<WriterEpoch> AcquireWriterEpoch(const WriterEpochClaim& claim);
  virtual Result<WriterEpoch> ReadWriterEpoch();
  virtual Result<int64_t> CommitFenced(const MetastoreTxn& txn, int64_t epoch);
};

// Opens (creating if needed) the embedded SQLite metastore at `path`,
// with WAL journaling and synchronous commits. Creates or upgrades the
// schema. Errors: INVALID_ARGUMENT if the file's schema version is newer
// than this build, or it is an SQLite database that is not a metastore;
// CORRUPTION if it is not an SQLite database or its version row is damaged;
// IO_ERROR if it cannot be opened or cannot use WAL (e.g. no such directory).
// Several processes may open the same file (SQLite locking; a writer waits
// up to a busy timeout), though catalogd expects to be its only writer.
Result<std::unique_ptr<Metastore>> OpenSqliteMetastore(const std::string& path);

}  // namespace ics::catalog
