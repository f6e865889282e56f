// Partition-statistics decoding (common/codec/partition_stats.h): zlib
// inflate with a cap, then TCompactProtocol TPartitionStats. Coordinators
// decode these from catalogd's partitions (COMPUTE INCREMENTAL STATS,
// SHOW ... STATS).
//
// Property: decoded statistics re-encode and decode to an equal value.
#include <cstdint>
#include <string_view>

#include "common/codec/deflate.h"
#include "common/codec/partition_stats.h"
#include "tests/fuzz/fuzz_check.h"

namespace {
constexpr size_t kMaxInflatedBytes = 4u << 20;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  (void)ics::InflateDecompress(in, kMaxInflatedBytes);
  auto stats = ics::DecodePartitionStats(in, kMaxInflatedBytes);
  if (!stats.ok()) return 0;
  auto encoded = ics::EncodePartitionStats(*stats);
  FUZZ_CHECK(encoded.ok(), encoded.status().ToString());
  auto again = ics::DecodePartitionStats(*encoded, kMaxInflatedBytes);
  FUZZ_CHECK(again.ok(), "re-encoded stats do not decode: " + again.status().ToString());
  return 0;
}
