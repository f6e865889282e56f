#include "statestore/broker_role.h"

#include <algorithm>

#include "statestore/topic_writers.h"

namespace ics::statestore {

BrokerRole::BrokerRole(CatalogdHaOptions catalogd_ha, bool start_as_standby, int64_t wall_clock_ms)
    : start_as_standby_(start_as_standby), catalogd_(catalogd_ha), active_(!start_as_standby) {
  if (active_) catalogd_.BeginActivation(wall_clock_ms);
}

std::optional<ActiveCatalogd> BrokerRole::reported_catalogd() const {
  if (!active_) return std::nullopt;  // a standby designates nobody
  return catalogd_.active();
}

BrokerRole::Change BrokerRole::SetActive(bool active, int64_t version, SteadyTime now) {
  if (active == active_ && (!active || version == active_version_)) return Change::kNone;
  active_ = active;
  if (!active) {
    catalogd_.EndActivation();
    return Change::kStandby;
  }
  active_version_ = version;
  catalogd_.BeginActivation(version);
  hold_until_ = now + std::chrono::milliseconds(kTakeoverHoldMs);
  return Change::kActive;
}

bool BrokerRole::EvaluateDesignation(SteadyTime now) {
  if (!active_) return false;  // a standby statestore designates nobody
  return catalogd_.Evaluate(now);
}

bool BrokerRole::MayPublish(const SubscriberRecord& sub, const std::string& topic) const {
  if (topic != kCatalogTopicName || !catalogd_.enabled()) return true;
  return catalogd_.IsActive(sub.id);
}

bool BrokerRole::InTakeoverHold(const SubscriberRecord& sub, SteadyTime now) const {
  return sub.type != impala::TStatestoreSubscriberType::CATALOGD && now < hold_until_;
}

bool BrokerRole::NeedsRoleUpdate(const SubscriberRecord& sub) const {
  return start_as_standby_ && active_version_ > sub.role_version_sent;
}

bool BrokerRole::NeedsCatalogdUpdate(const SubscriberRecord& sub) const {
  const std::optional<ActiveCatalogd>& active = catalogd_.active();
  return sub.wants_catalogd && active && active->version > sub.catalogd_version_sent;
}

void BrokerRole::NoteNewerActivation(int64_t version) {
  newer_activation_heard_ =
      std::max(newer_activation_heard_, std::min(version, CatalogdHa::kMaxActivation));
}

}  // namespace ics::statestore
