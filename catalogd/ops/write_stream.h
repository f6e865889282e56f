// WriteStreamManager: the staging side of the partition commands' streaming
// writes. A stream is opened for one table, collects partitions over any
// number of Append calls, and is taken whole by Commit (which creates them
// all in one batch) or dropped by Abort. Nothing reaches the metastore
// before Commit.
//
// Bounds: a stream expires after idle_timeout_ms without a call (expired
// streams are swept on every call; a later call on one gets ABORTED "expired");
// its staged partitions are bounded by max_staged_bytes (ApproxBytes) and
// one Append by max_append_bytes; at most max_streams are open at once
// (LIMIT_EXCEEDED beyond; RESOURCE_EXHAUSTED on the wire). Across all
// streams, staged bytes are charged to the shared `budget` (staging_budget.h;
// optional): an Append that would pass its cap is refused with
// LIMIT_EXCEEDED and stages nothing. A stream holds its reservation until
// it is aborted, expires, or — taken for commit — is destroyed by the
// committer. Time comes from an injectable clock.
//
// Thread-safety: thread-safe (one mutex; no I/O under it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/ops/partition_input.h"
#include "catalogd/ops/staging_budget.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

struct WriteStreamOptions {
  int64_t idle_timeout_ms = 5 * 60 * 1000;
  int64_t max_staged_bytes = 256ll << 20;
  int64_t max_append_bytes = 4ll << 20;  // the seed's per-message limit
  size_t max_streams = 1000;
  StagingBudget* budget = nullptr;  // shared cap across streams; borrowed, may be null
  std::function<int64_t()> now_ms;  // default: steady clock
};

struct WriteStream {
  std::string id;
  std::string db;
  std::string table;
  bool skip_existing = false;
  std::vector<PartitionInput> staged;
  int64_t staged_bytes = 0;
  int64_t last_used_ms = 0;
  StagingReservation reservation;  // staged_bytes, charged to the shared budget
};

class WriteStreamManager {
 public:
  explicit WriteStreamManager(WriteStreamOptions options);

  // A new stream id. The table is checked by the caller.
  Result<std::string> Open(const std::string& db, const std::string& table, bool skip_existing)
      EXCLUDES(mu_);
  // Stages `partitions` (each already validated by the caller); returns
  // the number staged so far. INVALID_ARGUMENT if skip_existing differs
  // from the stream's or the append is too large; LIMIT_EXCEEDED over the
  // stream's staging bound or the shared budget (the stream stays usable;
  // nothing of this append is staged).
  Result<int64_t> Append(const std::string& id, std::vector<PartitionInput> partitions,
                         bool skip_existing) EXCLUDES(mu_);
  // Removes the stream and returns it for committing (with its
  // reservation: the bytes stay charged until the caller drops it).
  Result<std::unique_ptr<WriteStream>> Take(const std::string& id) EXCLUDES(mu_);
  [[nodiscard]] Status Abort(const std::string& id) EXCLUDES(mu_);

  // Drops idle streams now; returns how many.
  size_t SweepExpired() EXCLUDES(mu_);
  size_t open_streams() const EXCLUDES(mu_);
  int64_t idle_timeout_ms() const { return options_.idle_timeout_ms; }

 private:
  int64_t Now() const;
  void SweepLocked(int64_t now) REQUIRES(mu_);
  Result<WriteStream*> FindLocked(const std::string& id, int64_t now) REQUIRES(mu_);

  const WriteStreamOptions options_;
  mutable Mutex mu_;
  std::map<std::string, std::unique_ptr<WriteStream>> streams_ GUARDED_BY(mu_);
  std::map<std::string, int64_t> expired_ GUARDED_BY(mu_);  // id -> when (remembered a while)
};

}  // namespace ics::catalog::ops
