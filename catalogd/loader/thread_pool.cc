#include "catalogd/loader/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <memory>

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
    task();
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
  Mutex mu;
  CondVar done_cv;
  size_t done GUARDED_BY(mu) = 0;

  // Claims and runs items until none are left.
  void Work() {
    size_t ran = 0;
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      (*fn)(i);
      ++ran;
    }
    if (ran == 0) return;
    MutexLock l(&mu);
    done += ran;
    if (done == n) done_cv.Broadcast();
  }
};

}  // namespace

void ThreadPool::ParallelFor(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (n == 1 || workers_.empty()) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  auto state = std::make_shared<ForState>(n, &fn);
  const size_t helpers = std::min(workers_.size(), n - 1);
  for (size_t h = 0; h < helpers; ++h) Submit([state] { state->Work(); });
  state->Work();
  MutexLock l(&state->mu);
  while (state->done < n) state->done_cv.Wait(&state->mu);
}

}  // namespace ics::catalog
