// ThreadPool: a fixed set of worker threads running queued tasks, used to
// list partition directories in parallel.
//
// ParallelFor(n, fn) runs fn(0..n-1) on the pool *and* the calling thread
// and returns when all n calls have finished. Because the caller works too,
// a ParallelFor always makes progress even when every worker is busy with
// other callers' work, and concurrent ParallelFor calls share the workers
// (the total number of listing threads stays bounded by the pool size plus
// the callers). fn must not throw.
//
// Shutdown happens in the destructor: queued tasks are drained, then the
// workers are joined. Do not destroy the pool while a ParallelFor is running.
//
// Thread-safety: thread-safe. Lock order: mu_ is terminal (no other lock is
// taken while holding it, and tasks run without it).
#pragma once

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "common/util/mutex.h"

namespace ics::catalog {

class ThreadPool {
 public:
  // num_threads <= 0 means no workers: ParallelFor runs everything inline.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }

  void ParallelFor(size_t n, const std::function<void(size_t)>& fn) EXCLUDES(mu_);

 private:
  void Submit(std::function<void()> task) EXCLUDES(mu_);
  void WorkerLoop() EXCLUDES(mu_);

  std::vector<std::thread> workers_;  // constant after construction

  Mutex mu_;
  CondVar cv_;  // signalled when a task is queued or on shutdown
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  bool shutdown_ GUARDED_BY(mu_) = false;
};

}  // namespace ics::catalog
