#include "catalogd/topic/topic_pusher.h"

#include <optional>
#include <utility>

#include <glog/logging.h>

#include "common/util/exception_barrier.h"

namespace ics::catalog {

using Clock = std::chrono::steady_clock;

TopicPusher::TopicPusher(CatalogTopicPublisher* publisher, CatalogTopicPublisher::PushFn push,
                         std::function<void()> request_update, std::function<bool()> may_push)
    : publisher_(publisher),
      push_(std::move(push)),
      request_update_(std::move(request_update)),
      may_push_(std::move(may_push)) {}

TopicPusher::~TopicPusher() { Stop(); }

void TopicPusher::Start() { thread_ = std::thread([this] { Loop(); }); }

void TopicPusher::Notify() {
  MutexLock l(&mu_);
  notified_ = true;
  cv_.Signal();
}

void TopicPusher::Stop() {
  {
    MutexLock l(&mu_);
    stopping_ = true;
    cv_.Signal();
  }
  if (thread_.joinable()) thread_.join();
}

int64_t TopicPusher::failed_pushes() const {
  MutexLock l(&mu_);
  return failed_pushes_;
}

void TopicPusher::Loop() {
  std::optional<Clock::time_point> backoff_until;
  while (true) {
    {
      MutexLock l(&mu_);
      while (!stopping_ && !notified_) cv_.Wait(&mu_);
      if (stopping_) return;
      notified_ = false;
    }
    if (may_push_ && !may_push_()) continue;
    if (backoff_until && Clock::now() < *backoff_until) {
      request_update_();
      continue;
    }
    backoff_until.reset();
    CatalogTopicPublisher::PushOutcome outcome = CatalogTopicPublisher::PushOutcome::kFailed;
    // Building the publication may throw (allocation): no exception leaves
    // this thread; it counts as a failed push.
    const Status s = CatchAll("building a catalog publication to push", [&] {
      outcome = publisher_->PushChanges(push_);
    });
    if (!s.ok()) {
      LOG_EVERY_N(WARNING, 100) << s.ToString();
    }
    switch (outcome) {
      case CatalogTopicPublisher::PushOutcome::kPushed:
      case CatalogTopicPublisher::PushOutcome::kNothing:
        break;
      case CatalogTopicPublisher::PushOutcome::kFailed: {
        MutexLock l(&mu_);
        ++failed_pushes_;
        backoff_until = Clock::now() + kPushBackoff;
      }
        [[fallthrough]];
      case CatalogTopicPublisher::PushOutcome::kDeferred:
        request_update_();
        break;
    }
  }
}

}  // namespace ics::catalog
