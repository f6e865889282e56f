// Annotated mutexes and lock guards, so clang can check lock discipline.
//
// Mutex        exclusive lock (std::mutex underneath).
// SharedMutex  reader/writer lock that prefers writers (pthread rwlock):
//              a writer waiting for the lock holds back new readers, so a
//              steady stream of overlapping readers cannot starve it. The
//              price: a thread must never take the shared lock it already
//              holds (it would wait behind the queued writer forever).
// MutexLock / ReaderLock / WriterLock  RAII guards.
// CondVar      condition variable usable with Mutex; Wait* require the mutex.
//
// Thread-safety: all types here are meant to be shared between threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <pthread.h>

#include <mutex>

#include "common/util/thread_annotations.h"

namespace ics {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  // Tells the analysis the caller holds the lock (no runtime check).
  void AssertHeld() const ICS_THREAD_ANNOTATION(assert_capability(this)) {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() RELEASE() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

class CAPABILITY("shared_mutex") SharedMutex {
 public:
  SharedMutex();
  ~SharedMutex();
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ACQUIRE();
  void Unlock() RELEASE();
  void LockShared() ACQUIRE_SHARED();
  void UnlockShared() RELEASE_SHARED();

 private:
  pthread_rwlock_t rw_;
};

class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex* mu) ACQUIRE_SHARED(mu) : mu_(mu) { mu_->LockShared(); }
  ~ReaderLock() RELEASE() { mu_->UnlockShared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex* const mu_;
};

class SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~WriterLock() RELEASE() { mu_->Unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex* const mu_;
};

class CondVar {
 public:
  void Wait(Mutex* mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lk(mu->mu_, std::adopt_lock);
    cv_.wait(lk);
    lk.release();
  }
  // Returns false on timeout.
  template <typename Rep, typename Period>
  bool WaitFor(Mutex* mu, std::chrono::duration<Rep, Period> d) REQUIRES(mu) {
    std::unique_lock<std::mutex> lk(mu->mu_, std::adopt_lock);
    const bool signalled = cv_.wait_for(lk, d) == std::cv_status::no_timeout;
    lk.release();
    return signalled;
  }
  template <typename Clock, typename Duration>
  bool WaitUntil(Mutex* mu, std::chrono::time_point<Clock, Duration> t) REQUIRES(mu) {
    std::unique_lock<std::mutex> lk(mu->mu_, std::adopt_lock);
    const bool signalled = cv_.wait_until(lk, t) == std::cv_status::no_timeout;
    lk.release();
    return signalled;
  }
  void Signal() { cv_.notify_one(); }
  void Broadcast() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace ics
