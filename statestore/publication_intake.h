// PublicationIntake: what subscribers publish, taken the same way by both
// routes: the publications in an UpdateState reply, and those pushed with
// RequestTopicUpdate field 5. One check and one write serve both.
//
// The check: the topic exists; with catalogd HA on, only the designated
// active catalogd writes the catalog topic; the writer policy
// (topic_writers.h) lets the registration's type and identity write it. A
// delta that writes nothing (no entries, no clear) needs only the topic.
// The write: a clear first if asked, then the entries; entries of a topic
// the registration subscribed to as transient are owned by it (its
// registration key) and become tombstones when it ends.
//
// Owns: the count of refused publications (the publications_refused
// counter); the writer policy it reads belongs to the statestore's options.
//
// Thread-safety: none of its own. Check() takes what it needs from the
// broker's state (the topic, the HA verdict) as arguments read under the
// broker lock, and its owner (Statestore::Impl) keeps the intake as a member
// guarded by that lock. Write() is static and runs without the broker lock:
// the caller holds the registration's publish_mu, so that an unregistration
// cannot leave transient entries behind; it takes only the topic's own
// (terminal) lock.
#pragma once

#include <cstdint>

#include "common/util/result.h"
#include "statestore/subscriber_record.h"
#include "statestore/topic.h"
#include "statestore/topic_writers.h"

namespace ics::statestore {

// A publication that passed PublicationIntake::Check: where it goes.
struct CheckedPublication {
  Topic* topic = nullptr;
  bool transient = false;  // the registration subscribed to the topic as transient
};

class PublicationIntake {
 public:
  // `writers` must outlive the intake.
  explicit PublicationIntake(const TopicWriterPolicy* writers) : writers_(writers) {}

  // Whether `sub` may write `pub` now. `topic`: the broker's topic of that
  // name (null: unknown, refused). `may_write_catalog`: the catalogd HA
  // rule's verdict for `sub` (it only matters for the catalog topic). A
  // refusal of a delta that writes something is counted in refused().
  [[nodiscard]] Result<CheckedPublication> Check(const SubscriberRecord& sub,
                                                 const impala::TTopicDelta& pub, Topic* topic,
                                                 bool may_write_catalog);

  // Writes a checked publication; true if the topic changed.
  static bool Write(const SubscriberRecord& sub, const CheckedPublication& checked,
                    const impala::TTopicDelta& pub, SteadyTime now);

  int64_t refused() const { return refused_; }

 private:
  const TopicWriterPolicy* const writers_;
  int64_t refused_ = 0;
};

}  // namespace ics::statestore
