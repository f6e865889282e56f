// Topic: one versioned key/value map of the statestore.
//
// Every write (including a delete, which leaves a tombstone) takes the next
// topic version; one log position per key, so a rewrite moves the key to its
// new version. Subscribers read the changes after their last processed
// version (BuildDelta), filtered by key prefix; a full update (base 0) omits
// tombstones.
//
// Tombstone GC: the peer keeps tombstones forever. Here a tombstone can be
// dropped once every current subscriber of the topic has processed its
// version and it is older than a retention window (CollectTombstones). The
// highest dropped version is remembered as the "history floor": a
// subscriber whose base is below it cannot be given a correct delta any
// more and gets a full update instead, so no deletion is ever lost for a
// subscriber holding the key.
//
// Transient entries remember their writer (subscriber id + registration);
// when that registration ends, its entries become tombstones unless someone
// rewrote them since (RemoveEntriesOf).
//
// Encoded deltas (EncodedDeltaFor) are shared while the topic does not
// change, so that subscribers at the same version share one encoding of
// their delta.
//
// Thread-safety: thread-safe. Two internal locks, taken in the order mu_,
// then cache_mu_; no other lock is taken while either is held.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "StatestoreService_types.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "statestore/update_state_request.h"

namespace ics::statestore {

using SteadyTime = std::chrono::steady_clock::time_point;

// A write to apply to a topic.
struct TopicWrite {
  std::string key;
  std::string value;
  bool deleted = false;
};

// Figures for metrics and web pages.
struct TopicStats {
  std::string name;
  int64_t last_version = 0;
  int64_t history_floor = 0;
  int64_t oldest_version = 0;  // lowest version still held (0 when empty)
  int64_t num_entries = 0;     // live keys
  int64_t num_tombstones = 0;  // retained deletions
  int64_t key_bytes = 0;
  int64_t value_bytes = 0;
};

class Topic {
 public:
  explicit Topic(std::string name) : name_(std::move(name)) {}
  Topic(const Topic&) = delete;
  Topic& operator=(const Topic&) = delete;

  const std::string& name() const { return name_; }

  // Applies writes from one publisher (their values are moved into the
  // topic). `writer` identifies the registration (used for transient
  // ownership; empty for none). Returns the topic's last version afterwards.
  int64_t Apply(std::vector<TopicWrite> writes, const std::string& writer, bool transient,
                SteadyTime now) EXCLUDES(mu_);

  // Drops every entry (clear_topic_entries). Everyone's base becomes stale,
  // so every subscriber receives a full update next.
  void ClearAll() EXCLUDES(mu_);

  // Turns the transient entries still owned by `writer` into tombstones.
  // Returns how many were removed.
  int RemoveEntriesOf(const std::string& writer, SteadyTime now) EXCLUDES(mu_);
  // How many live transient entries `writer` owns (0 for an empty writer).
  int64_t CountEntriesOf(const std::string& writer) const EXCLUDES(mu_);

  // Builds the delta for a subscriber whose last processed version is
  // `base`: entries with version > base whose key starts with `prefix`, in
  // version order. Falls back to a full update (is_delta=false, no
  // tombstones) when base is 0 or below the history floor.
  impala::TTopicDelta BuildDelta(int64_t base, const std::string& prefix) const EXCLUDES(mu_);

  // The same delta, encoded for an UpdateState call (update_state_request.h).
  // While the topic does not change, every caller asking for the same
  // (base, prefix) gets the same shared encoding as long as someone still
  // holds it (the topic keeps only weak references, so an encoding lives no
  // longer than the calls that send it); a change drops them all. At most
  // kMaxEncodedDeltas are remembered (the oldest goes first). Errors only if
  // the delta cannot be encoded.
  Result<std::shared_ptr<const EncodedDelta>> EncodedDeltaFor(int64_t base,
                                                              const std::string& prefix) const
      EXCLUDES(mu_, cache_mu_);
  static constexpr size_t kMaxEncodedDeltas = 8;

  // Drops tombstones older than `retention` whose version is <= `min_processed`
  // (the lowest last_version among current subscribers). Returns the count.
  int CollectTombstones(int64_t min_processed, std::chrono::milliseconds retention,
                        SteadyTime now) EXCLUDES(mu_);

  int64_t last_version() const EXCLUDES(mu_);
  TopicStats Stats() const EXCLUDES(mu_);

 private:
  struct Entry {
    std::shared_ptr<const std::string> value;
    int64_t version = 0;
    bool deleted = false;
    std::string writer;  // registration that wrote it (transient topics)
    SteadyTime written_at;
  };

  void WriteLocked(const std::string& key, std::string value, bool deleted,
                   const std::string& writer, SteadyTime now) REQUIRES(mu_);
  impala::TTopicDelta BuildDeltaLocked(int64_t base, const std::string& prefix) const
      REQUIRES_SHARED(mu_);
  Result<std::shared_ptr<const EncodedDelta>> EncodeDeltaLocked(int64_t base,
                                                                const std::string& prefix) const
      REQUIRES_SHARED(mu_);
  // Calls visit(key, entry) for each entry of the delta from `base` (see
  // BuildDelta), in version order.
  template <typename Visit>
  void ForEachDeltaEntryLocked(int64_t base, const std::string& prefix, Visit&& visit) const
      REQUIRES_SHARED(mu_);
  // Whether a subscriber at `base` gets a full update.
  bool FullUpdateLocked(int64_t base) const REQUIRES_SHARED(mu_);
  // Drops the encoded deltas (the topic changed).
  void ForgetEncodedLocked() REQUIRES(mu_) EXCLUDES(cache_mu_);

  struct CachedDelta {
    int64_t base = 0;  // 0 for a full update
    std::string prefix;
    std::weak_ptr<const EncodedDelta> delta;
  };

  const std::string name_;
  mutable SharedMutex mu_;
  std::unordered_map<std::string, Entry> entries_ GUARDED_BY(mu_);
  // version -> key, one position per key (tombstones included).
  std::map<int64_t, std::string> log_ GUARDED_BY(mu_);
  int64_t last_version_ GUARDED_BY(mu_) = 0;
  // Deltas from a base below this version may miss deletions.
  int64_t history_floor_ GUARDED_BY(mu_) = 0;
  int64_t num_tombstones_ GUARDED_BY(mu_) = 0;
  int64_t key_bytes_ GUARDED_BY(mu_) = 0;
  int64_t value_bytes_ GUARDED_BY(mu_) = 0;

  mutable Mutex cache_mu_ ACQUIRED_AFTER(mu_);
  mutable std::vector<CachedDelta> cache_ GUARDED_BY(cache_mu_);
  mutable size_t cache_next_ GUARDED_BY(cache_mu_) = 0;  // slot replaced when full
};

}  // namespace ics::statestore
