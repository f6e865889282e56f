// EventProcessor: recovering from events deleted before they were applied
// ("Lost events" in event_processor.h).
#include <glog/logging.h>

#include <algorithm>

#include "catalogd/events/event_processor.h"

namespace ics::catalog {

bool EventProcessor::EventsLostAfter(int64_t after_event_id) {
  Result<int64_t> first = ctx_->metastore->FirstRetainedNotificationEventId();
  return first.ok() && std::max<int64_t>(after_event_id, 0) + 1 < *first;
}

Status EventProcessor::RecordPollError(const Status& s) {
  MutexLock l(&mu_);
  ++status_.polls;
  ++status_.errors;
  status_.last_error = s.ToString();
  if (status_.state == EventProcessorState::kActive) {
    status_.state = EventProcessorState::kError;
    LOG(WARNING) << "HMS event processor: " << status_.last_error;
  }
  synced_cv_.Broadcast();
  return s;
}

Result<int> EventProcessor::RecoverFromLostEvents(int64_t after_event_id) {
  // Read the position first: the invalidate reads the metastore after it,
  // so it reflects every event up to `latest`; later ones are applied next.
  Result<int64_t> latest = ctx_->metastore->CurrentNotificationEventId();
  if (!latest.ok()) {
    return RecordPollError(latest.status().WithContext("reading the notification log position"));
  }
  const std::string gap = "notification events after id " + std::to_string(after_event_id) +
                          " were deleted before they were processed";
  if (!opts_.invalidate_all) {
    return RecordPollError(Status::Internal(
        gap + "; the catalog may be stale: run INVALIDATE METADATA, then resume the event "
              "processor from the latest event (SetEventProcessorStatus resume, -1)"));
  }
  LOG(WARNING) << "HMS event processor: " << gap << "; invalidating the whole catalog and "
               << "continuing after event " << *latest;
  Status s = opts_.invalidate_all();
  if (!s.ok()) return RecordPollError(s.WithContext(gap + "; the full invalidate failed"));
  self_events_->ForgetThrough(*latest);
  MutexLock l(&mu_);
  ++status_.polls;
  ++status_.full_invalidations;
  status_.last_synced_event_id = std::max(after_event_id, *latest);
  status_.latest_event_id = std::max(status_.latest_event_id, status_.last_synced_event_id);
  status_.last_error = gap + "; the catalog was invalidated";
  if (status_.state == EventProcessorState::kError) status_.state = EventProcessorState::kActive;
  oldest_pending_time_s_ = 0;
  synced_cv_.Broadcast();
  return 0;
}

}  // namespace ics::catalog
