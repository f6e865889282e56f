// FileDescList: the file descriptors (FbFileDesc buffers) of one partition,
// packed.
//
// A partition with many files used to hold a std::string per descriptor: a
// 32-byte string object plus a heap block of its own for each file. Here
// the partition's descriptors are one heap block: a 16-byte header, a 4-byte
// end offset per descriptor, then the descriptor bytes back to back, so the
// list is one pointer and one allocation, and a file costs its descriptor
// bytes and 4 bytes. Descriptors are handed out as string_views into the buffer; the
// wire forms (THdfsFileDesc.file_desc_data) copy them unchanged.
//
// Building: push_back appends (amortized growth); shrink_to_fit drops the
// slack once the list is complete (the loader calls it). Views are
// invalidated by push_back/clear/shrink_to_fit, like iterators of a vector.
//
// Copies are deep (and exact: no slack). Thread-safety: as std::vector
// (const use from any number of threads).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace ics::catalog {

class FileDescList {
 public:
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;

    const_iterator() = default;
    std::string_view operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    difference_type operator-(const const_iterator& o) const {
      return static_cast<difference_type>(i_) - static_cast<difference_type>(o.i_);
    }

   private:
    friend class FileDescList;
    const_iterator(const FileDescList* list, size_t i) : list_(list), i_(i) {}
    const FileDescList* list_ = nullptr;
    size_t i_ = 0;
  };

  FileDescList() = default;
  FileDescList(const FileDescList& o) { *this = o; }
  FileDescList& operator=(const FileDescList& o) {
    if (this == &o) return *this;
    if (o.block_ == nullptr) {
      block_.reset();
      return *this;
    }
    const Header h = o.header();
    // Exact capacities: a copy has no slack.
    Allocate(h.count, h.bytes);
    std::memcpy(ends(), o.ends(), h.count * sizeof(uint32_t));
    std::memcpy(bytes(), o.bytes(), h.bytes);
    Header& mine = header();
    mine.count = h.count;
    mine.bytes = h.bytes;
    return *this;
  }
  FileDescList(FileDescList&&) noexcept = default;
  FileDescList& operator=(FileDescList&&) noexcept = default;

  size_t size() const { return block_ == nullptr ? 0 : header().count; }
  bool empty() const { return size() == 0; }
  std::string_view operator[](size_t i) const {
    const uint32_t* e = ends();
    const uint32_t begin = i == 0 ? 0 : e[i - 1];
    return std::string_view(bytes() + begin, e[i] - begin);
  }
  std::string_view at(size_t i) const {
    if (i >= size()) throw std::out_of_range("FileDescList::at");
    return (*this)[i];
  }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // Appends one descriptor. The list holds at most 4 GiB of descriptor
  // bytes and 2^30 descriptors (a partition's listing is bounded far below).
  void push_back(std::string_view desc) {
    const Header h = block_ == nullptr ? Header{} : header();
    if (h.bytes + desc.size() > kMaxBytes || h.count >= kMaxCount) {
      throw std::length_error("FileDescList is full");
    }
    const uint64_t need_bytes = h.bytes + desc.size();
    if (h.count == h.ends_capacity || need_bytes > h.bytes_capacity) {
      Grow(std::max<uint64_t>(h.ends_capacity, h.count + 1),
           std::max<uint64_t>(h.bytes_capacity, need_bytes), /*geometric=*/true);
    }
    Header& mine = header();
    std::memcpy(bytes() + mine.bytes, desc.data(), desc.size());
    mine.bytes = static_cast<uint32_t>(need_bytes);
    ends()[mine.count] = mine.bytes;
    ++mine.count;
  }
  void reserve(size_t n) {
    const Header h = block_ == nullptr ? Header{} : header();
    if (n > h.ends_capacity && n <= kMaxCount) Grow(n, h.bytes_capacity, /*geometric=*/false);
  }
  void clear() { block_.reset(); }
  void shrink_to_fit() {
    if (block_ == nullptr) return;
    const Header h = header();
    if (h.count == 0) {
      block_.reset();
    } else if (h.ends_capacity != h.count || h.bytes_capacity != h.bytes) {
      Grow(h.count, h.bytes, /*geometric=*/false);
    }
  }

  // Heap bytes held beyond the object.
  size_t HeapBytes() const {
    if (block_ == nullptr) return 0;
    const Header h = header();
    return BlockSize(h.ends_capacity, h.bytes_capacity);
  }

  bool operator==(const FileDescList& o) const {
    const size_t n = size();
    if (n != o.size()) return false;
    if (n == 0) return true;
    return std::memcmp(ends(), o.ends(), n * sizeof(uint32_t)) == 0 &&
           std::memcmp(bytes(), o.bytes(), header().bytes) == 0;
  }
  bool operator!=(const FileDescList& o) const { return !(*this == o); }

 private:
  // One heap block: this header, ends_capacity end offsets, then the
  // descriptor bytes.
  struct Header {
    uint32_t count = 0;
    uint32_t bytes = 0;
    uint32_t ends_capacity = 0;
    uint32_t bytes_capacity = 0;
  };
  static constexpr uint64_t kMaxBytes = UINT32_MAX;
  static constexpr uint64_t kMaxCount = uint64_t{1} << 30;

  static size_t BlockSize(uint64_t ends_capacity, uint64_t bytes_capacity) {
    return sizeof(Header) + ends_capacity * sizeof(uint32_t) + bytes_capacity;
  }
  Header& header() { return *reinterpret_cast<Header*>(block_.get()); }
  const Header& header() const { return *reinterpret_cast<const Header*>(block_.get()); }
  uint32_t* ends() { return reinterpret_cast<uint32_t*>(block_.get() + sizeof(Header)); }
  const uint32_t* ends() const {
    return reinterpret_cast<const uint32_t*>(block_.get() + sizeof(Header));
  }
  char* bytes() { return block_.get() + sizeof(Header) + header().ends_capacity * sizeof(uint32_t); }
  const char* bytes() const {
    return block_.get() + sizeof(Header) + header().ends_capacity * sizeof(uint32_t);
  }

  // A new empty block with exactly these capacities.
  void Allocate(uint64_t ends_capacity, uint64_t bytes_capacity) {
    block_.reset(new char[BlockSize(ends_capacity, bytes_capacity)]);
    Header& h = header();
    h = Header{};
    h.ends_capacity = static_cast<uint32_t>(ends_capacity);
    h.bytes_capacity = static_cast<uint32_t>(bytes_capacity);
  }
  // Moves the contents into a block of at least these capacities (doubled
  // when geometric, for amortized appends).
  void Grow(uint64_t ends_capacity, uint64_t bytes_capacity, bool geometric) {
    const Header old = block_ == nullptr ? Header{} : header();
    if (geometric) {
      if (ends_capacity > old.ends_capacity) {
        ends_capacity = std::max<uint64_t>(ends_capacity, 2 * uint64_t{old.ends_capacity});
      }
      if (bytes_capacity > old.bytes_capacity) {
        bytes_capacity = std::max<uint64_t>(bytes_capacity, 2 * uint64_t{old.bytes_capacity});
      }
    }
    ends_capacity = std::min(ends_capacity, kMaxCount);
    bytes_capacity = std::min(bytes_capacity, kMaxBytes);
    std::unique_ptr<char[]> prev = std::move(block_);
    Allocate(ends_capacity, bytes_capacity);
    if (prev != nullptr) {
      const char* prev_ends = prev.get() + sizeof(Header);
      const char* prev_bytes = prev_ends + old.ends_capacity * sizeof(uint32_t);
      std::memcpy(ends(), prev_ends, old.count * sizeof(uint32_t));
      std::memcpy(bytes(), prev_bytes, old.bytes);
      Header& h = header();
      h.count = old.count;
      h.bytes = old.bytes;
    }
  }

  std::unique_ptr<char[]> block_;
};

}  // namespace ics::catalog
