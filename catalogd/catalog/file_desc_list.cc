// FileDescList's encoding: see the header for the layout.
#include "catalogd/catalog/file_desc_list.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "common/util/checked_math.h"
#include "common/util/varint.h"

namespace ics::catalog {
namespace {

// Equal bytes between two differing runs are replaced along with them when
// there are at most this many: a separate edit costs at least two bytes.
constexpr size_t kMaxMergedGap = 2;

// The header's varints: a count below 2^31 and a byte count below 2^32
// take at most 5 bytes each, the totals (below 2^63) at most 9.
constexpr size_t kMaxHeaderBytes = 5 + 5 + 9 + 9;

// The low bit of the tagged count: set when the list has no reference. A
// list with one starts with the reference's address instead, whose lowest
// byte (the first, on the little-endian machines this is built for) is even.
constexpr unsigned char kNoReferenceTag = 1;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "FileDescList tells the two layouts apart by the block's first byte");


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

struct FileDescList::Reference::Shared {
  std::atomic<uint64_t> refs{1};
  std::string bytes;
};

FileDescList::Reference::Reference(std::string_view desc) : shared_(new Shared) {
  static_assert(alignof(Shared) % 2 == 0, "a reference's address is even (see kNoReferenceTag)");
  shared_->bytes.assign(desc.data(), desc.size());
}

FileDescList::Reference& FileDescList::Reference::operator=(const Reference& o) {
  Retain(o.shared_);
  Release(shared_);
  shared_ = o.shared_;
  return *this;
}

std::string_view FileDescList::Reference::bytes() const {
  return shared_ == nullptr ? std::string_view() : std::string_view(shared_->bytes);
}

uint64_t FileDescList::Reference::use_count() const {
  return shared_ == nullptr ? 0 : shared_->refs.load(std::memory_order_relaxed);
}

void FileDescList::Reference::Retain(Shared* s) {
  if (s != nullptr) s->refs.fetch_add(1, std::memory_order_relaxed);
}

void FileDescList::Reference::Release(Shared* s) {
  if (s != nullptr && s->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete s;
}

std::string_view FileDescList::KeyBase(const Layout& l) {
  return l.reference == nullptr ? std::string_view() : std::string_view(l.reference->bytes);
}

FileDescList::Reference FileDescList::reference() const {
  Reference r;
  if (block_ != nullptr) {
    r.shared_ = layout().reference;
    Reference::Retain(r.shared_);
  }
  return r;
}

void FileDescList::clear() {
  if (block_ == nullptr) return;
  Reference::Release(layout().reference);
  block_.reset();
}

FileDescList& FileDescList::operator=(FileDescList&& o) noexcept {
  if (this != &o) {
    clear();
    block_ = std::move(o.block_);
  }
  return *this;
}

void FileDescList::AppendEntry(std::string_view prev, std::string_view desc, std::string* out) {
  if (!prev.empty() && prev.size() == desc.size()) {
    std::string edits = EncodeEdits(prev, desc);
    if (edits.size() < VarintSize(2 * uint64_t{desc.size()}) + desc.size()) {
      *out += edits;
      return;
    }
  }
  *out += EncodeWhole(desc);
}

void FileDescList::Builder::Add(std::string_view desc, int64_t length, int64_t blocks) {
  if (count_ >= kMaxCount) throw std::length_error("FileDescList is full");
  const size_t before = bytes_.size();
  const bool at_key = count_ % kKeyEvery == 0;
  if (at_key) keys_.push_back(static_cast<uint32_t>(before));
  AppendEntry(at_key ? reference_.bytes() : std::string_view(last_), desc, &bytes_);
  if (bytes_.size() > kMaxBytes) {
    bytes_.resize(before);
    if (count_ % kKeyEvery == 0) keys_.pop_back();
    throw std::length_error("FileDescList is full");
  }
  last_.assign(desc.data(), desc.size());
  ++count_;
  total_bytes_ = SaturatingAdd(total_bytes_, std::max<int64_t>(length, 0));
  total_blocks_ = SaturatingAdd(total_blocks_, std::max<int64_t>(blocks, 0));
}

FileDescList FileDescList::Builder::Finish() {
  FileDescList l;
  if (count_ != 0) {
    Reference::Shared* const ref = reference_.shared_;
    std::string head;
    PutVarint(2 * count_ + (ref != nullptr ? 0 : kNoReferenceTag), &head);
    PutVarint(bytes_.size(), &head);
    PutVarint(static_cast<uint64_t>(total_bytes_), &head);
    PutVarint(static_cast<uint64_t>(total_blocks_), &head);
    const size_t ref_bytes = ref != nullptr ? sizeof(ref) : 0;
    const size_t nkeys = keys_.size() - 1;  // key 0 is implied
    l.block_.reset(new char[ref_bytes + head.size() + nkeys * sizeof(uint32_t) + bytes_.size()]);
    char* out = l.block_.get();
    if (ref != nullptr) {
      // At offset 0 of the block, which operator new aligns for any object:
      // an aligned pointer-sized word, where a leak checker scanning the
      // block finds it (at an odd offset it would not, and would report the
      // reference as leaked while the list still holds it).
      Reference::Retain(ref);  // the list's own count
      std::memcpy(out, &ref, sizeof(ref));
      out += sizeof(ref);
    }
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
  Layout l;
  size_t pos = 0;
  // The first byte is the tagged count's low byte (tag bit set) or the
  // reference's lowest address byte (always even: the object is aligned).
  if ((static_cast<unsigned char>(block_[0]) & kNoReferenceTag) == 0) {
    std::memcpy(&l.reference, block_.get(), sizeof(l.reference));
    pos = sizeof(l.reference);
  }
  // Builder::Finish wrote the block: reading stops at the end of the
  // fourth varint, inside it.
  const std::string_view head(block_.get(), pos + kMaxHeaderBytes);
  uint64_t tagged = 0;
  uint64_t total_bytes = 0;
  uint64_t total_blocks = 0;
  if (!ReadVarint(head, &pos, &tagged) || !ReadVarint(head, &pos, &l.bytes) ||
      !ReadVarint(head, &pos, &total_bytes) || !ReadVarint(head, &pos, &total_blocks)) {
    Malformed();
  }
  l.total_bytes = static_cast<int64_t>(total_bytes);
  l.total_blocks = static_cast<int64_t>(total_blocks);
  l.count = tagged / 2;
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

FileDescList::const_iterator::const_iterator(const FileDescList* list, size_t i) : i_(i) {
  if (list->block_ == nullptr) return;
  const Layout l = list->layout();
  encoded_ = std::string_view(list->block_.get() + l.entries_at, l.bytes);
  base_ = KeyBase(l);
  count_ = l.count;
  if (i_ < count_) {
    current_.assign(base_.data(), base_.size());
    DecodeAt(encoded_, &pos_, &current_);
  }
}

FileDescList::const_iterator& FileDescList::const_iterator::operator++() {
  ++i_;
  if (i_ < count_) {
    if (i_ % kKeyEvery == 0) current_.assign(base_.data(), base_.size());
    DecodeAt(encoded_, &pos_, &current_);
  } else {
    current_.clear();
  }
  return *this;
}

FileDescList& FileDescList::operator=(const FileDescList& o) {
  if (this == &o) return *this;
  clear();
  if (o.block_ == nullptr) return *this;
  const size_t n = o.HeapBytes();
  block_.reset(new char[n]);
  std::memcpy(block_.get(), o.block_.get(), n);
  Reference::Retain(layout().reference);
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
  std::string current(KeyBase(l));
  for (size_t j = k * kKeyEvery; j <= i; ++j) DecodeAt(in, &pos, &current);
  return current;
}

size_t FileDescList::HeapBytes() const {
  if (block_ == nullptr) return 0;
  const Layout l = layout();
  return l.entries_at + l.bytes;
}

bool FileDescList::operator==(const FileDescList& o) const {
  const size_t n = HeapBytes();
  if (n == 0 || o.HeapBytes() == 0) return n == o.HeapBytes();
  // The encoding is a function of the descriptors and the reference: with
  // the same reference, equal lists have equal blocks.
  if (layout().reference == o.layout().reference) {
    return n == o.HeapBytes() && std::memcmp(block_.get(), o.block_.get(), n) == 0;
  }
  if (size() != o.size() || total_bytes() != o.total_bytes() || num_blocks() != o.num_blocks()) {
    return false;
  }
  for (auto a = begin(), b = o.begin(); a != end(); ++a, ++b) {
    if (*a != *b) return false;
  }
  return true;
}

}  // namespace ics::catalog
