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

// The header's two varints: a count below 2^30 and a byte count below 2^32
// take at most 5 bytes each.
constexpr size_t kMaxHeaderBytes = 10;

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
    std::string head;
    PutVarint(count_, &head);
    PutVarint(bytes_.size(), &head);
    const size_t nkeys = keys_.size() - 1;  // key 0 is implied
    l.block_.reset(new char[head.size() + nkeys * sizeof(uint32_t) + bytes_.size()]);
    char* out = l.block_.get();
    std::memcpy(out, head.data(), head.size());
    out += head.size();
    std::memcpy(out, keys_.data() + 1, nkeys * sizeof(uint32_t));
    out += nkeys * sizeof(uint32_t);
    std::memcpy(out, bytes_.data(), bytes_.size());
  }
  *this = Builder();
  return l;
}

FileDescList::Layout FileDescList::layout() const {
  // Builder::Finish wrote the block: reading stops at the end of the
  // second varint, inside it.
  const std::string_view head(block_.get(), kMaxHeaderBytes);
  Layout l;
  size_t pos = 0;
  if (!ReadVarint(head, &pos, &l.count) || !ReadVarint(head, &pos, &l.bytes)) Malformed();
  l.keys_at = pos;
  l.entries_at = pos + (KeysFor(l.count) - 1) * sizeof(uint32_t);
  return l;
}

uint32_t FileDescList::key(const Layout& l, size_t k) const {
  if (k == 0) return 0;
  uint32_t at = 0;
  std::memcpy(&at, block_.get() + l.keys_at + (k - 1) * sizeof(uint32_t), sizeof(at));
  return at;
}

std::string_view FileDescList::encoded() const {
  if (block_ == nullptr) return std::string_view();
  const Layout l = layout();
  return std::string_view(block_.get() + l.entries_at, l.bytes);
}

FileDescList::const_iterator::const_iterator(const FileDescList* list, size_t i)
    : encoded_(list->encoded()), count_(list->size()), i_(i) {
  if (i_ < count_) DecodeAt(encoded_, &pos_, &current_);
}

FileDescList::const_iterator& FileDescList::const_iterator::operator++() {
  ++i_;
  if (i_ < count_) {
    DecodeAt(encoded_, &pos_, &current_);
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
  const size_t n = o.HeapBytes();
  block_.reset(new char[n]);
  std::memcpy(block_.get(), o.block_.get(), n);
  return *this;
}

void FileDescList::DecodeAt(std::string_view in, size_t* pos, std::string* current) {
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
  const Layout l = layout();
  const std::string_view in(block_.get() + l.entries_at, l.bytes);
  const size_t k = i / kKeyEvery;
  size_t pos = key(l, k);
  std::string current;
  for (size_t j = k * kKeyEvery; j <= i; ++j) DecodeAt(in, &pos, &current);
  return current;
}

size_t FileDescList::HeapBytes() const {
  if (block_ == nullptr) return 0;
  const Layout l = layout();
  return l.entries_at + l.bytes;
}

bool FileDescList::operator==(const FileDescList& o) const {
  // The encoding is a function of the descriptors: equal lists, equal blocks.
  const size_t n = HeapBytes();
  return n == o.HeapBytes() && (n == 0 || std::memcmp(block_.get(), o.block_.get(), n) == 0);
}

}  // namespace ics::catalog
