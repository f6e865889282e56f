// CompactStringMap: an immutable string -> string map in one heap block.
//
// Partition parameters (numRows, transient_lastDdlTime, ...) are a handful
// of short pairs per partition, and there are millions of partitions. A
// std::map costs a node of ~100 bytes per pair plus the strings; this keeps
// the pairs, in key order, in one block (CompactString): a varint count of
// pairs, then for each pair its key (a common parameter name as its index in
// a fixed list, any other as a varint length and the bytes), a varint value
// length and the value. The object is one pointer. Built from and turned
// back into the Thrift map type (std::map) on the way in and out.
//
// Thread-safety: immutable after construction; share freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "catalogd/catalog/compact_string.h"
#include "common/hive/table_params.h"
#include "common/util/varint.h"

namespace ics::catalog {

class CompactStringMap {
 public:
  CompactStringMap() = default;
  explicit CompactStringMap(const std::map<std::string, std::string>& m) {
    if (m.empty()) return;
    std::string blob;
    PutVarint(m.size(), &blob);
    for (const auto& [k, v] : m) {
      PutKey(k, &blob);
      PutLengthPrefixed(v, &blob);
    }
    blob_ = CompactString(blob);
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
      const std::string_view k = TakeKey(&pos);
      const std::string_view v = Take(&pos);
      fn(k, v);
    }
  }

  // Heap bytes held beyond the object.
  size_t HeapBytes() const { return blob_.HeapBytes(); }

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

  // The blob is only ever written by the constructor, so it is well formed.
  uint64_t Count(size_t* pos) const {
    uint64_t n = 0;
    if (!blob_.empty()) (void)ReadVarint(blob_.view(), pos, &n);
    return n;
  }
  std::string_view TakeKey(size_t* pos) const {
    uint64_t tag = 0;
    (void)ReadVarint(blob_.view(), pos, &tag);
    if ((tag & 1) != 0) return kCommonKeys[tag / 2];
    const std::string_view s = blob_.view().substr(*pos, tag / 2);
    *pos += tag / 2;
    return s;
  }
  std::string_view Take(size_t* pos) const {
    std::string_view s;
    (void)ReadLengthPrefixed(blob_.view(), pos, &s);
    return s;
  }

  CompactString blob_;
};

}  // namespace ics::catalog
