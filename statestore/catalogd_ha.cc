#include "statestore/catalogd_ha.h"

#include <algorithm>

#include <glog/logging.h>

namespace ics::statestore {

bool CatalogdHa::IsCandidate(impala::TStatestoreSubscriberType::type type,
                             const impala::TRegisterSubscriberRequest& req) {
  return type == impala::TStatestoreSubscriberType::CATALOGD && req.__isset.catalogd_registration &&
         req.catalogd_registration.__isset.enable_catalogd_ha &&
         req.catalogd_registration.enable_catalogd_ha;
}

void CatalogdHa::AddCandidate(const std::string& subscriber_id, const std::string& registration_key,
                              const impala::TCatalogRegistration& reg, TimePoint now) {
  enabled_ = true;
  if (!first_candidate_at_) first_candidate_at_ = now;
  Candidate& c = candidates_[subscriber_id];
  c.registration_key = registration_key;
  c.registration = reg;
  c.registered_at = now;
  c.healthy = true;
  if (IsActive(subscriber_id)) active_->registration = reg;
}

void CatalogdHa::RemoveCandidate(const std::string& subscriber_id,
                                 const std::string& registration_key) {
  auto it = candidates_.find(subscriber_id);
  if (it == candidates_.end() || it->second.registration_key != registration_key) return;
  candidates_.erase(it);
}

void CatalogdHa::BeginActivation(int64_t activation) {
  activation_ = std::clamp<int64_t>(activation, 0, kMaxActivation);
  seq_ = 0;
  active_.reset();
}

void CatalogdHa::EndActivation() { active_.reset(); }

void CatalogdHa::FollowPeer(int64_t version, const std::string& host, int port) {
  if (version != 0 && version < followed_version_) return;
  followed_version_ = std::max(followed_version_, version);
  preferred_host_ = host;
  preferred_port_ = port;
}

void CatalogdHa::MarkFailed(const std::string& subscriber_id) {
  auto it = candidates_.find(subscriber_id);
  if (it != candidates_.end()) it->second.healthy = false;
}

void CatalogdHa::MarkHealthy(const std::string& subscriber_id) {
  auto it = candidates_.find(subscriber_id);
  if (it != candidates_.end()) it->second.healthy = true;
}

bool CatalogdHa::Precedes(const std::string& a_id, const Candidate& a, const std::string& b_id,
                          const Candidate& b) {
  if (a.forced() != b.forced()) return a.forced();
  const int64_t at =
      a.registration.__isset.registration_time ? a.registration.registration_time : 0;
  const int64_t bt =
      b.registration.__isset.registration_time ? b.registration.registration_time : 0;
  if (at != bt) return at < bt;
  return a_id < b_id;
}

bool CatalogdHa::Evaluate(TimePoint now) {
  const Candidate* current = nullptr;
  if (active_) {
    auto it = candidates_.find(active_->subscriber_id);
    if (it != candidates_.end() && it->second.healthy) current = &it->second;
  }
  const std::string* best_id = nullptr;
  const Candidate* best = nullptr;
  size_t healthy = 0;
  for (const auto& [id, c] : candidates_) {
    if (!c.healthy) continue;
    ++healthy;
    if (best == nullptr || Precedes(id, c, *best_id, *best)) {
      best_id = &id;
      best = &c;
    }
  }
  if (best == nullptr) return false;  // nobody to designate; keep what subscribers know
  if (current == nullptr && !preferred_host_.empty()) {
    for (const auto& [id, c] : candidates_) {
      if (c.healthy && c.registration.address.hostname == preferred_host_ &&
          c.registration.address.port == preferred_port_) {
        best_id = &id;
        best = &c;
        healthy = std::max<size_t>(healthy, 2);  // no wait: the peer had chosen
      }
    }
  }
  if (current != nullptr) {
    // Only a forced candidate preempts a healthy active that was not forced.
    if (current == best || current->forced() || !best->forced()) return false;
  } else if (!active_) {
    const bool waited = first_candidate_at_ && now - *first_candidate_at_ >= opts_.preemption_wait;
    if (!waited && healthy < 2 && !best->forced()) return false;
  }
  const std::string previous = active_ ? active_->subscriber_id : std::string("(none)");
  if (++seq_ >= (int64_t{1} << kSeqBits)) {  // a million failovers: the next activation
    activation_ = std::min(activation_ + 1, kMaxActivation);
    seq_ = 1;
  }
  const int64_t version = (activation_ << kSeqBits) | seq_;
  active_ = ActiveCatalogd{version, *best_id, best->registration};
  ++changes_;
  preferred_host_.clear();  // the peer's choice served this activation's first designation
  LOG(INFO) << "catalogd HA: designated " << *best_id << " at "
            << best->registration.address.hostname << ":" << best->registration.address.port
            << " active (designation " << version << ": activation " << activation_ << ", "
            << seq_ << "; previous " << previous << ")";
  return true;
}

}  // namespace ics::statestore
