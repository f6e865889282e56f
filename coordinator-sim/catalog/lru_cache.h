// ByteLruCache: the on-demand catalog's cache — string keys to cached
// metadata values, bounded by an estimate of the bytes the values hold, with
// least-recently-used eviction and expire-after-access.
//
// Each entry carries the catalog version of the object it holds (0 when the
// object has none), so invalidations can leave a newer cached copy alone.
// Keys are ordered, so everything under a name prefix (a table's partitions,
// a database's tables) can be dropped at once.
//
// Thread-safety: not thread-safe; the owner (OnDemandCatalog) guards it.
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "CatalogService_types.h"
#include "coordinator-sim/catalog/local_catalog.h"

namespace ics::coord {

// A cached partition and what was fetched with it.
struct PartitionSlot {
  std::shared_ptr<const LocalPartition> part;
  bool has_files = false;
  bool has_stats = false;
};

// Name lists (databases, tables of a db), a database, a table, a partition,
// the functions of a db.
using CacheValue =
    std::variant<std::vector<std::string>, hive::Database, std::shared_ptr<const LocalTable>,
                 PartitionSlot, std::vector<impala::TFunction>>;

class ByteLruCache {
 public:
  using Clock = std::chrono::steady_clock;

  // expiry <= 0: entries never expire.
  ByteLruCache(int64_t capacity_bytes, std::chrono::seconds expiry);
  ByteLruCache(const ByteLruCache&) = delete;
  ByteLruCache& operator=(const ByteLruCache&) = delete;

  // The live value under `key`, marked most recently used; nullptr when
  // absent or expired (an expired entry is dropped and counted as evicted).
  // The pointer is valid until the next mutating call.
  const CacheValue* Get(const std::string& key, Clock::time_point now);
  // Like Get without touching recency or expiry; also returns the version.
  const CacheValue* Peek(const std::string& key, int64_t* version = nullptr) const;

  // Inserts or replaces, then evicts least recently used entries until the
  // total is within capacity. A value larger than the whole capacity is not
  // kept (returns false).
  bool Put(const std::string& key, CacheValue value, int64_t bytes, int64_t version,
           Clock::time_point now);

  // Removal; each returns how many entries it dropped.
  int64_t Erase(const std::string& key);
  int64_t ErasePrefix(std::string_view prefix);
  int64_t Clear();

  // Calls fn(key, value, bytes, version) for every entry in key order,
  // without touching recency or expiry (for debug listings).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const auto& [key, e] : entries_) fn(key, e.value, e.bytes, e.version);
  }

  int64_t bytes() const { return bytes_; }
  int64_t size() const { return static_cast<int64_t>(entries_.size()); }
  int64_t evictions() const { return evictions_; }
  int64_t capacity() const { return capacity_; }

 private:
  struct Entry {
    CacheValue value;
    int64_t bytes = 0;
    int64_t version = 0;
    Clock::time_point last_access;
    std::list<std::string>::iterator lru;  // position in lru_
  };
  using Map = std::map<std::string, Entry, std::less<>>;

  Map::iterator EraseIt(Map::iterator it);

  const int64_t capacity_;
  const std::chrono::seconds expiry_;
  Map entries_;
  std::list<std::string> lru_;  // front = most recently used
  int64_t bytes_ = 0;
  int64_t evictions_ = 0;
};

}  // namespace ics::coord
