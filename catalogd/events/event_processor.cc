#include "catalogd/events/event_processor.h"

#include <glog/logging.h>

#include <algorithm>
#include <ctime>

#include "common/util/exception_barrier.h"

namespace ics::catalog {

const char* EventProcessorStateName(EventProcessorState s) {
  switch (s) {
    case EventProcessorState::kActive:
      return "ACTIVE";
    case EventProcessorState::kPaused:
      return "PAUSED";
    case EventProcessorState::kError:
      return "ERROR";
    case EventProcessorState::kDisabled:
      return "DISABLED";
  }
  return "UNKNOWN";
}

std::string EventProcessorStatus::ToString() const {
  std::string s = std::string("state=") + EventProcessorStateName(state) +
                  " last_synced_event_id=" + std::to_string(last_synced_event_id) +
                  " latest_event_id=" + std::to_string(latest_event_id) +
                  " lag_events=" + std::to_string(lag_events) +
                  " lag_seconds=" + std::to_string(lag_seconds) +
                  " applied=" + std::to_string(events_applied) +
                  " skipped_self=" + std::to_string(events_skipped_self) +
                  " invalidations=" + std::to_string(invalidations) +
                  " full_invalidations=" + std::to_string(full_invalidations) +
                  " errors=" + std::to_string(errors);
  if (!last_error.empty()) s += " last_error=\"" + last_error + "\"";
  return s;
}

EventProcessor::EventProcessor(CatalogContext* ctx, SelfEventLog* self_events,
                               EventProcessorOptions options)
    : ctx_(ctx), self_events_(self_events), opts_(options), applier_(ctx) {
  // Record own commits from the start, so none made before Start() is
  // mistaken for an external one.
  if (opts_.poll_interval_ms > 0) self_events_->SetRecording(true);
}

EventProcessor::~EventProcessor() { Stop(); }

Status EventProcessor::Start(int64_t start_event_id) {
  MutexLock l(&mu_);
  if (started_) return Status::InvalidArgument("the event processor was already started");
  started_ = true;
  status_.last_synced_event_id = start_event_id;
  status_.latest_event_id = start_event_id;
  if (opts_.poll_interval_ms <= 0) {
    status_.state = EventProcessorState::kDisabled;
    LOG(INFO) << "HMS event processing is disabled (poll interval 0)";
    return Status::OK();
  }
  status_.state = EventProcessorState::kActive;
  if (opts_.start_thread) thread_ = std::thread([this] { Run(); });
  LOG(INFO) << "HMS event processor following the notification log after event "
            << start_event_id << " every " << opts_.poll_interval_ms << " ms";
  return Status::OK();
}

void EventProcessor::Stop() {
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    status_.state = EventProcessorState::kDisabled;
    wake_cv_.Broadcast();
    synced_cv_.Broadcast();
  }
  if (thread_.joinable()) thread_.join();
  self_events_->SetRecording(false);
}

void EventProcessor::Run() {
  const auto interval = std::chrono::milliseconds(opts_.poll_interval_ms);
  while (true) {
    {
      MutexLock l(&mu_);
      if (!stopping_ && !wake_) wake_cv_.WaitFor(&mu_, interval);
      if (stopping_) return;
      wake_ = false;
    }
    // Full batches mean more events are waiting: keep going. PollOnce has
    // its own exception barrier; this one keeps the thread alive even if
    // recording an error throws (out of memory).
    try {
      while (true) {
        Result<int> n = PollOnce();
        if (!n.ok() || *n < opts_.batch_size) break;
        MutexLock l(&mu_);
        if (stopping_) return;
      }
    } catch (...) {
      LOG(ERROR) << "HMS event processor: a poll threw (will retry): "
                 << DescribeCurrentException();
    }
  }
}

Result<int> EventProcessor::PollOnce() {
  MutexLock poll(&poll_mu_);
  try {
    return PollLocked();
  } catch (...) {
    // Nothing of the batch was recorded as synced, so the next poll reads it
    // again (applying is idempotent).
    const Status s = StatusFromCurrentException("processing the notification log");
    MutexLock l(&mu_);
    ++status_.polls;
    ++status_.errors;
    ++status_.exceptions;
    status_.last_error = s.ToString();
    if (status_.state == EventProcessorState::kActive) status_.state = EventProcessorState::kError;
    LOG(WARNING) << "HMS event processor: " << status_.last_error;
    synced_cv_.Broadcast();
    return s;
  }
}

Result<int> EventProcessor::PollLocked() {
  int64_t after;
  {
    MutexLock l(&mu_);
    if (stopping_ || status_.state == EventProcessorState::kPaused ||
        status_.state == EventProcessorState::kDisabled) {
      return 0;
    }
    after = status_.last_synced_event_id;
  }
  Result<std::vector<NotificationEvent>> events =
      ctx_->metastore->GetNextNotifications(after, std::max(1, opts_.batch_size));
  // Events right after `after` deleted by retention before they were
  // applied (the read fails, or skips ahead): start over from a full
  // invalidate, as Impala does (event_log_gap.cc).
  if (!events.ok() || (!events->empty() && events->front().eventId > after + 1)) {
    if (EventsLostAfter(after)) return RecoverFromLostEvents(after);
  }
  if (!events.ok()) {
    MutexLock l(&mu_);
    ++status_.polls;
    ++status_.errors;
    status_.last_error = "reading the notification log: " + events.status().ToString();
    if (status_.state == EventProcessorState::kActive) {
      status_.state = EventProcessorState::kError;
      LOG(WARNING) << "HMS event processor: " << status_.last_error;
    }
    synced_cv_.Broadcast();
    return events.status();
  }
  // Every own commit whose events may be in this batch has recorded them.
  self_events_->Barrier();
  std::vector<NotificationEvent> external;
  int64_t skipped = 0;
  for (NotificationEvent& e : *events) {
    if (self_events_->IsSelf(e.eventId)) {
      ++skipped;
    } else {
      external.push_back(std::move(e));
    }
  }
  const int64_t synced = events->empty() ? after : events->back().eventId;
  ApplyStats applied = applier_.Apply(external);
  self_events_->ForgetThrough(synced);
  if (!external.empty()) {
    VLOG(1) << "HMS event processor applied " << external.size() << " external event(s) up to "
            << synced << " (" << applied.versions << " catalog version(s))";
  }

  // Position of the log, for the lag figures.
  Result<int64_t> latest = ctx_->metastore->CurrentNotificationEventId();
  int64_t oldest_pending_time = 0;
  if (latest.ok() && *latest > synced) {
    Result<std::vector<NotificationEvent>> next = ctx_->metastore->GetNextNotifications(synced, 1);
    if (next.ok() && !next->empty()) oldest_pending_time = next->front().eventTime;
  }

  MutexLock l(&mu_);
  ++status_.polls;
  status_.last_synced_event_id = synced;
  status_.latest_event_id = latest.ok() ? std::max(*latest, synced) : synced;
  status_.events_received += static_cast<int64_t>(events->size());
  status_.events_skipped_self += skipped;
  status_.events_applied += applied.applied;
  status_.invalidations += applied.invalidations;
  status_.errors += applied.errors;
  status_.catalog_versions += applied.versions;
  if (!applied.last_error.empty()) status_.last_error = applied.last_error;
  if (status_.state == EventProcessorState::kError) {
    status_.state = EventProcessorState::kActive;
    LOG(INFO) << "HMS event processor: the notification log is readable again";
  }
  oldest_pending_time_s_ = oldest_pending_time;
  synced_cv_.Broadcast();
  return static_cast<int>(events->size());
}

EventProcessorStatus EventProcessor::GetStatus() const {
  MutexLock l(&mu_);
  EventProcessorStatus s = status_;
  s.lag_events = std::max<int64_t>(0, s.latest_event_id - s.last_synced_event_id);
  s.lag_seconds = 0;
  if (s.lag_events > 0 && oldest_pending_time_s_ > 0) {
    s.lag_seconds = std::max<int64_t>(0, static_cast<int64_t>(std::time(nullptr)) -
                                             oldest_pending_time_s_);
  }
  return s;
}

Status EventProcessor::Pause() {
  MutexLock l(&mu_);
  if (status_.state == EventProcessorState::kDisabled) {
    return Status::InvalidArgument(
        "HMS event processing is disabled (--hms_event_polling_interval_s=0)");
  }
  if (status_.state != EventProcessorState::kPaused) LOG(INFO) << "HMS event processor paused";
  status_.state = EventProcessorState::kPaused;
  synced_cv_.Broadcast();
  return Status::OK();
}

Status EventProcessor::Resume(std::optional<int64_t> event_id) {
  MutexLock poll(&poll_mu_);  // not in the middle of a batch
  {
    MutexLock l(&mu_);
    if (status_.state == EventProcessorState::kDisabled) {
      return Status::InvalidArgument(
          "HMS event processing is disabled (--hms_event_polling_interval_s=0)");
    }
  }
  int64_t from = -2;
  if (event_id.has_value()) {
    if (*event_id < -1) {
      return Status::InvalidArgument("event id " + std::to_string(*event_id) +
                                     " is invalid: give -1 (the latest event) or an id >= 0");
    }
    ICS_ASSIGN_OR_RETURN(int64_t latest, ctx_->metastore->CurrentNotificationEventId());
    if (*event_id > latest) {
      return Status::InvalidArgument("event id " + std::to_string(*event_id) +
                                     " is beyond the latest event id " + std::to_string(latest));
    }
    from = *event_id == -1 ? latest : *event_id;
    // Ranges of own commits are forgotten once passed; going back re-applies
    // those events, which converges to the same state.
  }
  MutexLock l(&mu_);
  if (status_.state == EventProcessorState::kDisabled) {
    return Status::Shutdown("the event processor has stopped");
  }
  if (from >= 0) {
    status_.last_synced_event_id = from;
    status_.latest_event_id = std::max(status_.latest_event_id, from);
  }
  status_.state = EventProcessorState::kActive;
  LOG(INFO) << "HMS event processor resumed after event " << status_.last_synced_event_id;
  wake_ = true;
  wake_cv_.Broadcast();
  synced_cv_.Broadcast();
  return Status::OK();
}

Status EventProcessor::NotActiveLocked() const {
  switch (status_.state) {
    case EventProcessorState::kDisabled:
      return Status::InvalidArgument(
          "HMS event processing is disabled or stopped; the catalog does not follow "
          "external metastore changes");
    case EventProcessorState::kPaused:
      return Status::InvalidArgument("the HMS event processor is paused");
    default:
      return Status::OK();
  }
}

Result<int64_t> EventProcessor::WaitForSync(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(NotActiveLocked());
  }
  ICS_ASSIGN_OR_RETURN(int64_t target, ctx_->metastore->CurrentNotificationEventId());
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return WaitForEventId(target, std::max(left, std::chrono::milliseconds(0)));
}

Result<int64_t> EventProcessor::WaitForEventId(int64_t target,
                                               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(NotActiveLocked());
    if (status_.last_synced_event_id < target) {
      wake_ = true;
      wake_cv_.Broadcast();
    }
    while (status_.last_synced_event_id < target) {
      ICS_RETURN_IF_ERROR(NotActiveLocked());
      if (std::chrono::steady_clock::now() >= deadline) {
        std::string msg = "the HMS event processor did not reach event " +
                          std::to_string(target) + " within " + std::to_string(timeout.count()) +
                          " ms (at " + std::to_string(status_.last_synced_event_id) + ")";
        if (status_.state == EventProcessorState::kError) msg += ": " + status_.last_error;
        return Status::TimedOut(msg);
      }
      synced_cv_.WaitUntil(&mu_, deadline);
    }
  }
  return ctx_->catalog->version();
}

}  // namespace ics::catalog
