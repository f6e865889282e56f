// EventProcessor: keeps catalogd in step with changes other writers commit
// to the metastore (the HMS endpoint, other processes), the way Impala's
// MetastoreEventsProcessor follows the Hive Metastore's notification log.
//
// Every poll interval it reads the notification log after the last synced
// event id, in batches of at most batch_size events, skips the events
// catalogd's own DDL wrote (SelfEventLog), applies the rest with
// EventApplier (each change a new catalog version, so the topic publisher
// broadcasts it to coordinators) and advances the last synced id. It starts
// from the event id current when catalogd loaded the metastore.
//
// States: ACTIVE (polling), PAUSED (by SetEventProcessorStatus "pause";
// the position is kept), ERROR (the log could not be read; retried every
// interval, ACTIVE again on success), DISABLED (poll interval 0, or
// stopped). Errors applying single events never stop it (see
// event_applier.h). Exception barrier: anything a poll throws (metastore,
// applier, allocation) is caught, counted (errors, exceptions), shown as
// last_error with state ERROR, and the batch is read again next interval;
// the thread never dies of it.
//
// Lost events: when retention (metastore_retention.h) or another process
// deleted events the processor has not applied yet — the log read fails or
// skips ahead and FirstRetainedNotificationEventId() is past the next id it
// wants — it does what Impala does for missing events: a full invalidate
// (options.invalidate_all: catalogd runs a global INVALIDATE METADATA
// through its DDL executor), then continues after the event id read just
// before the invalidate (counted in full_invalidations). Without
// invalidate_all it stays in ERROR naming the gap and does not advance
// (an operator runs INVALIDATE METADATA and Resume(-1)). catalogd's own
// retention never deletes events after last_synced_event_id, so this only
// happens when the log is pruned by someone else, or after Resume to an
// event id that is no longer kept.
//
// Control (the SetEventProcessorStatus RPC): Pause(); Resume(event id):
// continue from the current position, or from `event_id` (-1: from the
// latest event, skipping the pending ones; skipped changes are not applied:
// run INVALIDATE METADATA for them). WaitForSync() waits until every event
// committed before the call has been processed (the WaitForHmsEvent RPC);
// WaitForEventId(id) waits for a given event id (read-your-writes for the
// HMS endpoint, see catalog_server.h).
//
// Lock order: poll_mu_ (one poll at a time) -> [invalidate_all: the DDL
// executor's reset lock] -> table locks -> catalog; mu_ is terminal. Ownership: borrows the context, the metastore and the
// self-event log (all outlive it); owns its thread.
// Thread-safety: thread-safe; Stop() is idempotent and run by the destructor.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "catalogd/core/catalog_context.h"
#include "catalogd/events/event_applier.h"
#include "catalogd/events/self_event_log.h"
#include "common/util/mutex.h"

namespace ics::catalog {

struct EventProcessorOptions {
  int poll_interval_ms = 1000;  // <= 0: disabled
  int batch_size = 1000;        // events read per metastore call
  // false: no thread; the owner calls PollOnce() (tests).
  bool start_thread = true;
  // Global invalidate (INVALIDATE METADATA), run when events were lost;
  // see "Lost events". Empty: the processor reports the gap and waits.
  std::function<Status()> invalidate_all;
};

enum class EventProcessorState { kActive, kPaused, kError, kDisabled };
const char* EventProcessorStateName(EventProcessorState s);  // "ACTIVE", ...

struct EventProcessorStatus {
  EventProcessorState state = EventProcessorState::kDisabled;
  int64_t last_synced_event_id = 0;
  int64_t latest_event_id = 0;    // as of the last poll
  int64_t lag_events = 0;         // latest - last synced
  int64_t lag_seconds = 0;        // age of the oldest event not yet processed
  int64_t events_received = 0;    // read from the log
  int64_t events_applied = 0;
  int64_t events_skipped_self = 0;
  int64_t invalidations = 0;
  int64_t full_invalidations = 0;  // whole catalog invalidated after lost events
  int64_t errors = 0;             // corrupt events, failed steps, failed polls
  int64_t exceptions = 0;         // polls that threw (also counted in errors)
  int64_t catalog_versions = 0;   // catalog versions the processor installed
  int64_t polls = 0;
  std::string last_error;
  std::string ToString() const;  // one line, for logs and the RPC's info
};

class EventProcessor {
 public:
  EventProcessor(CatalogContext* ctx, SelfEventLog* self_events, EventProcessorOptions options);
  ~EventProcessor();
  EventProcessor(const EventProcessor&) = delete;
  EventProcessor& operator=(const EventProcessor&) = delete;

  // Starts following the log after `start_event_id` (state ACTIVE; DISABLED
  // if the interval is <= 0). Call once.
  [[nodiscard]] Status Start(int64_t start_event_id) EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);

  // Reads and applies one batch now if ACTIVE or ERROR; returns how many
  // events it read (0 when idle, paused or disabled), or the error reading
  // the log.
  Result<int> PollOnce() EXCLUDES(poll_mu_, mu_);

  EventProcessorStatus GetStatus() const EXCLUDES(mu_);

  // INVALID_ARGUMENT when disabled.
  [[nodiscard]] Status Pause() EXCLUDES(mu_);
  // INVALID_ARGUMENT when disabled or `event_id` is < -1 or beyond the
  // latest event id.
  [[nodiscard]] Status Resume(std::optional<int64_t> event_id) EXCLUDES(poll_mu_, mu_);

  // Waits until the events committed before the call are processed; returns
  // the catalog version then. TIMED_OUT after `timeout`; an error at once
  // if the processor is not ACTIVE (or stops while waiting).
  Result<int64_t> WaitForSync(std::chrono::milliseconds timeout) EXCLUDES(mu_);

  // Waits until every event with id <= `event_id` is processed (applied or
  // skipped), waking the poll thread at once instead of at the next poll
  // interval; returns the catalog version then. Errors as WaitForSync. This
  // is how catalogd's HMS endpoint gives read-your-writes: after a write
  // commits, it waits for the events the write appended, so the change is in
  // the catalog (applied once, by the processor, as for any external writer)
  // before the call returns.
  Result<int64_t> WaitForEventId(int64_t event_id, std::chrono::milliseconds timeout)
      EXCLUDES(mu_);

 private:
  void Run() EXCLUDES(mu_);
  // PollOnce without the exception barrier.
  Result<int> PollLocked() REQUIRES(poll_mu_) EXCLUDES(mu_);
  // Whether the log no longer holds event after_event_id + 1 (deleted by
  // retention); false if that cannot be told (event_log_gap.cc).
  bool EventsLostAfter(int64_t after_event_id) REQUIRES(poll_mu_) EXCLUDES(mu_);
  // See "Lost events"; returns 0 (no events read) or why it could not.
  Result<int> RecoverFromLostEvents(int64_t after_event_id) REQUIRES(poll_mu_) EXCLUDES(mu_);
  // Records a failed poll (state ERROR) and returns `s`.
  Status RecordPollError(const Status& s) EXCLUDES(mu_);
  // An error if the state is DISABLED or PAUSED.
  Status NotActiveLocked() const REQUIRES(mu_);

  CatalogContext* const ctx_;
  SelfEventLog* const self_events_;
  const EventProcessorOptions opts_;
  EventApplier applier_;

  Mutex poll_mu_ ACQUIRED_BEFORE(mu_);

  mutable Mutex mu_;
  CondVar wake_cv_;    // the poll thread: stop, wake-up requests
  CondVar synced_cv_;  // waiters: progress and state changes
  EventProcessorStatus status_ GUARDED_BY(mu_);
  int64_t oldest_pending_time_s_ GUARDED_BY(mu_) = 0;  // 0: nothing pending
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool wake_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace ics::catalog
