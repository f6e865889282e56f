// Retention of the SQL metastore's notification log and archived table
// versions (either driver) (the statements behind Metastore::FirstRetainedNotificationEventId,
// PruneNotifications, PruneTableVersions and GetNextNotifications' check for
// pruned events; metastore.h has the contract).
//
// The log's ids are contiguous (notification_sequence is advanced in the
// writing transaction; a rolled back commit rolls it back too) and only a prefix is ever deleted,
// so the kept events are exactly the ids [first retained, latest], and the count rule is plain id
// arithmetic. Each prune call deletes at most one batch, in its own write transaction, so a DDL
// commit waits for at most one batch.
//
// Thread-safety: functions take the connection; callers serialize its use.
#pragma once

#include <cstdint>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/sql_db.h"

namespace ics::catalog::sqldb {

// The last event id ever assigned (0 if none): notification_sequence's
// counter, or the log's highest id if a writer that bypassed the counter
// added rows beyond it.
Result<int64_t> LatestEventId(Connection* conn);

// MIN(event_id) of the log, or the last id ever assigned + 1 when it is
// empty (1 for a log that never had an event).
Result<int64_t> FirstRetainedEventId(Connection* conn);

// INVALID_ARGUMENT if events right after `after_event_id` were deleted
// (max(after, 0) + 1 < FirstRetainedEventId); OK otherwise. `first_returned`
// is the id of the first event a read after `after_event_id` found, or 0
// when it found none: an immediate successor proves nothing was deleted,
// so the log is only queried when needed.
[[nodiscard]] Status CheckNotRetentionGap(Connection* conn, int64_t after_event_id,
                                          int64_t first_returned);

Result<int64_t> PruneEvents(Connection* conn, const NotificationRetention& r);

// Deletes recorded requests (Metastore::LookupRequest) by the same rules as
// events: older than r.max_age_seconds, and beyond the r.max_events newest.
// Returns how many.
Result<int64_t> PruneRequests(Connection* conn, const NotificationRetention& r);

Result<int64_t> PruneArchivedVersions(Connection* conn, int64_t keep_per_table, int batch_limit);

}  // namespace ics::catalog::sqldb
