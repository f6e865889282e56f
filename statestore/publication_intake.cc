#include "statestore/publication_intake.h"

#include <string>
#include <utility>
#include <vector>

namespace ics::statestore {

namespace {

bool Clears(const impala::TTopicDelta& pub) {
  return pub.__isset.clear_topic_entries && pub.clear_topic_entries;
}

}  // namespace

Result<CheckedPublication> PublicationIntake::Check(const SubscriberRecord& sub,
                                                    const impala::TTopicDelta& pub, Topic* topic,
                                                    bool may_write_catalog) {
  if (topic == nullptr) {
    return Status::NotFound("subscriber '" + sub.id + "' published to unknown topic '" +
                            pub.topic_name + "'");
  }
  CheckedPublication out;
  out.topic = topic;
  auto st = sub.topics.find(pub.topic_name);
  out.transient = st != sub.topics.end() && st->second.is_transient;
  if (!Clears(pub) && pub.topic_entries.empty()) return out;
  if (!may_write_catalog) {
    ++refused_;
    return Status::InvalidArgument("subscriber '" + sub.id + "' is not the active catalogd; its " +
                                   std::to_string(pub.topic_entries.size()) +
                                   " entries for topic '" + pub.topic_name + "' are refused");
  }
  if (!writers_->MayWrite(pub.topic_name, sub.type, sub.identity)) {
    ++refused_;
    return Status::InvalidArgument("subscriber '" + sub.id + "' (identity '" + sub.identity +
                                   "') may not write topic '" + pub.topic_name +
                                   "': " + std::to_string(pub.topic_entries.size()) + " entries" +
                                   (Clears(pub) ? " and a clear" : "") + " refused");
  }
  return out;
}

bool PublicationIntake::Write(const SubscriberRecord& sub, const CheckedPublication& checked,
                              const impala::TTopicDelta& pub, SteadyTime now) {
  bool changed = false;
  if (Clears(pub)) {
    checked.topic->ClearAll();
    changed = true;
  }
  if (pub.topic_entries.empty()) return changed;
  std::vector<TopicWrite> writes;
  writes.reserve(pub.topic_entries.size());
  for (const impala::TTopicItem& item : pub.topic_entries) {
    writes.push_back(TopicWrite{item.key, item.value, item.deleted});
  }
  checked.topic->Apply(std::move(writes), sub.registration_key, checked.transient, now);
  return true;
}

}  // namespace ics::statestore
