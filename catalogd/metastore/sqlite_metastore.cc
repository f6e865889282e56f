// The embedded SQLite metastore: OpenSqliteMetastore() and its reads and
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

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/metastore_blob.h"
#include "catalogd/metastore/sqlite_db.h"
#include "catalogd/metastore/sqlite_retention.h"
#include "catalogd/metastore/sqlite_schema.h"
#include "catalogd/metastore/txn_applier.h"
#include "common/util/mutex.h"

namespace ics::catalog {
namespace {

constexpr int kBusyTimeoutMs = 10000;

std::string TableName(const std::string& db, const std::string& table) {
  return db + "." + table;
}

// Rows read under the lock and decoded after it is released.
using KeyedBlobs = std::vector<std::pair<std::string, std::string>>;

// One connection, serialized by a mutex. Why not a connection per thread:
// SQLite admits one writer at a time anyway, and catalogd's reads are bulk
// loads whose cost is mostly decoding, which happens outside the lock (rows
// are copied out as blobs first). One connection also means no SQLITE_BUSY
// between our own connections and one cache of prepared statements.
class SqliteMetastore final : public Metastore {
 public:
  explicit SqliteMetastore(std::unique_ptr<sqlite::Connection> conn) : conn_(std::move(conn)) {}

  Result<std::vector<std::string>> GetAllDatabases() override EXCLUDES(mu_);
  Result<hive::Database> GetDatabase(const std::string& db) override EXCLUDES(mu_);
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override EXCLUDES(mu_);
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override
      EXCLUDES(mu_);
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override
      EXCLUDES(mu_);
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override EXCLUDES(mu_);
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override
      EXCLUDES(mu_);
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override EXCLUDES(mu_);
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table, const std::string& partition_name) override
      EXCLUDES(mu_);
  Result<TableVersionRecord> GetCurrentTableVersion(const std::string& db,
                                                    const std::string& table) override
      EXCLUDES(mu_);
  Result<TableVersionRecord> GetArchivedTableVersion(const std::string& db,
                                                     const std::string& table,
                                                     int64_t version_id) override EXCLUDES(mu_);
  Result<std::vector<TableVersionRecord>> ListArchivedTableVersions(const std::string& db,
                                                                    const std::string& table,
                                                                    int64_t below_version_id,
                                                                    int limit) override
      EXCLUDES(mu_);
  Result<TableVersionRecord> GetTableVersionAsOf(const std::string& db, const std::string& table,
                                                 int64_t at_ms) override EXCLUDES(mu_);
  Result<int64_t> Commit(const MetastoreTxn& txn) override EXCLUDES(mu_);
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override
      EXCLUDES(mu_);
  Result<int64_t> CurrentNotificationEventId() override EXCLUDES(mu_);
  Result<int64_t> FirstRetainedNotificationEventId() override EXCLUDES(mu_);
  Result<int64_t> PruneNotifications(const NotificationRetention& r) override EXCLUDES(mu_);
  Result<int64_t> PruneTableVersions(int64_t keep_per_table, int batch_limit) override
      EXCLUDES(mu_);

 private:
  // Returns NOT_FOUND unless `sql` (with `keys` bound to ?1..?n) has a row.
  [[nodiscard]] Status RequireRow(const std::string& sql,
                                  std::initializer_list<std::string_view> keys,
                                  const std::string& what) REQUIRES(mu_);
  // Runs `sql` with `keys` bound and returns every (text col 0, blob col 1) row.
  Result<KeyedBlobs> SelectBlobs(const std::string& sql,
                                 std::initializer_list<std::string_view> keys) REQUIRES(mu_);
  // Reads a table's column stats (partition_name == nullptr) or a partition's.
  Result<KeyedBlobs> ColumnStatsRows(const std::string& db, const std::string& table,
                                     const std::string* partition_name) EXCLUDES(mu_);

  // A version row as read: (id, valid_from_ms, archived_ms, blob).
  struct VersionRow {
    int64_t id = 0;
    int64_t valid_from_ms = 0;
    int64_t archived_ms = 0;
    std::string blob;
  };
  // The current version row of a table; nullopt if the table is absent.
  Result<std::optional<VersionRow>> CurrentVersionRow(const std::string& db,
                                                      const std::string& table) REQUIRES(mu_);
  // Archived rows matching `where` (a condition on table_versions with the
  // table bound to ?1, ?2 and `arg` to ?3), ordered by `order`, at most `limit`.
  Result<std::vector<VersionRow>> ArchivedRows(const std::string& db, const std::string& table,
                                               const std::string& where, int64_t arg,
                                               const std::string& order, int limit) REQUIRES(mu_);

  Mutex mu_;
  const std::unique_ptr<sqlite::Connection> conn_ PT_GUARDED_BY(mu_);
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

// Decodes partition rows and restores the names the stored blob omits.
Result<std::vector<hive::Partition>> DecodePartitions(const KeyedBlobs& rows,
                                                      const std::string& db,
                                                      const std::string& table) {
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts,
                       DecodeAll<hive::Partition>(rows, "partition of " + db + "." + table + ": "));
  for (hive::Partition& p : parts) {
    p.dbName = db;
    p.tableName = table;
  }
  return parts;
}

Status SqliteMetastore::RequireRow(const std::string& sql,
                                   std::initializer_list<std::string_view> keys,
                                   const std::string& what) {
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st, conn_->Prepare(sql));
  int idx = 1;
  for (std::string_view k : keys) st.BindText(idx++, k);
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::NotFound(what + " does not exist");
  return Status::OK();
}

Result<KeyedBlobs> SqliteMetastore::SelectBlobs(const std::string& sql,
                                                std::initializer_list<std::string_view> keys) {
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st, conn_->Prepare(sql));
  int idx = 1;
  for (std::string_view k : keys) st.BindText(idx++, k);
  KeyedBlobs rows;
  while (true) {
    ICS_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    rows.emplace_back(std::string(st.Text(0)), std::string(st.Blob(1)));
  }
  return rows;
}

Result<std::vector<std::string>> SqliteMetastore::GetAllDatabases() {
  MutexLock l(&mu_);
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows,
                       SelectBlobs("SELECT name, NULL FROM databases ORDER BY name", {}));
  std::vector<std::string> names;
  for (auto& [name, unused] : rows) names.push_back(std::move(name));
  return names;
}

Result<hive::Database> SqliteMetastore::GetDatabase(const std::string& db) {
  KeyedBlobs rows;
  {
    MutexLock l(&mu_);
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT name, obj FROM databases WHERE name = ?1", {db}));
  }
  if (rows.empty()) return Status::NotFound("database " + db + " does not exist");
  return DecodeBlob<hive::Database>(rows[0].second, "database " + db);
}

Result<std::vector<std::string>> SqliteMetastore::GetAllTables(const std::string& db) {
  MutexLock l(&mu_);
  sqlite::Transaction txn(conn_.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
  ICS_RETURN_IF_ERROR(
      RequireRow("SELECT 1 FROM databases WHERE name = ?1", {db}, "database " + db));
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows,
                       SelectBlobs("SELECT name, NULL FROM tables WHERE db = ?1 ORDER BY name",
                                   {db}));
  ICS_RETURN_IF_ERROR(txn.Commit());
  std::vector<std::string> names;
  for (auto& [name, unused] : rows) names.push_back(std::move(name));
  return names;
}

Result<hive::Table> SqliteMetastore::GetTable(const std::string& db, const std::string& table) {
  KeyedBlobs rows;
  {
    MutexLock l(&mu_);
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT name, obj FROM tables "
                                           "WHERE db = ?1 AND name = ?2",
                                           {db, table}));
  }
  if (rows.empty()) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  return DecodeBlob<hive::Table>(rows[0].second, "table " + TableName(db, table));
}

Result<std::vector<hive::Partition>> SqliteMetastore::GetPartitions(const std::string& db,
                                                                    const std::string& table) {
  KeyedBlobs rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                   {db, table}, "table " + TableName(db, table)));
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT part_name, obj FROM partitions "
                                           "WHERE db = ?1 AND tbl = ?2 ORDER BY part_name",
                                           {db, table}));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  return DecodePartitions(rows, db, table);
}

Result<std::vector<hive::Partition>> SqliteMetastore::GetPartitionsByNames(
    const std::string& db, const std::string& table, const std::vector<std::string>& names) {
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  KeyedBlobs rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                   {db, table}, "table " + TableName(db, table)));
    for (const std::string& name : sorted) {
      ICS_ASSIGN_OR_RETURN(KeyedBlobs one,
                           SelectBlobs("SELECT part_name, obj FROM partitions "
                                       "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                                       {db, table, name}));
      for (auto& row : one) rows.push_back(std::move(row));
    }
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  return DecodePartitions(rows, db, table);
}

Result<std::vector<impala::TFunction>> SqliteMetastore::GetFunctions(const std::string& db) {
  KeyedBlobs rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_RETURN_IF_ERROR(
        RequireRow("SELECT 1 FROM databases WHERE name = ?1", {db}, "database " + db));
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT signature, obj FROM functions "
                                           "WHERE db = ?1 ORDER BY signature",
                                           {db}));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  return DecodeAll<impala::TFunction>(rows, "function " + db + ".");
}

Result<KeyedBlobs> SqliteMetastore::ColumnStatsRows(const std::string& db,
                                                    const std::string& table,
                                                    const std::string* partition_name) {
  KeyedBlobs rows;
  MutexLock l(&mu_);
  sqlite::Transaction txn(conn_.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
  ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2", {db, table},
                                 "table " + TableName(db, table)));
  if (partition_name == nullptr) {
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT col, obj FROM table_column_stats "
                                           "WHERE db = ?1 AND tbl = ?2 ORDER BY col",
                                           {db, table}));
  } else {
    ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM partitions "
                                   "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                                   {db, table, *partition_name},
                                   "partition " + *partition_name + " of " +
                                       TableName(db, table)));
    ICS_ASSIGN_OR_RETURN(rows, SelectBlobs("SELECT col, obj FROM partition_column_stats "
                                           "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3 "
                                           "ORDER BY col",
                                           {db, table, *partition_name}));
  }
  ICS_RETURN_IF_ERROR(txn.Commit());
  return rows;
}

Result<std::vector<hive::ColumnStatisticsObj>> SqliteMetastore::GetTableColumnStats(
    const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows, ColumnStatsRows(db, table, nullptr));
  return DecodeAll<hive::ColumnStatisticsObj>(
      rows, "column stats of " + TableName(db, table) + ": column ");
}

Result<std::vector<hive::ColumnStatisticsObj>> SqliteMetastore::GetPartitionColumnStats(
    const std::string& db, const std::string& table, const std::string& partition_name) {
  ICS_ASSIGN_OR_RETURN(KeyedBlobs rows, ColumnStatsRows(db, table, &partition_name));
  return DecodeAll<hive::ColumnStatisticsObj>(
      rows, "column stats of " + TableName(db, table) + " partition " + partition_name +
                ": column ");
}

Result<std::optional<SqliteMetastore::VersionRow>> SqliteMetastore::CurrentVersionRow(
    const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st,
                       conn_->Prepare("SELECT t.obj, h.current_id, h.since_ms FROM tables t "
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

Result<std::vector<SqliteMetastore::VersionRow>> SqliteMetastore::ArchivedRows(
    const std::string& db, const std::string& table, const std::string& where, int64_t arg,
    const std::string& order, int limit) {
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st,
                       conn_->Prepare("SELECT version_id, valid_from_ms, archived_ms, obj "
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

Result<TableVersionRecord> SqliteMetastore::GetCurrentTableVersion(const std::string& db,
                                                                   const std::string& table) {
  std::optional<VersionRow> row;
  {
    MutexLock l(&mu_);
    ICS_ASSIGN_OR_RETURN(row, CurrentVersionRow(db, table));
  }
  if (!row) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r,
                       DecodeVersion(db, table, row->id, row->valid_from_ms, 0, row->blob));
  if (r.valid_from_ms < 0) r.valid_from_ms = int64_t{r.table.createTime} * 1000;
  return r;
}

Result<TableVersionRecord> SqliteMetastore::GetArchivedTableVersion(const std::string& db,
                                                                    const std::string& table,
                                                                    int64_t version_id) {
  std::vector<VersionRow> rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                   {db, table}, "table " + TableName(db, table)));
    ICS_ASSIGN_OR_RETURN(rows,
                         ArchivedRows(db, table, "version_id = ?3", version_id, "version_id", 1));
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  if (rows.empty()) {
    return Status::NotFound("version " + std::to_string(version_id) + " of table " +
                            TableName(db, table) + " does not exist");
  }
  const VersionRow& v = rows[0];
  return DecodeVersion(db, table, v.id, v.valid_from_ms, v.archived_ms, v.blob);
}

Result<std::vector<TableVersionRecord>> SqliteMetastore::ListArchivedTableVersions(
    const std::string& db, const std::string& table, int64_t below_version_id, int limit) {
  if (limit <= 0) {
    return Status::InvalidArgument("limit must be positive, got " + std::to_string(limit));
  }
  std::vector<VersionRow> rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_RETURN_IF_ERROR(RequireRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                   {db, table}, "table " + TableName(db, table)));
    const int64_t bound = below_version_id > 0 ? below_version_id : INT64_MAX;
    ICS_ASSIGN_OR_RETURN(rows, ArchivedRows(db, table, "version_id < ?3", bound,
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

Result<TableVersionRecord> SqliteMetastore::GetTableVersionAsOf(const std::string& db,
                                                                const std::string& table,
                                                                int64_t at_ms) {
  std::optional<VersionRow> current;
  std::vector<VersionRow> rows;
  {
    MutexLock l(&mu_);
    sqlite::Transaction txn(conn_.get());
    ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
    ICS_ASSIGN_OR_RETURN(current, CurrentVersionRow(db, table));
    if (current) {
      ICS_ASSIGN_OR_RETURN(rows, ArchivedRows(db, table, "valid_from_ms <= ?3", at_ms,
                                              "valid_from_ms DESC, version_id DESC", 1));
    }
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
  if (!current) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  ICS_ASSIGN_OR_RETURN(TableVersionRecord cur, DecodeVersion(db, table, current->id,
                                                             current->valid_from_ms, 0,
                                                             current->blob));
  if (cur.valid_from_ms < 0) cur.valid_from_ms = int64_t{cur.table.createTime} * 1000;
  if (at_ms >= cur.valid_from_ms) return cur;
  if (!rows.empty() && at_ms < rows[0].archived_ms) {
    const VersionRow& v = rows[0];
    return DecodeVersion(db, table, v.id, v.valid_from_ms, v.archived_ms, v.blob);
  }
  return Status::NotFound("no kept version of table " + TableName(db, table) + " as of " +
                          std::to_string(at_ms) + " ms since the epoch");
}

Result<int64_t> SqliteMetastore::Commit(const MetastoreTxn& txn) {
  if (txn.ops.empty()) return int64_t{0};
  const auto now = static_cast<int32_t>(std::time(nullptr));
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  MutexLock l(&mu_);
  sqlite::Transaction sql_txn(conn_.get());
  ICS_RETURN_IF_ERROR(sql_txn.Begin(sqlite::Transaction::Kind::kImmediate));
  TxnApplier applier(conn_.get(), now, now_ms);
  for (size_t i = 0; i < txn.ops.size(); ++i) {
    Status s = applier.Apply(txn.ops[i]);
    if (!s.ok()) {
      // sql_txn's destructor rolls back every op of the txn.
      return s.WithContext("metastore txn op " + std::to_string(i + 1) + " of " +
                           std::to_string(txn.ops.size()) + " (" +
                           std::string(EventTypeOf(txn.ops[i].kind)) + ")");
    }
  }
  // With synchronous=FULL the WAL is fsync'ed before COMMIT returns.
  ICS_RETURN_IF_ERROR(sql_txn.Commit());
  return applier.last_event_id();
}

Result<std::vector<NotificationEvent>> SqliteMetastore::GetNextNotifications(
    int64_t after_event_id, int max_events) {
  if (max_events <= 0) {
    return Status::InvalidArgument("max_events must be positive, got " +
                                   std::to_string(max_events));
  }
  MutexLock l(&mu_);
  // One read transaction: the events and the retention check see one state.
  sqlite::Transaction txn(conn_.get());
  ICS_RETURN_IF_ERROR(txn.Begin(sqlite::Transaction::Kind::kDeferred));
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st,
                       conn_->Prepare("SELECT event_id, event_time, event_type, db, tbl, message "
                                      "FROM notification_log WHERE event_id > ?1 "
                                      "ORDER BY event_id LIMIT ?2"));
  st.BindInt(1, after_event_id).BindInt(2, max_events);
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
  ICS_RETURN_IF_ERROR(sqlite::CheckNotRetentionGap(conn_.get(), after_event_id,
                                                   events.empty() ? 0 : events.front().eventId));
  ICS_RETURN_IF_ERROR(txn.Commit());
  return events;
}

Result<int64_t> SqliteMetastore::FirstRetainedNotificationEventId() {
  MutexLock l(&mu_);
  return sqlite::FirstRetainedEventId(conn_.get());
}

Result<int64_t> SqliteMetastore::PruneNotifications(const NotificationRetention& r) {
  MutexLock l(&mu_);
  return sqlite::PruneEvents(conn_.get(), r);
}

Result<int64_t> SqliteMetastore::PruneTableVersions(int64_t keep_per_table, int batch_limit) {
  MutexLock l(&mu_);
  return sqlite::PruneArchivedVersions(conn_.get(), keep_per_table, batch_limit);
}

Result<int64_t> SqliteMetastore::CurrentNotificationEventId() {
  MutexLock l(&mu_);
  // AUTOINCREMENT's high-water mark: the last id ever handed out, even if
  // the log is trimmed later.
  ICS_ASSIGN_OR_RETURN(sqlite::Stmt st, conn_->Prepare("SELECT seq FROM sqlite_sequence "
                                                       "WHERE name = 'notification_log'"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  return row ? st.Int(0) : int64_t{0};
}

}  // namespace

Result<std::unique_ptr<Metastore>> OpenSqliteMetastore(const std::string& path) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<sqlite::Connection> conn,
                       sqlite::Connection::Open(path, kBusyTimeoutMs));
  ICS_RETURN_IF_ERROR(sqlite::ConfigureConnection(conn.get()));
  ICS_RETURN_IF_ERROR(sqlite::InitSchema(conn.get()));
  return std::unique_ptr<Metastore>(new SqliteMetastore(std::move(conn)));
}

}  // namespace ics::catalog
