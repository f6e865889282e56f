#include "statestore/topic.h"

#include <algorithm>

namespace ics::statestore {

void Topic::WriteLocked(const std::string& key, std::string value, bool deleted,
                        const std::string& writer, SteadyTime now) {
  const int64_t version = ++last_version_;
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    // A delete of an unknown key still leaves a tombstone: a subscriber may
    // hold the key from before a clear.
    it = entries_.emplace(key, Entry{}).first;
    key_bytes_ += static_cast<int64_t>(key.size());
  } else {
    log_.erase(it->second.version);
    if (it->second.value) value_bytes_ -= static_cast<int64_t>(it->second.value->size());
    if (it->second.deleted) --num_tombstones_;
  }
  Entry& e = it->second;
  value_bytes_ += static_cast<int64_t>(value.size());
  e.value = std::make_shared<const std::string>(std::move(value));
  e.version = version;
  e.deleted = deleted;
  e.writer = writer;
  e.written_at = now;
  if (deleted) ++num_tombstones_;
  log_.emplace(version, key);
}

int64_t Topic::Apply(std::vector<TopicWrite> writes, const std::string& writer, bool transient,
                     SteadyTime now) {
  WriterLock l(&mu_);
  if (!writes.empty()) ForgetEncodedLocked();
  for (TopicWrite& w : writes) {
    WriteLocked(w.key, std::move(w.value), w.deleted, transient ? writer : std::string(), now);
  }
  return last_version_;
}

void Topic::ClearAll() {
  WriterLock l(&mu_);
  ForgetEncodedLocked();
  entries_.clear();
  log_.clear();
  num_tombstones_ = key_bytes_ = value_bytes_ = 0;
  // The clear takes a version of its own: subscribers below it get one full
  // update, and once they processed it, deltas again.
  history_floor_ = ++last_version_;
}

int Topic::RemoveEntriesOf(const std::string& writer, SteadyTime now) {
  if (writer.empty()) return 0;
  WriterLock l(&mu_);
  std::vector<std::string> keys;
  for (const auto& [key, e] : entries_) {
    if (!e.deleted && e.writer == writer) keys.push_back(key);
  }
  // Deterministic order (by key) keeps versions reproducible in tests.
  std::sort(keys.begin(), keys.end());
  if (!keys.empty()) ForgetEncodedLocked();
  for (const std::string& key : keys) WriteLocked(key, "", /*deleted=*/true, "", now);
  return static_cast<int>(keys.size());
}

int64_t Topic::CountEntriesOf(const std::string& writer) const {
  if (writer.empty()) return 0;
  ReaderLock l(&mu_);
  int64_t n = 0;
  for (const auto& [key, e] : entries_) n += (!e.deleted && e.writer == writer) ? 1 : 0;
  return n;
}

impala::TTopicDelta Topic::BuildDelta(int64_t base, const std::string& prefix) const {
  ReaderLock l(&mu_);
  return BuildDeltaLocked(base, prefix);
}

bool Topic::FullUpdateLocked(int64_t base) const {
  return base <= 0 || base < history_floor_ || base > last_version_;
}

Result<std::shared_ptr<const EncodedDelta>> Topic::EncodedDeltaFor(
    int64_t base, const std::string& prefix) const {
  ReaderLock l(&mu_);
  const int64_t key = FullUpdateLocked(base) ? 0 : base;
  MutexLock c(&cache_mu_);
  size_t slot = cache_.size() < kMaxEncodedDeltas ? cache_.size() : cache_next_;
  for (size_t i = 0; i < cache_.size(); ++i) {
    CachedDelta& d = cache_[i];
    if (d.base != key || d.prefix != prefix) continue;
    if (std::shared_ptr<const EncodedDelta> held = d.delta.lock()) return held;
    slot = i;  // encoded before, but nobody holds it any more
    break;
  }
  // Encoded under cache_mu_: workers asking for the same delta at once wait
  // for this one instead of encoding it again.
  Result<std::shared_ptr<const EncodedDelta>> encoded = EncodeDeltaLocked(key, prefix);
  if (!encoded.ok()) return encoded;
  CachedDelta entry{key, prefix, encoded.value()};
  if (slot == cache_.size()) {
    cache_.push_back(std::move(entry));
  } else {
    if (slot == cache_next_) cache_next_ = (cache_next_ + 1) % kMaxEncodedDeltas;
    cache_[slot] = std::move(entry);
  }
  return encoded;
}

void Topic::ForgetEncodedLocked() {
  MutexLock c(&cache_mu_);
  cache_.clear();
  cache_next_ = 0;
}

template <typename Visit>
void Topic::ForEachDeltaEntryLocked(int64_t base, const std::string& prefix, Visit&& visit) const {
  const bool full = FullUpdateLocked(base);
  for (auto it = log_.upper_bound(full ? 0 : base); it != log_.end(); ++it) {
    const std::string& key = it->second;
    if (key.compare(0, prefix.size(), prefix) != 0) continue;
    const Entry& e = entries_.at(key);
    if (full && e.deleted) continue;
    visit(key, e);
  }
}

impala::TTopicDelta Topic::BuildDeltaLocked(int64_t base, const std::string& prefix) const {
  impala::TTopicDelta delta;
  delta.topic_name = name_;
  const bool full = FullUpdateLocked(base);
  delta.is_delta = !full;
  delta.__set_from_version(full ? 0 : base);
  delta.__set_to_version(last_version_);
  ForEachDeltaEntryLocked(base, prefix, [&](const std::string& key, const Entry& e) {
    impala::TTopicItem item;
    item.key = key;
    item.value = *e.value;
    item.deleted = e.deleted;
    delta.topic_entries.push_back(std::move(item));
  });
  return delta;
}

Result<std::shared_ptr<const EncodedDelta>> Topic::EncodeDeltaLocked(
    int64_t base, const std::string& prefix) const {
  const bool full = FullUpdateLocked(base);
  int64_t entries = 0;
  size_t bytes = 0;
  ForEachDeltaEntryLocked(base, prefix, [&](const std::string& key, const Entry& e) {
    ++entries;
    bytes += key.size() + e.value->size();
  });
  DeltaEncoder enc(name_, !full, full ? 0 : base, last_version_, entries, bytes);
  ForEachDeltaEntryLocked(base, prefix, [&](const std::string& key, const Entry& e) {
    enc.Add(key, *e.value, e.deleted);
  });
  return enc.Finish();
}

int Topic::CollectTombstones(int64_t min_processed, std::chrono::milliseconds retention,
                             SteadyTime now) {
  WriterLock l(&mu_);
  int dropped = 0;
  for (auto it = log_.begin(); it != log_.end() && it->first <= min_processed;) {
    auto e = entries_.find(it->second);
    if (e->second.deleted && now - e->second.written_at >= retention) {
      history_floor_ = std::max(history_floor_, it->first);
      key_bytes_ -= static_cast<int64_t>(it->second.size());
      value_bytes_ -= static_cast<int64_t>(e->second.value->size());
      --num_tombstones_;
      entries_.erase(e);
      it = log_.erase(it);
      ++dropped;
    } else {
      ++it;
    }
  }
  // A dropped tombstone moves the history floor: some bases now get a full
  // update instead of the delta encoded before.
  if (dropped > 0) ForgetEncodedLocked();
  return dropped;
}

int64_t Topic::last_version() const {
  ReaderLock l(&mu_);
  return last_version_;
}

TopicStats Topic::Stats() const {
  ReaderLock l(&mu_);
  TopicStats s;
  s.name = name_;
  s.last_version = last_version_;
  s.history_floor = history_floor_;
  s.oldest_version = log_.empty() ? 0 : log_.begin()->first;
  s.num_tombstones = num_tombstones_;
  s.num_entries = static_cast<int64_t>(entries_.size()) - num_tombstones_;
  s.key_bytes = key_bytes_;
  s.value_bytes = value_bytes_;
  return s;
}

}  // namespace ics::statestore
