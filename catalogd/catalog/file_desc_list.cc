// FileDescList's encoding: see the header for the layout.
#include "catalogd/catalog/file_desc_list.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/util/varint.h"

namespace ics::catalog {
namespace {

// Equal bytes between two differing runs are replaced along with them when
// there are at most this many: a separate edit costs at least two bytes.
constexpr size_t kMaxMergedGap = 2;

// The edits that turn `prev` into `desc` (same length), as an entry
// (header included).
std::string EncodeEdits(std::string_view prev, std::string_view desc) {
  std::string edits;
  uint64_t count = 0;
  size_t kept_from = 0;
  size_t i = 0;
  const size_t n = desc.size();
  while (i < n) {
    if (prev[i] == desc[i]) {
      ++i;
      continue;
    }
    const size_t start = i;
    size_t end = i + 1;
    while (end < n) {
      if (prev[end] != desc[end]) {
        ++end;
        continue;
      }
      size_t gap = 0;
      while (end + gap < n && prev[end + gap] == desc[end + gap] && gap <= kMaxMergedGap) ++gap;
      if (gap > kMaxMergedGap || end + gap == n) break;
      end += gap;
    }
    PutVarint(start - kept_from, &edits);
    PutVarint(end - start, &edits);
    edits.append(desc.data() + start, end - start);
    kept_from = end;
    i = end;
    ++count;
  }
  std::string entry;
  PutVarint(2 * count + 1, &entry);
  entry += edits;
  return entry;
}

std::string EncodeWhole(std::string_view desc) {
  std::string entry;
  PutVarint(2 * uint64_t{desc.size()}, &entry);
  entry.append(desc.data(), desc.size());
  return entry;
}

[[noreturn]] void Malformed() { throw std::logic_error("FileDescList: malformed entry"); }

}  // namespace

void FileDescList::AppendEntry(uint64_t index, std::string_view prev, std::string_view desc,
                               std::string* out) {
  if (index % kKeyEvery != 0 && prev.size() == desc.size()) {
    std::string edits = EncodeEdits(prev, desc);
    if (edits.size() < VarintSize(2 * uint64_t{desc.size()}) + desc.size()) {
      *out += edits;
      return;
    }
  }
  *out += EncodeWhole(desc);
}

void FileDescList::Builder::Add(std::string_view desc) {
  if (count_ >= kMaxCount) throw std::length_error("FileDescList is full");
  const size_t before = bytes_.size();
  if (count_ % kKeyEvery == 0) keys_.push_back(static_cast<uint32_t>(before));
  AppendEntry(count_, last_, desc, &bytes_);
  if (bytes_.size() > kMaxBytes) {
    bytes_.resize(before);
    if (count_ % kKeyEvery == 0) keys_.pop_back();
    throw std::length_error("FileDescList is full");
  }
  last_.assign(desc.data(), desc.size());
  ++count_;
}

FileDescList FileDescList::Builder::Finish() {
  FileDescList l;
  if (count_ != 0) {
    l.Allocate(keys_.size(), bytes_.size());
    std::memcpy(l.keys(), keys_.data(), keys_.size() * sizeof(uint32_t));
    std::memcpy(l.bytes(), bytes_.data(), bytes_.size());
    l.header().count = static_cast<uint32_t>(count_);
    l.header().bytes = static_cast<uint32_t>(bytes_.size());
  }
  *this = Builder();
  return l;
}

FileDescList::const_iterator::const_iterator(const FileDescList* list, size_t i)
    : list_(list), i_(i) {
  if (i_ < list_->size()) list_->DecodeAt(&pos_, &current_);
}

FileDescList::const_iterator& FileDescList::const_iterator::operator++() {
  ++i_;
  if (i_ < list_->size()) {
    list_->DecodeAt(&pos_, &current_);
  } else {
    current_.clear();
  }
  return *this;
}

FileDescList& FileDescList::operator=(const FileDescList& o) {
  if (this == &o) return *this;
  if (o.block_ == nullptr) {
    block_.reset();
    return *this;
  }
  const Header h = o.header();
  const size_t nkeys = KeysFor(h.count);
  Allocate(nkeys, h.bytes);  // exact capacities: a copy has no slack
  std::memcpy(keys(), o.keys(), nkeys * sizeof(uint32_t));
  std::memcpy(bytes(), o.bytes(), h.bytes);
  header().count = h.count;
  header().bytes = h.bytes;
  return *this;
}

void FileDescList::DecodeAt(size_t* pos, std::string* current) const {
  const std::string_view in = encoded();
  uint64_t h = 0;
  if (!ReadVarint(in, pos, &h)) Malformed();
  if ((h & 1) == 0) {
    const uint64_t len = h / 2;
    if (len > in.size() - *pos) Malformed();
    current->assign(in.data() + *pos, len);
    *pos += len;
    return;
  }
  size_t at = 0;
  for (uint64_t e = h / 2; e > 0; --e) {
    uint64_t keep = 0;
    uint64_t replace = 0;
    if (!ReadVarint(in, pos, &keep) || !ReadVarint(in, pos, &replace)) Malformed();
    if (keep > current->size() - at || replace > current->size() - at - keep ||
        replace > in.size() - *pos) {
      Malformed();
    }
    at += keep;
    std::memcpy(current->data() + at, in.data() + *pos, replace);
    at += replace;
    *pos += replace;
  }
}

std::string FileDescList::Copy(size_t i) const {
  if (i >= size()) throw std::out_of_range("FileDescList::Copy");
  const size_t key = i / kKeyEvery;
  size_t pos = keys()[key];
  std::string current;
  for (size_t j = key * kKeyEvery; j <= i; ++j) DecodeAt(&pos, &current);
  return current;
}

void FileDescList::push_back(std::string_view desc) {
  const Header h = block_ == nullptr ? Header{} : header();
  if (h.count >= kMaxCount) throw std::length_error("FileDescList is full");
  const bool key = h.count % kKeyEvery == 0;
  std::string entry;
  AppendEntry(h.count, key ? std::string() : Copy(h.count - 1), desc, &entry);
  const uint64_t need_bytes = uint64_t{h.bytes} + entry.size();
  if (need_bytes > kMaxBytes) throw std::length_error("FileDescList is full");
  const uint64_t need_keys = KeysFor(uint64_t{h.count} + 1);
  if (need_keys > h.keys_capacity || need_bytes > h.bytes_capacity) {
    Grow(std::max<uint64_t>(h.keys_capacity, need_keys),
         std::max<uint64_t>(h.bytes_capacity, need_bytes), /*geometric=*/true);
  }
  if (key) keys()[h.count / kKeyEvery] = h.bytes;
  Header& mine = header();
  std::memcpy(bytes() + mine.bytes, entry.data(), entry.size());
  mine.bytes = static_cast<uint32_t>(need_bytes);
  ++mine.count;
}

void FileDescList::reserve(size_t n) {
  const Header h = block_ == nullptr ? Header{} : header();
  if (n <= kMaxCount && KeysFor(n) > h.keys_capacity) {
    Grow(KeysFor(n), h.bytes_capacity, /*geometric=*/false);
  }
}

void FileDescList::shrink_to_fit() {
  if (block_ == nullptr) return;
  const Header h = header();
  if (h.count == 0) {
    block_.reset();
  } else if (h.keys_capacity != KeysFor(h.count) || h.bytes_capacity != h.bytes) {
    Grow(KeysFor(h.count), h.bytes, /*geometric=*/false);
  }
}

size_t FileDescList::HeapBytes() const {
  if (block_ == nullptr) return 0;
  const Header h = header();
  return BlockSize(h.keys_capacity, h.bytes_capacity);
}

bool FileDescList::operator==(const FileDescList& o) const {
  // The encoding is a function of the descriptors, and the keys of the bytes.
  return size() == o.size() && encoded() == o.encoded();
}

void FileDescList::Allocate(uint64_t keys_capacity, uint64_t bytes_capacity) {
  block_.reset(new char[BlockSize(keys_capacity, bytes_capacity)]);
  Header& h = header();
  h = Header{};
  h.keys_capacity = static_cast<uint32_t>(keys_capacity);
  h.bytes_capacity = static_cast<uint32_t>(bytes_capacity);
}

void FileDescList::Grow(uint64_t keys_capacity, uint64_t bytes_capacity, bool geometric) {
  const Header old = block_ == nullptr ? Header{} : header();
  if (geometric) {
    if (keys_capacity > old.keys_capacity) {
      keys_capacity = std::max<uint64_t>(keys_capacity, 2 * uint64_t{old.keys_capacity});
    }
    if (bytes_capacity > old.bytes_capacity) {
      bytes_capacity = std::max<uint64_t>(bytes_capacity, 2 * uint64_t{old.bytes_capacity});
    }
  }
  keys_capacity = std::min<uint64_t>(keys_capacity, KeysFor(kMaxCount));
  bytes_capacity = std::min(bytes_capacity, kMaxBytes);
  std::unique_ptr<char[]> prev = std::move(block_);
  Allocate(keys_capacity, bytes_capacity);
  if (prev != nullptr) {
    const char* prev_keys = prev.get() + sizeof(Header);
    const char* prev_bytes = prev_keys + old.keys_capacity * sizeof(uint32_t);
    std::memcpy(keys(), prev_keys, KeysFor(old.count) * sizeof(uint32_t));
    std::memcpy(bytes(), prev_bytes, old.bytes);
    Header& h = header();
    h.count = old.count;
    h.bytes = old.bytes;
  }
}

}  // namespace ics::catalog
