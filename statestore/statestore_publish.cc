// What subscribers publish: the publications a subscriber returns in its
// UpdateState reply, and those it pushes with RequestTopicUpdate field 5.
// Both go through the same check (the topic exists; with catalogd HA only
// the active catalogd writes the catalog topic; the writer policy) and the
// same write (clear, then the entries; transient entries owned by the
// registration), under the registration's publish lock so that a concurrent
// unregistration cannot leave transient entries behind.
#include <glog/logging.h>

#include "common/util/unique_id.h"
#include "statestore/statestore_impl.h"

namespace ics::statestore {

namespace {

bool Clears(const impala::TTopicDelta& pub) {
  return pub.__isset.clear_topic_entries && pub.clear_topic_entries;
}

}  // namespace

Status Statestore::Impl::CheckPublicationLocked(const SubscriberRecord& sub,
                                                const impala::TTopicDelta& pub,
                                                CheckedPublication* out) {
  out->topic = ledger_.Find(pub.topic_name);
  if (out->topic == nullptr) {
    return Status::NotFound("subscriber '" + sub.id + "' published to unknown topic '" +
                            pub.topic_name + "'");
  }
  auto st = sub.topics.find(pub.topic_name);
  out->transient = st != sub.topics.end() && st->second.is_transient;
  if (!Clears(pub) && pub.topic_entries.empty()) return Status::OK();
  if (!MayPublishLocked(sub, pub.topic_name)) {
    ++counters_.publications_refused;
    return Status::InvalidArgument("subscriber '" + sub.id + "' is not the active catalogd; its " +
                                   std::to_string(pub.topic_entries.size()) +
                                   " entries for topic '" + pub.topic_name + "' are refused");
  }
  if (!opts_.writers.MayWrite(pub.topic_name, sub.type, sub.identity)) {
    ++counters_.publications_refused;
    return Status::InvalidArgument("subscriber '" + sub.id + "' (identity '" + sub.identity +
                                   "') may not write topic '" + pub.topic_name + "': " +
                                   std::to_string(pub.topic_entries.size()) + " entries" +
                                   (Clears(pub) ? " and a clear" : "") + " refused");
  }
  return Status::OK();
}

bool Statestore::Impl::WritePublication(const SubscriberRecord& sub,
                                        const CheckedPublication& checked,
                                        const impala::TTopicDelta& pub) {
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
  checked.topic->Apply(std::move(writes), sub.registration_key, checked.transient, Now());
  return true;
}

void Statestore::Impl::ApplyReplyPublications(const SubPtr& sub,
                                              const std::vector<impala::TTopicDelta>& pubs,
                                              std::set<std::string>* changed,
                                              std::vector<std::pair<std::string, int64_t>>* resets) {
  MutexLock pl(&sub->publish_mu);
  for (const impala::TTopicDelta& pub : pubs) {
    CheckedPublication checked;
    Status s;
    {
      MutexLock l(&mu_);
      s = CheckPublicationLocked(*sub, pub, &checked);
    }
    if (!s.ok()) {
      // A reply cannot be answered: the delta is dropped, the rest applied.
      LOG_EVERY_N(WARNING, 100) << s.message() << "; ignored";
      continue;
    }
    if (sub->unregistered) {
      // The subscriber failed while this update was in flight. Its transient
      // entries would outlive it, so they are dropped; what it wrote to other
      // topics is kept, as Impala's statestore keeps it (IMPALA-7306), and
      // there is no next update whose base a reset would move.
      if (checked.transient) continue;
    } else if (pub.__isset.from_version) {
      resets->emplace_back(pub.topic_name, pub.from_version);
    }
    if (WritePublication(*sub, checked, pub)) changed->insert(pub.topic_name);
  }
}

Result<SubPtr> Statestore::Impl::AuthorizedRegistration(const impala::TUniqueId& registration_id,
                                                        const std::string& auth_token,
                                                        const std::string& peer_identity) {
  SubPtr sub;
  {
    MutexLock l(&mu_);
    if (!active_) return Status(ErrorCode::kRecoverableError, "this statestore is a standby");
    sub = registry_.FindRegistration(registration_id);
  }
  if (sub == nullptr) return Status::NotFound("unknown registration id " + PrintId(registration_id));
  // The registration id alone does not make the caller the registered
  // subscriber: it must present the identity that registered it.
  const Result<std::string> identity = opts_.tokens.Identify(sub->id, peer_identity, auth_token);
  if (!identity.ok()) return identity.status();
  if (*identity != sub->identity) {
    LOG_EVERY_N(WARNING, 100) << "a call for subscriber '" << sub->id << "' came from "
                              << "identity '" << *identity << "', not the registering one";
    return Status::InvalidArgument("the caller's identity is not the one that registered "
                                   "subscriber '" + sub->id + "'");
  }
  return sub;
}

Result<std::map<std::string, int64_t>> Statestore::Impl::Publish(
    const impala::TUniqueId& registration_id, const std::vector<impala::TTopicDelta>& pubs,
    const std::string& auth_token, const std::string& peer_identity) {
  Result<SubPtr> authorized = AuthorizedRegistration(registration_id, auth_token, peer_identity);
  if (!authorized.ok()) return authorized.status();
  const SubPtr sub = std::move(authorized).value();
  for (const impala::TTopicDelta& pub : pubs) {
    if (pub.__isset.from_version) {
      return Status::InvalidArgument("topic '" + pub.topic_name +
                                     "': from_version is only taken in an UpdateState reply");
    }
  }

  MutexLock pl(&sub->publish_mu);
  if (sub->unregistered) return Status::NotFound("subscriber '" + sub->id + "' is unregistered");
  std::vector<CheckedPublication> checked(pubs.size());
  {
    MutexLock l(&mu_);
    for (size_t i = 0; i < pubs.size(); ++i) {
      ICS_RETURN_IF_ERROR(CheckPublicationLocked(*sub, pubs[i], &checked[i]));
    }
  }
  std::map<std::string, int64_t> versions;
  std::set<std::string> changed;
  for (size_t i = 0; i < pubs.size(); ++i) {
    if (WritePublication(*sub, checked[i], pubs[i])) changed.insert(pubs[i].topic_name);
    versions[pubs[i].topic_name] = checked[i].topic->last_version();
  }
  MutexLock l(&mu_);
  for (const std::string& name : changed) ScheduleTopicSubscribersLocked(name);
  return versions;
}

}  // namespace ics::statestore
