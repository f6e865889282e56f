// FileDescList: the file descriptors (FbFileDesc buffers) of one partition,
// delta-encoded in one heap block.
//
// The files of one partition are usually written by one job: their
// descriptors have the same length and differ in a few bytes (a task number
// in the name, the low bytes of the length and the modification time). So
// each descriptor is stored as the byte ranges where it differs from the one
// before it, and a whole descriptor only where that is not smaller, at the
// start, and at every kKeyEvery-th entry (a key, so that Copy(i) decodes at
// most kKeyEvery entries). The encoding depends only on the descriptors, so
// equal lists have equal bytes. Decoding gives back every descriptor byte
// for byte; the wire forms (THdfsFileDesc.file_desc_data) are unchanged.
//
// Layout of the block: a 16-byte header, a 4-byte offset per key, then the
// encoded entries. An entry starts with a varint h. Even h: a whole
// descriptor of h/2 bytes follows. Odd h: h/2 edits of the previous
// descriptor follow, each a varint count of bytes kept, a varint count of
// bytes replaced, and the replacing bytes; what the edits do not reach is
// kept. The list is one pointer and one allocation.
//
// Reading: iterate (each step decodes one entry; the view returned by the
// iterator lives in the iterator and is valid until it advances), or Copy(i).
// Building: Builder (what the loader uses), or push_back, which appends
// (amortized growth) and decodes the last entry to encode against it;
// shrink_to_fit drops the slack once the list is complete.
//
// Copies are deep (and exact: no slack). Thread-safety: as std::vector
// (const use from any number of threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ics::catalog {

class FileDescList {
 public:
  // Entries between keys (whole descriptors that decoding can start from).
  static constexpr size_t kKeyEvery = 16;

  // An input iterator that holds the current descriptor.
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;

    const_iterator() = default;
    // Valid until this iterator advances or is destroyed.
    std::string_view operator*() const { return current_; }
    const_iterator& operator++();
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    friend class FileDescList;
    const_iterator(const FileDescList* list, size_t i);
    const FileDescList* list_ = nullptr;
    size_t i_ = 0;
    size_t pos_ = 0;  // offset of the next entry in the encoded bytes
    std::string current_;
  };

  // Builds a list by appending, holding the last descriptor so that each
  // append encodes against it without decoding (push_back decodes it).
  // Finish() returns the list with exact capacities and resets the builder.
  class Builder {
   public:
    // Throws std::length_error past the list's limits (see push_back).
    void Add(std::string_view desc);
    FileDescList Finish();

   private:
    std::string bytes_;
    std::vector<uint32_t> keys_;
    std::string last_;
    uint64_t count_ = 0;
  };

  FileDescList() = default;
  FileDescList(const FileDescList& o) { *this = o; }
  FileDescList& operator=(const FileDescList& o);
  FileDescList(FileDescList&&) noexcept = default;
  FileDescList& operator=(FileDescList&&) noexcept = default;

  size_t size() const { return block_ == nullptr ? 0 : header().count; }
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // Descriptor i, decoded. Throws std::out_of_range when i >= size().
  std::string Copy(size_t i) const;

  // Appends one descriptor. The list holds at most 4 GiB of encoded bytes
  // and 2^30 descriptors (a partition's listing is bounded far below);
  // beyond that it throws std::length_error and is unchanged.
  void push_back(std::string_view desc);
  // Room for n descriptors' key offsets (the bytes grow as needed).
  void reserve(size_t n);
  void clear() { block_.reset(); }
  void shrink_to_fit();

  // Heap bytes held beyond the object.
  size_t HeapBytes() const;

  bool operator==(const FileDescList& o) const;
  bool operator!=(const FileDescList& o) const { return !(*this == o); }

 private:
  struct Header {
    uint32_t count = 0;
    uint32_t bytes = 0;  // encoded bytes in use
    uint32_t keys_capacity = 0;
    uint32_t bytes_capacity = 0;
  };
  static constexpr uint64_t kMaxBytes = UINT32_MAX;
  static constexpr uint64_t kMaxCount = uint64_t{1} << 30;

  static size_t KeysFor(uint64_t count) { return (count + kKeyEvery - 1) / kKeyEvery; }
  static size_t BlockSize(uint64_t keys_capacity, uint64_t bytes_capacity) {
    return sizeof(Header) + keys_capacity * sizeof(uint32_t) + bytes_capacity;
  }
  Header& header() { return *reinterpret_cast<Header*>(block_.get()); }
  const Header& header() const { return *reinterpret_cast<const Header*>(block_.get()); }
  uint32_t* keys() { return reinterpret_cast<uint32_t*>(block_.get() + sizeof(Header)); }
  const uint32_t* keys() const {
    return reinterpret_cast<const uint32_t*>(block_.get() + sizeof(Header));
  }
  char* bytes() { return block_.get() + sizeof(Header) + header().keys_capacity * sizeof(uint32_t); }
  const char* bytes() const {
    return block_.get() + sizeof(Header) + header().keys_capacity * sizeof(uint32_t);
  }
  std::string_view encoded() const {
    return block_ == nullptr ? std::string_view() : std::string_view(bytes(), header().bytes);
  }

  // Appends entry `index` (desc, encoded against `prev`, the descriptor
  // before it) to *out.
  static void AppendEntry(uint64_t index, std::string_view prev, std::string_view desc,
                          std::string* out);
  // Decodes the entry at *pos over *current (the previous descriptor) and
  // advances *pos. Throws std::logic_error if the bytes are not an entry.
  void DecodeAt(size_t* pos, std::string* current) const;
  // A new empty block with exactly these capacities.
  void Allocate(uint64_t keys_capacity, uint64_t bytes_capacity);
  // Moves the contents into a block of at least these capacities (doubled
  // when geometric, for amortized appends).
  void Grow(uint64_t keys_capacity, uint64_t bytes_capacity, bool geometric);

  std::unique_ptr<char[]> block_;
};

}  // namespace ics::catalog
