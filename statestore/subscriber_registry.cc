#include "statestore/subscriber_registry.h"

namespace ics::statestore {

SubscriberRegistry::SubPtr SubscriberRegistry::Find(const std::string& subscriber_id) const {
  auto it = by_id_.find(subscriber_id);
  return it == by_id_.end() ? nullptr : it->second;
}

SubscriberRegistry::SubPtr SubscriberRegistry::FindRegistration(
    const impala::TUniqueId& registration_id) const {
  auto it = by_registration_.find(KeyOf(registration_id));
  return it == by_registration_.end() ? nullptr : it->second;
}

SubscriberRegistry::SubPtr SubscriberRegistry::Insert(SubPtr sub) {
  SubPtr& slot = by_id_[sub->id];
  SubPtr replaced = std::move(slot);
  if (replaced != nullptr) by_registration_.erase(KeyOf(replaced->registration_id));
  by_registration_[KeyOf(sub->registration_id)] = sub;
  slot = std::move(sub);
  return replaced;
}

void SubscriberRegistry::Remove(const SubPtr& sub) {
  auto it = by_id_.find(sub->id);
  if (it == by_id_.end() || it->second != sub) return;
  by_id_.erase(it);
  by_registration_.erase(KeyOf(sub->registration_id));
}

void SubscriberRegistry::Clear() {
  by_id_.clear();
  by_registration_.clear();
}

}  // namespace ics::statestore
