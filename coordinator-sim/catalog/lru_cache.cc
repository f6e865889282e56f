#include "coordinator-sim/catalog/lru_cache.h"

namespace ics::coord {

namespace {
// Per-entry bookkeeping (map node, key copies, list node).
constexpr int64_t kEntryOverhead = 128;
}  // namespace

ByteLruCache::ByteLruCache(int64_t capacity_bytes, std::chrono::seconds expiry)
    : capacity_(capacity_bytes), expiry_(expiry) {}

const CacheValue* ByteLruCache::Get(const std::string& key, Clock::time_point now) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  Entry& e = it->second;
  if (expiry_.count() > 0 && now - e.last_access >= expiry_) {
    EraseIt(it);
    ++evictions_;
    return nullptr;
  }
  e.last_access = now;
  lru_.splice(lru_.begin(), lru_, e.lru);
  return &e.value;
}

const CacheValue* ByteLruCache::Peek(const std::string& key, int64_t* version) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  if (version != nullptr) *version = it->second.version;
  return &it->second.value;
}

bool ByteLruCache::Put(const std::string& key, CacheValue value, int64_t bytes, int64_t version,
                       Clock::time_point now) {
  const int64_t total = bytes + kEntryOverhead + 2 * static_cast<int64_t>(key.size());
  Erase(key);
  if (total > capacity_) return false;
  lru_.push_front(key);
  Entry e;
  e.value = std::move(value);
  e.bytes = total;
  e.version = version;
  e.last_access = now;
  e.lru = lru_.begin();
  entries_.emplace(key, std::move(e));
  bytes_ += total;
  while (bytes_ > capacity_ && !lru_.empty()) {
    auto victim = entries_.find(lru_.back());
    EraseIt(victim);
    ++evictions_;
  }
  return true;
}

ByteLruCache::Map::iterator ByteLruCache::EraseIt(Map::iterator it) {
  bytes_ -= it->second.bytes;
  lru_.erase(it->second.lru);
  return entries_.erase(it);
}

int64_t ByteLruCache::Erase(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return 0;
  EraseIt(it);
  return 1;
}

int64_t ByteLruCache::ErasePrefix(std::string_view prefix) {
  int64_t n = 0;
  for (auto it = entries_.lower_bound(prefix);
       it != entries_.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;) {
    it = EraseIt(it);
    ++n;
  }
  return n;
}

int64_t ByteLruCache::Clear() {
  const int64_t n = size();
  entries_.clear();
  lru_.clear();
  bytes_ = 0;
  return n;
}

}  // namespace ics::coord
