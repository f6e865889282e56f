// SubscriberRegistry: the broker's registrations, found by subscriber id
// (one registration per id; a new one replaces the old) and by registration
// id (the key of every RequestTopicUpdate call).
//
// Owns: the map from subscriber id to its SubscriberRecord and an index by
// registration id that holds exactly the registrations of that map, so a
// registration that was replaced or removed is not found by its id any more.
// The records themselves are shared (workers keep them while an RPC is in
// flight) and their fields follow the rules in subscriber_record.h.
//
// Thread-safety: none of its own. Its owner (Statestore::Impl) keeps it as
// a member guarded by the broker lock, so the compiler checks that every
// call holds that lock. It takes no lock and calls nothing outside itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "statestore/subscriber_record.h"

namespace ics::statestore {

class SubscriberRegistry {
 public:
  using SubPtr = std::shared_ptr<SubscriberRecord>;

  size_t size() const { return by_id_.size(); }
  bool Contains(const std::string& subscriber_id) const { return by_id_.count(subscriber_id) != 0; }

  // The registration of `subscriber_id`, or null.
  SubPtr Find(const std::string& subscriber_id) const;
  // The registration `registration_id`, or null. A map lookup, not a scan.
  SubPtr FindRegistration(const impala::TUniqueId& registration_id) const;

  // Puts `sub` in the place of its subscriber id. Returns the registration
  // it replaced there (null if none), which is no longer found by either key.
  SubPtr Insert(SubPtr sub);
  // Removes `sub` if it still holds its subscriber id's place; a newer
  // registration of the same id stays.
  void Remove(const SubPtr& sub);
  void Clear();

  // Every registration, in subscriber id order.
  const std::map<std::string, SubPtr>& all() const { return by_id_; }

 private:
  using RegistrationKey = std::pair<int64_t, int64_t>;  // (hi, lo) of the id
  static RegistrationKey KeyOf(const impala::TUniqueId& id) { return {id.hi, id.lo}; }

  std::map<std::string, SubPtr> by_id_;
  std::map<RegistrationKey, SubPtr> by_registration_;
};

}  // namespace ics::statestore
