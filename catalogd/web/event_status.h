// The HMS event processor (catalogd/events) on catalogd's web pages and
// /metrics: its status as JSON (a section of /catalog) and gauges
//
//   catalogd_hms_event_processor_state{state}   1 for the current state
//   catalogd_hms_events_last_synced_id / _latest_id / _lag_events /
//   _lag_seconds                                 gauges
//   catalogd_hms_events_{received,applied,skipped_self,errors}_total, 
//   catalogd_hms_event_polls_total               counters
//
// Ownership: borrows the processor, which must outlive every export and
// page (stop the web server first). Thread-safety: thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "catalogd/events/event_processor.h"
#include "common/metrics/metrics.h"

namespace ics::catalog {

nlohmann::ordered_json EventProcessorStatusJson(const EventProcessor& processor);

void AddEventProcessorGauges(metrics::MetricRegistry* registry, const EventProcessor* processor);

}  // namespace ics::catalog
