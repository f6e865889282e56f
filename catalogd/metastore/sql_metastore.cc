// The embedded SQLite metastore: OpenSqlMetastore() and its reads and
// commits. Schema and connection settings: sqlite_schema.h; per-op
// preconditions and writes: txn_applier.h.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/metastore/connection_pool.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/metastore_blob.h"
#include "catalogd/metastore/packed_rows.h"
#include "catalogd/metastore/sql_partition_rows.h"
#include "catalogd/metastore/sql_metastore.h"
#include "catalogd/metastore/sql_retention.h"
#include "catalogd/metastore/sql_writer_epoch.h"
#include "catalogd/metastore/sqlite_db.h"
#include "catalogd/metastore/sqlite_schema.h"
#include "catalogd/metastore/txn_applier.h"

namespace ics::catalog {
namespace {

constexpr int kBusyTimeoutMs = 10000;
// How long a caller waits for the SQLite metastore's one connection: long
// bulk reads (a table with a million partitions) may hold it for a while,
// and a DDL behind them should wait rather than fail.
constexpr int kSqliteAcquireTimeoutMs = 600000;
// WAL size (pages) at which a checkpoint is requested: SQLite's default.
constexpr int kWalCheckpointPages = 1000;

std::string TableName(const std::string& db, const std::string& table) { return db + "." + table; }

// Rows read inside a lease and decoded after it ends.
using KeyedBlobs = std::vector<std::pair<std::string, std::string>>;

// A version row as read: (id, valid_from_ms, archived_ms, blob).
struct VersionRow {
  int64_t id = 0;
  int64_t valid_from_ms = 0;
  int64_t archived_ms = 0;
  std::string blob;
};

// The Metastore over the SQL database layer, for either driver: every call
// leases a session from the pool (one for SQLite, up to pool_size for
// PostgreSQL) and runs its statements in one transaction.
class SqlMetastore final : public Metastore {
 public:
  explicit SqlMetastore(std::unique_ptr<sqldb::ConnectionPool> pool) : pool_(std::move(pool)) {}

  Result<std::vector<std::string>> GetAllDatabases() override;
  Result<hive::Database> GetDatabase(const std::string& db) override;
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override;
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override;
  Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                          const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override;
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table, const std::string& partition_name) override;
  Result<TableVersionRecord> GetCurrentTableVersion(const std::string& db,
                                                    const std::string& table) override;
  Result<TableVersionRecord> GetArchivedTableVersion(const std::string& db,
                                                     const std::string& table,
                                                     int64_t version_id) override;
  Result<std::vector<TableVersionRecord>> ListArchivedTableVersions(const std::string& db,
                                                                    const std::string& table,
                                                                    int64_t below_version_id,
                                                                    int limit) override;
  Result<TableVersionRecord> GetTableVersionAsOf(const std::string& db, const std::string& table,
                                                 int64_t at_ms) override;
  Result<int64_t> Commit(const MetastoreTxn& txn) override;
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override;
  Result<std::vector<NotificationEvent>> GetMatchingNotifications(
      int64_t after_event_id, int max_events, const NotificationFilter& filter) override;
  Result<int64_t> CurrentNotificationEventId() override;
  Result<int64_t> FirstRetainedNotificationEventId() override;
  Result<int64_t> PruneNotifications(const NotificationRetention& r) override;
  Result<int64_t> PruneTableVersions(int64_t keep_per_table, int batch_limit) override;
  Result<std::optional<RecordedRequest>> LookupRequest(const std::string& request_id) override;
  Result<WriterEpoch> AcquireWriterEpoch(const WriterEpochClaim& claim) override;
  Result<WriterEpoch> ReadWriterEpoch() override;
  Result<int64_t> CommitFenced(const MetastoreTxn& txn, int64_t epoch) override;

 private:
  // Commit and CommitFenced: with `epoch`, the txn applies only while the
  // writer epoch is still *epoch (checked inside the write transaction).
  Result<int64_t> CommitTxn(const MetastoreTxn& txn, const int64_t* epoch);
  // Reads a table's column stats (partition_name == nullptr) or a partition's.
  Result<KeyedBlobs> ColumnStatsRows(const std::string& db, const std::string& table,
                                     const std::string* partition_name);

  const std::unique_ptr<sqldb::ConnectionPool> pool_;
};

// Decodes a version row (current rows have archived_ms 0).
Result<TableVersionRecord> DecodeVersion(const std::string& db, const std::string& table,
                                         int64_t id, int64_t from_ms, int64_t archived_ms,
                                         const std::string& blob) {
  TableVersionRecord r;
  r.version_id = id;
  r.valid_from_ms = from_ms;
  r.archived_ms = archived_ms;
  ICS_ASSIGN_OR_RETURN(r.table, DecodeBlob<hive::Table>(blob, "version " + std::to_string(id) +
                                                                  " of table " + db + "." + table));
  return r;
}

template <typename T>
Result<std::vector<T>> DecodeAll(const KeyedBlobs& rows, const std::string& what_prefix) {
  std::vector<T> out;
  out.reserve(rows.size());
  for (const auto& [key, blob] : rows) {
    ICS_ASSIGN_OR_RETURN(T v, DecodeBlob<T>(blob, what_prefix + key));
    out.push_back(std::move(v));
  }
  return out;
}

// Returns NOT_FOUND unless `sql` (with `keys` bound to ?1..?n) has a row.
Status RequireRow(sqldb::Connection* conn, const std::string& sql,
                  std::initializer_list<std::string_view> keys, const std::string& what) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn->Prepare(sql));
  int idx = 1;
  for (std::string_view k : keys) st.BindText(idx++, k);
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::NotFound(what + " does not exist");
  return Status::OK();
}

// Runs `sql` with `keys` bound and appends every (text col 0, blob col 1)
// row to `out`.
Status SelectPacked(sqldb::Connection* conn, const std::string& sql,
                    std::initializer_list<std::string_view> keys, PackedRows* out) {
  return ForEachKeyedRow(conn, sql, keys, [out](std::string_view key, std::string_view blob) {
    out->Append(key, blob);
    return Status::OK();
  });
}

// Runs `sql` with `keys` bound and returns every (text col 0, blob col 1) row.
Result<KeyedBlobs> SelectBlobs(sqldb::Connection* conn, const std::string& sql,
                               std::initializer_list<std::string_view> keys) {
  KeyedBlobs rows;
  ICS_RETURN_IF_ERROR(
      ForEachKeyedRow(conn, sql, keys, [&rows](std::string_view key, std::string_view blob) {
        rows.emplace_back(std::string(key), std::string(blob));
        return Status::OK();
      }));
  return rows;
}

Result<std::vector<std::string>> SqlMetastore::GetAllDatabases() {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  ICS_ASSIGN_OR_RETURN(
      KeyedBlobs rows,
      SelectBlobs(conn.get(), "SELECT name, NULL FROM databases ORDER BY name", {}));
  std::vector<std::string> names;
  for (auto& [name, unused] : rows) names.push_back(std::move(name));
  return names;
}

Result<hive::Database> SqlMetastore::GetDatabase(const std::string& db) {
  KeyedBlobs rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    ICS_ASSIGN_OR_RETURN(
        rows, SelectBlobs(conn.get(), "SELECT name, obj FROM databases WHERE name = ?1", {db}));
  }
  if (rows.empty()) return Status::NotFound("database " + db + " does not exist");
  return DecodeBlob<hive::Database>(rows[0].second, "database " + db);
}

Result<std::vector<std::string>> SqlMetastore::GetAllTables(const std::string& db) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  sqldb::Transaction txn(conn.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
  ICS_RETURN_IF_ERROR(
      RequireDatabase(conn.get(), db));
  ICS_ASSIGN_OR_RETURN(
      KeyedBlobs rows,
      SelectBlobs(conn.get(), "SELECT name, NULL FROM tables WHERE db = ?1 ORDER BY name", {db}));
  ICS_RETURN_IF_ERROR(txn.Commit());
  std::vector<std::string> names;
  for (auto& [name, unused] : rows) names.push_back(std::move(name));
  return names;
}

Result<hive::Table> SqlMetastore::GetTable(const std::string& db, const std::string& table) {
  KeyedBlobs rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs(conn.get(),
                                           "SELECT name, obj FROM tables "
                                           "WHERE db = ?1 AND name = ?2",
                                           {db, table}));
  }
  if (rows.empty()) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  return DecodeBlob<hive::Table>(rows[0].second, "table " + TableName(db, table));
}

Result<std::vector<hive::Partition>> SqlMetastore::GetPartitions(const std::string& db,
                                                                 const std::string& table) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<PartitionReader> reader, ReadPartitions(db, table));
  return TakeAll(reader.get());
}

Result<std::unique_ptr<PartitionReader>> SqlMetastore::ReadPartitions(const std::string& db,
                                                                      const std::string& table) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease lease, pool_->Acquire());
  return ReadPartitionRows(std::move(lease), db, table, [&](sqldb::Connection* conn) {
    return RequireTable(conn, db, table);
  });
}

Result<std::vector<hive::Partition>> SqlMetastore::GetPartitionsByNames(
    const std::string& db, const std::string& table, const std::vector<std::string>& names) {
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  PackedRows rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    sqldb::Transaction txn(conn.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
    ICS_RETURN_IF_ERROR(RequireTable(conn.get(), db, table));
    for (const std::string& name : sorted) {
      ICS_RETURN_IF_ERROR(SelectPacked(conn.get(),
                                       "SELECT part_name, obj FROM partitions "
                                       "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                                       {db, table, name}, &rows));
    }
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  std::unique_ptr<PartitionReader> reader = PackedPartitionReader(std::move(rows), db, table);
  return TakeAll(reader.get());
}

Result<std::vector<impala::TFunction>> SqlMetastore::GetFunctions(const std::string& db) {
  KeyedBlobs rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    sqldb::Transaction txn(conn.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
    ICS_RETURN_IF_ERROR(
        RequireDatabase(conn.get(), db));
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs(conn.get(),
                                           "SELECT signature, obj FROM functions "
                                           "WHERE db = ?1 ORDER BY signature",
                                           {db}));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  return DecodeAll<impala::TFunction>(rows, "function " + db + ".");
}

Result<KeyedBlobs> SqlMetastore::ColumnStatsRows(const std::string& db, const std::string& table,
                                                 const std::string* partition_name) {
  KeyedBlobs rows;
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  sqldb::Transaction txn(conn.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
  ICS_RETURN_IF_ERROR(RequireTable(conn.get(), db, table));
  if (partition_name == nullptr) {
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs(conn.get(),
                                           "SELECT col, obj FROM table_column_stats "
                                           "WHERE db = ?1 AND tbl = ?2 ORDER BY col",
                                           {db, table}));
  } else {
    ICS_RETURN_IF_ERROR(RequireRow(conn.get(),
                                   "SELECT 1 FROM partitions "
                                   "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                                   {db, table, *partition_name},
                                   "partition " + *partition_name + " of " + TableName(db, table)));
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs(conn.get(),
                                           "SELECT col, obj FROM partition_column_stats "
                                           "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3 "
                                           "ORDER BY col",
                                           {db, table, *partition_name}));
  }
  ICS_RETURN_IF_ERROR(txn.Commit());
  return rows;
}

Result<std::vector<hive::ColumnStatisticsObj>> SqlMetastore::GetTableColumnStats(
    const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows, ColumnStatsRows(db, table, nullptr));
  return DecodeAll<hive::ColumnStatisticsObj>(
      rows, "column stats of " + TableName(db, table) + ": column ");
}

Result<std::vector<hive::ColumnStatisticsObj>> SqlMetastore::GetPartitionColumnStats(
    const std::string& db, const std::string& table, const std::string& partition_name) {
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows, ColumnStatsRows(db, table, &partition_name));
  return DecodeAll<hive::ColumnStatisticsObj>(
      rows,
      "column stats of " + TableName(db, table) + " partition " + partition_name + ": column ");
}

// The current version row of a table; nullopt if the table is absent.
Result<std::optional<VersionRow>> CurrentVersionRow(sqldb::Connection* conn, const std::string& db,
                                                    const std::string& table) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn->Prepare("SELECT t.obj, h.current_id, h.since_ms FROM tables t "
                                     "LEFT JOIN table_version_heads h "
                                     "ON h.db = t.db AND h.tbl = t.name "
                                     "WHERE t.db = ?1 AND t.name = ?2"));
  st.BindText(1, db).BindText(2, table);
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return std::optional<VersionRow>();
  VersionRow r;
  r.blob = std::string(st.Blob(0));
  // No head row: version 1, current since createTime (filled by the caller
  // after decoding, see below).
  r.id = st.IsNull(1) ? 1 : st.Int(1);
  r.valid_from_ms = st.IsNull(1) ? -1 : st.Int(2);
  return std::optional<VersionRow>(std::move(r));
}

// Archived rows matching `where` (a condition on table_versions with the
// table bound to ?1, ?2 and `arg` to ?3), ordered by `order`, at most `limit`.
Result<std::vector<VersionRow>> ArchivedRows(sqldb::Connection* conn, const std::string& db,
                                             const std::string& table, const std::string& where,
                                             int64_t arg, const std::string& order, int limit) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn->Prepare("SELECT version_id, valid_from_ms, archived_ms, obj "
                                     "FROM table_versions WHERE db = ?1 AND tbl = ?2 AND " +
                                     where + " ORDER BY " + order + " LIMIT ?4"));
  st.BindText(1, db).BindText(2, table).BindInt(3, arg).BindInt(4, limit);
  std::vector<VersionRow> rows;
  while (true) {
    ICS_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    rows.push_back({st.Int(0), st.Int(1), st.Int(2), std::string(st.Blob(3))});
  }
  return rows;
}

Result<TableVersionRecord> SqlMetastore::GetCurrentTableVersion(const std::string& db,
                                                                const std::string& table) {
  std::optional<VersionRow> row;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    ICS_ASSIGN_OR_RETURN(row, CurrentVersionRow(conn.get(), db, table));
  }
  if (!row) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r,
                       DecodeVersion(db, table, row->id, row->valid_from_ms, 0, row->blob));
  if (r.valid_from_ms < 0) r.valid_from_ms = int64_t{r.table.createTime} * 1000;
  return r;
}

Result<TableVersionRecord> SqlMetastore::GetArchivedTableVersion(const std::string& db,
                                                                 const std::string& table,
                                                                 int64_t version_id) {
  std::vector<VersionRow> rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    sqldb::Transaction txn(conn.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
    ICS_RETURN_IF_ERROR(RequireTable(conn.get(), db, table));
    ICS_ASSIGN_OR_RETURN(
        rows, ArchivedRows(conn.get(), db, table, "version_id = ?3", version_id, "version_id", 1));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  if (rows.empty()) {
    return Status::NotFound("version " + std::to_string(version_id) + " of table " +
                            TableName(db, table) + " does not exist");
  }
  const VersionRow& v = rows[0];
  return DecodeVersion(db, table, v.id, v.valid_from_ms, v.archived_ms, v.blob);
}

Result<std::vector<TableVersionRecord>> SqlMetastore::ListArchivedTableVersions(
    const std::string& db, const std::string& table, int64_t below_version_id, int limit) {
  if (limit <= 0) {
    return Status::InvalidArgument("limit must be positive, got " + std::to_string(limit));
  }
  std::vector<VersionRow> rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    sqldb::Transaction txn(conn.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
    ICS_RETURN_IF_ERROR(RequireTable(conn.get(), db, table));
    const int64_t bound = below_version_id > 0 ? below_version_id : INT64_MAX;
    ICS_ASSIGN_OR_RETURN(rows, ArchivedRows(conn.get(), db, table, "version_id < ?3", bound,
                                            "version_id DESC", limit));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  std::vector<TableVersionRecord> out;
  out.reserve(rows.size());
  for (const VersionRow& v : rows) {
    ICS_ASSIGN_OR_RETURN(TableVersionRecord r,
                         DecodeVersion(db, table, v.id, v.valid_from_ms, v.archived_ms, v.blob));
    out.push_back(std::move(r));
  }
  return out;
}

Result<TableVersionRecord> SqlMetastore::GetTableVersionAsOf(const std::string& db,
                                                             const std::string& table,
                                                             int64_t at_ms) {
  std::optional<VersionRow> current;
  std::vector<VersionRow> rows;
  {
    ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
    sqldb::Transaction txn(conn.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
    ICS_ASSIGN_OR_RETURN(current, CurrentVersionRow(conn.get(), db, table));
    if (current) {
      ICS_ASSIGN_OR_RETURN(rows, ArchivedRows(conn.get(), db, table, "valid_from_ms <= ?3", at_ms,
                                              "valid_from_ms DESC, version_id DESC", 1));
    }
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  if (!current) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  ICS_ASSIGN_OR_RETURN(
      TableVersionRecord cur,
      DecodeVersion(db, table, current->id, current->valid_from_ms, 0, current->blob));
  if (cur.valid_from_ms < 0) cur.valid_from_ms = int64_t{cur.table.createTime} * 1000;
  if (at_ms >= cur.valid_from_ms) return cur;
  if (!rows.empty() && at_ms < rows[0].archived_ms) {
    const VersionRow& v = rows[0];
    return DecodeVersion(db, table, v.id, v.valid_from_ms, v.archived_ms, v.blob);
  }
  return Status::NotFound("no kept version of table " + TableName(db, table) + " as of " +
                          std::to_string(at_ms) + " ms since the epoch");
}

Result<std::optional<RecordedRequest>> SqlMetastore::LookupRequest(
    const std::string& request_id) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn->Prepare("SELECT summary, recorded_ms FROM request_log "
                                     "WHERE request_id = ?1"));
  ICS_ASSIGN_OR_RETURN(bool row, st.BindText(1, request_id).Step());
  if (!row) return std::optional<RecordedRequest>();
  return std::optional<RecordedRequest>(
      RecordedRequest{request_id, std::string(st.Text(0)), st.Int(1)});
}

Result<WriterEpoch> SqlMetastore::AcquireWriterEpoch(const WriterEpochClaim& claim) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  return sqldb::ClaimWriterEpoch(conn.get(), claim);
}

Result<WriterEpoch> SqlMetastore::ReadWriterEpoch() {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  return sqldb::ReadWriterEpochRow(conn.get());
}

Result<int64_t> SqlMetastore::Commit(const MetastoreTxn& txn) { return CommitTxn(txn, nullptr); }

Result<int64_t> SqlMetastore::CommitFenced(const MetastoreTxn& txn, int64_t epoch) {
  return CommitTxn(txn, &epoch);
}

Result<int64_t> SqlMetastore::CommitTxn(const MetastoreTxn& txn, const int64_t* epoch) {
  if (txn.ops.empty()) return int64_t{0};
  const auto now = static_cast<int32_t>(std::time(nullptr));
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  sqldb::Transaction sql_txn(conn.get());
  ICS_RETURN_IF_ERROR(sql_txn.Begin(sqldb::TxnKind::kWrite));
  if (epoch != nullptr) {
    // Writers are serialized from BEGIN (sql_db.h): an epoch taken by
    // another catalogd either committed before this read or waits for us.
    ICS_ASSIGN_OR_RETURN(WriterEpoch current, sqldb::ReadWriterEpochRow(conn.get()));
    if (current.epoch != *epoch) {
      return Status(ErrorCode::kCatalogInStandbyMode,
                    "fenced: this catalogd's writer epoch " + std::to_string(*epoch) +
                        " is no longer the metastore's (epoch " + std::to_string(current.epoch) +
                        " was taken by " + current.owner + "); nothing was committed");
    }
  }
  TxnApplier applier(conn.get(), now, now_ms);
  for (size_t i = 0; i < txn.ops.size(); ++i) {
    Status s = applier.Apply(txn.ops[i]);
    if (!s.ok()) {
      // sql_txn's destructor rolls back every op of the txn.
      return s.WithContext("metastore txn op " + std::to_string(i + 1) + " of " +
                           std::to_string(txn.ops.size()) + " (" +
                           std::string(EventTypeOf(txn.ops[i].kind)) + ")");
    }
  }
  ICS_RETURN_IF_ERROR(applier.Finish());
  // Durable when COMMIT returns (SQLite: synchronous=FULL fsyncs the WAL;
  // PostgreSQL: synchronous_commit).
  ICS_RETURN_IF_ERROR(sql_txn.Commit());
  return applier.last_event_id();
}

Result<std::vector<NotificationEvent>> SqlMetastore::GetNextNotifications(int64_t after_event_id,
                                                                          int max_events) {
  return GetMatchingNotifications(after_event_id, max_events, NotificationFilter());
}

Result<std::vector<NotificationEvent>> SqlMetastore::GetMatchingNotifications(
    int64_t after_event_id, int max_events, const NotificationFilter& filter) {
  if (max_events <= 0) {
    return Status::InvalidArgument("max_events must be positive, got " +
                                   std::to_string(max_events));
  }
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  // One read transaction: the events and the retention check see one state.
  sqldb::Transaction txn(conn.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqldb::TxnKind::kRead));
  // The filter as placeholders ?3, ?4, ... (the names are bound, never
  // spliced into the text). A list takes a power-of-two number of
  // placeholders (its last value repeated), so the prepared statements each
  // connection caches stay few whatever lengths callers send.
  std::string sql =
      "SELECT event_id, event_time, event_type, db, tbl, message FROM notification_log "
      "WHERE event_id > ?1";
  std::vector<const std::string*> params;
  auto list = [&](const std::vector<std::string>& values) {
    size_t slots = 1;
    while (slots < values.size()) slots *= 2;
    std::string s = "(";
    for (size_t i = 0; i < slots; ++i) {
      params.push_back(&values[std::min(i, values.size() - 1)]);
      s += (i > 0 ? ", ?" : "?") + std::to_string(params.size() + 2);
    }
    return s + ")";
  };
  if (!filter.skip_types.empty()) sql += " AND event_type NOT IN " + list(filter.skip_types);
  if (!filter.db.empty()) {
    params.push_back(&filter.db);
    sql += " AND db = ?" + std::to_string(params.size() + 2);
    if (!filter.tables.empty()) sql += " AND tbl IN " + list(filter.tables);
  }
  sql += " ORDER BY event_id LIMIT ?2";
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn->Prepare(sql));
  st.BindInt(1, after_event_id).BindInt(2, max_events);
  for (size_t i = 0; i < params.size(); ++i) st.BindText(static_cast<int>(i) + 3, *params[i]);
  std::vector<NotificationEvent> events;
  while (true) {
    ICS_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    NotificationEvent e;
    e.eventId = st.Int(0);
    e.eventTime = static_cast<int32_t>(st.Int(1));
    e.eventType = std::string(st.Text(2));
    if (!st.IsNull(3)) e.__set_dbName(std::string(st.Text(3)));
    if (!st.IsNull(4)) e.__set_tableName(std::string(st.Text(4)));
    e.message = std::string(st.Text(5));
    events.push_back(std::move(e));
  }
  // A filtered read proves nothing about the events before its first match.
  const int64_t first_seen = events.empty() || !filter.empty() ? 0 : events.front().eventId;
  ICS_RETURN_IF_ERROR(sqldb::CheckNotRetentionGap(conn.get(), after_event_id, first_seen));
  ICS_RETURN_IF_ERROR(txn.Commit());
  return events;
}

Result<int64_t> SqlMetastore::FirstRetainedNotificationEventId() {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  return sqldb::FirstRetainedEventId(conn.get());
}

Result<int64_t> SqlMetastore::PruneNotifications(const NotificationRetention& r) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  ICS_ASSIGN_OR_RETURN(int64_t events, sqldb::PruneEvents(conn.get(), r));
  // Requests are recorded as long as the events of their time.
  ICS_RETURN_IF_ERROR(sqldb::PruneRequests(conn.get(), r).status());
  return events;
}

Result<int64_t> SqlMetastore::PruneTableVersions(int64_t keep_per_table, int batch_limit) {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  return sqldb::PruneArchivedVersions(conn.get(), keep_per_table, batch_limit);
}

Result<int64_t> SqlMetastore::CurrentNotificationEventId() {
  ICS_ASSIGN_OR_RETURN(sqldb::ConnectionPool::Lease conn, pool_->Acquire());
  // The last id ever handed out, even if the log is trimmed later.
  return sqldb::LatestEventId(conn.get());
}

}  // namespace

std::unique_ptr<Metastore> NewSqlMetastore(std::unique_ptr<sqldb::ConnectionPool> pool) {
  return std::make_unique<SqlMetastore>(std::move(pool));
}

Result<std::unique_ptr<Metastore>> OpenSqliteMetastore(const std::string& path) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<sqlite::Connection> conn,
                       sqlite::Connection::Open(path, kBusyTimeoutMs));
  ICS_RETURN_IF_ERROR(sqlite::ConfigureConnection(conn.get()));
  ICS_RETURN_IF_ERROR(sqlite::InitSchema(conn.get()));
  // SQLite's own default size (1000 pages), checkpointed off the commit path.
  ICS_RETURN_IF_ERROR(conn->CheckpointInBackground(kWalCheckpointPages));
  // One connection: SQLite admits one writer at a time anyway, and
  // catalogd's reads are bulk loads whose cost is mostly decoding, which
  // happens after the lease ends (rows are copied out as blobs first). One
  // connection also means no SQLITE_BUSY between our own connections and one
  // cache of prepared statements.
  auto no_more = []() -> Result<std::unique_ptr<sqldb::Connection>> {
    return Status::Internal("the SQLite metastore has one connection");
  };
  return NewSqlMetastore(std::make_unique<sqldb::ConnectionPool>(
      std::move(conn), no_more, 1, std::chrono::milliseconds(kSqliteAcquireTimeoutMs)));
}

}  // namespace ics::catalog
