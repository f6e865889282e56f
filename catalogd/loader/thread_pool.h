// ThreadPool: a fixed set of worker threads running queued tasks, used to
// list partition directories in parallel.
//
// ParallelFor(n, fn) runs fn(0..n-1) on the pool *and* the calling thread
// and returns when every call has finished. Because the caller works too,
// a ParallelFor always makes progress even when every worker is busy with
// other callers' work, and concurrent ParallelFor calls share the workers
// (the total number of listing threads stays bounded by the pool size plus
// the callers).
//
// Exception barrier: fn may throw. The first exception (by time) is caught
// and returned as INTERNAL "task <i> of <n>: unexpected exception: <what>";
// indices not yet started when it happened are skipped (stop early), the
// ones already running finish, and ParallelFor returns only after all of
// them did — never with a task still using fn or the caller's data. Later
// exceptions of the same call are dropped. OK when every call returned.
// Callers turn the status into their own error (the loader: a load error
// naming the table).
//
// Shutdown happens in the destructor: queued tasks are drained, then the
// workers are joined. Do not destroy the pool while a ParallelFor is running.
// A worker never dies of an exception (its loop catches and logs anything
// a task lets escape).
//
// Thread-safety: thread-safe. Lock order: mu_ is terminal (no other lock is
// taken while holding it, and tasks run without it).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "common/util/mutex.h"
#include "common/util/status.h"

namespace ics::catalog {

class ThreadPool {
 public:
  // num_threads <= 0 means no workers: ParallelFor runs everything inline.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }

  // See the file comment. OK, or the first exception a call of fn threw.
  [[nodiscard]] Status ParallelFor(size_t n, const std::function<void(size_t)>& fn)
      EXCLUDES(mu_);

  // Exceptions caught in worker loops outside ParallelFor's own barrier
  // (should stay 0; for tests and diagnostics).
  int64_t escaped_exceptions() const EXCLUDES(mu_);

 private:
  // May throw std::bad_alloc (then nothing was queued).
  void Submit(std::function<void()> task) EXCLUDES(mu_);
  void WorkerLoop() EXCLUDES(mu_);

  std::vector<std::thread> workers_;  // constant after construction

  mutable Mutex mu_;
  CondVar cv_;  // signalled when a task is queued or on shutdown
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  bool shutdown_ GUARDED_BY(mu_) = false;
  int64_t escaped_exceptions_ GUARDED_BY(mu_) = 0;
};

}  // namespace ics::catalog
