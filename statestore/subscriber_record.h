// Internal to the statestore: what the broker knows about one registration.
// Scheduling fields are guarded by the broker lock (see
// statestore_impl.h); each RPC channel is called only by the one worker that
// has the corresponding job in flight (see subscriber_channel.h). The job
// slots are moved by PushScheduler, except the end of a heartbeat (its
// in_flight, next_due and outcome), which the broker books as it knows the
// outcome; the version fields of SubscribedTopic are moved by TopicLedger.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "common/util/mutex.h"
#include "statestore/subscriber_channel.h"
#include "statestore/topic.h"

namespace ics::statestore {

struct SubscribedTopic {
  std::string filter_prefix;
  bool is_transient = false;
  bool populate_min = false;
  // The base of the next delta: the last to_version sent (a oneway update
  // counts once written) that the subscriber has not refused.
  int64_t last_version = 0;
  // The last version the subscriber is known to have processed (a reply, a
  // resend's base): what the topic's minimum counts.
  int64_t acked_version = 0;
  // populate_min topics (TRequestTopicUpdateRequest): changes of the minimum
  // reach this subscriber only with its other updates, except the one it
  // waits for (min_wanted, 0 for none).
  bool min_on_request = false;
  int64_t min_wanted = 0;
  int64_t min_sent = 0;  // the largest minimum an answered update carried
  // Counted in the topic's min_readers: populate_min, and the minimum is
  // read now (every change, or a wish not yet answered).
  bool reads_min = false;
};

// One queued/in-flight/idle job kind (update or heartbeat) of a subscriber.
struct JobSlot {
  bool queued = false;
  bool in_flight = false;
  bool again = false;  // another run was requested while in flight
  SteadyTime next_due;
  // Responsiveness of this kind of RPC, which picks the lane of the next job
  // (BulkheadQueue): transport-level outcomes only, so a reply carrying an
  // error status still counts as answered.
  bool answered = false;  // an RPC of this kind got a reply at least once
  int rpc_failures = 0;   // consecutive RPCs of this kind that got no reply
};

struct SubscriberRecord {
  std::string id;
  impala::TUniqueId registration_id;
  std::string registration_key;  // PrintId(registration_id): transient entry owner
  impala::TNetworkAddress location;
  impala::TStatestoreSubscriberType::type type = impala::TStatestoreSubscriberType::COORDINATOR;
  std::string identity;  // verified certificate subject of the registering peer; "" without mTLS
  // catalogd HA: a candidate for the active role; gets UpdateCatalogd calls
  // (subscribe_catalogd_change, or a candidate).
  bool ha_candidate = false;
  bool wants_catalogd = false;
  // Registered with accepts_oneway_updates (UpdateStateOneway).
  bool accepts_oneway = false;

  // Guarded by the broker lock.
  std::map<std::string, SubscribedTopic> topics;
  JobSlot update;
  JobSlot heartbeat;
  int consecutive_heartbeat_failures = 0;
  SteadyTime last_heartbeat_ok;
  SteadyTime registered_at;
  int64_t updates_sent = 0;
  int64_t update_failures = 0;
  int64_t heartbeat_failures = 0;
  // A resend was taken: the next update waits for its reply, so that a
  // callback that keeps failing is retried at the periodic pace (a failed
  // reply) instead of in a loop of oneway updates and resends.
  bool answer_next_update = false;
  int64_t catalogd_version_sent = 0;  // last designation this subscriber was told
  int64_t role_version_sent = 0;      // last active_statestored_version it was told

  // Set once when the registration ends; workers then drop their results.
  std::atomic<bool> unregistered{false};
  // Serializes applying this subscriber's publications with removing its
  // transient entries, so none are left behind by a race.
  Mutex publish_mu;

  // Each called only by the worker holding the matching JobSlot in flight;
  // Close()d when the registration ends.
  std::unique_ptr<SubscriberChannel> update_channel;
  std::unique_ptr<SubscriberChannel> heartbeat_channel;
};

}  // namespace ics::statestore
