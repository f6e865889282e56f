// Updates without a reply (UpdateStateOneway) to the subscribers that accept
// them, and the resends they ask for when one could not be applied.
//
// An UpdateState reply costs the subscriber a send and the statestore a
// receive for every delivery; for topics whose minimum nobody reads now, the
// reply only confirms what the statestore can assume of a subscriber that
// reads its connection in order. So such updates go oneway and are booked
// as sent once written: the base of the next delta moves, the acknowledged
// version the minimum counts does not (topic_ledger.h). What a
// reply would have carried comes back by RequestTopicUpdate instead:
// publications (field 5) and, for a delta the subscriber did not apply, the
// version to send from (field 7). A lost
// oneway update (its connection broke) shows at the subscriber as the next
// delta not starting at its processed version, at the latest with the next
// periodic update, and is resent the same way.
#include <glog/logging.h>

#include "statestore/statestore_impl.h"

namespace ics::statestore {

bool Statestore::Impl::TakesOnewayLocked(const UpdateRun& run) const {
  const SubscriberRecord& sub = *run.sub;
  // The first update of a registration, and any after a failure, wait for
  // a reply: it shows the subscriber knows its registration and answers.
  return sub.accepts_oneway && sub.updates_sent > 0 && run.lane == JobLane::kHealthy &&
         !sub.answer_next_update;
}

void Statestore::Impl::BookOnewayLocked(const std::vector<UpdateRun*>& runs) {
  for (UpdateRun* run : runs) {
    SubscriberRecord* sub = run->sub.get();
    // Not an answer: the update slot's record (answered, in the healthy
    // lane, or the update would not have gone oneway) stays as it was.
    ++counters_.updates_sent;
    ++counters_.oneway_updates_sent;
    if (!sub->unregistered) {
      ++sub->updates_sent;
      bool min_read = false;
      for (const TopicPlan& p : run->plan) {
        min_read = ledger_.SetSentVersion(sub, p.name, p.delta->to_version) || min_read;
      }
      // Someone started reading a topic's minimum while this update was on
      // its way: the next update, answered, acknowledges it.
      if (min_read) ScheduleUpdateLocked(run->sub);
    }
    EndUpdateJobLocked(*run);
  }
}

Status Statestore::Impl::ResendFrom(const impala::TUniqueId& registration_id,
                                    const std::vector<impala::TTopicResend>& resends,
                                    const std::string& auth_token,
                                    const std::string& peer_identity) {
  Result<SubPtr> authorized = AuthorizedRegistration(registration_id, auth_token, peer_identity);
  if (!authorized.ok()) return authorized.status();
  const SubPtr sub = std::move(authorized).value();
  MutexLock l(&mu_);
  // Checked in full first: a refused list changes nothing.
  for (const impala::TTopicResend& r : resends) {
    if (sub->topics.count(r.topic_name) == 0) {
      return Status::InvalidArgument("subscriber '" + sub->id + "' asked for a resend of topic '" +
                                     r.topic_name + "', which it did not register");
    }
    if (r.from_version < 0 || r.from_version > r.rejected_to_version) {
      return Status::InvalidArgument(
          "subscriber '" + sub->id + "' asked for a resend of topic '" + r.topic_name +
          "' from version " + std::to_string(r.from_version) + " after rejecting version " +
          std::to_string(r.rejected_to_version) + " (it must be in [0, the rejected version])");
    }
  }
  bool reset = false;
  bool stale_in_flight = false;
  for (const impala::TTopicResend& r : resends) {
    // Only the rejection of the last update sent counts: updates sent after
    // an older one were built on the same wrong base and are rejected too.
    if (sub->unregistered) break;
    if (sub->topics[r.topic_name].last_version != r.rejected_to_version) {
      // The rejected update may be the one still being booked (the answer
      // overtook its worker): the next update, at once, brings the same
      // rejection back when it can be taken.
      stale_in_flight = stale_in_flight || sub->update.in_flight;
      continue;
    }
    ledger_.SetVersion(sub.get(), r.topic_name, r.from_version);
    sub->answer_next_update = true;
    ++counters_.oneway_resends;
    reset = true;
  }
  if (reset || stale_in_flight) ScheduleUpdateLocked(sub);
  // A lower base may have lowered the topic's minimum.
  if (reset) PushMinChangesLocked();
  return Status::OK();
}

}  // namespace ics::statestore
