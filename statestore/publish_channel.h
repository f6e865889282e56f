// PublishChannel: the subscriber's outbound path for what it has to say to
// the statestore on its own initiative, outside an UpdateState reply:
// publications pushed with Publish() (RequestTopicUpdate field 5; this
// project's statestore only), and the answer to a oneway update
// (publications and resends, fields 5 and 7; UpdateDelivery builds it). Both
// go as the current registration, with its token, on one connection kept
// open between calls.
//
// Owns: that connection's client (created by Start(), kept until
// destruction) and the lock that serialises the calls on it.
//
// Thread-safety: Publish and SendAsRegistered are thread-safe and may be
// called from callbacks; calls are serialised, and the lock is held during
// the RPC (Stop() interrupts it, then waits for it). Start, Stop and Close
// are called by the owner's Start/Stop only (serialised by its stop lock).
// Lock order: PublishChannel's lock -> SubscriberSession's lock; with
// StatestoreSubscriber's stop lock and UpdateDelivery's lock taken before
// it. Nothing else is done with it held.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "StatestoreService_types.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "common/util/status.h"
#include "statestore/subscriber_options.h"
#include "statestore/subscriber_rpc.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

class PublishChannel {
 public:
  // `options` and `session` must outlive the channel.
  PublishChannel(const StatestoreSubscriberOptions* options, SubscriberSession* session);
  ~PublishChannel();

  // Creates the client; before the session is marked started.
  void Start();
  // Interrupts a call in progress and waits for it to leave; later calls
  // fail at the session's stopping check.
  void Stop() EXCLUDES(mu_);
  // Closes the connection (after the RPC server stopped).
  void Close();

  // StatestoreSubscriber::Publish.
  [[nodiscard]] Result<std::map<std::string, int64_t>> Publish(
      std::vector<impala::TTopicDelta> deltas) EXCLUDES(mu_);

  // RequestTopicUpdate as the current registration, with its token; fails
  // when not registered, or when `only_for` is set and is not the current
  // registration. Publications only: the short publish_timeout_ms; with
  // resends: request_update_timeout_ms.
  [[nodiscard]] Status SendAsRegistered(impala::TRequestTopicUpdateRequest req,
                                        const impala::TUniqueId* only_for,
                                        impala::TRequestTopicUpdateResponse* resp = nullptr)
      EXCLUDES(mu_);

  // The channel's lock, only for the lock-order annotations of the locks
  // taken before it (ACQUIRED_BEFORE); nobody else locks it.
  Mutex* mutex() const RETURN_CAPABILITY(mu_) { return &mu_; }

 private:
  const StatestoreSubscriberOptions& options_;
  SubscriberSession* const session_;

  // Serialises calls; held during the RPC. Acquired before the session's
  // lock.
  mutable Mutex mu_ ACQUIRED_BEFORE(session_->mutex());
  // Created by Start() (before the session is started, which every call
  // checks first); Stop() interrupts it unlocked.
  std::unique_ptr<StatestoreClient> client_;
};

}  // namespace ics::statestore
