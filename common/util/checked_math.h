// Overflow-safe integer arithmetic for sizes that come from outside the
// process (file systems, table properties, RPC requests): a sum or product
// that does not fit saturates, or is reported, instead of being undefined
// behaviour or wrapping into a small (or negative) allocation size.
//
// Thread-safety: stateless constexpr functions.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace ics {

// a + b, clamped to [INT64_MIN, INT64_MAX].
constexpr int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}

// a * b, or nullopt if it does not fit in int64_t.
constexpr std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b.
constexpr int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace ics
