#include "common/codec/partition_stats.h"

#include "common/codec/deflate.h"
#include "common/codec/thrift_serde.h"

namespace ics {

Result<std::string> EncodePartitionStats(const impala::TPartitionStats& stats) {
  ICS_ASSIGN_OR_RETURN(std::string compact, SerializeThrift(stats, ThriftProtocol::kCompact));
  return DeflateCompress(compact, kDeflateBestSpeed);
}

Result<impala::TPartitionStats> DecodePartitionStats(std::string_view compressed,
                                                     size_t max_bytes) {
  ICS_ASSIGN_OR_RETURN(std::string compact, InflateDecompress(compressed, max_bytes));
  return DeserializeThriftAs<impala::TPartitionStats>(compact, ThriftProtocol::kCompact,
                                                      max_bytes);
}

}  // namespace ics
