#include "catalogd/loader/partition_stats_params.h"

#include <charconv>

#include "common/codec/thrift_serde.h"
#include "common/util/base64.h"

namespace ics::catalog {

namespace {

std::string ChunkKey(int i) { return kStatsChunkParamPrefix + std::to_string(i); }

}  // namespace

Result<std::optional<impala::TPartitionStats>> GetStatsFromParams(
    const std::map<std::string, std::string>& params) {
  auto it = params.find(kStatsNumChunksParam);
  if (it == params.end()) return std::optional<impala::TPartitionStats>();
  const std::string& count_text = it->second;
  int num_chunks = -1;
  auto [end, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(),
                                   num_chunks);
  if (ec != std::errc() || end != count_text.data() + count_text.size() || num_chunks < 0 ||
      num_chunks > kMaxStatsChunks) {
    return Status::Corruption(std::string("bad ") + kStatsNumChunksParam + " '" + count_text + "'");
  }
  if (num_chunks == 0) return std::optional<impala::TPartitionStats>();
  std::string text;
  for (int i = 0; i < num_chunks; ++i) {
    auto chunk = params.find(ChunkKey(i));
    if (chunk == params.end()) {
      return Status::Corruption("missing partition stats chunk " + ChunkKey(i) + " of " +
                                std::to_string(num_chunks));
    }
    text += chunk->second;
  }
  Result<std::string> compact = Base64Decode(text);
  if (!compact.ok()) return compact.status().WithContext("partition stats");
  Result<impala::TPartitionStats> stats =
      DeserializeThriftAs<impala::TPartitionStats>(*compact, ThriftProtocol::kCompact);
  if (!stats.ok()) return stats.status().WithContext("partition stats");
  return std::optional<impala::TPartitionStats>(std::move(stats).value());
}

Status SetStatsParams(const impala::TPartitionStats& stats,
                      std::map<std::string, std::string>* params) {
  ICS_ASSIGN_OR_RETURN(std::string compact, SerializeThrift(stats, ThriftProtocol::kCompact));
  const std::string text = Base64Encode(compact);
  RemoveStatsParams(params);
  int n = 0;
  for (size_t off = 0; off < text.size(); off += kStatsChunkChars, ++n) {
    (*params)[ChunkKey(n)] = text.substr(off, kStatsChunkChars);
  }
  (*params)[kStatsNumChunksParam] = std::to_string(n);
  return Status::OK();
}

void RemoveStatsParams(std::map<std::string, std::string>* params) {
  params->erase(kStatsNumChunksParam);
  const std::string prefix = kStatsChunkParamPrefix;
  for (auto it = params->lower_bound(prefix);
       it != params->end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    it = params->erase(it);
  }
}

}  // namespace ics::catalog
