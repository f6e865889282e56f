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
// A list may be built against a Reference: a descriptor shared by many
// lists (a table load's first one). Its keys are then encoded as edits of
// the reference rather than whole, so a partition whose one file is named
// like the table's other files costs the bytes where the two differ.
//
// The list also keeps its files' totals (bytes, blocks), given to the
// builder with each descriptor, so a partition need not.
//
// Layout of the block: the reference's address (8 bytes, when there is one;
// first, where it is an aligned word that a leak checker scanning the block
// sees), the count of descriptors (shifted left by one, the low bit set when
// there is no reference) and of encoded bytes, the total file bytes and
// blocks (four varints), a 4-byte offset for every key but the first (which
// is at 0), then the encoded entries. An entry starts with a varint h. Even h: a whole
// descriptor of h/2 bytes follows. Odd h: h/2 edits of the previous
// descriptor follow, each a varint count of bytes kept, a varint count of
// bytes replaced, and the replacing bytes; what the edits do not reach is
// kept. The list is one pointer and one allocation (and holds a count on
// its reference).
//
// Reading: iterate (each step decodes one entry; the view returned by the
// iterator lives in the iterator and is valid until it advances), or Copy(i).
// Building: Builder; a finished list is immutable and has no slack (one
// file's list is its descriptor and 4 bytes).
//
// Copies are deep. Thread-safety: as std::vector
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
    std::string_view encoded_;  // the list's entries
    std::string_view base_;     // the list's reference bytes (keys decode from it)
    size_t count_ = 0;          // the list's size
    size_t i_ = 0;
    size_t pos_ = 0;  // offset of the next entry in the encoded bytes
    // A copy even of a whole entry: a descriptor is a FlatBuffer, read in
    // place from an 8-byte aligned address, and entries are packed in the
    // block at any offset.
    std::string current_;
  };

  // An immutable descriptor shared, by reference count, by the lists built
  // against it and by its holders. Empty by default. Thread-safe counts.
  class Reference {
   public:
    Reference() = default;
    explicit Reference(std::string_view desc);
    Reference(const Reference& o) : shared_(o.shared_) { Retain(shared_); }
    Reference& operator=(const Reference& o);
    ~Reference() { Release(shared_); }
    bool empty() const { return shared_ == nullptr; }
    std::string_view bytes() const;
    // Holders (Reference objects and lists) of this reference; 0 if empty.
    uint64_t use_count() const;

   private:
    friend class FileDescList;
    struct Shared;
    static void Retain(Shared* s);
    static void Release(Shared* s);
    Shared* shared_ = nullptr;
  };

  // Builds a list by appending, holding the last descriptor so that each
  // append encodes against it without decoding. Finish() returns the list
  // and resets the builder (its reference too).
  class Builder {
   public:
    Builder() = default;
    explicit Builder(Reference reference) : reference_(std::move(reference)) {}
    // Adds a descriptor of a file of `length` bytes in `blocks` blocks (the
    // totals saturate; negative values count as 0). Throws
    // std::length_error past the list's limits (kMaxBytes, kMaxCount).
    void Add(std::string_view desc, int64_t length, int64_t blocks);
    FileDescList Finish();

   private:
    Reference reference_;
    std::string bytes_;
    std::vector<uint32_t> keys_;
    std::string last_;
    uint64_t count_ = 0;
    int64_t total_bytes_ = 0;
    int64_t total_blocks_ = 0;
  };

  FileDescList() = default;
  FileDescList(const FileDescList& o) { *this = o; }
  FileDescList& operator=(const FileDescList& o);
  FileDescList(FileDescList&& o) noexcept : block_(std::move(o.block_)) {}
  FileDescList& operator=(FileDescList&& o) noexcept;
  ~FileDescList() { clear(); }

  // The reference the list was built against (empty if none).
  Reference reference() const;

  size_t size() const { return block_ == nullptr ? 0 : layout().count; }
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // The files' total bytes and blocks, as added (0 when empty).
  int64_t total_bytes() const { return block_ == nullptr ? 0 : layout().total_bytes; }
  int64_t num_blocks() const { return block_ == nullptr ? 0 : layout().total_blocks; }

  // Descriptor i, decoded. Throws std::out_of_range when i >= size().
  std::string Copy(size_t i) const;

  void clear();

  // Heap bytes held beyond the object (the block, which has no slack; the
  // reference is shared and not counted).
  size_t HeapBytes() const;

  bool operator==(const FileDescList& o) const;
  bool operator!=(const FileDescList& o) const { return !(*this == o); }

 private:
  // Where the parts of the block are.
  struct Layout {
    uint64_t count = 0;
    uint64_t bytes = 0;      // encoded entry bytes
    int64_t total_bytes = 0;
    int64_t total_blocks = 0;
    Reference::Shared* reference = nullptr;
    size_t keys_at = 0;      // offset of key 1 (key 0 is entry 0, at 0)
    size_t entries_at = 0;   // offset of the entries
  };
  // The list holds at most 4 GiB of encoded bytes and 2^30 descriptors (a
  // partition's listing is bounded far below); Builder::Add throws
  // std::length_error beyond that.
  static constexpr uint64_t kMaxBytes = UINT32_MAX;
  static constexpr uint64_t kMaxCount = uint64_t{1} << 30;

  static size_t KeysFor(uint64_t count) { return (count + kKeyEvery - 1) / kKeyEvery; }
  Layout layout() const;
  // Offset in the entries of key k.
  uint32_t key(const Layout& l, size_t k) const;

  // Appends an entry (desc, encoded against `prev`: the descriptor before
  // it, or at a key the reference, empty without one) to *out.
  static void AppendEntry(std::string_view prev, std::string_view desc, std::string* out);
  // The reference's bytes in `l` (empty without one): where decoding starts
  // at a key.
  static std::string_view KeyBase(const Layout& l);
  // Decodes the entry of `in` (the entries) at *pos over *current (the
  // previous descriptor) and advances *pos. Throws std::logic_error if the
  // bytes are not an entry.
  static void DecodeAt(std::string_view in, size_t* pos, std::string* current);

  std::unique_ptr<char[]> block_;
};

}  // namespace ics::catalog
