// TopicPusher: the thread that pushes catalog changes to the statestore as
// they are installed (CatalogTopicPublisher::PushChanges), so that a change
// reaches the statestore without waiting for it to ask. Notify() after each
// change; notifications that arrive during a push are merged into the next.
//
// When the publisher defers to the reply path, or a push fails, the pusher
// asks for an update instead (`request_update`, RequestTopicUpdate), whose
// reply then carries the changes, as without pushing. After a failed push it
// does not push again for kPushBackoff, so a statestore that does not take
// pushes (Impala's, or one that lost our registration) costs one failed call
// per backoff, not one per change. `may_push` (catalogd HA: the active role)
// is asked before each push; while false nothing is pushed or requested.
//
// Lifecycle: construct, Start(), Notify()..., Stop() (idempotent; also from
// the destructor; waits for a push in progress, which the subscriber bounds
// by its request timeout).
// Thread-safety: all methods are thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class TopicPusher {
 public:
  static constexpr std::chrono::milliseconds kPushBackoff{10000};

  TopicPusher(CatalogTopicPublisher* publisher, CatalogTopicPublisher::PushFn push,
              std::function<void()> request_update, std::function<bool()> may_push);
  ~TopicPusher();
  TopicPusher(const TopicPusher&) = delete;
  TopicPusher& operator=(const TopicPusher&) = delete;

  void Start() EXCLUDES(mu_);
  void Notify() EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);

  // Pushes that failed so far (each followed by a backoff).
  int64_t failed_pushes() const EXCLUDES(mu_);

 private:
  void Loop() EXCLUDES(mu_);

  CatalogTopicPublisher* const publisher_;
  const CatalogTopicPublisher::PushFn push_;
  const std::function<void()> request_update_;
  const std::function<bool()> may_push_;

  mutable Mutex mu_;
  CondVar cv_;
  bool notified_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  int64_t failed_pushes_ GUARDED_BY(mu_) = 0;
  std::thread thread_;  // touched only by Start/Stop
};

}  // namespace ics::catalog
