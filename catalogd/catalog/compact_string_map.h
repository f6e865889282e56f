// CompactStringMap: an immutable string -> string map in one heap block.
//
// Partition parameters (numRows, transient_lastDdlTime, ...) are a handful
// of short pairs per partition, and there are millions of partitions. A
// std::map costs a node of ~100 bytes per pair plus the strings; this keeps
// the pairs, in key order, in one block (CompactString): for each pair a varint key
// length, the key, a varint value length, the value. Built from and turned
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
#include "common/util/varint.h"

namespace ics::catalog {

class CompactStringMap {
 public:
  CompactStringMap() = default;
  explicit CompactStringMap(const std::map<std::string, std::string>& m) {
    std::string blob;
    for (const auto& [k, v] : m) {
      Put(k, &blob);
      Put(v, &blob);
    }
    blob_ = CompactString(blob);
    size_ = static_cast<uint32_t>(m.size());
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::map<std::string, std::string> ToMap() const {
    std::map<std::string, std::string> m;
    ForEach([&](std::string_view k, std::string_view v) {
      m.emplace_hint(m.end(), std::string(k), std::string(v));
    });
    return m;
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
    for (size_t i = 0; i < size_; ++i) {
      const std::string_view k = Take(&pos);
      const std::string_view v = Take(&pos);
      fn(k, v);
    }
  }

  // Heap bytes held beyond the object.
  size_t HeapBytes() const { return blob_.HeapBytes(); }

  bool operator==(const CompactStringMap& o) const { return size_ == o.size_ && blob_ == o.blob_; }
  bool operator!=(const CompactStringMap& o) const { return !(*this == o); }

 private:
  static void Put(const std::string& s, std::string* blob) {
    PutVarint(s.size(), blob);
    *blob += s;
  }
  // The blob is only ever written by Put, so it is well formed.
  std::string_view Take(size_t* pos) const {
    const std::string_view blob = blob_.view();
    uint64_t n = 0;
    (void)ReadVarint(blob, pos, &n);
    const std::string_view s(blob.data() + *pos, n);
    *pos += n;
    return s;
  }

  CompactString blob_;
  uint32_t size_ = 0;
};

}  // namespace ics::catalog
