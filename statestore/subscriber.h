// StatestoreSubscriber: the client side of the statestore protocol, linked by
// catalogd and by (simulated) coordinators.
//
// What it does: serves the StatestoreSubscriber Thrift service (UpdateState,
// Heartbeat, UpdateCatalogd, UpdateStatestoredRole, and UpdateStateOneway when
// accept_oneway_updates) on its own port, registers with the statestore
// for the topics added with AddTopic(), and hands every topic update to the topic's callback. The
// callback may append publications, which travel back to the statestore in the UpdateState reply
// (after a oneway update: pushed by RequestTopicUpdate, subscriber_oneway.cc).
// The subscriber keeps each topic's processed version: a delta that does not start at that version
// is not given to the callback; the reply asks the statestore for a new base instead. A background
// thread registers (retrying with capped exponential backoff while the statestore is unreachable),
// watches heartbeats (re-registering when none arrived for statestore_timeout_ms, or when requests
// come from a different statestore) and sends RequestTopicUpdate calls (coalesced). With
// subscribe_catalogd_change it follows the active catalogd the statestore designates (catalogd HA):
// announced in the registration reply and by UpdateCatalogd / UpdateStatestoredRole, kept by a
// CatalogdDesignationTracker (newest version wins), and handed to on_catalogd_change.
//
// Lifecycle: construct, AddTopic()..., Start(), ..., Stop(). Stop() is
// idempotent and run by the destructor. Resources per subscriber: one
// background thread, the RPC server (one thread per statestore connection)
// and a connection to the statestore that is opened only while there is
// something to send. No thread busy-waits.
//
// Ownership: the subscriber owns its server, thread and connection. Callbacks
// are owned by the subscriber and must stay valid until Stop() returns.
//
// Thread-safety: all methods may be called from any thread, except AddTopic,
// which must precede Start() (it is not synchronised with the RPC handlers).
// Callbacks run on RPC server threads, one at a time (an UpdateState that
// arrives while another is being processed is answered skipped=true; a
// oneway one waits). A
// callback that throws fails only that update: it is answered with an error
// status, the topic's processed version stays where it was (so the
// statestore sends the update again), and later updates are processed. A
// callback may call the accessors and RequestTopicUpdate(), but must not
// call Stop() (Stop waits for callbacks in progress) nor wait for a later
// update of the same subscriber. An UpdateState that arrives while our
// RegisterSubscriber call is in flight waits (at most 0.5 s) for its reply.
//
// Lock order: stop_mu_ -> publish_mu_ -> mu_; update_mu_ -> publish_mu_; update_mu_ -> mu_;
// catalogd_mu_ -> mu_. mu_ is terminal; no RPC is made and no callback is run with mu_ held
// (Publish() makes its RPC with publish_mu_ held, and nothing else).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "StatestoreService_types.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "common/util/status.h"
#include "statestore/catalogd_designation.h"
#include "statestore/statestore_activations.h"
#include "statestore/subscriber_options.h"

namespace impala {
class StatestoreServiceClient;
}

namespace ics::statestore {

class StatestoreSubscriber {
 public:
  explicit StatestoreSubscriber(StatestoreSubscriberOptions options);
  ~StatestoreSubscriber();
  StatestoreSubscriber(const StatestoreSubscriber&) = delete;
  StatestoreSubscriber& operator=(const StatestoreSubscriber&) = delete;

  // Subscribes to a topic. Only before Start(); a topic may be added once.
  [[nodiscard]] Status AddTopic(TopicSubscription subscription);

  // Binds and starts the callback server, then registers in the
  // background. Returns once the server is bound (not waiting for the
  // statestore, which may not be up yet).
  [[nodiscard]] Status Start() EXCLUDES(stop_mu_, mu_);

  // Stops the server and the background thread, waiting for callbacks in
  // progress. Idempotent.
  void Stop() EXCLUDES(stop_mu_, mu_);

  // Asks the statestore to send an update now, so publications the owner
  // has pending are collected promptly. Never blocks on the network: the
  // call is made by the background thread; requests made while one is
  // pending are merged. A no-op before registration (the first update
  // follows registration anyway).
  void RequestTopicUpdate() EXCLUDES(mu_);

  // Pushes publications to the statestore now, on the calling thread,
  // instead of returning them from a callback (RequestTopicUpdate field 5;
  // this project's statestore only): the statestore writes them and starts
  // the fan-out before it answers, which saves the round of an UpdateState
  // to this subscriber. Each delta names its topic; from_version is not
  // allowed (it belongs to a reply). All or nothing: an error means nothing
  // was written (not registered, stopped, the statestore refused a delta or
  // could not be reached within publish_timeout_ms; a stale kept
  // connection is retried once, and writing the same entries twice is
  // harmless). Returns each written topic's version after the write (at
  // least that of our last entry; WaitForMinSubscriberTopicVersion with it
  // waits until every subscriber has them). Calls are serialised on one
  // connection, kept open between calls. May be called from callbacks.
  [[nodiscard]] Result<std::map<std::string, int64_t>> Publish(
      std::vector<impala::TTopicDelta> deltas) EXCLUDES(publish_mu_, mu_);

  // Waits until registered. OK, TimedOut, or Shutdown when stopped.
  [[nodiscard]] Status WaitForRegistration(std::chrono::milliseconds timeout) EXCLUDES(mu_);
  // Waits until the topic's processed version is >= version.
  [[nodiscard]] Status WaitForTopicVersion(const std::string& topic, int64_t version,
                                           std::chrono::milliseconds timeout) EXCLUDES(mu_);
  // Waits until the statestore reported min_subscriber_topic_version >=
  // version (only for topics registered with
  // populate_min_subscriber_topic_version). For a min_version_on_request
  // topic, first asks the statestore (from the background thread) to send
  // the version when the minimum reaches it.
  [[nodiscard]] Status WaitForMinSubscriberTopicVersion(const std::string& topic, int64_t version,
                                                        std::chrono::milliseconds timeout)
      EXCLUDES(mu_);
  // For a min_version_on_request topic (a no-op otherwise): a wait for the
  // minimum is expected soon, for a version not known yet (SYNC_DDL, before
  // its statement runs). Asks the statestore, from the background thread,
  // for the minimum once it reaches the topic's next version: until then
  // the topic's updates are answered, so the coming wait does not need a
  // round of acknowledgements of updates sent oneway.
  void ExpectMinWait(const std::string& topic) EXCLUDES(mu_);

  // statestored HA: the activation version of this subscriber's statestore
  // as last announced (its registration reply, UpdateStatestoredRole, its
  // updates); 0 while it is a standby or said nothing.
  int64_t statestore_activation() const { return statestore_activation_.load(); }
  // The current registration (nullopt when not registered).
  std::optional<impala::TUniqueId> registration_id() const EXCLUDES(mu_);
  // The active catalogd last announced (nullopt before any announcement).
  std::optional<CatalogdDesignation> active_catalogd() const EXCLUDES(catalogd_mu_);
  // The statestore of the current or last registration.
  std::optional<impala::TUniqueId> statestore_id() const EXCLUDES(mu_);
  bool is_registered() const EXCLUDES(mu_);
  // Successful registrations so far (re-registrations included).
  int64_t num_registrations() const EXCLUDES(mu_);
  // The version of the topic processed last (0 before any; reset to 0 by a
  // re-registration).
  int64_t last_topic_version(const std::string& topic) const EXCLUDES(mu_);
  // The last min_subscriber_topic_version received (0 before any).
  int64_t min_subscriber_topic_version(const std::string& topic) const EXCLUDES(mu_);
  // Updates answered with an error because processing threw (a callback
  // exception); each left the processed versions unchanged.
  int64_t num_failed_updates() const { return callback_failures_.load(); }
  // The callback server's port (valid after Start).
  int port() const { return server_port_.load(); }
  const StatestoreSubscriberOptions& options() const { return options_; }

 private:
  class Handler;
  friend class Handler;
  using StatestoreClient = ThriftClient<impala::StatestoreServiceClient>;

  struct TopicState {
    int64_t version = 0;
    int64_t min_subscriber_version = 0;
  };

  // Asks for the minimum of a min_version_on_request `topic` once it
  // reaches `version` (sent by the background thread).
  void WantMinLocked(const std::string& topic, int64_t version) REQUIRES(mu_);

  // RPC entry points (called by Handler).
  void UpdateState(const impala::TUpdateStateRequest& req, impala::TUpdateStateResponse* resp)
      EXCLUDES(update_mu_, mu_);
  void Heartbeat(const impala::THeartbeatRequest& req, impala::THeartbeatResponse* resp)
      EXCLUDES(mu_);
  void UpdateCatalogd(const impala::TUpdateCatalogdRequest& req,
                      impala::TUpdateCatalogdResponse* resp) EXCLUDES(catalogd_mu_, mu_);
  void UpdateStatestoredRole(const impala::TUpdateStatestoredRoleRequest& req,
                             impala::TUpdateStatestoredRoleResponse* resp)
      EXCLUDES(catalogd_mu_, mu_);
  // Checks the ids of a catalogd announcement; OK, or why it is not ours.
  [[nodiscard]] Status CheckAnnouncementIds(const char* rpc,
                                            const impala::TUniqueId& registration_id,
                                            const impala::TUniqueId& statestore_id) EXCLUDES(mu_);
  // Takes in an announced designation and, if newer, tells the owner.
  [[nodiscard]] Status ObserveCatalogdLocked(int64_t version,
                                             const impala::TCatalogRegistration& reg)
      REQUIRES(catalogd_mu_) EXCLUDES(mu_);

  // Checks the ids a request carries against the current registration;
  // drops the registration (so the background thread registers again) when
  // the request comes from another statestore.
  [[nodiscard]] Status CheckRequestIds(const char* rpc, const impala::TUniqueId* registration_id,
                                       const impala::TUniqueId* statestore_id) REQUIRES(mu_);
  // UpdateStateLocked with any exception turned into a failed update
  // (FailUpdate); never throws.
  void ApplyUpdateLocked(const impala::TUpdateStateRequest& req, impala::TUpdateStateResponse* resp)
      REQUIRES(update_mu_) EXCLUDES(mu_);
  // UpdateState's work once update_mu_ is held; may throw (a callback may).
  void UpdateStateLocked(const impala::TUpdateStateRequest& req,
                         impala::TUpdateStateResponse* resp) REQUIRES(update_mu_) EXCLUDES(mu_);
  // Answers an update that threw with an error status (nothing applied).
  void FailUpdate(const std::string& what, impala::TUpdateStateResponse* resp);
  // Runs the callbacks for one accepted request (update_mu_ held).
  void ProcessUpdate(const impala::TUpdateStateRequest& req, int64_t generation,
                     impala::TUpdateStateResponse* resp) REQUIRES(update_mu_) EXCLUDES(mu_);

  // The background thread: registration, watchdog, topic update requests.
  void BackgroundLoop() EXCLUDES(mu_);
  [[nodiscard]] Status Register() EXCLUDES(mu_);
  // RequestTopicUpdate on `client` (client_, or publish_client_ for
  // Publish): a plain one (send an update now), with the on-request choice
  // and the minimum versions waited for, or with publications. OK when the
  // statestore answered OK; `resp` (optional) receives its answer.
  // `timeout_ms` 0: request_update_timeout_ms.
  [[nodiscard]] Status SendRequestTopicUpdate(StatestoreClient* client,
                                              impala::TRequestTopicUpdateRequest req,
                                              impala::TRequestTopicUpdateResponse* resp = nullptr,
                                              int timeout_ms = 0) EXCLUDES(mu_);
  // RequestTopicUpdate on publish_client_ (serialised by publish_mu_) as the
  // current registration, with its token; fails when not registered, or
  // when `only_for` is set and is not the current registration.
  [[nodiscard]] Status SendAsRegistered(impala::TRequestTopicUpdateRequest req,
                                        const impala::TUniqueId* only_for,
                                        impala::TRequestTopicUpdateResponse* resp = nullptr)
      EXCLUDES(publish_mu_, mu_);
  // UpdateStateOneway: applies the request like UpdateState (waiting for
  // update_mu_ instead of skipping), then sends what a reply would have
  // carried: publications, and a resend for each topic it did not advance
  // to the delta's to_version.
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) EXCLUDES(update_mu_, mu_);
  // Whether a populate_min subscription takes the minimum on request.
  bool AnyMinOnRequest() const;
  // Runs one RPC on `client` (client_ or publish_client_); retries once
  // when a kept connection was stale. Instantiated where the service's
  // client type is complete.
  template <typename Fn>
  [[nodiscard]] static Status CallStatestore(StatestoreClient* client, const char* rpc,
                                             int timeout_ms, Fn&& fn) {
    ThriftConnection& conn = client->connection();
    conn.SetRecvTimeout(timeout_ms);
    const bool was_open = conn.is_open();
    Status s = client->Call(rpc, fn);
    // A kept connection may have been closed by the statestore meanwhile.
    if (!s.ok() && was_open && s.Is(ErrorCode::kNetworkError)) s = client->Call(rpc, fn);
    return s;
  }
  std::string AdvertisedHost() const;

  // Constant after construction.
  const StatestoreSubscriberOptions options_;
  std::atomic<int64_t> statestore_activation_{0};

  // Written by AddTopic before Start(), read-only afterwards.
  std::map<std::string, TopicSubscription> subscriptions_;

  // Serialises Start/Stop. Acquired before mu_.
  Mutex stop_mu_ ACQUIRED_BEFORE(mu_);
  std::unique_ptr<ThriftServer> server_ GUARDED_BY(stop_mu_);
  std::thread thread_ GUARDED_BY(stop_mu_);
  std::atomic<int> server_port_{0};  // set by Start()
  std::atomic<int64_t> callback_failures_{0};

  // Used by the background thread only (and Interrupt() from Stop while
  // in_rpc_). Created in Start().
  std::unique_ptr<StatestoreClient> client_;

  // Serialises Publish() calls; held during the RPC (Stop() interrupts it,
  // then waits for it). The client is created in Start() (before started_
  // is set) and kept until destruction; Stop() interrupts it unlocked.
  Mutex publish_mu_ ACQUIRED_BEFORE(mu_);
  std::unique_ptr<StatestoreClient> publish_client_;

  // Serialises catalogd announcements and on_catalogd_change calls.
  mutable Mutex catalogd_mu_ ACQUIRED_BEFORE(mu_);
  CatalogdDesignationTracker catalogd_ GUARDED_BY(catalogd_mu_);

  // Held while an UpdateState is processed (callbacks run under it).
  Mutex update_mu_ ACQUIRED_BEFORE(mu_);

  mutable Mutex mu_;
  CondVar bg_cv_;     // work for the background thread: stop, register, update request
  CondVar state_cv_;  // registration, versions, stop, thread exit (for waiters)
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool thread_done_ GUARDED_BY(mu_) = false;
  bool in_rpc_ GUARDED_BY(mu_) = false;       // background thread is inside an RPC
  bool registering_ GUARDED_BY(mu_) = false;  // a RegisterSubscriber call is in flight
  bool update_requested_ GUARDED_BY(mu_) = false;
  // Minimum versions on request: the choice is still to be sent for this
  // registration; versions waited for (topic -> version) and whether some
  // are not sent yet.
  bool min_on_request_pending_ GUARDED_BY(mu_) = false;
  std::map<std::string, int64_t> min_wanted_ GUARDED_BY(mu_);
  bool min_wanted_pending_ GUARDED_BY(mu_) = false;
  // Unset until registered, and again once the statestore is considered
  // lost (which makes the background thread register again).
  std::optional<impala::TUniqueId> registration_id_ GUARDED_BY(mu_);
  std::optional<impala::TUniqueId> statestore_id_ GUARDED_BY(mu_);
  int64_t num_registrations_ GUARDED_BY(mu_) = 0;  // also the registration generation
  std::chrono::steady_clock::time_point last_heartbeat_ GUARDED_BY(mu_);
  std::map<std::string, TopicState> topics_ GUARDED_BY(mu_);
};

}  // namespace ics::statestore
