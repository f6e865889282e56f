#include "catalogd/loader/thread_pool.h"

#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include "common/util/exception_barrier.h"

namespace ics::catalog {

ThreadPool::ThreadPool(int num_threads) {
  for (int i = 0; i < num_threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    MutexLock l(&mu_);
    shutdown_ = true;
  }
  cv_.Broadcast();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::Submit(std::function<void()> task) {
  {
    MutexLock l(&mu_);
    queue_.push_back(std::move(task));
  }
  cv_.Signal();
}

int64_t ThreadPool::escaped_exceptions() const {
  MutexLock l(&mu_);
  return escaped_exceptions_;
}

void ThreadPool::WorkerLoop() {
  while (true) {
    std::function<void()> task;
    {
      MutexLock l(&mu_);
      while (queue_.empty() && !shutdown_) cv_.Wait(&mu_);
      if (queue_.empty()) return;  // shutdown with nothing left
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    // Tasks are ParallelFor helpers, which catch everything themselves;
    // this is the last line of defence for the thread.
    try {
      task();
    } catch (...) {
      const std::string what = DescribeCurrentException();
      {
        MutexLock l(&mu_);
        ++escaped_exceptions_;
      }
      LOG(ERROR) << "thread pool task let an exception escape (ignored): " << what;
    }
  }
}

namespace {

// Shared by the caller and the helper tasks of one ParallelFor. Helpers that
// start after all items are claimed only touch this state (which they
// co-own), never `fn`, so the caller may return as soon as every item is done.
struct ForState {
  ForState(size_t n, const std::function<void(size_t)>* fn) : n(n), fn(fn) {}
  const size_t n;
  const std::function<void(size_t)>* const fn;  // valid while items remain
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // set by the first exception: skip the rest
  Mutex mu;
  CondVar done_cv;
  size_t done GUARDED_BY(mu) = 0;
  Status error GUARDED_BY(mu);  // the first exception

  // Allocated up front: what is reported if describing an exception fails
  // for want of memory.
  Status undescribed GUARDED_BY(mu) =
      Status::Internal("a task threw an exception (no memory to describe it)");

  // Runs item i behind the barrier.
  void RunOne(size_t i) {
    try {
      (*fn)(i);
    } catch (...) {
      failed.store(true);
      Status s;
      try {
        s = StatusFromCurrentException("task " + std::to_string(i) + " of " +
                                       std::to_string(n));
      } catch (...) {
        // s stays OK: fall back to the preallocated status below.
      }
      MutexLock l(&mu);
      if (!error.ok()) return;  // only the first exception is reported
      error = s.ok() ? std::move(undescribed) : std::move(s);
    }
  }

  // Claims and runs items until none are left (skipping them after a
  // failure; a skipped item counts as done).
  void Work() {
    size_t ran = 0;
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      if (!failed.load()) RunOne(i);
      ++ran;
    }
    if (ran == 0) return;
    MutexLock l(&mu);
    done += ran;
    if (done == n) done_cv.Broadcast();
  }
};

}  // namespace

Status ThreadPool::ParallelFor(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return Status::OK();
  std::shared_ptr<ForState> state;
  if (n > 1 && !workers_.empty()) {
    try {
      state = std::make_shared<ForState>(n, &fn);
    } catch (...) {
      // No memory for the shared state: run inline below.
    }
  }
  if (state == nullptr) {
    for (size_t i = 0; i < n; ++i) {
      try {
        fn(i);
      } catch (...) {
        return StatusFromCurrentException("task " + std::to_string(i) + " of " +
                                          std::to_string(n));  // stop early
      }
    }
    return Status::OK();
  }
  const size_t helpers = std::min(workers_.size(), n - 1);
  for (size_t h = 0; h < helpers; ++h) {
    try {
      Submit([state] { state->Work(); });
    } catch (...) {
      break;  // could not queue a helper: the caller does the work itself
    }
  }
  state->Work();
  MutexLock l(&state->mu);
  while (state->done < n) state->done_cv.Wait(&state->mu);
  return state->error;
}

}  // namespace ics::catalog
