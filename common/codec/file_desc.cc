#include "common/codec/file_desc.h"

#include <algorithm>
#include <cctype>

#include "common/util/checked_math.h"

namespace ics {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

fb::FbCompression CompressionFromFileName(std::string_view name) {
  struct Ext {
    std::string_view suffix;
    fb::FbCompression codec;
  };
  static constexpr Ext kExts[] = {
      {".gz", fb::FbCompression::GZIP},       {".deflate", fb::FbCompression::DEFLATE},
      {".bz2", fb::FbCompression::BZIP2},     {".snappy", fb::FbCompression::SNAPPY},
      {".lzo", fb::FbCompression::LZO},       {".lz4", fb::FbCompression::LZ4},
      {".zst", fb::FbCompression::ZSTD},      {".zstd", fb::FbCompression::ZSTD},
  };
  for (const Ext& e : kExts) {
    if (EndsWith(name, e.suffix)) return e.codec;
  }
  return fb::FbCompression::NONE;
}

std::vector<FileBlockInfo> SplitIntoBlocks(int64_t length, int64_t block_size, uint16_t host_idx) {
  std::vector<FileBlockInfo> blocks;
  if (length <= 0 || block_size <= 0) return blocks;
  int64_t count = CeilDiv(length, block_size);
  if (count > kMaxBlocksPerFile) {
    block_size = CeilDiv(length, kMaxBlocksPerFile);
    count = CeilDiv(length, block_size);  // <= kMaxBlocksPerFile
  }
  blocks.reserve(static_cast<size_t>(count));
  int64_t off = 0;
  while (off < length) {
    // length - off > 0 and never overflows; off + len <= length.
    const int64_t len = std::min(block_size, length - off);
    FileBlockInfo b;
    b.offset = off;
    b.length = len;
    b.replica_host_idxs = {host_idx};
    b.disk_ids = {-1};
    blocks.push_back(std::move(b));
    off += len;
  }
  return blocks;
}

std::string BuildFileDesc(const FileDescInfo& info) {
  // Null offsets (empty vectors/strings) are skipped by the builder, so
  // absent fields take no space.
  using flatbuffers::Offset;
  flatbuffers::FlatBufferBuilder fbb(128 + info.relative_path.size() + info.blocks.size() * 48);
  std::vector<Offset<fb::FbFileBlock>> blocks;
  blocks.reserve(info.blocks.size());
  for (const FileBlockInfo& b : info.blocks) {
    Offset<flatbuffers::Vector<uint16_t>> hosts;
    Offset<flatbuffers::Vector<int16_t>> disks;
    if (!b.replica_host_idxs.empty()) hosts = fbb.CreateVector(b.replica_host_idxs);
    if (!b.disk_ids.empty()) disks = fbb.CreateVector(b.disk_ids);
    blocks.push_back(fb::CreateFbFileBlock(fbb, b.offset, b.length, hosts, disks));
  }
  Offset<flatbuffers::String> rel;
  Offset<flatbuffers::String> abs;
  Offset<flatbuffers::Vector<Offset<fb::FbFileBlock>>> blocks_vec;
  if (!info.relative_path.empty()) rel = fbb.CreateString(info.relative_path);
  if (!info.absolute_path.empty()) abs = fbb.CreateString(info.absolute_path);
  if (!blocks.empty()) blocks_vec = fbb.CreateVector(blocks);
  fbb.Finish(fb::CreateFbFileDesc(fbb, rel, info.length, info.compression, info.mtime_ms,
                                  blocks_vec, info.is_ec, abs, info.is_encrypted));
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

Result<const fb::FbFileDesc*> ReadFileDesc(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (bytes.size() < sizeof(flatbuffers::uoffset_t) || !verifier.VerifyBuffer<fb::FbFileDesc>()) {
    return Status::Corruption("file descriptor of " + std::to_string(bytes.size()) +
                              " bytes is not a valid FbFileDesc buffer");
  }
  return flatbuffers::GetRoot<fb::FbFileDesc>(data);
}

FileDescInfo ToFileDescInfo(const fb::FbFileDesc& d) {
  FileDescInfo info;
  if (d.relative_path() != nullptr) info.relative_path = d.relative_path()->str();
  if (d.absolute_path() != nullptr) info.absolute_path = d.absolute_path()->str();
  info.length = d.length();
  info.mtime_ms = d.last_modification_time();
  info.compression = d.compression();
  info.is_ec = d.is_ec();
  info.is_encrypted = d.is_encrypted();
  if (d.file_blocks() != nullptr) {
    for (const fb::FbFileBlock* b : *d.file_blocks()) {
      FileBlockInfo bi;
      bi.offset = b->offset();
      bi.length = b->length();
      if (b->replica_host_idxs() != nullptr) {
        bi.replica_host_idxs.assign(b->replica_host_idxs()->begin(), b->replica_host_idxs()->end());
      }
      if (b->disk_ids() != nullptr) bi.disk_ids.assign(b->disk_ids()->begin(), b->disk_ids()->end());
      info.blocks.push_back(std::move(bi));
    }
  }
  return info;
}

}  // namespace ics
