// The subscriber library's vocabulary: what a subscription to a topic is
// (TopicSubscription, its TopicUpdateCallback) and how a subscriber is set
// up (StatestoreSubscriberOptions). StatestoreSubscriber (subscriber.h) and
// its components read them; none of them changes an options object after
// construction.
//
// Thread-safety: plain values. A subscriber keeps its options constant for
// its life and its subscriptions constant from Start() on, so its threads
// read both without a lock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "StatestoreService_types.h"
#include "common/rpc/endpoint_options.h"
#include "statestore/catalogd_designation.h"
#include "statestore/statestore_activations.h"

namespace ics::metrics {
class MetricRegistry;
}

namespace ics::statestore {

// Called with each topic update. `delta` is the update as sent (a full
// update when !delta.is_delta). Publications appended to `publications` are
// returned to the statestore: entries to write, clear_topic_entries, and
// from_version (which also becomes this subscriber's processed version of
// that topic, as the statestore resets its base to it). An empty topic_name
// means the callback's topic.
using TopicUpdateCallback = std::function<void(const impala::TTopicDelta& delta,
                                               std::vector<impala::TTopicDelta>* publications)>;

struct TopicSubscription {
  std::string topic;
  bool is_transient = false;
  bool populate_min_subscriber_topic_version = false;
  std::string filter_prefix;  // empty: every key
  TopicUpdateCallback callback;
  // Optional: called (on an RPC thread, instead of `callback`) when a delta
  // shows the statestore did not apply our previous reply, so a publisher
  // can send its last publication again.
  std::function<void()> on_reply_lost;
  // With populate_min_subscriber_topic_version: the statestore sends a new
  // minimum only with this subscriber's other updates, and at once only when
  // WaitForMinSubscriberTopicVersion waits for it, instead of an update of
  // its own for every change of the minimum (this project's statestore; see
  // TRequestTopicUpdateRequest). For subscribers that wait for the minimum
  // now and then (SYNC_DDL) rather than follow it.
  bool min_version_on_request = false;
};

// The endpoint is the callback server's (port 0 picks a free port, see
// port(); 64 connections, 1 GiB messages by default); its TLS is also that
// of the connection to the statestore, and its max_message_bytes bounds
// what the subscriber sends as well.
struct StatestoreSubscriberOptions : EndpointOptions {
  StatestoreSubscriberOptions() {
    max_connections = 64;
    max_message_bytes = 1ll << 30;
  }
  std::string subscriber_id;  // unique per subscriber; required
  std::string statestore_host = "127.0.0.1";
  int statestore_port = 24000;

  // Host name sent in the registration; empty: bind_host, or 127.0.0.1 when
  // bind_host is a wildcard address.
  std::string advertised_host;

  impala::TStatestoreSubscriberType::type subscriber_type =
      impala::TStatestoreSubscriberType::COORDINATOR;
  // Ask the statestore for the active catalogd (catalogd HA). Each newer
  // designation is passed to on_catalogd_change (on an RPC or the
  // background thread, one call at a time, in version order); it must not
  // block for long nor call Stop().
  bool subscribe_catalogd_change = false;
  std::function<void(const CatalogdDesignation&)> on_catalogd_change;
  // statestored HA: shared by the daemon's subscribers (one per statestore).
  // Updates from a statestore whose activation is older than one heard of
  // are skipped (statestore_activations.h). Null: every update is taken.
  std::shared_ptr<StatestoreActivations> activations;
  // catalogd only: passed through in the registration.
  std::optional<impala::TCatalogRegistration> catalogd_registration;

  // Updates without a reply from a statestore that supports them
  // (UpdateStateOneway; Impala's statestore ignores the request): the
  // callbacks see the same deltas; what a reply would carry goes back by
  // RequestTopicUpdate on the calling thread, only when there is something
  // to say (update_delivery.h).
  bool accept_oneway_updates = true;

  // No heartbeat for this long after registering => statestore lost;
  // register again.
  int statestore_timeout_ms = 30000;
  // No heartbeat for this long => ask the statestore (an empty
  // RequestTopicUpdate, repeated every third of this while the silence
  // lasts) whether it still knows this registration, and register again at
  // once when it does not (a statestore restarted within the timeout above
  // would otherwise know nothing of this subscriber until then). 0: never.
  int statestore_probe_after_ms = 0;
  // Registration retry backoff: doubles from initial to max.
  int register_backoff_initial_ms = 100;
  int register_backoff_max_ms = 5000;

  // Calls to the statestore.
  int rpc_connect_timeout_ms = 2000;
  int register_timeout_ms = 10000;
  int request_update_timeout_ms = 2000;
  // Publish() calls (pushed publications, a few entries each): short, so a
  // stopped statestore holds the publisher for little longer than this
  // (twice, with the retry of a kept connection) before it falls back to
  // the reply path.
  int publish_timeout_ms = 300;

  metrics::MetricRegistry* metrics = nullptr;  // callback server counters (optional)
};

}  // namespace ics::statestore
