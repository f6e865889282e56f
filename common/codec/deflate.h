// zlib-wrapped deflate (RFC 1950: 2-byte header, deflate data, Adler-32),
// the format zlib's compress2() produces and any standard inflater reads.
//
// Inflate is bounded: it stops with LIMIT_EXCEEDED as soon as the output
// would exceed the caller's cap, so a small crafted input ("zip bomb") cannot
// exhaust memory. Truncated or corrupt streams and trailing garbage are
// CORRUPTION.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics {

// zlib levels: 1 = best speed (what Impala uses for partition stats), 9 = best size.
inline constexpr int kDeflateBestSpeed = 1;

Result<std::string> DeflateCompress(std::string_view raw, int level = kDeflateBestSpeed);

Result<std::string> InflateDecompress(std::string_view compressed, size_t max_output_bytes);

}  // namespace ics
