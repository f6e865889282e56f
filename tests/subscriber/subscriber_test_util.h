// Helpers of the subscriber tests against the real broker: an in-process
// statestore with short intervals, subscriber options to match, and a topic
// callback that mirrors the topic and publishes what it is given.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "statestore/statestore_server.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

inline constexpr char kTopic[] = "test-topic";  // open to every writer (catalog-update is catalogd's)

inline std::unique_ptr<StatestoreServer> StartStatestore(int port = 0,
                                                          int update_frequency_ms = 200) {
  StatestoreServerOptions o;
  o.bind_host = "127.0.0.1";
  o.port = port;
  o.statestore.heartbeat_interval_ms = 100;
  o.statestore.update_frequency_ms = update_frequency_ms;
  o.statestore.heartbeat_timeout_ms = 1000;
  o.statestore.connect_timeout_ms = 1000;
  o.statestore.num_update_threads = 4;
  o.statestore.num_heartbeat_threads = 4;
  auto server = std::make_unique<StatestoreServer>(o);
  Status s = server->Start();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() ? std::move(server) : nullptr;
}

inline StatestoreSubscriberOptions SubscriberOptions(const std::string& id, int statestore_port) {
  StatestoreSubscriberOptions o;
  o.subscriber_id = id;
  o.statestore_port = statestore_port;
  o.statestore_timeout_ms = 1500;
  o.register_backoff_initial_ms = 50;
  o.register_backoff_max_ms = 200;
  return o;
}

// A topic callback that mirrors the topic's entries, publishes what it is
// given, and (like catalogd) publishes everything it owns again when a full
// update lacks one of its keys, e.g. after a statestore restart.
class TopicMirror {
 public:
  TopicUpdateCallback Callback() {
    return [this](const impala::TTopicDelta& delta, std::vector<impala::TTopicDelta>* pubs) {
      std::lock_guard<std::mutex> l(mu_);
      ++updates_;
      if (throw_next_ > 0) {
        --throw_next_;
        throw std::runtime_error("mirror callback failed on purpose");
      }
      if (!delta.is_delta) {
        ++full_updates_;
        entries_.clear();
      }
      for (const impala::TTopicItem& item : delta.topic_entries) {
        if (item.deleted) {
          entries_.erase(item.key);
        } else {
          entries_[item.key] = item.value;
        }
      }
      impala::TTopicDelta pub;
      pub.topic_name = delta.topic_name;
      pub.is_delta = true;
      bool lost = false;
      for (const auto& [k, v] : owned_) lost |= !delta.is_delta && entries_.count(k) == 0;
      if (lost) {
        for (const auto& [k, v] : owned_) pub.topic_entries.push_back(Item(k, v, false));
      }
      for (auto& item : pending_) pub.topic_entries.push_back(std::move(item));
      pending_.clear();
      if (reset_base_next_) {
        pub.__set_from_version(0);
        reset_base_next_ = false;
      }
      if (!pub.topic_entries.empty() || pub.__isset.from_version) pubs->push_back(std::move(pub));
    };
  }
  // Queued for the reply to the next update.
  void Publish(const std::string& key, const std::string& value, bool deleted = false) {
    std::lock_guard<std::mutex> l(mu_);
    pending_.push_back(Item(key, value, deleted));
    if (deleted) {
      owned_.erase(key);
    } else {
      owned_[key] = value;
    }
  }
  // The next `n` callbacks throw before applying anything (0: none).
  void ThrowNext(int n = 1) {
    std::lock_guard<std::mutex> l(mu_);
    throw_next_ = n;
  }
  void ResetBaseNext() {
    std::lock_guard<std::mutex> l(mu_);
    reset_base_next_ = true;
  }
  std::string Get(const std::string& key) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = entries_.find(key);
    return it == entries_.end() ? "<none>" : it->second;
  }
  int updates() {
    std::lock_guard<std::mutex> l(mu_);
    return updates_;
  }
  int full_updates() {
    std::lock_guard<std::mutex> l(mu_);
    return full_updates_;
  }

 private:
  static impala::TTopicItem Item(const std::string& key, const std::string& value, bool deleted) {
    impala::TTopicItem item;
    item.key = key;
    item.value = value;
    item.deleted = deleted;
    return item;
  }

  std::mutex mu_;
  std::map<std::string, std::string> entries_;
  std::map<std::string, std::string> owned_;
  std::vector<impala::TTopicItem> pending_;
  bool reset_base_next_ = false;
  int throw_next_ = 0;
  int updates_ = 0;
  int full_updates_ = 0;
};

inline std::unique_ptr<StatestoreSubscriber> StartSubscriber(StatestoreSubscriberOptions o,
                                                      TopicMirror* mirror,
                                                      bool populate_min = false,
                                                      bool min_on_request = false) {
  auto sub = std::make_unique<StatestoreSubscriber>(std::move(o));
  TopicSubscription t;
  t.topic = kTopic;
  t.populate_min_subscriber_topic_version = populate_min;
  t.min_version_on_request = min_on_request;
  t.callback = mirror->Callback();
  EXPECT_TRUE(sub->AddTopic(std::move(t)).ok());
  Status s = sub->Start();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return sub;
}

// A free port: a statestore binds one and releases it (0 if it could not).
inline int FreePort() {
  auto probe = StartStatestore();
  return probe == nullptr ? 0 : probe->port();
}

inline int64_t TopicVersion(StatestoreServer* ss, const std::string& topic) {
  for (const TopicStats& t : ss->statestore()->Topics()) {
    if (t.name == topic) return t.last_version;
  }
  return 0;
}

// A delta that writes one entry (for Publish).
inline impala::TTopicDelta OneEntry(const std::string& topic, const std::string& key,
                                    const std::string& value) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.is_delta = true;
  impala::TTopicItem item;
  item.key = key;
  item.value = value;
  d.topic_entries.push_back(std::move(item));
  return d;
}

}  // namespace ics::statestore
