// Statestore: the pub/sub topic broker (the core, without RPC plumbing).
//
// Subscribers register for topics; the broker pushes each subscriber the
// changes after its last processed version (UpdateState), applies what the
// subscriber publishes in its reply, tracks liveness with heartbeats and
// reports min_subscriber_topic_version (the basis of SYNC_DDL). Semantics
// follow Apache Impala's statestore on the wire; scheduling differs:
//
//  * Push, don't poll. A topic change schedules an update to every
//    subscriber of the topic at once. At most one update is in flight per
//    subscriber; changes arriving meanwhile are coalesced into one follow-up.
//    Updates run on a worker pool, so a slow subscriber holds one worker and
//    delays nobody else. A worker sends up to kUpdateBatch healthy
//    subscribers' requests before it reads their replies, in the order they
//    arrive, so the replies do not wake it one by one; one of them that
//    hangs holds only this worker until its deadline, not the others'
//    replies or next updates. A batch takes the broker lock once to plan
//    its requests and once per group of replies read together, not once
//    per subscriber. When a topic's minimum processed version advances,
//    subscribers that asked for it get an update carrying the new value:
//    every populate_min subscriber by default, and only for the version it
//    waits for one that chose "on request" (RequestTopicUpdate;
//    its other updates carry the minimum too). Without that choice each
//    change all subscribers applied costs a second update to each of them.
//    The minimum counts acknowledged versions only: while nobody reads a
//    topic's minimum (only "on request" readers, none waiting), updates to
//    subscribers that accept them go oneway, without a reply; a wait then
//    asks those with unacknowledged oneway updates for an answered one.
//  * Unresponsive subscribers (a "tarpit" that accepts and never answers, a
//    host that never accepts, a peer trickling bytes) cannot starve healthy
//    ones, in either pool (details: bulkhead_queue.h, subscriber_channel.h):
//    - Bounded RPCs. One RPC holds its worker for at most the connect
//      timeout (connect_timeout_ms for updates, min(connect_timeout_ms,
//      heartbeat_timeout_ms) for heartbeats; per address the host name
//      resolves to) plus its timeout (update_timeout_ms or
//      heartbeat_timeout_ms), which is a hard deadline for the whole
//      exchange, enforced by the timer (within one tick, <= 100 ms) on top
//      of the socket timeouts.
//    - Bulkhead. Each job waits in a lane chosen from how the subscriber's
//      last RPC of that kind went, at the transport level (a reply carrying
//      an error status counts as answered): answered -> healthy; no reply ->
//      suspect; never tried -> new, unless the other kind has been tried, then
//      as that one. With share = max(1, pool / 4), at most `share` workers
//      of a pool run new jobs and at most `share` run suspect jobs at once
//      (in pools of 2 or 3, one worker is always left to healthy jobs);
//      jobs beyond that wait, coalesced (one per subscriber and kind). So,
//      however many subscribers hang, healthy subscribers keep at least half
//      of each pool of 4 or more workers and get heartbeats and updates on
//      time. Suspects run fewest consecutive failures first, so a subscriber
//      that failed once is retried before long-dead ones.
//    - The price: subscribers that do not answer are probed only `share` at a
//      time (plus `share` new ones), so failing N of them takes about
//      N * max_missed_heartbeats * heartbeat_timeout_ms / share instead of
//      / pool (which starved everyone else meanwhile). Refused connections
//      fail at once and cost nothing.
//  * A fallback cadence (update_frequency) still sends every subscriber an
//    update, empty if nothing changed, which is also its chance to publish.
//  * Publications come in UpdateState replies, as in Impala, or pushed by
//    the subscriber in RequestTopicUpdate (field 5), which starts the
//    fan-out one round trip sooner; both pass the same checks
//    (statestore_publish.cc).
//  * Updates without a reply: a subscriber that registered with
//    accepts_oneway_updates gets, once it has answered one update and while
//    it is healthy, the updates whose topics nobody reads the minimum of
//    now as UpdateStateOneway, booked as sent once written; what it cannot
//    apply it asks to be resent (RequestTopicUpdate field 7;
//    statestore_oneway.cc). The minimum counts acknowledged versions only
//    (topic_ledger.h).
//  * Heartbeats run on their own pool and connections; a subscriber is
//    failed after max_missed_heartbeats consecutive failures and unregistered
//    (its transient entries become tombstones).
//  * Tombstones are garbage-collected once every subscriber of the topic has
//    processed them (or been sent them oneway) and the retention window has
//    passed; a base below what was collected gets a full update (topic.h).
//
// Lifecycle: construct, Start(), Shutdown() (idempotent; also from the
// destructor). Shutdown interrupts in-flight RPCs and joins every thread.
//
// Thread-safety: all public methods are thread-safe.
// Lock order: SubscriberRecord::publish_mu -> registry mu_ -> Topic::mu_;
// publish_mu -> Topic::mu_; registry mu_ -> SubscriberChannel::mu_.
// Topic::mu_ and SubscriberChannel::mu_ are terminal. No RPC is made with any
// lock held.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "StatestoreService_types.h"
#include "common/metrics/metrics.h"
#include "common/rpc/tls.h"
#include "common/util/result.h"
#include "statestore/catalogd_ha.h"
#include "statestore/subscriber_tokens.h"
#include "statestore/topic.h"
#include "statestore/topic_writers.h"

namespace ics::statestore {

struct StatestoreOptions {
  // The periodic RPCs to one subscriber (heartbeats, fallback updates) are
  // spread: each is due its interval +-10% after the last, and a new
  // subscriber's first heartbeat comes within one interval.
  int heartbeat_interval_ms = 1000;
  int max_missed_heartbeats = 10;
  int heartbeat_timeout_ms = 3000;
  int update_timeout_ms = 30000;
  int update_frequency_ms = 2000;   // fallback cadence of (possibly empty) updates
  int max_subscribers = 10000;
  int num_update_threads = 32;
  int num_heartbeat_threads = 16;
  int tombstone_retention_ms = 60000;
  int connect_timeout_ms = 3000;
  int64_t max_message_bytes = 1ll << 30;
  // Non-null: connections to subscribers' callback ports speak TLS.
  std::shared_ptr<const TlsContext> tls;
  // Who may write which topic (statestore/topic_writers.h).
  TopicWriterPolicy writers;
  // catalogd high availability (statestore/catalogd_ha.h): the first
  // designation's wait for a second candidate, and how the active catalogd
  // is watched: the active catalogd is heartbeated every
  // active_catalogd_probe_interval_ms (instead of heartbeat_interval_ms),
  // each heartbeat cut off after active_catalogd_heartbeat_timeout_ms
  // (instead of heartbeat_timeout_ms: a stopped process accepts the
  // connection and never answers); after
  // active_catalogd_max_missed_heartbeats consecutive misses the role passes
  // to a standby, about max_missed * (interval + timeout) after the active
  // stopped answering. The designation is only
  // the statestore's word: catalogd itself fences its metastore writes
  // (catalogd/metastore/writer_epoch.h), so a catalogd that lost the role
  // cannot commit even if it has not heard yet.
  CatalogdHaOptions catalogd_ha;
  // statestored HA (statestore/statestore_ha.h): the broker starts as a
  // standby (SetActive() makes it active). A standby registers subscribers
  // and heartbeats them but sends no topic updates and designates no
  // catalogd; becoming active, it tells every subscriber with
  // UpdateStatestoredRole and starts sending updates (full ones: its
  // topics start empty and fill from the publishers' first replies).
  bool start_as_standby = false;
  int active_catalogd_probe_interval_ms = 100;
  int active_catalogd_heartbeat_timeout_ms = 250;
  int active_catalogd_max_missed_heartbeats = 3;
  // Token identities for subscribers without client certificates
  // (statestore/subscriber_tokens.h); empty: not required.
  SubscriberTokens tokens;
  // The time the scheduler and the failure detector go by: when heartbeats
  // and updates are due, tombstone retention, the ages reported for
  // subscribers. Empty: std::chrono::steady_clock::now. A test seam; the
  // deadlines of RPCs in flight stay on the real clock (they bound socket
  // waits).
  std::function<std::chrono::steady_clock::time_point()> clock;
};

// A registration's view for tests, metrics and web pages.
struct SubscriberInfo {
  std::string id;
  std::string registration_id;
  std::string address;  // host:port
  struct TopicState {
    std::string topic;
    int64_t last_version = 0;  // the base of its next delta (oneway updates count once sent)
    std::string filter_prefix;
    bool is_transient = false;
    // populate_min topic whose new minimum is sent only with other updates
    // or when waited for (RequestTopicUpdate).
    bool min_on_request = false;
    // The last version it is known to have processed (a reply, a resend's
    // base): what min_subscriber_topic_version counts.
    int64_t acked_version = 0;
    // populate_min on request: the version whose minimum it waits for (0: none).
    int64_t min_wanted = 0;
  };
  std::vector<TopicState> topics;
  int consecutive_heartbeat_failures = 0;
  // Its last update or heartbeat RPC got no reply (a suspect; see above).
  bool unresponsive = false;
  double seconds_since_heartbeat = 0;
  int64_t updates_sent = 0;
  int64_t update_failures = 0;
  int64_t heartbeat_failures = 0;  // total, not only consecutive
  double seconds_since_registration = 0;
  std::string subscriber_type;  // TStatestoreSubscriberType name, e.g. "COORDINATOR"
  int64_t num_transient = 0;    // live transient entries it wrote, all topics
};

struct StatestoreCounters {
  int64_t updates_sent = 0;  // UpdateState RPCs answered, and oneway updates sent
  int64_t update_failures = 0;
  // UpdateStateOneway updates written to their connection, and
  // TRequestTopicUpdateRequest field 7 entries taken (a base reset each).
  int64_t oneway_updates_sent = 0;
  int64_t oneway_resends = 0;
  int64_t heartbeats_sent = 0;
  int64_t heartbeat_failures = 0;
  int64_t subscribers_failed = 0;
  int64_t tombstones_collected = 0;
  int64_t registrations = 0;
  int64_t rpcs_cut_at_deadline = 0;  // RPCs interrupted by the hard deadline
  // Publications dropped because their registration may not write the
  // topic, and registrations refused for their identity (topic_writers.h).
  int64_t publications_refused = 0;
  int64_t registrations_refused = 0;
  // catalogd HA: designations of an active catalogd (the first included),
  // and UpdateCatalogd RPCs sent.
  int64_t catalogd_designations = 0;
  int64_t catalogd_updates_sent = 0;
  // statestored HA: UpdateStatestoredRole RPCs sent, and activations.
  int64_t role_updates_sent = 0;
  int64_t activations = 0;
};

class Statestore {
 public:
  // With `metrics` (not owned; must outlive the broker) the broker records
  // update/heartbeat RPC latency and update-size histograms there
  // (statestore/statestore_web.h registers everything else).
  explicit Statestore(StatestoreOptions options, metrics::MetricRegistry* metrics = nullptr);
  ~Statestore();
  Statestore(const Statestore&) = delete;
  Statestore& operator=(const Statestore&) = delete;

  [[nodiscard]] Status Start();
  void Shutdown();

  // RegisterSubscriber RPC. Validates (protocol, id, address, topics, limit),
  // replaces an existing registration with the same id, and schedules the
  // first update and heartbeat. Errors are returned as a Status whose code
  // maps to the response's TStatus. `identity` is the registering peer's
  // verified certificate subject ("" without mTLS): a CATALOGD registration
  // must carry the configured catalogd identity, and re-registering an id
  // requires the identity that registered it.
  Result<impala::TUniqueId> RegisterSubscriber(const impala::TRegisterSubscriberRequest& req,
                                               const std::string& identity = "");

  // Extension RPC (TRequestTopicUpdateRequest). Plain: send the
  // registration an update now. With field 4: whether the registration's
  // populate_min topics get every change of their minimum pushed (false, the
  // default) or only with their other updates; with field 3 (topic ->
  // version): one update as soon as the topic's minimum reaches the version.
  // Fields 3 and 4 ask for no update now; topics the registration did not
  // subscribe with populate_min are ignored. With field 5: a publication the
  // registration pushes, written at once, all or none, under the rules of
  // a reply's publications, before fields 3 and 4 are taken (nothing else
  // is done if it is refused). With field 7, taken first: resends of
  // UpdateStateOneway updates the registration did not apply (all checked
  // before any is taken; statestore_oneway.cc). Fields 5 and 7 ask for no
  // other update. The peer must show the registration's
  // identity: `identity` is its verified certificate subject ("" without
  // mTLS) and field 6 its token. `topic_versions` (optional) receives each
  // written topic's version after the write. A registration the statestore
  // does not hold (it restarted, or dropped the subscriber) fails it before
  // anything is done, with `*registration_unknown` (optional) set: the
  // subscriber should register again.
  [[nodiscard]] Status RequestTopicUpdate(const impala::TRequestTopicUpdateRequest& req,
                                          const std::string& identity = "",
                                          std::map<std::string, int64_t>* topic_versions = nullptr,
                                          bool* registration_unknown = nullptr);

  // statestored HA: the latest activation version a subscriber reported
  // when it skipped one of our updates as coming from an older activation
  // (0: none).
  int64_t NewerActivationHeard() const;
  const impala::TUniqueId& statestore_id() const;

  // The catalogd this statestore designated active (catalogd HA), if any;
  // none while it is the standby.
  std::optional<ActiveCatalogd> active_catalogd() const;

  // statestored HA: the role (see StatestoreOptions::start_as_standby).
  // `version` (>= 1, growing with every activation of either statestore)
  // is sent as active_statestored_version; designations made while active
  // continue above every earlier one (catalogd_ha.h). Becoming the standby
  // forgets the designation. Idempotent per role.
  void SetActive(bool active, int64_t version);
  bool is_active() const;
  int64_t active_version() const;
  // The peer (active) statestore's designation, from its heartbeats
  // (`version` 0 when it sent none): this statestore's first designation
  // when it takes over names that catalogd, if it is a healthy candidate.
  void FollowPeerCatalogd(int64_t version, const std::string& host, int port);

  std::vector<SubscriberInfo> Subscribers() const;
  std::vector<TopicStats> Topics() const;
  StatestoreCounters Counters() const;
  // Minimum last processed version over the topic's subscribers (0 if none).
  int64_t MinSubscriberTopicVersion(const std::string& topic) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ics::statestore
