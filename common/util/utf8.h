// UTF-8: decoding one sequence strictly, and counting characters.
//
// Thread-safety: stateless.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ics {

// Decodes the UTF-8 sequence at s[i] into *cp and returns its length in
// bytes; 0 if it is malformed: a bad lead or continuation byte, truncated,
// an overlong form, a surrogate (U+D800..U+DFFF) or above U+10FFFF.
// Requires i < s.size().
inline size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t min = 0;
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  } else if ((b0 & 0xe0) == 0xc0) {
    len = 2, *cp = b0 & 0x1f, min = 0x80;
  } else if ((b0 & 0xf0) == 0xe0) {
    len = 3, *cp = b0 & 0x0f, min = 0x800;
  } else if ((b0 & 0xf8) == 0xf0) {
    len = 4, *cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    *cp = (*cp << 6) | (b & 0x3f);
  }
  if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) return 0;
  return len;
}

// Characters of `s` counted as bytes that are not continuation bytes
// (10xxxxxx); for valid UTF-8 that is the number of code points.
inline size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
  }
  return n;
}

}  // namespace ics
