// SharedMutex over a writer-preferring pthread rwlock.
//
// glibc's default rwlock (and so std::shared_mutex) lets a new reader in
// while a writer waits; with readers that overlap without pause (the
// statestore encodes deltas for many subscribers at once) a writer can wait
// forever. PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP queues new readers
// behind a waiting writer.
#include "common/util/mutex.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ics {
namespace {

// A failing rwlock call is a programming error (relocking a held lock,
// unlocking one not held): stop at once, as std::shared_mutex would throw.
void CheckRw(int rc, const char* what) {
  if (rc == 0) return;
  std::fprintf(stderr, "SharedMutex: %s failed: %s\n", what, std::strerror(rc));
  std::abort();
}

}  // namespace

SharedMutex::SharedMutex() {
  pthread_rwlockattr_t attr;
  CheckRw(pthread_rwlockattr_init(&attr), "rwlockattr_init");
  CheckRw(pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP),
          "rwlockattr_setkind_np");
  CheckRw(pthread_rwlock_init(&rw_, &attr), "rwlock_init");
  pthread_rwlockattr_destroy(&attr);
}

SharedMutex::~SharedMutex() { pthread_rwlock_destroy(&rw_); }

void SharedMutex::Lock() { CheckRw(pthread_rwlock_wrlock(&rw_), "wrlock"); }
void SharedMutex::Unlock() { CheckRw(pthread_rwlock_unlock(&rw_), "unlock"); }
void SharedMutex::LockShared() { CheckRw(pthread_rwlock_rdlock(&rw_), "rdlock"); }
void SharedMutex::UnlockShared() { CheckRw(pthread_rwlock_unlock(&rw_), "unlock"); }

}  // namespace ics
