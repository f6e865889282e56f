// FakeSubscriber: what tests read back — recorded updates and heartbeats,
// the mirrored topics, protocol violations — and the WaitFor... helpers.
#include "tests/statestore/fake_subscriber.h"
#include <algorithm>
#include <sstream>
#include <utility>
#include <thrift/TApplicationException.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TServerSocket.h>

namespace ics::sstest {

std::vector<RecordedUpdate> FakeSubscriber::Updates(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? std::vector<RecordedUpdate>{} : it->second.updates;
}

size_t FakeSubscriber::UpdateCount(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.updates.size();
}

int64_t FakeSubscriber::UpdateCalls() const {
  std::lock_guard<std::mutex> l(mu_);
  return update_calls_;
}

std::vector<RecordedHeartbeat> FakeSubscriber::Heartbeats() const {
  std::lock_guard<std::mutex> l(mu_);
  return heartbeats_;
}

size_t FakeSubscriber::HeartbeatCount() const {
  std::lock_guard<std::mutex> l(mu_);
  return heartbeats_.size();
}

int64_t FakeSubscriber::TopicVersion(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.version;
}

std::map<std::string, std::string> FakeSubscriber::Entries(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? std::map<std::string, std::string>{} : it->second.entries;
}

bool FakeSubscriber::HasKey(const std::string& topic, const std::string& key) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it != topics_.end() && it->second.entries.count(key) > 0;
}

int64_t FakeSubscriber::LastMinVersion(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? -1 : it->second.last_min_version;
}

int64_t FakeSubscriber::ChainErrors(const std::string& topic) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.chain_errors;
}

int64_t FakeSubscriber::ForeignRegistrationUpdates() const {
  std::lock_guard<std::mutex> l(mu_);
  return foreign_updates_;
}

std::vector<std::string> FakeSubscriber::Violations() const {
  std::lock_guard<std::mutex> l(mu_);
  return violations_;
}

int FakeSubscriber::MaxConcurrentUpdates() const {
  std::lock_guard<std::mutex> l(mu_);
  return max_updates_in_flight_;
}

std::optional<Clock::time_point> FakeSubscriber::LastPublishTime() const {
  std::lock_guard<std::mutex> l(mu_);
  return last_publish_time_;
}

bool FakeSubscriber::WaitUntil(const std::function<bool()>& pred, Millis timeout) const {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    uint64_t gen;
    {
      std::lock_guard<std::mutex> l(mu_);
      gen = generation_;
    }
    if (pred()) return true;
    std::unique_lock<std::mutex> l(mu_);
    if (!cv_.wait_until(l, deadline, [&] { return generation_ != gen; })) {
      l.unlock();
      return pred();
    }
  }
}

bool FakeSubscriber::WaitForUpdates(const std::string& topic, size_t count, Millis timeout) const {
  return WaitUntil([&] { return UpdateCount(topic) >= count; }, timeout);
}

bool FakeSubscriber::WaitForHeartbeats(size_t count, Millis timeout) const {
  return WaitUntil([&] { return HeartbeatCount() >= count; }, timeout);
}

bool FakeSubscriber::WaitForKey(const std::string& topic, const std::string& key,
                                Millis timeout) const {
  return WaitUntil([&] { return HasKey(topic, key); }, timeout);
}

bool FakeSubscriber::WaitForKeyGone(const std::string& topic, const std::string& key,
                                    Millis timeout) const {
  return WaitUntil([&] { return !HasKey(topic, key); }, timeout);
}

bool FakeSubscriber::WaitForVersion(const std::string& topic, int64_t version,
                                    Millis timeout) const {
  return WaitUntil([&] { return TopicVersion(topic) >= version; }, timeout);
}

std::string FakeSubscriber::Describe() const {
  std::lock_guard<std::mutex> l(mu_);
  std::ostringstream out;
  out << "[" << options_.id << " port=" << port_.load() << " regs=" << registration_count_
      << " hb=" << heartbeats_.size() << " update_calls=" << update_calls_
      << " foreign=" << foreign_updates_;
  for (const auto& [name, m] : topics_) {
    out << " topic " << name << "{v=" << m.version << " updates=" << m.updates.size()
        << " min=" << m.last_min_version << " chain_errors=" << m.chain_errors << " keys=";
    for (const auto& [k, v] : m.entries) out << k << ",";
    out << "}";
  }
  out << "]";
  return out.str();
}

}  // namespace ics::sstest
