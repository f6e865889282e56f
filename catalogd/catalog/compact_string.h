// CompactString: an immutable string in one heap block behind one pointer.
//
// 8 bytes in its owner where a std::string takes 32, for strings that most
// owners leave empty or build once and never grow (a partition's custom
// location, its parameter blob), held by millions of objects. The block is
// a 4-byte length and the bytes; an empty string holds no block.
//
// Copies are deep. Thread-safety: immutable after construction; share freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace ics::catalog {

class CompactString {
 public:
  CompactString() = default;
  // Throws std::length_error past 4 GiB.
  explicit CompactString(std::string_view s) { Assign(s); }
  CompactString(const CompactString& o) { Assign(o.view()); }
  CompactString& operator=(const CompactString& o) {
    if (this != &o) Assign(o.view());
    return *this;
  }
  CompactString(CompactString&&) noexcept = default;
  CompactString& operator=(CompactString&&) noexcept = default;

  size_t size() const {
    if (block_ == nullptr) return 0;
    uint32_t n;
    std::memcpy(&n, block_.get(), sizeof(n));
    return n;
  }
  bool empty() const { return block_ == nullptr; }
  std::string_view view() const {
    return block_ == nullptr ? std::string_view() : std::string_view(block_.get() + 4, size());
  }
  // Bytes of the heap block (0 when empty).
  size_t HeapBytes() const { return block_ == nullptr ? 0 : sizeof(uint32_t) + size(); }

  bool operator==(const CompactString& o) const { return view() == o.view(); }
  bool operator!=(const CompactString& o) const { return !(*this == o); }

 private:
  void Assign(std::string_view s) {
    if (s.empty()) {
      block_.reset();
      return;
    }
    if (s.size() > UINT32_MAX) throw std::length_error("CompactString: over 4 GiB");
    const auto n = static_cast<uint32_t>(s.size());
    block_.reset(new char[sizeof(n) + s.size()]);
    std::memcpy(block_.get(), &n, sizeof(n));
    std::memcpy(block_.get() + sizeof(n), s.data(), s.size());
  }

  std::unique_ptr<char[]> block_;
};

}  // namespace ics::catalog
