// The byte format of catalog-update topic values, as Impala writes them.
//
// A topic value is a TCatalogObject serialized with TBinaryProtocol. When
// topic compaction is on (the default) the bytes are wrapped as
//
//   offset 0  uint32, big-endian: length of the uncompressed bytes
//   offset 4  one raw LZ4 block (LZ4_compress_default; no frame header)
//
// Inputs larger than kMaxLz4InputBytes cannot be compressed and fail with
// LZ4_COMPRESSION_INPUT_TOO_LARGE, as in the peer. Decompression validates
// the header, bounds the declared length by the caller's cap, and requires
// the block to decode to exactly that length; anything else is CORRUPTION.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <thrift/TBase.h>

#include "common/util/result.h"

namespace ics {

// LZ4's own input limit (LZ4_MAX_INPUT_SIZE).
inline constexpr size_t kMaxLz4InputBytes = 0x7E000000;
// Size of the big-endian length prefix.
inline constexpr size_t kTopicValueHeaderBytes = 4;
// Default cap on a decompressed topic value.
inline constexpr size_t kDefaultMaxTopicValueBytes = 1u << 30;

// Wraps `raw` as header + LZ4 block.
Result<std::string> CompressTopicValue(std::string_view raw);

// Reverses CompressTopicValue. Rejects declared lengths over `max_bytes`.
Result<std::string> DecompressTopicValue(std::string_view compressed,
                                         size_t max_bytes = kDefaultMaxTopicValueBytes);

// Serializes `obj` with TBinaryProtocol and, if `compact`, compresses it.
Result<std::string> EncodeTopicValue(const apache::thrift::TBase& obj, bool compact);

// Reverses EncodeTopicValue into `*out` (freshly constructed).
[[nodiscard]] Status DecodeTopicValue(std::string_view value, bool compact,
                                      apache::thrift::TBase* out,
                                      size_t max_bytes = kDefaultMaxTopicValueBytes);

}  // namespace ics
