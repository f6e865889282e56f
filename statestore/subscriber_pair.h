// SubscriberPair: a daemon's statestore subscribers. Without statestored HA
// it is one StatestoreSubscriber; with HA (a second statestore configured)
// one per statestore, built from the same options except the statestore's
// address and the subscriber's own callback port (the second picks a free
// one). Only the active statestore sends topic updates, so a topic's
// callback runs for one subscriber at a time; it is told which (0: the
// first statestore's, 1: the second's). catalogd and coordinator-sim both
// subscribe through it.
//
// Thread-safety: AddTopic/Start/Stop from one thread before and after
// serving; RequestTopicUpdate and the accessors from any thread while the
// pair lives.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "StatestoreService_types.h"
#include "common/util/status.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

class SubscriberPair {
 public:
  // A topic update for the subscriber `index` (0 or 1); see TopicSubscription.
  using Callback = std::function<void(int index, const impala::TTopicDelta& delta,
                                      std::vector<impala::TTopicDelta>* publications)>;

  // `second_port` <= 0: no second statestore.
  SubscriberPair(StatestoreSubscriberOptions options, const std::string& second_host,
                 int second_port);
  ~SubscriberPair();
  SubscriberPair(const SubscriberPair&) = delete;
  SubscriberPair& operator=(const SubscriberPair&) = delete;

  // Subscribes every subscriber to `topic`, its updates going to `callback`
  // (topic.callback is replaced). Before Start().
  [[nodiscard]] Status AddTopic(TopicSubscription topic, const Callback& callback);
  // Starts the second subscriber, then the first.
  [[nodiscard]] Status Start();
  // Stops both; idempotent.
  void Stop();
  // Asks each statestore for an update now (a standby one ignores it).
  void RequestTopicUpdate();

  StatestoreSubscriber* first() const { return first_.get(); }
  // Null without a second statestore.
  StatestoreSubscriber* second() const { return second_.get(); }
  // Subscriber `index` (0 or 1); null for 1 without a second statestore.
  StatestoreSubscriber* at(int index) const { return index == 0 ? first() : second(); }

 private:
  std::unique_ptr<StatestoreSubscriber> first_;
  std::unique_ptr<StatestoreSubscriber> second_;
};

}  // namespace ics::statestore
