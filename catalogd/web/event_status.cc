#include "catalogd/web/event_status.h"

namespace ics::catalog {

nlohmann::ordered_json EventProcessorStatusJson(const EventProcessor& processor) {
  const EventProcessorStatus s = processor.GetStatus();
  nlohmann::ordered_json j;
  j["state"] = EventProcessorStateName(s.state);
  j["last_synced_event_id"] = s.last_synced_event_id;
  j["latest_event_id"] = s.latest_event_id;
  j["lag_events"] = s.lag_events;
  j["lag_seconds"] = s.lag_seconds;
  j["events_received"] = s.events_received;
  j["events_applied"] = s.events_applied;
  j["events_skipped_self"] = s.events_skipped_self;
  j["invalidations"] = s.invalidations;
  j["catalog_versions"] = s.catalog_versions;
  j["errors"] = s.errors;
  j["polls"] = s.polls;
  j["last_error"] = s.last_error;
  return j;
}

void AddEventProcessorGauges(metrics::MetricRegistry* registry, const EventProcessor* processor) {
  using metrics::MetricType;
  using metrics::Sample;
  const EventProcessor* p = processor;
  registry->AddCallbackFamily(
      "catalogd_hms_event_processor_state",
      "State of the HMS event processor: 1 for the current state, 0 for the others.",
      MetricType::kGauge, [p] {
        const EventProcessorState now = p->GetStatus().state;
        std::vector<Sample> out;
        for (EventProcessorState s : {EventProcessorState::kActive, EventProcessorState::kPaused,
                                      EventProcessorState::kError, EventProcessorState::kDisabled}) {
          out.push_back({{{"state", EventProcessorStateName(s)}}, s == now ? 1.0 : 0.0});
        }
        return out;
      });
  auto gauge = [registry, p](const char* name, const char* help,
                             int64_t EventProcessorStatus::*field) {
    registry->AddCallbackGauge(name, help,
                               [p, field] { return static_cast<double>(p->GetStatus().*field); });
  };
  auto counter = [registry, p](const char* name, const char* help,
                               int64_t EventProcessorStatus::*field) {
    registry->AddCallbackCounter(name, help,
                                 [p, field] { return static_cast<double>(p->GetStatus().*field); });
  };
  gauge("catalogd_hms_events_last_synced_id", "Last notification event id processed.",
        &EventProcessorStatus::last_synced_event_id);
  gauge("catalogd_hms_events_latest_id", "Latest notification event id seen in the log.",
        &EventProcessorStatus::latest_event_id);
  gauge("catalogd_hms_events_lag_events", "Notification events not processed yet.",
        &EventProcessorStatus::lag_events);
  gauge("catalogd_hms_events_lag_seconds", "Age of the oldest event not processed yet.",
        &EventProcessorStatus::lag_seconds);
  counter("catalogd_hms_events_received_total", "Notification events read from the log.",
          &EventProcessorStatus::events_received);
  counter("catalogd_hms_events_applied_total", "Notification events applied to the catalog.",
          &EventProcessorStatus::events_applied);
  counter("catalogd_hms_events_skipped_self_total",
          "Notification events skipped because catalogd's own DDL wrote them.",
          &EventProcessorStatus::events_skipped_self);
  counter("catalogd_hms_events_errors_total",
          "Corrupt events, failed steps and failed polls of the event processor.",
          &EventProcessorStatus::errors);
  counter("catalogd_hms_event_polls_total", "Polls of the notification log.",
          &EventProcessorStatus::polls);
}

}  // namespace ics::catalog
