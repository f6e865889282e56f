// StagingBudget: one cap on the bytes that staged writes hold in memory
// across every partition door (one per PartitionCommands, shared by every
// stream and request it serves): the partitions staged by
// every open write stream, and the partitions of every batch request while
// it is being applied. A stream's own bound (max_staged_bytes) limits one
// client; this one limits all of them together, so many streams cannot
// exhaust the daemon.
//
// Sizes are the partitions' ApproxBytes (partition_input.h), an estimate
// of the in-memory size. A reservation is an RAII StagingReservation:
// taken before the bytes are kept, released when its owner (the stream,
// the request) is gone. Reserve fails with LIMIT_EXCEEDED naming the cap
// and the bytes in use (a door answers its wire error, e.g. RESOURCE_EXHAUSTED); nothing
// is reserved then. max_bytes <= 0 means no cap (accounting only).
//
// Thread-safety: thread-safe and lock-free (atomics), so it can be used
// under any lock. The budget must outlive every reservation taken from it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "common/util/result.h"

namespace ics::catalog::ops {

class StagingBudget;

// Bytes reserved from a StagingBudget; move-only; released on destruction.
class StagingReservation {
 public:
  StagingReservation() = default;
  ~StagingReservation() { Release(); }
  StagingReservation(StagingReservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) {
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  StagingReservation& operator=(StagingReservation&& o) noexcept;
  StagingReservation(const StagingReservation&) = delete;
  StagingReservation& operator=(const StagingReservation&) = delete;

  int64_t bytes() const { return bytes_; }

  // Adds `bytes` (>= 0) to this reservation from `budget` (the one it came
  // from, if any; nullptr: no budget, nothing is counted). LIMIT_EXCEEDED (nothing added) if the
  // cap would be passed; `what` names the writer in the message.
  [[nodiscard]] Status Grow(StagingBudget* budget, int64_t bytes, std::string_view what);
  // Gives the bytes back now.
  void Release();

 private:
  StagingBudget* budget_ = nullptr;
  int64_t bytes_ = 0;
};

class StagingBudget {
 public:
  explicit StagingBudget(int64_t max_bytes) : max_bytes_(max_bytes) {}
  StagingBudget(const StagingBudget&) = delete;
  StagingBudget& operator=(const StagingBudget&) = delete;

  // A reservation of `bytes` (negative counts as 0); see the file comment.
  Result<StagingReservation> Reserve(int64_t bytes, std::string_view what);

  int64_t max_bytes() const { return max_bytes_; }
  int64_t used_bytes() const { return used_.load(); }
  int64_t peak_bytes() const { return peak_.load(); }
  int64_t rejected() const { return rejected_.load(); }  // reservations refused

 private:
  friend class StagingReservation;
  // Adds `bytes` if the cap allows; false (nothing added) otherwise.
  bool TryAdd(int64_t bytes);
  void Subtract(int64_t bytes) { used_.fetch_sub(bytes); }
  Status Refusal(int64_t bytes, std::string_view what) const;

  const int64_t max_bytes_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
  std::atomic<int64_t> rejected_{0};
};

}  // namespace ics::catalog::ops
