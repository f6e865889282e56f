// Incremental partition statistics as Impala keeps them in HMS parameters.
//
// Impala persists a partition's TPartitionStats (COMPUTE INCREMENTAL STATS)
// in the partition's HMS parameters (the table's, for an unpartitioned
// table): the TCompactProtocol bytes, base64-encoded, cut into chunks of
// kStatsChunkChars characters:
//   impala_intermediate_stats_num_chunks = "<n>"
//   impala_intermediate_stats_chunk0 .. chunk<n-1> = base64 pieces
// The pieces are concatenated before base64-decoding.
//
// catalogd decodes them once at load, keeps them deflate-compressed
// (common/codec/partition_stats.h) in PartitionState.partition_stats and
// removes the chunk parameters from its in-memory copy of the HMS object.
// Writers (COMPUTE STATS, ALTER PARTITION) put them back with
// SetStatsParams before committing a partition to the metastore.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "CatalogObjects_types.h"
#include "common/util/result.h"

namespace ics::catalog {

inline constexpr char kStatsNumChunksParam[] = "impala_intermediate_stats_num_chunks";
inline constexpr char kStatsChunkParamPrefix[] = "impala_intermediate_stats_chunk";
inline constexpr size_t kStatsChunkChars = 4000;
// More chunks than this are rejected as corrupt (4000 chars each: ~1.5 GB).
inline constexpr int kMaxStatsChunks = 400'000;

// Reads the chunked stats from `params`. nullopt if there are none (no
// num_chunks parameter); CORRUPTION if the count is not a number, a chunk
// is missing, or the bytes do not decode.
Result<std::optional<impala::TPartitionStats>> GetStatsFromParams(
    const std::map<std::string, std::string>& params);

// Replaces any chunked stats in `params` with `stats`.
[[nodiscard]] Status SetStatsParams(const impala::TPartitionStats& stats,
                                    std::map<std::string, std::string>* params);

// Removes the num_chunks parameter and every chunk parameter.
void RemoveStatsParams(std::map<std::string, std::string>* params);

}  // namespace ics::catalog
