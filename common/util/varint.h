// Unsigned LEB128 varints (7 bits a byte, low group first), for compact
// in-memory encodings.
//
// PutVarint appends; ReadVarint reads at *pos and advances it, returning
// false (and leaving *pos unchanged) when the bytes end first or the value
// would need more than 64 bits, so it is safe on any input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ics {

inline void PutVarint(uint64_t n, std::string* out) {
  while (n >= 0x80) {
    out->push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out->push_back(static_cast<char>(n));
}

// The number of bytes PutVarint(n) appends.
inline size_t VarintSize(uint64_t n) {
  size_t s = 1;
  while (n >= 0x80) {
    n >>= 7;
    ++s;
  }
  return s;
}

[[nodiscard]] inline bool ReadVarint(std::string_view in, size_t* pos, uint64_t* n) {
  uint64_t v = 0;
  size_t p = *pos;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= in.size()) return false;
    const auto b = static_cast<unsigned char>(in[p++]);
    if (shift == 63 && b > 1) return false;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *pos = p;
      *n = v;
      return true;
    }
  }
  return false;
}

// A string as its varint length and its bytes.
inline void PutLengthPrefixed(std::string_view s, std::string* out) {
  PutVarint(s.size(), out);
  out->append(s.data(), s.size());
}

// Reads what PutLengthPrefixed wrote at *pos into *s (a view of `in`) and
// advances *pos; false (nothing changed) when `in` ends first.
[[nodiscard]] inline bool ReadLengthPrefixed(std::string_view in, size_t* pos,
                                             std::string_view* s) {
  size_t p = *pos;
  uint64_t n = 0;
  if (!ReadVarint(in, &p, &n) || n > in.size() - p) return false;
  *s = in.substr(p, n);
  *pos = p + n;
  return true;
}

}  // namespace ics
