// CompactStringMap: a read-only view of a string -> string map encoded in a
// few bytes.
//
// Partition parameters (numRows, transient_lastDdlTime, ...) are a handful
// of short pairs per partition, and there are millions of partitions. A
// std::map costs a node of ~100 bytes per pair plus the strings; Encode
// writes the pairs, in key order, as a varint count of pairs, then for each
// pair its key (a common parameter name as its index in a fixed list, any
// other as a varint length and the bytes), a varint value length and the
// value. The owner keeps those bytes (a partition, in its PartitionStrings
// block); this class reads them and turns them back into the Thrift map
// type (std::map) on the way out. Reading is bounds-checked: bytes that
// were not written by Encode read as fewer pairs, never past their end.
//
// A view is valid as long as the bytes it views. Thread-safety: const use
// from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/hive/table_params.h"
#include "common/util/varint.h"

namespace ics::catalog {

class CompactStringMap {
 public:
  CompactStringMap() = default;
  // Views bytes written by Encode.
  explicit CompactStringMap(std::string_view encoded) : blob_(encoded) {}

  // The encoding of `m` (empty for an empty map).
  static std::string Encode(const std::map<std::string, std::string>& m) {
    std::string blob;
    if (m.empty()) return blob;
    PutVarint(m.size(), &blob);
    for (const auto& [k, v] : m) {
      PutKey(k, &blob);
      PutLengthPrefixed(v, &blob);
    }
    return blob;
  }

  size_t size() const {
    size_t pos = 0;
    return static_cast<size_t>(Count(&pos));
  }
  bool empty() const { return blob_.empty(); }

  std::map<std::string, std::string> ToMap() const {
    std::map<std::string, std::string> m;
    ForEach([&](std::string_view k, std::string_view v) {
      m.emplace_hint(m.end(), std::string(k), std::string(v));
    });
    return m;
  }

  // *out = ToMap(), reusing out's nodes and buffers when it already holds
  // the same keys (as one table's partitions' parameters usually do).
  void AssignTo(std::map<std::string, std::string>* out) const {
    if (out->size() == size()) {
      auto it = out->begin();
      bool same = true;
      ForEach([&](std::string_view k, std::string_view v) {
        if (!same || it->first != k) {
          same = false;
          return;
        }
        it->second.assign(v.data(), v.size());
        ++it;
      });
      if (same) return;
    }
    *out = ToMap();
  }

  // The value of `key`, if present.
  std::optional<std::string_view> Find(std::string_view key) const {
    std::optional<std::string_view> out;
    ForEach([&](std::string_view k, std::string_view v) {
      if (!out && k == key) out = v;
    });
    return out;
  }

  // Calls fn(key, value) for every pair in key order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    size_t pos = 0;
    for (uint64_t i = Count(&pos); i > 0; --i) {
      std::string_view k, v;
      if (!TakeKey(&pos, &k) || !ReadLengthPrefixed(blob_, &pos, &v)) return;
      fn(k, v);
    }
  }

  // The encoded bytes.
  std::string_view encoded() const { return blob_; }

  bool operator==(const CompactStringMap& o) const { return blob_ == o.blob_; }
  bool operator!=(const CompactStringMap& o) const { return !(*this == o); }

 private:
  // Keys most partitions and tables carry (Hive's and Impala's statistics
  // and bookkeeping parameters), stored as their index here.
  static constexpr std::string_view kCommonKeys[] = {
      "COLUMN_STATS_ACCURATE",
      kExternalParam,
      "impala.events.catalogServiceId",
      "impala.events.catalogVersion",
      "impala.lastComputeStatsTime",
      "last_modified_by",
      "last_modified_time",
      kNumFilesParam,
      "numFilesErasureCoded",
      kNumRowsParam,
      "rawDataSize",
      "spark.sql.create.version",
      "spark.sql.sources.schema.numParts",
      "spark.sql.statistics.numRows",
      "spark.sql.statistics.totalSize",
      kTotalSizeParam,
      kLastDdlTimeParam,
  };
  static constexpr uint64_t kNumCommonKeys = sizeof(kCommonKeys) / sizeof(kCommonKeys[0]);

  // A key is a varint tag: odd, 2 * index + 1 into kCommonKeys; even,
  // 2 * length, followed by the key's bytes.
  static void PutKey(std::string_view k, std::string* blob) {
    for (uint64_t i = 0; i < kNumCommonKeys; ++i) {
      if (kCommonKeys[i] == k) {
        PutVarint(2 * i + 1, blob);
        return;
      }
    }
    PutVarint(2 * uint64_t{k.size()}, blob);
    *blob += k;
  }

  uint64_t Count(size_t* pos) const {
    uint64_t n = 0;
    if (!blob_.empty() && !ReadVarint(blob_, pos, &n)) return 0;
    return n;
  }
  // Reads a key at *pos; false when the bytes are not a key.
  bool TakeKey(size_t* pos, std::string_view* key) const {
    uint64_t tag = 0;
    if (!ReadVarint(blob_, pos, &tag)) return false;
    if ((tag & 1) != 0) {
      if (tag / 2 >= kNumCommonKeys) return false;
      *key = kCommonKeys[tag / 2];
      return true;
    }
    if (tag / 2 > blob_.size() - *pos) return false;
    *key = blob_.substr(*pos, tag / 2);
    *pos += tag / 2;
    return true;
  }

  std::string_view blob_;
};

}  // namespace ics::catalog
