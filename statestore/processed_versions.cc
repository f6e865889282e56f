#include "statestore/processed_versions.h"

namespace ics::statestore {

void ProcessedVersions::AddTopic(const std::string& topic, bool min_on_request,
                                 bool announces_on_request) {
  topics_[topic].min_on_request = min_on_request;
  if (announces_on_request) any_announces_on_request_ = true;
}

int64_t ProcessedVersions::version(const std::string& topic) const {
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.version;
}

int64_t ProcessedVersions::min_version(const std::string& topic) const {
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.min_version;
}

void ProcessedVersions::SetVersion(const std::string& topic, int64_t version) {
  topics_[topic].version = version;
}

void ProcessedVersions::SetMinVersion(const std::string& topic, int64_t version) {
  topics_[topic].min_version = version;
}

void ProcessedVersions::ResetForRegistration() {
  for (auto& [name, t] : topics_) t.version = t.min_version = 0;
  // A new registration knows nothing of the choice or the wishes.
  on_request_unsent_ = any_announces_on_request_;
  wishes_unsent_ = !wanted_.empty();
}

bool ProcessedVersions::WantMin(const std::string& topic, int64_t version) {
  auto t = topics_.find(topic);
  if (t == topics_.end() || !t->second.min_on_request || t->second.min_version >= version) {
    return false;
  }
  int64_t& wanted = wanted_[topic];
  if (wanted >= version) return false;
  wanted = version;
  wishes_unsent_ = true;
  return true;
}

ProcessedVersions::Wishes ProcessedVersions::TakeUnsent() {
  Wishes w;
  w.on_request = on_request_unsent_;
  on_request_unsent_ = wishes_unsent_ = false;
  // Only what is still ahead of the minimum received.
  for (auto it = wanted_.begin(); it != wanted_.end();) {
    if (it->second <= min_version(it->first)) {
      it = wanted_.erase(it);
    } else {
      w.wanted.insert(*it++);
    }
  }
  return w;
}

}  // namespace ics::statestore
