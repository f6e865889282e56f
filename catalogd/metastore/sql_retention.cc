#include "catalogd/metastore/sql_retention.h"

#include <algorithm>
#include <ctime>
#include <string>

namespace ics::catalog::sqldb {
namespace {

// MIN(event_id), or nullopt-like -1 when the log is empty.
Result<int64_t> MinEventId(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT MIN(event_id) FROM notification_log"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row || st.IsNull(0)) return int64_t{-1};
  return st.Int(0);
}

}  // namespace

Result<int64_t> LatestEventId(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT s.last_id, (SELECT MAX(event_id) FROM "
                                              "notification_log) FROM notification_sequence s"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row)
    return Status::Corruption("metastore " + conn->name() + " has no notification_sequence row");
  return std::max(st.Int(0), st.Int(1));
}

Result<int64_t> FirstRetainedEventId(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(int64_t min_id, MinEventId(conn));
  if (min_id >= 0) return min_id;
  ICS_ASSIGN_OR_RETURN(int64_t latest, LatestEventId(conn));
  return latest + 1;
}

Status CheckNotRetentionGap(Connection* conn, int64_t after_event_id, int64_t first_returned) {
  const int64_t wanted = std::max<int64_t>(after_event_id, 0) + 1;
  if (first_returned == wanted) return Status::OK();
  ICS_ASSIGN_OR_RETURN(int64_t first, FirstRetainedEventId(conn));
  if (wanted >= first) return Status::OK();
  return Status::InvalidArgument(
      "notification events after id " + std::to_string(after_event_id) +
      " are no longer kept: retention deleted the events before id " + std::to_string(first) +
      " (--hms_event_retention_seconds / --hms_event_retention_max_events); a reader that "
      "missed them must reload everything and continue from the current event id");
}

Result<int64_t> PruneEvents(Connection* conn, const NotificationRetention& r) {
  if (r.batch_limit < 1) {
    return Status::InvalidArgument("batch_limit must be at least 1, got " +
                                   std::to_string(r.batch_limit));
  }
  if (r.max_events <= 0 && r.max_age_seconds <= 0) return int64_t{0};
  Transaction txn(conn);
  ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
  ICS_ASSIGN_OR_RETURN(int64_t first, MinEventId(conn));
  if (first < 0) return int64_t{0};  // empty log (txn rolls back: nothing written)
  ICS_ASSIGN_OR_RETURN(int64_t latest, LatestEventId(conn));
  // This call looks at no more than one batch: ids [first, window_end].
  const int64_t window_end =
      first + std::min<int64_t>(r.batch_limit - 1, std::max<int64_t>(0, latest - first));
  int64_t cut = first - 1;  // delete ids <= cut
  if (r.max_events > 0 && latest - r.max_events > cut) cut = latest - r.max_events;
  if (r.max_age_seconds > 0) {
    const int64_t now =
        r.now_seconds > 0 ? r.now_seconds : static_cast<int64_t>(std::time(nullptr));
    const int64_t cutoff = now - r.max_age_seconds;
    // The first young event of the window: everything before it is old.
    ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT MIN(event_id) FROM notification_log "
                                                "WHERE event_id BETWEEN ?1 AND ?2 "
                                                "AND event_time >= ?3"));
    st.BindInt(1, first).BindInt(2, window_end).BindInt(3, cutoff);
    ICS_ASSIGN_OR_RETURN(bool row, st.Step());
    const int64_t age_cut = (row && !st.IsNull(0)) ? st.Int(0) - 1 : window_end;
    cut = std::max(cut, age_cut);
  }
  cut = std::min(cut, window_end);
  if (r.keep_after_event_id >= 0) cut = std::min(cut, r.keep_after_event_id);
  if (cut < first) return int64_t{0};
  ICS_ASSIGN_OR_RETURN(Stmt del,
                       conn->Prepare("DELETE FROM notification_log WHERE event_id <= ?1"));
  ICS_RETURN_IF_ERROR(del.BindInt(1, cut).Run());
  const int64_t deleted = conn->Changes();
  ICS_RETURN_IF_ERROR(txn.Commit());
  return deleted;
}

Result<int64_t> PruneRequests(Connection* conn, const NotificationRetention& r) {
  if (r.max_events <= 0 && r.max_age_seconds <= 0) return int64_t{0};
  int64_t deleted = 0;
  Transaction txn(conn);
  ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
  if (r.max_age_seconds > 0) {
    const int64_t now =
        r.now_seconds > 0 ? r.now_seconds : static_cast<int64_t>(std::time(nullptr));
    ICS_ASSIGN_OR_RETURN(Stmt del,
                         conn->Prepare("DELETE FROM request_log WHERE recorded_ms < ?1"));
    ICS_RETURN_IF_ERROR(del.BindInt(1, (now - r.max_age_seconds) * 1000).Run());
    deleted += conn->Changes();
  }
  if (r.max_events > 0) {
    ICS_ASSIGN_OR_RETURN(
        Stmt del, conn->Prepare("DELETE FROM request_log WHERE recorded_ms < (SELECT recorded_ms "
                                "FROM request_log ORDER BY recorded_ms DESC LIMIT 1 OFFSET ?1)"));
    // Older than the max_events-th newest (requests recorded in the same
    // millisecond as it are kept with it).
    ICS_RETURN_IF_ERROR(del.BindInt(1, r.max_events - 1).Run());
    deleted += conn->Changes();
  }
  ICS_RETURN_IF_ERROR(txn.Commit());
  return deleted;
}

Result<int64_t> PruneArchivedVersions(Connection* conn, int64_t keep_per_table, int batch_limit) {
  if (keep_per_table < 1 || batch_limit < 1) {
    return Status::InvalidArgument("keep_per_table and batch_limit must be at least 1, got " +
                                   std::to_string(keep_per_table) + " and " +
                                   std::to_string(batch_limit));
  }
  Transaction txn(conn);
  ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
  // Ranks come from the primary key index (db, tbl, version_id): no blob is read.
  ICS_ASSIGN_OR_RETURN(
      Stmt del,
      conn->Prepare("DELETE FROM table_versions WHERE (db, tbl, version_id) IN ("
                    "SELECT db, tbl, version_id FROM (SELECT db, tbl, version_id, "
                    "ROW_NUMBER() OVER (PARTITION BY db, tbl ORDER BY version_id DESC) AS rn "
                    "FROM table_versions) ranked WHERE rn > ?1 LIMIT ?2)"));
  ICS_RETURN_IF_ERROR(del.BindInt(1, keep_per_table).BindInt(2, batch_limit).Run());
  const int64_t deleted = conn->Changes();
  ICS_RETURN_IF_ERROR(txn.Commit());
  return deleted;
}

}  // namespace ics::catalog::sqldb
