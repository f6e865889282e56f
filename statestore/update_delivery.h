// UpdateDelivery: hands the statestore's topic updates to the topics'
// callbacks, and says what the reply says.
//
// An update (UpdateState, or UpdateStateOneway from a statestore that sends
// updates without a reply) is applied only when the session admits it: our
// registration and statestore, not stopping, not from a statestore
// activation older than one heard of (StatestoreActivations). Then, per
// topic: a delta that does not start at the processed version is not given
// to the callback; the reply asks for a new base instead (and the topic's
// on_reply_lost runs: our previous reply was lost). Otherwise the callback
// runs; its publications go into the reply, and the topic's processed
// version becomes the delta's to_version (or a publication's from_version,
// the base reset it asks for). The new versions and the minimum versions
// received are committed to the session unless a registration came
// meanwhile. An exception from processing fails only that update: it is
// answered with an error status, no version moves (so the statestore sends
// it again), and it is counted (num_failed_updates()).
//
// A oneway update is applied exactly the same way. The statestore has
// already counted it as delivered, so whatever the reply would have said
// goes back through PublishChannel (RequestTopicUpdate), and only then:
//  * publications the callbacks made (field 5; a from_version in them is a
//    base reset, which field 7 carries);
//  * for each topic whose processed version is not the delta's to_version
//    afterwards (the delta did not start at our version, a callback failed,
//    a callback asked for a new base): where to send from next (field 7).
// If that call fails, the publications are lost as a lost reply's are, and
// the topics' on_reply_lost hooks run; a resend not taken is asked for
// again when the next delta does not start at our version.
//
// Owns: the update lock (callbacks run under it, one update at a time) and
// the failure count. The subscriptions belong to StatestoreSubscriber.
//
// Thread-safety: thread-safe; called on RPC server threads. An UpdateState
// that arrives while another update is applied is answered skipped=true; a
// oneway one waits. Lock order: the update lock -> PublishChannel's lock ->
// SubscriberSession's lock. The session's lock is never held while a
// callback runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

#include "StatestoreService_types.h"
#include "common/util/mutex.h"
#include "statestore/publish_channel.h"
#include "statestore/subscriber_options.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

class RoleFollower;

class UpdateDelivery {
 public:
  using Subscriptions = std::map<std::string, TopicSubscription>;

  // Every argument must outlive the delivery; `subscriptions` does not
  // change once updates may arrive (StatestoreSubscriber::Start).
  UpdateDelivery(const StatestoreSubscriberOptions* options, const Subscriptions* subscriptions,
                 SubscriberSession* session, RoleFollower* roles, PublishChannel* publisher);

  // The RPC handlers.
  void UpdateState(const impala::TUpdateStateRequest& req, impala::TUpdateStateResponse* resp)
      EXCLUDES(mu_);
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) EXCLUDES(mu_);

  // Updates answered with an error because processing threw.
  int64_t num_failed_updates() const { return failures_.load(); }

 private:
  // ApplyChecked with any exception turned into a failed update (Fail);
  // never throws.
  void Apply(const impala::TUpdateStateRequest& req, impala::TUpdateStateResponse* resp)
      REQUIRES(mu_);
  // The admission checks, then Process; may throw (a callback may).
  void ApplyChecked(const impala::TUpdateStateRequest& req, impala::TUpdateStateResponse* resp)
      REQUIRES(mu_);
  // Answers an update that threw with an error status (nothing applied).
  void Fail(const std::string& what, impala::TUpdateStateResponse* resp);
  // Runs the callbacks for one admitted request.
  void Process(const impala::TUpdateStateRequest& req, int64_t generation,
               impala::TUpdateStateResponse* resp) REQUIRES(mu_);

  const StatestoreSubscriberOptions& options_;
  const Subscriptions& subscriptions_;
  SubscriberSession* const session_;
  RoleFollower* const roles_;
  PublishChannel* const publisher_;

  // Held while an update is applied (callbacks run under it). Acquired
  // before PublishChannel's and the session's locks.
  Mutex mu_ ACQUIRED_BEFORE(publisher_->mutex(), session_->mutex());
  std::atomic<int64_t> failures_{0};
};

}  // namespace ics::statestore
