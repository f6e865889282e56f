#include "common/codec/topic_value.h"

#include <lz4.h>

#include "common/codec/thrift_serde.h"

namespace ics {

namespace {

void PutBigEndian32(uint32_t v, char* out) {
  out[0] = static_cast<char>((v >> 24) & 0xFF);
  out[1] = static_cast<char>((v >> 16) & 0xFF);
  out[2] = static_cast<char>((v >> 8) & 0xFF);
  out[3] = static_cast<char>(v & 0xFF);
}

uint32_t GetBigEndian32(const char* in) {
  const auto* b = reinterpret_cast<const unsigned char*>(in);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

}  // namespace

Result<std::string> CompressTopicValue(std::string_view raw) {
  if (raw.size() > kMaxLz4InputBytes) {
    return Status(ErrorCode::kLz4CompressionInputTooLarge,
                  "topic value of " + std::to_string(raw.size()) +
                      " bytes is too large for LZ4 (limit " +
                      std::to_string(kMaxLz4InputBytes) + ")");
  }
  const int bound = LZ4_compressBound(static_cast<int>(raw.size()));
  std::string out(kTopicValueHeaderBytes + static_cast<size_t>(bound), '\0');
  PutBigEndian32(static_cast<uint32_t>(raw.size()), out.data());
  const int n = LZ4_compress_default(raw.data(), out.data() + kTopicValueHeaderBytes,
                                     static_cast<int>(raw.size()), bound);
  if (n <= 0) return Status::Internal("LZ4 compression failed");
  out.resize(kTopicValueHeaderBytes + static_cast<size_t>(n));
  return out;
}

namespace {

// Decompresses into `*out` (resized to the declared length).
Status DecompressTopicValueInto(std::string_view compressed, size_t max_bytes, std::string* out) {
  if (compressed.size() < kTopicValueHeaderBytes) {
    return Status::Corruption("compressed topic value of " + std::to_string(compressed.size()) +
                              " bytes is shorter than its 4-byte header");
  }
  const uint32_t len = GetBigEndian32(compressed.data());
  if (len > max_bytes || len > kMaxLz4InputBytes) {
    return Status::Corruption("compressed topic value declares " + std::to_string(len) +
                              " uncompressed bytes, over the limit of " +
                              std::to_string(std::min(max_bytes, kMaxLz4InputBytes)));
  }
  const std::string_view block = compressed.substr(kTopicValueHeaderBytes);
  if (block.size() > kMaxLz4InputBytes + 0x1000000) {
    return Status::Corruption("compressed topic value block is too large");
  }
  out->resize(len);
  const int n = LZ4_decompress_safe(block.data(), out->data(), static_cast<int>(block.size()),
                                    static_cast<int>(len));
  if (n < 0 || static_cast<uint32_t>(n) != len) {
    return Status::Corruption("corrupt LZ4 block in topic value (declared " +
                              std::to_string(len) + " bytes, decoded " +
                              std::to_string(n < 0 ? 0 : n) + ")");
  }
  return Status::OK();
}

}  // namespace

Result<std::string> DecompressTopicValue(std::string_view compressed, size_t max_bytes) {
  std::string out;
  ICS_RETURN_IF_ERROR(DecompressTopicValueInto(compressed, max_bytes, &out));
  return out;
}

Result<std::string> EncodeTopicValue(const apache::thrift::TBase& obj, bool compact) {
  ICS_ASSIGN_OR_RETURN(std::string raw, SerializeThrift(obj, ThriftProtocol::kBinary));
  if (!compact) return raw;
  return CompressTopicValue(raw);
}

Status DecodeTopicValue(std::string_view value, bool compact, apache::thrift::TBase* out,
                        size_t max_bytes) {
  if (!compact) return DeserializeThrift(value, out, ThriftProtocol::kBinary, max_bytes);
  // One buffer per thread: a subscriber decodes every entry of every topic
  // update, most of them small. A large one is not kept.
  constexpr size_t kKeptBytes = 64 << 10;
  thread_local std::string raw;
  Status s = DecompressTopicValueInto(value, max_bytes, &raw);
  if (s.ok()) s = DeserializeThrift(raw, out, ThriftProtocol::kBinary, max_bytes);
  if (raw.capacity() > kKeptBytes) std::string().swap(raw);
  return s;
}

}  // namespace ics
