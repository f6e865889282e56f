#include "catalogd/ops/partition_index.h"

#include <algorithm>

namespace ics::catalog::ops {

namespace {

// Most prefixes (products of IN lists) probed before falling back to a
// shorter prefix.
constexpr size_t kMaxProbes = 4096;

int ComparePrefix(const std::vector<HiveValue>& key, const std::vector<HiveValue>& prefix) {
  for (size_t j = 0; j < prefix.size(); ++j) {
    if (ValueLess(key[j], prefix[j])) return -1;
    if (ValueLess(prefix[j], key[j])) return 1;
  }
  return 0;
}

bool BelowLo(const HiveValue& v, const KeyConstraint& c) {
  if (v.is_null()) return true;
  if (!c.lo) return false;
  std::optional<int> cmp = CompareValues(v, *c.lo);
  if (!cmp) return ValueLess(v, *c.lo);
  return *cmp < 0 || (*cmp == 0 && !c.lo_inclusive);
}

bool AboveHi(const HiveValue& v, const KeyConstraint& c) {
  if (v.is_null() || !c.hi) return false;
  std::optional<int> cmp = CompareValues(v, *c.hi);
  if (!cmp) return ValueLess(*c.hi, v);
  return *cmp > 0 || (*cmp == 0 && !c.hi_inclusive);
}

}  // namespace

PartitionIndex::PartitionIndex(std::vector<size_t> positions, std::vector<PartitionKeyInfo> keys)
    : positions_(std::move(positions)), keys_(std::move(keys)) {}

bool PartitionIndex::EntryLess(const Entry& a, const Entry& b) {
  for (size_t j = 0; j < a.key.size(); ++j) {
    if (ValueLess(a.key[j], b.key[j])) return true;
    if (ValueLess(b.key[j], a.key[j])) return false;
  }
  return a.id < b.id;
}

bool PartitionIndex::MakeEntry(const PartitionState& p, Entry* out) const {
  out->id = p.id;
  out->key.clear();
  out->key.reserve(positions_.size());
  const std::vector<std::string> values = p.values();
  for (size_t pos : positions_) {
    if (pos >= values.size()) return false;
    Result<HiveValue> v = ParseStoredValue(keys_[pos].kind, values[pos]);
    if (!v.ok()) return false;
    out->key.push_back(std::move(v).value());
  }
  return true;
}

std::vector<BackfillError> PartitionIndex::Build(const TableState& t) {
  std::vector<Entry> entries;
  entries.reserve(t.partitions.size());
  std::unordered_set<int64_t> ids, unindexed;
  BackfillError type_errors{"INVALID_PARTITION_TYPE_DATA_ERROR", {}};
  BackfillError missing{"MISSING_PARTITION_VALUE_ERROR", {}};
  size_t num_type_errors = 0, num_missing = 0;
  for (const auto& [id, p] : t.partitions) {
    ids.insert(id);
    Entry e;
    if (MakeEntry(*p, &e)) {
      entries.push_back(std::move(e));
      continue;
    }
    unindexed.insert(id);
    std::vector<std::string> values = p->values();
    const bool short_values = values.size() != keys_.size();
    BackfillError& err = short_values ? missing : type_errors;
    size_t& count = short_values ? num_missing : num_type_errors;
    if (++count <= kMaxBackfillExamples) err.partitions.push_back(std::move(values));
  }
  std::sort(entries.begin(), entries.end(), EntryLess);
  MutexLock l(&mu_);
  entries_ = std::move(entries);
  ids_ = std::move(ids);
  unindexed_ = std::move(unindexed);
  version_ = t.version;
  std::vector<BackfillError> errors;
  if (num_type_errors > 0) errors.push_back(std::move(type_errors));
  if (num_missing > 0) errors.push_back(std::move(missing));
  return errors;
}

void PartitionIndex::Sync(const TableState& t) {
  MutexLock l(&mu_);
  SyncLocked(t);
}

void PartitionIndex::SyncLocked(const TableState& t) {
  if (version_ == t.version) return;
  std::unordered_set<int64_t> removed;
  for (int64_t id : ids_) {
    if (t.partitions.count(id) == 0) removed.insert(id);
  }
  std::vector<Entry> added;
  for (const auto& [id, p] : t.partitions) {
    if (ids_.count(id) != 0) continue;
    ids_.insert(id);
    Entry e;
    if (MakeEntry(*p, &e)) {
      added.push_back(std::move(e));
    } else {
      unindexed_.insert(id);
    }
  }
  if (!removed.empty()) {
    for (int64_t id : removed) {
      ids_.erase(id);
      unindexed_.erase(id);
    }
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) { return removed.count(e.id) != 0; }),
                   entries_.end());
  }
  if (!added.empty()) {
    std::sort(added.begin(), added.end(), EntryLess);
    const size_t mid = entries_.size();
    entries_.insert(entries_.end(), std::make_move_iterator(added.begin()),
                    std::make_move_iterator(added.end()));
    std::inplace_merge(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(mid),
                       entries_.end(), EntryLess);
  }
  version_ = t.version;
}

void PartitionIndex::Scan(const std::vector<HiveValue>& prefix, const KeyConstraint* range,
                          std::vector<int64_t>* out) const {
  const size_t m = prefix.size();
  auto before = [&](const Entry& e) {
    const int c = ComparePrefix(e.key, prefix);
    return c < 0 || (c == 0 && range != nullptr && BelowLo(e.key[m], *range));
  };
  auto not_after = [&](const Entry& e) {
    const int c = ComparePrefix(e.key, prefix);
    return c < 0 || (c == 0 && (range == nullptr || !AboveHi(e.key[m], *range)));
  };
  auto first = std::partition_point(entries_.begin(), entries_.end(), before);
  auto last = std::partition_point(first, entries_.end(), not_after);
  for (auto it = first; it != last; ++it) out->push_back(it->id);
}

std::optional<std::vector<int64_t>> PartitionIndex::Lookup(
    const TableState& t, const std::map<size_t, KeyConstraint>& constraints) {
  std::vector<std::vector<HiveValue>> prefixes = {{}};
  const KeyConstraint* range = nullptr;
  bool used = false;
  for (size_t pos : positions_) {
    auto it = constraints.find(pos);
    if (it == constraints.end()) break;
    const KeyConstraint& c = it->second;
    if (c.impossible) return std::vector<int64_t>();
    if (c.points) {
      if (prefixes.size() * c.points->size() > kMaxProbes) break;
      std::vector<std::vector<HiveValue>> next;
      next.reserve(prefixes.size() * c.points->size());
      for (const auto& prefix : prefixes) {
        for (const HiveValue& v : *c.points) {
          next.push_back(prefix);
          next.back().push_back(v);
        }
      }
      prefixes = std::move(next);
      used = true;
      continue;
    }
    if (c.lo || c.hi) {
      range = &c;
      used = true;
    }
    break;
  }
  if (!used) return std::nullopt;
  MutexLock l(&mu_);
  SyncLocked(t);
  std::vector<int64_t> out;
  for (const auto& prefix : prefixes) Scan(prefix, range, &out);
  out.insert(out.end(), unindexed_.begin(), unindexed_.end());
  return out;
}

size_t PartitionIndex::size() const {
  MutexLock l(&mu_);
  return entries_.size();
}

int64_t PartitionIndex::version() const {
  MutexLock l(&mu_);
  return version_;
}

}  // namespace ics::catalog::ops
