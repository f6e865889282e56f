#include "common/util/base64.h"

#include <array>

namespace ics {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> MakeReverse() {
  std::array<int8_t, 256> r{};
  for (auto& v : r) v = -1;
  for (int i = 0; i < 64; ++i) r[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return r;
}
constexpr std::array<int8_t, 256> kReverse = MakeReverse();

}  // namespace

std::string Base64Encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t n = (uint32_t{static_cast<unsigned char>(in[i])} << 16) |
                       (uint32_t{static_cast<unsigned char>(in[i + 1])} << 8) |
                       uint32_t{static_cast<unsigned char>(in[i + 2])};
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  const size_t rest = in.size() - i;
  if (rest > 0) {
    uint32_t n = uint32_t{static_cast<unsigned char>(in[i])} << 16;
    if (rest == 2) n |= uint32_t{static_cast<unsigned char>(in[i + 1])} << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view in) {
  if (in.size() % 4 != 0) return Status::Corruption("base64 text length is not a multiple of 4");
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const unsigned char c = static_cast<unsigned char>(in[i + k]);
      if (c == '=' && i + 4 == in.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad > 0 || kReverse[c] < 0) {
        return Status::Corruption("invalid base64 character at offset " + std::to_string(i + k));
      }
      v[k] = kReverse[c];
    }
    // Canonical form only: the bits padding drops must be zero.
    if ((pad == 1 && (v[2] & 3) != 0) || (pad == 2 && (v[1] & 15) != 0)) {
      return Status::Corruption("non-canonical base64 padding at offset " + std::to_string(i));
    }
    const uint32_t n = (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) |
                       uint32_t(v[3]);
    out += static_cast<char>((n >> 16) & 0xFF);
    if (pad < 2) out += static_cast<char>((n >> 8) & 0xFF);
    if (pad < 1) out += static_cast<char>(n & 0xFF);
  }
  return out;
}

}  // namespace ics
