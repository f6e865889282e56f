// The statestore's debug web pages and metrics.
//
//   /topics       one row per topic: entries, tombstones, key/value bytes,
//                 current version, oldest retained version, history floor,
//                 min subscriber version (and which subscriber holds it),
//                 subscriber count
//   /subscribers  one row per registration: id, address, type,
//                 registration id, transient entries it owns, its topics
//                 with their last processed versions, seconds since the
//                 last successful heartbeat, failures, updates;
//                 ?topic=NAME keeps the subscribers of one topic (404 if no
//                 such topic)
//   JSON keys use Apache Impala's names for the facts its statestore pages
//   also show (topic_id, num_entries, version, key_size_bytes,
//   value_size_bytes, total_size_bytes, oldest_version, oldest_id; id,
//   address, num_topics, num_transient, registration_id,
//   secs_since_heartbeat, subscriber_type), so scripts written against
//   Impala's /topics?json and /subscribers?json read them unchanged.
//   /metrics      (registered by RegisterStatestoreMetrics) broker counters,
//                 subscriber/topic gauges and per-topic families, next to
//                 the update/heartbeat latency histograms the broker records
//
// Both functions read the broker through its snapshot accessors
// (Subscribers(), Topics(), Counters()), which copy under the broker lock;
// nothing is rendered with a broker lock held.
//
// Ownership: `statestore` is not owned and must outlive the web server and
// the registry's use (statestored stops the web server first).
// Thread-safety: the registered handlers and callbacks are thread-safe.
#pragma once

#include "common/metrics/metrics.h"
#include "common/web/web_server.h"
#include "statestore/statestore.h"

namespace ics::statestore {

void RegisterStatestorePages(web::WebServer* server, const Statestore* statestore);
void RegisterStatestoreMetrics(metrics::MetricRegistry* registry, const Statestore* statestore);

}  // namespace ics::statestore
