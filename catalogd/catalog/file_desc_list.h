// FileDescList: the file descriptors (FbFileDesc buffers) of one partition,
// packed.
//
// A partition with many files used to hold a std::string per descriptor: a
// 32-byte string object plus a heap block of its own for each file. Here
// every descriptor of the partition is appended to one byte buffer, with a
// 4-byte end offset per descriptor, so a file costs its descriptor bytes and
// 4 bytes. Descriptors are handed out as string_views into the buffer; the
// wire forms (THdfsFileDesc.file_desc_data) copy them unchanged.
//
// Building: push_back appends (amortized growth); shrink_to_fit drops the
// slack once the list is complete (the loader calls it). Views are
// invalidated by push_back/clear/shrink_to_fit, like iterators of a vector.
//
// Thread-safety: as std::vector (const use from any number of threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

  size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](size_t i) const {
    const uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_.data() + begin, ends_[i] - begin);
  }
  std::string_view at(size_t i) const {
    if (i >= size()) throw std::out_of_range("FileDescList::at");
    return (*this)[i];
  }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // Appends one descriptor. The list holds at most 4 GiB of descriptor
  // bytes (a partition's listing is bounded far below that).
  void push_back(std::string_view desc) {
    if (bytes_.size() + desc.size() > UINT32_MAX) throw std::length_error("FileDescList is full");
    bytes_.append(desc.data(), desc.size());
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  }
  void reserve(size_t n) { ends_.reserve(n); }
  void clear() {
    bytes_.clear();
    ends_.clear();
  }
  void shrink_to_fit() {
    bytes_.shrink_to_fit();
    ends_.shrink_to_fit();
  }

  // Heap bytes held beyond the object.
  size_t HeapBytes() const {
    return (bytes_.capacity() > 15 ? bytes_.capacity() + 1 : 0) +
           ends_.capacity() * sizeof(uint32_t);
  }

  bool operator==(const FileDescList& o) const { return ends_ == o.ends_ && bytes_ == o.bytes_; }
  bool operator!=(const FileDescList& o) const { return !(*this == o); }

 private:
  std::string bytes_;
  std::vector<uint32_t> ends_;
};

}  // namespace ics::catalog
