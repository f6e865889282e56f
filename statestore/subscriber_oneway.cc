// StatestoreSubscriber::UpdateStateOneway: a topic update without a reply
// (this project's statestore, for subscribers registered with
// accepts_oneway_updates). See subscriber.h.
//
// The update is applied exactly as UpdateState applies it. The statestore
// has already counted it as delivered, so whatever the reply would have
// said goes back by RequestTopicUpdate, and only then:
//  * publications the callbacks made (field 5; a from_version in them is a
//    base reset, which field 7 carries);
//  * for each topic whose processed version is not the delta's to_version
//    afterwards (the delta did not start at our version, a callback failed,
//    a callback asked for a new base): where to send from next (field 7).
// If that call fails, the publications are lost as a lost reply's are, and
// the topics' on_reply_lost hooks run; a resend not taken is asked for
// again when the next delta does not start at our version.
#include <glog/logging.h>

#include "StatestoreService.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

using impala::TTopicDelta;

void StatestoreSubscriber::UpdateStateOneway(const impala::TUpdateStateRequest& req) {
  impala::TUpdateStateResponse resp;
  resp.status.status_code = impala::TErrorCode::OK;
  {
    // No reply to skip with: wait for an update in progress (on another
    // connection) instead.
    MutexLock u(&update_mu_);
    ApplyUpdateLocked(req, &resp);
  }
  if (!req.__isset.registration_id) return;  // not ours to answer
  // Skipped as stale (a later statestored activation): nothing to answer to
  // a statestore that is no longer the active one.
  if (resp.__isset.newer_statestored_version) return;
  impala::TRequestTopicUpdateRequest answer;
  {
    MutexLock l(&mu_);
    // An update for another registration (or one that ended meanwhile)
    // changed nothing here; the statestore that sent it has no use for an
    // answer.
    if (stopping_ || !registration_id_.has_value() || req.registration_id != *registration_id_) {
      return;
    }
    for (const auto& [name, delta] : req.topic_deltas) {
      auto t = topics_.find(name);
      if (t == topics_.end() || !delta.__isset.to_version) continue;
      if (t->second.version == delta.to_version) continue;
      impala::TTopicResend r;
      r.topic_name = name;
      r.from_version = t->second.version;
      r.rejected_to_version = delta.to_version;
      answer.resend_from.push_back(std::move(r));
    }
  }
  for (TTopicDelta& pub : resp.topic_updates) {
    const bool clears = pub.__isset.clear_topic_entries && pub.clear_topic_entries;
    if (pub.__isset.from_version) {
      // The base reset it asked for is in resend_from already.
      pub.__isset.from_version = false;
      if (pub.topic_entries.empty() && !clears) continue;
    }
    answer.topic_updates.push_back(std::move(pub));
  }
  answer.__isset.resend_from = !answer.resend_from.empty();
  answer.__isset.topic_updates = !answer.topic_updates.empty();
  if (!answer.__isset.resend_from && !answer.__isset.topic_updates) return;
  const bool published = answer.__isset.topic_updates;
  const Status s = SendAsRegistered(std::move(answer), &req.registration_id);
  if (s.ok()) return;
  LOG_EVERY_N(WARNING, 100) << options_.subscriber_id
                            << ": could not answer a oneway topic update: " << s.ToString();
  if (!published) return;
  for (const auto& [name, delta] : req.topic_deltas) {
    auto sub = subscriptions_.find(name);
    if (sub != subscriptions_.end() && sub->second.on_reply_lost) sub->second.on_reply_lost();
  }
}

}  // namespace ics::statestore
