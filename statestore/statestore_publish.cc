// The two routes of what subscribers publish into the intake
// (publication_intake.h): the publications a subscriber returns in its
// UpdateState reply, and those it pushes with RequestTopicUpdate field 5.
// Both are checked under the broker lock and written without it, under the
// registration's publish lock so that a concurrent unregistration cannot
// leave transient entries behind (lock order: publish_mu -> broker lock).
#include <glog/logging.h>

#include "common/util/unique_id.h"
#include "statestore/statestore_impl.h"

namespace ics::statestore {

void Statestore::Impl::ApplyReplyPublications(const SubPtr& sub,
                                              const std::vector<impala::TTopicDelta>& pubs,
                                              std::set<std::string>* changed,
                                              std::vector<std::pair<std::string, int64_t>>* resets) {
  MutexLock pl(&sub->publish_mu);
  for (const impala::TTopicDelta& pub : pubs) {
    Result<CheckedPublication> result = CheckPublication(*sub, pub);
    if (!result.ok()) {
      // A reply cannot be answered: the delta is dropped, the rest applied.
      LOG_EVERY_N(WARNING, 100) << result.status().message() << "; ignored";
      continue;
    }
    const CheckedPublication& checked = result.value();
    if (sub->unregistered) {
      // The subscriber failed while this update was in flight. Its transient
      // entries would outlive it, so they are dropped; what it wrote to other
      // topics is kept, as Impala's statestore keeps it (IMPALA-7306), and
      // there is no next update whose base a reset would move.
      if (checked.transient) continue;
    } else if (pub.__isset.from_version) {
      resets->emplace_back(pub.topic_name, pub.from_version);
    }
    if (PublicationIntake::Write(*sub, checked, pub, Now())) changed->insert(pub.topic_name);
  }
}

Result<SubPtr> Statestore::Impl::AuthorizedRegistration(const impala::TUniqueId& registration_id,
                                                        const std::string& auth_token,
                                                        const std::string& peer_identity) {
  SubPtr sub;
  {
    MutexLock l(&mu_);
    if (!role_.active())
      return Status(ErrorCode::kRecoverableError, "this statestore is a standby");
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
  std::vector<CheckedPublication> checked;
  checked.reserve(pubs.size());
  {
    MutexLock l(&mu_);
    for (const impala::TTopicDelta& pub : pubs) {
      ICS_ASSIGN_OR_RETURN(CheckedPublication c, CheckPublicationLocked(*sub, pub));
      checked.push_back(c);
    }
  }
  std::map<std::string, int64_t> versions;
  std::set<std::string> changed;
  for (size_t i = 0; i < pubs.size(); ++i) {
    if (PublicationIntake::Write(*sub, checked[i], pubs[i], Now())) {
      changed.insert(pubs[i].topic_name);
    }
    versions[pubs[i].topic_name] = checked[i].topic->last_version();
  }
  MutexLock l(&mu_);
  for (const std::string& name : changed) ScheduleTopicSubscribersLocked(name);
  return versions;
}

}  // namespace ics::statestore
