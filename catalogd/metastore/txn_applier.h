// Applies the operations of one MetastoreTxn inside an open write
// transaction of the SQL metastore (either driver, sql_db.h): checks each
// op's preconditions (see MetastoreOp in metastore.h), writes its rows and
// appends its notification event. Private to the SQL metastore.
//
// The caller owns the transaction: it BEGINs (TxnKind::kWrite) before the
// first Apply, calls Finish() after the last and COMMITs, or rolls back on
// the first error, so a failed op leaves nothing behind (rows or events)
// from any op of the txn. Event ids continue notification_sequence's
// last_id by one per event; Finish() stores the last one.
//
// Thread-safety: NOT thread-safe; one applier per commit, used while the
// owner (SqliteMetastore) holds its mutex.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/notification_message.h"
#include "catalogd/metastore/sql_db.h"

namespace ics::catalog {

// The event type an op kind is logged as (also names the op in errors).
std::string_view EventTypeOf(MetastoreOp::Kind kind);

// NOT_FOUND "database d does not exist" / "table d.t does not exist" unless
// the row is there (reads and commits share these checks).
[[nodiscard]] Status RequireDatabase(sqldb::Connection* conn, const std::string& db);
[[nodiscard]] Status RequireTable(sqldb::Connection* conn, const std::string& db,
                                  const std::string& table);

class TxnApplier {
 public:
  // `event_time` (seconds since the epoch) stamps every event of the txn.
  // `now_ms` stamps table versions.
  TxnApplier(sqldb::Connection* conn, int32_t event_time, int64_t now_ms)
      : conn_(conn), event_time_(event_time), now_ms_(now_ms) {}

  // Checks and applies one op and appends its event. On error the caller must
  // roll back: earlier writes of this op may have happened.
  [[nodiscard]] Status Apply(const MetastoreOp& op);

  // Stores the last event id in notification_sequence (if any event was
  // appended); call once, after the last Apply and before COMMIT.
  [[nodiscard]] Status Finish();

  // Id of the last event appended (0 before the first).
  int64_t last_event_id() const { return events_ == 0 ? 0 : last_event_id_; }

 private:
  using Key = std::pair<std::string, std::string>;  // (db, table)

  [[nodiscard]] Status CreateDatabase(const hive::Database& db);
  [[nodiscard]] Status AlterDatabase(const MetastoreOp& op);
  [[nodiscard]] Status DropDatabase(const std::string& db);
  [[nodiscard]] Status CreateTable(const hive::Table& table);
  [[nodiscard]] Status AlterTable(const MetastoreOp& op);
  [[nodiscard]] Status DropTable(const std::string& db, const std::string& table);
  // kAddPartition (create = true) and kAlterPartition.
  [[nodiscard]] Status PutPartition(const MetastoreOp& op, bool create);
  [[nodiscard]] Status DropPartition(const MetastoreOp& op);
  [[nodiscard]] Status CreateFunction(const impala::TFunction& fn);
  [[nodiscard]] Status DropFunction(const std::string& db, const std::string& signature);
  // kSetTableColumnStats (partition_level = false) and kSetPartitionColumnStats.
  [[nodiscard]] Status SetColumnStats(const MetastoreOp& op, bool partition_level);
  [[nodiscard]] Status DeleteColumnStats(const std::string& db, const std::string& table);
  [[nodiscard]] Status DeleteColumnStat(const MetastoreOp& op);
  [[nodiscard]] Status NewTableVersion(const MetastoreOp& op);
  [[nodiscard]] Status DeleteTableVersion(const MetastoreOp& op);
  [[nodiscard]] Status RecordRequest(const MetastoreOp& op);

  // Runs `sql` with `texts` bound to ?1..?n and, if given, `blob` to ?n+1.
  [[nodiscard]] Status Run(const std::string& sql, std::initializer_list<std::string_view> texts,
                           const std::string* blob = nullptr);
  // True if `sql` (bound like Run) returns a row.
  Result<bool> HasRow(const std::string& sql, std::initializer_list<std::string_view> texts);
  // Loads and decodes a table; NOT_FOUND if absent.
  Result<hive::Table> LoadTable(const std::string& db, const std::string& table);
  // Partition key names of a table (NOT_FOUND if absent), cached for the txn.
  Result<std::vector<std::string>> PartitionKeys(const std::string& db, const std::string& table);
  // Appends an event; `table_level` says whether the tbl column is set.
  [[nodiscard]] Status AppendEvent(std::string_view type, const NotificationMessage& msg,
                                   bool table_level);

  sqldb::Connection* const conn_;
  const int32_t event_time_;
  const int64_t now_ms_;
  int64_t last_event_id_ = 0;  // the counter as read, plus the events appended
  int64_t events_ = 0;
  // Partition key names by table, valid until a table op in this txn.
  std::map<Key, std::vector<std::string>> part_keys_;
};

}  // namespace ics::catalog
