// The byte format of compressed partition statistics, as Impala keeps them
// in THdfsPartition.partition_stats and TPartialPartitionInfo.partition_stats:
// TPartitionStats serialized with TCompactProtocol, then zlib-wrapped deflate
// at best-speed level (see deflate.h).
//
// Decoding inflates with a cap so a hostile value cannot exhaust memory.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "CatalogObjects_types.h"
#include "common/util/result.h"

namespace ics {

// Largest inflated TPartitionStats accepted by default.
inline constexpr size_t kDefaultMaxPartitionStatsBytes = 64u << 20;

Result<std::string> EncodePartitionStats(const impala::TPartitionStats& stats);

Result<impala::TPartitionStats> DecodePartitionStats(
    std::string_view compressed, size_t max_bytes = kDefaultMaxPartitionStatsBytes);

}  // namespace ics
