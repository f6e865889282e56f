#include "catalogd/catalog/partition_strings.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "common/util/varint.h"

namespace ics::catalog {

namespace {

constexpr unsigned kPartBits = (1u << PartitionStrings::kNumParts) - 1;

// The length of the varint T at the start of a block. T's varint ends
// inside the block (Build wrote it), so this never reads past it.
size_t PrefixLength(const char* block) {
  size_t n = 0;
  while ((static_cast<unsigned char>(block[n]) & 0x80) != 0) ++n;
  return n + 1;
}

}  // namespace

PartitionStrings::PartitionStrings(const PartitionStrings& o) { *this = o; }

PartitionStrings& PartitionStrings::operator=(const PartitionStrings& o) {
  if (this == &o) return *this;
  const std::string_view bytes = o.Bytes();
  if (bytes.empty()) {
    block_.reset();
    return *this;
  }
  block_.reset(new char[bytes.size()]);
  std::memcpy(block_.get(), bytes.data(), bytes.size());
  return *this;
}

std::string_view PartitionStrings::Bytes() const {
  if (block_ == nullptr) return {};
  const std::string_view prefix(block_.get(), PrefixLength(block_.get()));
  size_t pos = 0;
  uint64_t t = 0;
  if (!ReadVarint(prefix, &pos, &t)) throw std::logic_error("PartitionStrings: bad block");
  return std::string_view(block_.get(), prefix.size() + t);
}

unsigned PartitionStrings::Mask() const {
  if (block_ == nullptr) return 0;
  return static_cast<unsigned char>(block_[PrefixLength(block_.get())]);
}

bool PartitionStrings::flag(Flag f) const { return (Mask() & (1u << f)) != 0; }

std::array<std::string_view, PartitionStrings::kNumParts> PartitionStrings::All() const {
  std::array<std::string_view, kNumParts> parts{};
  for (size_t i = 0; i < kNumParts; ++i) parts[i] = Get(static_cast<Part>(i));
  return parts;
}

std::string_view PartitionStrings::Get(Part part) const {
  if (block_ == nullptr) return {};
  // The header holds the length of every present part but the last; the
  // bytes start after all of them, `part`'s after those of the parts before.
  const std::string_view all = Bytes();
  size_t pos = PrefixLength(all.data());
  const unsigned mask = static_cast<unsigned char>(all[pos++]) & kPartBits;
  if ((mask & (1u << part)) == 0) return {};
  const bool is_last = (mask >> (part + 1)) == 0;
  uint64_t before = 0;  // bytes of the present parts before `part`
  uint64_t len = 0;
  for (unsigned i = 0; i < kNumParts; ++i) {
    if ((mask & (1u << i)) == 0) continue;
    if ((mask >> (i + 1)) == 0) break;  // the last present part has no length
    uint64_t l = 0;
    if (!ReadVarint(all, &pos, &l)) throw std::logic_error("PartitionStrings: bad block");
    if (i < part) before += l;
    if (i == part) len = l;
  }
  if (before > all.size() - pos) throw std::logic_error("PartitionStrings: bad block");
  const size_t start = pos + before;
  if (is_last) len = all.size() - start;
  if (len > all.size() - start) throw std::logic_error("PartitionStrings: bad block");
  return all.substr(start, len);
}

void PartitionStrings::Set(std::initializer_list<std::pair<Part, std::string_view>> changes,
                           std::initializer_list<std::pair<Flag, bool>> flags) {
  std::array<std::string_view, kNumParts> parts = All();
  const unsigned mask = Mask();
  unsigned want = mask;
  for (const auto& [f, on] : flags) want = on ? (want | (1u << f)) : (want & ~(1u << f));
  bool changed = want != mask;
  for (const auto& [part, bytes] : changes) {
    changed = changed || parts[part] != bytes;
    parts[part] = bytes;
  }
  if (changed) Build(parts, want);
}

void PartitionStrings::Build(const std::array<std::string_view, kNumParts>& parts,
                             unsigned flags) {
  unsigned mask = flags & ~kPartBits & 0xff;
  int last = -1;
  uint64_t data = 0;
  for (size_t i = 0; i < kNumParts; ++i) {
    if (parts[i].empty()) continue;
    mask |= 1u << i;
    last = static_cast<int>(i);
    data += parts[i].size();
  }
  if (mask == 0) {
    block_.reset();
    return;
  }
  std::string header;
  header.push_back(static_cast<char>(mask));
  for (size_t i = 0; i < kNumParts; ++i) {
    if (!parts[i].empty() && static_cast<int>(i) != last) PutVarint(parts[i].size(), &header);
  }
  const uint64_t t = header.size() + data;
  if (t > UINT32_MAX) throw std::length_error("PartitionStrings: over 4 GiB");
  std::string prefix;
  PutVarint(t, &prefix);
  // The parts may view the old block: write the new one before replacing it.
  std::unique_ptr<char[]> block(new char[prefix.size() + t]);
  char* out = block.get();
  std::memcpy(out, prefix.data(), prefix.size());
  out += prefix.size();
  std::memcpy(out, header.data(), header.size());
  out += header.size();
  for (const std::string_view p : parts) {
    if (p.empty()) continue;
    std::memcpy(out, p.data(), p.size());
    out += p.size();
  }
  block_ = std::move(block);
}

size_t PartitionStrings::HeapBytes() const { return Bytes().size(); }

}  // namespace ics::catalog
