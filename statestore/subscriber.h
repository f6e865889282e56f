// StatestoreSubscriber: the client side of the statestore protocol, linked by
// catalogd and by (simulated) coordinators.
//
// What it does: serves the StatestoreSubscriber Thrift service (UpdateState,
// Heartbeat, UpdateCatalogd, UpdateStatestoredRole, and UpdateStateOneway when
// accept_oneway_updates) on its own port, registers with the statestore
// for the topics added with AddTopic(), and hands every topic update to the topic's callback. The
// callback may append publications, which travel back to the statestore in the UpdateState reply
// (after a oneway update: pushed by RequestTopicUpdate).
// The subscriber keeps each topic's processed version: a delta that does not start at that version
// is not given to the callback; the reply asks the statestore for a new base instead. A background
// thread registers (retrying with capped exponential backoff while the statestore is unreachable),
// watches heartbeats (re-registering when none arrived for statestore_timeout_ms, or when requests
// come from a different statestore) and sends RequestTopicUpdate calls (coalesced). With
// subscribe_catalogd_change it follows the active catalogd the statestore designates (catalogd HA):
// announced in the registration reply and by UpdateCatalogd / UpdateStatestoredRole, kept by a
// CatalogdDesignationTracker (newest version wins), and handed to on_catalogd_change.
//
// Its components (one header each, with its own contract):
//  * SubscriberSession (subscriber_session.h): the registration as every
//    thread sees it, the topics' processed versions (ProcessedVersions,
//    processed_versions.h), the background thread's pending work; the one
//    terminal lock over them, and the waits.
//  * UpdateDelivery (update_delivery.h): UpdateState and UpdateStateOneway:
//    topic updates to the callbacks, the reply (or the answer to a oneway
//    update), callback failures.
//  * RegistrationLoop (registration_loop.h): the background thread:
//    registration with backoff, the heartbeat watch, RequestTopicUpdate
//    calls.
//  * PublishChannel (publish_channel.h): Publish() and the answers to oneway
//    updates, on a kept connection.
//  * RoleFollower (role_follower.h): the designated catalogd and the
//    statestore's activation as announced.
//  * subscriber_rpc.h: the calls to the statestore the last three share.
// This class composes them: it owns the options, the subscriptions and the
// RPC server (whose handler hands each RPC to its component), and runs
// Start and Stop.
//
// Lifecycle: construct, AddTopic()..., Start(), ..., Stop(). Stop() is
// idempotent and run by the destructor. Resources per subscriber: one
// background thread, the RPC server (one thread per statestore connection)
// and a connection to the statestore that is opened only while there is
// something to send (plus the one Publish() keeps). No thread busy-waits.
//
// Ownership: the subscriber owns its server, thread and connections. Callbacks
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
// Lock order: stop_mu_ -> PublishChannel -> SubscriberSession;
// UpdateDelivery -> PublishChannel -> SubscriberSession; RoleFollower ->
// SubscriberSession. The session's lock is terminal; no RPC is made and no
// callback is run with it held (Publish() makes its RPC with
// PublishChannel's lock held, and nothing else).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "StatestoreService_types.h"
#include "common/rpc/thrift_server.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "common/util/status.h"
#include "statestore/catalogd_designation.h"
#include "statestore/publish_channel.h"
#include "statestore/registration_loop.h"
#include "statestore/role_follower.h"
#include "statestore/subscriber_options.h"
#include "statestore/subscriber_session.h"
#include "statestore/update_delivery.h"

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
  [[nodiscard]] Status Start() EXCLUDES(stop_mu_);

  // Stops the server and the background thread, waiting for callbacks in
  // progress. Idempotent.
  void Stop() EXCLUDES(stop_mu_);

  // Asks the statestore to send an update now, so publications the owner
  // has pending are collected promptly. Never blocks on the network: the
  // call is made by the background thread; requests made while one is
  // pending are merged. A no-op before registration (the first update
  // follows registration anyway).
  void RequestTopicUpdate();

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
      std::vector<impala::TTopicDelta> deltas);

  // Waits until registered. OK, TimedOut, or Shutdown when stopped.
  [[nodiscard]] Status WaitForRegistration(std::chrono::milliseconds timeout);
  // Waits until the topic's processed version is >= version.
  [[nodiscard]] Status WaitForTopicVersion(const std::string& topic, int64_t version,
                                           std::chrono::milliseconds timeout);
  // Waits until the statestore reported min_subscriber_topic_version >=
  // version (only for topics registered with
  // populate_min_subscriber_topic_version). For a min_version_on_request
  // topic, first asks the statestore (from the background thread) to send
  // the version when the minimum reaches it.
  [[nodiscard]] Status WaitForMinSubscriberTopicVersion(const std::string& topic, int64_t version,
                                                        std::chrono::milliseconds timeout);
  // For a min_version_on_request topic (a no-op otherwise): a wait for the
  // minimum is expected soon, for a version not known yet (SYNC_DDL, before
  // its statement runs). Asks the statestore, from the background thread,
  // for the minimum once it reaches the topic's next version: until then
  // the topic's updates are answered, so the coming wait does not need a
  // round of acknowledgements of updates sent oneway.
  void ExpectMinWait(const std::string& topic);

  // statestored HA: the activation version of this subscriber's statestore
  // as last announced (its registration reply, UpdateStatestoredRole, its
  // updates); 0 while it is a standby or said nothing.
  int64_t statestore_activation() const { return roles_.statestore_activation(); }
  // The current registration (nullopt when not registered).
  std::optional<impala::TUniqueId> registration_id() const;
  // The active catalogd last announced (nullopt before any announcement).
  std::optional<CatalogdDesignation> active_catalogd() const;
  // The statestore of the current or last registration.
  std::optional<impala::TUniqueId> statestore_id() const;
  bool is_registered() const;
  // Successful registrations so far (re-registrations included).
  int64_t num_registrations() const;
  // The version of the topic processed last (0 before any; reset to 0 by a
  // re-registration).
  int64_t last_topic_version(const std::string& topic) const;
  // The last min_subscriber_topic_version received (0 before any).
  int64_t min_subscriber_topic_version(const std::string& topic) const;
  // Updates answered with an error because processing threw (a callback
  // exception); each left the processed versions unchanged.
  int64_t num_failed_updates() const { return delivery_.num_failed_updates(); }
  // The callback server's port (valid after Start).
  int port() const { return server_port_.load(); }
  const StatestoreSubscriberOptions& options() const { return options_; }

 private:
  class Handler;

  // Constant after construction.
  const StatestoreSubscriberOptions options_;
  // Written by AddTopic before Start(), read-only afterwards.
  std::map<std::string, TopicSubscription> subscriptions_;

  // The components (see the top of this file); each refers to those above
  // it, and to options_ and subscriptions_.
  SubscriberSession session_{&options_};
  RoleFollower roles_{&options_, &session_};
  PublishChannel publisher_{&options_, &session_};
  UpdateDelivery delivery_{&options_, &subscriptions_, &session_, &roles_, &publisher_};
  RegistrationLoop loop_{&options_, &subscriptions_, &session_, &roles_};

  // Serialises Start/Stop.
  Mutex stop_mu_ ACQUIRED_BEFORE(publisher_.mutex(), session_.mutex());
  std::unique_ptr<ThriftServer> server_ GUARDED_BY(stop_mu_);
  std::atomic<int> server_port_{0};  // set by Start()
};

}  // namespace ics::statestore
