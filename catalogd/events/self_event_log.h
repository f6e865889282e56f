// Self-event tracking: which notification-log events catalogd's own DDL
// wrote, so the HMS event processor does not apply them a second time.
//
// SelfRecordingMetastore is a Metastore decorator for catalogd's DDL path:
// reads pass straight through; a successful Commit whose ops write n events
// wrote the ids last - n + 1 .. last, because a metastore assigns the ids of
// one transaction contiguously and Commit returns the last one
// (metastore.h). That range is recorded in the SelfEventLog. Writers that
// use the undecorated Metastore (the HMS endpoint, other processes) are
// external: their events are applied by the processor.
//
// Race the log closes: a commit is visible in the notification log a moment
// before Commit returns and its range is recorded. Barrier() waits until
// every commit that had started when it was called has recorded its range
// (or failed), so the processor calls it after fetching a batch and before
// classifying it: any event in the batch was committed before the fetch,
// hence by a commit that started before the barrier. Commits that start
// later never delay the barrier.
//
// A commit that fails with an unknown outcome (IO_ERROR from the final
// commit step) records nothing: if it did write events, they are applied as
// external ones, which is harmless (they converge to the metastore state).
//
// Ownership: the decorator borrows the inner Metastore and the log; both
// must outlive it. Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalogd/metastore/forwarding_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class SelfEventLog {
 public:
  SelfEventLog() = default;
  SelfEventLog(const SelfEventLog&) = delete;
  SelfEventLog& operator=(const SelfEventLog&) = delete;

  // Commits `txn` through `inner` and records the range of event ids it
  // wrote (when recording is on). Returns what inner->Commit returned.
  Result<int64_t> CommitAndRecord(Metastore* inner, const MetastoreTxn& txn) EXCLUDES(mu_);

  // Whether event `event_id` was written by a recorded commit.
  bool IsSelf(int64_t event_id) const EXCLUDES(mu_);

  // Waits until every commit that started before this call has finished
  // (and recorded its range if it succeeded).
  void Barrier() EXCLUDES(mu_);

  // Forgets ranges that end at or before `event_id` (already processed).
  void ForgetThrough(int64_t event_id) EXCLUDES(mu_);

  // Off by default: with no processor consuming the log, recording would
  // only grow it. The processor turns it on when it starts.
  void SetRecording(bool on) EXCLUDES(mu_);

  size_t num_ranges() const EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  CondVar cv_;
  bool recording_ GUARDED_BY(mu_) = false;
  int64_t next_ticket_ GUARDED_BY(mu_) = 0;
  std::set<int64_t> in_flight_ GUARDED_BY(mu_);  // tickets of unfinished commits
  std::map<int64_t, int64_t> ranges_ GUARDED_BY(mu_);  // last event id -> first
};

// Forwards everything to `inner`; Commit goes through `log`.
class SelfRecordingMetastore final : public ForwardingMetastore {
 public:
  SelfRecordingMetastore(Metastore* inner, SelfEventLog* log)
      : ForwardingMetastore(inner), log_(log) {}

  Result<int64_t> Commit(const MetastoreTxn& txn) override {
    return log_->CommitAndRecord(inner(), txn);
  }

 private:
  SelfEventLog* const log_;
};

}  // namespace ics::catalog
