// ProcessedVersions: where a subscriber is in each topic it subscribed to,
// and which minimum versions it still has to ask the statestore for.
//
// Per topic it keeps the processed version (the base the next delta must
// start at; 0 before any update and again after every new registration) and
// the last min_subscriber_topic_version the statestore sent. For topics
// registered with min_version_on_request it keeps the wishes: the version of
// the minimum a waiter wants to hear of (the largest asked for, dropped once
// the minimum received reaches it), and whether the wishes and the "on
// request" choice still have to be sent for the current registration.
//
// Owns: those values only. The subscriptions themselves (callbacks, filters)
// belong to StatestoreSubscriber; AddTopic copies what the bookkeeping needs.
//
// Thread-safety: none of its own. Its owner (SubscriberSession) keeps it as
// a member guarded by the session lock, so every call holds that lock. It
// takes no lock and calls nothing outside itself.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace ics::statestore {

class ProcessedVersions {
 public:
  // A subscribed topic, at version 0. `min_on_request`: the subscription
  // takes its minimum on request (TopicSubscription::min_version_on_request),
  // so waits for the minimum become wishes. `announces_on_request`: it also
  // populates the minimum, so each registration sends the "on request"
  // choice. Adding a topic twice keeps its versions.
  void AddTopic(const std::string& topic, bool min_on_request, bool announces_on_request);
  bool Has(const std::string& topic) const { return topics_.count(topic) != 0; }

  // The processed version of `topic` (0 for a topic not subscribed to).
  int64_t version(const std::string& topic) const;
  // The last min_subscriber_topic_version received (0 before any, and for a
  // topic not subscribed to).
  int64_t min_version(const std::string& topic) const;
  // An applied update moved these. `topic` must be subscribed to.
  void SetVersion(const std::string& topic, int64_t version);
  void SetMinVersion(const std::string& topic, int64_t version);

  // A new registration: every version back to 0; the choice (if any topic
  // announces it) and the wishes not yet met must be sent again.
  void ResetForRegistration();

  // A waiter wants the minimum of `topic` to reach `version`. True when that
  // is a new wish to send: `topic` takes its minimum on request, the minimum
  // received is below `version`, and no wish as high was made.
  bool WantMin(const std::string& topic, int64_t version);

  // Whether the choice or some wishes are still to be sent.
  bool HasUnsent() const { return on_request_unsent_ || wishes_unsent_; }
  // What to send now: the choice (if still unsent) and the wishes the
  // minimum received has not met yet (those it met are forgotten). Marks
  // everything sent.
  struct Wishes {
    bool on_request = false;
    std::map<std::string, int64_t> wanted;
  };
  Wishes TakeUnsent();

 private:
  struct Topic {
    int64_t version = 0;
    int64_t min_version = 0;
    bool min_on_request = false;
  };
  std::map<std::string, Topic> topics_;
  bool any_announces_on_request_ = false;
  // topic -> the minimum version waited for, not yet received.
  std::map<std::string, int64_t> wanted_;
  bool on_request_unsent_ = false;
  bool wishes_unsent_ = false;
};

}  // namespace ics::statestore
