// PartitionIndex: an in-memory index of one table's partitions over some of
// its partition keys (in the index's key order), sorted by the typed key
// values, so a listing whose filter pins a prefix of those keys (=, IN) and
// optionally bounds the next one (<, <=, >, >=, BETWEEN) finds its
// candidates with binary searches instead of a scan.
//
// The index follows the table's immutable states: Build() indexes one
// state; Sync() brings it to another by the difference in partition ids (a
// changed partition always gets a new id), so it costs one pass over the
// ids and sorted inserts of what changed.
//
// Thread-safety: thread-safe (one internal mutex; Lookup syncs first).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/ops/partition_predicate.h"
#include "common/util/mutex.h"

namespace ics::catalog::ops {

// Partitions an index could not take (Build), by reason.
struct BackfillError {
  std::string code;  // INVALID_PARTITION_TYPE_DATA_ERROR, MISSING_PARTITION_VALUE_ERROR
  std::vector<std::vector<std::string>> partitions;  // at most kMaxBackfillExamples
};
inline constexpr size_t kMaxBackfillExamples = 10;

class PartitionIndex {
 public:
  // `positions`: the indexed keys' positions among the table's keys, in
  // index order; `keys`: all partition keys of the table.
  PartitionIndex(std::vector<size_t> positions, std::vector<PartitionKeyInfo> keys);

  // Indexes every partition of `t`; returns the partitions it could not
  // index (the index is then incomplete and must not be used).
  std::vector<BackfillError> Build(const TableState& t) EXCLUDES(mu_);

  // Candidate partition ids of `t` (synced to first) for `constraints`
  // (by table key position); nullopt when they do not constrain the first
  // indexed key, so the index cannot help.
  std::optional<std::vector<int64_t>> Lookup(const TableState& t,
                                             const std::map<size_t, KeyConstraint>& constraints)
      EXCLUDES(mu_);

  // Brings the index to `t`.
  void Sync(const TableState& t) EXCLUDES(mu_);

  size_t size() const EXCLUDES(mu_);
  int64_t version() const EXCLUDES(mu_);

 private:
  struct Entry {
    std::vector<HiveValue> key;
    int64_t id = 0;
  };
  static bool EntryLess(const Entry& a, const Entry& b);

  // The entry of a partition; false if a value does not parse.
  bool MakeEntry(const PartitionState& p, Entry* out) const;
  void SyncLocked(const TableState& t) REQUIRES(mu_);
  void Scan(const std::vector<HiveValue>& prefix, const KeyConstraint* range,
            std::vector<int64_t>* out) const REQUIRES(mu_);

  const std::vector<size_t> positions_;
  const std::vector<PartitionKeyInfo> keys_;

  mutable Mutex mu_;
  int64_t version_ GUARDED_BY(mu_) = -1;
  std::vector<Entry> entries_ GUARDED_BY(mu_);             // sorted by EntryLess
  std::unordered_set<int64_t> ids_ GUARDED_BY(mu_);        // every partition id seen
  std::unordered_set<int64_t> unindexed_ GUARDED_BY(mu_);  // ids whose values do not parse
};

}  // namespace ics::catalog::ops
