// Building and reading FlatBuffer file descriptors (FbFileDesc, see
// common/fbs/CatalogObjects.fbs).
//
// A descriptor is kept as its finished FlatBuffer bytes (a std::string) from
// the moment a directory is listed until a planner reads it: catalogd stores
// and ships those bytes in THdfsFileDesc.file_desc_data, coordinators keep
// them as-is. ReadFileDesc verifies a buffer before handing out a view, so a
// malformed descriptor received over the wire is rejected, not followed.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "CatalogObjects_generated.h"
#include "common/util/result.h"

namespace ics {

struct FileBlockInfo {
  int64_t offset = 0;
  int64_t length = -1;
  std::vector<uint16_t> replica_host_idxs;  // bit 15 = cached replica
  std::vector<int16_t> disk_ids;            // -1 = unknown
};

// Plain description of a file, the input of BuildFileDesc.
struct FileDescInfo {
  std::string relative_path;
  std::string absolute_path;  // empty unless the file lives outside its partition
  int64_t length = 0;
  int64_t mtime_ms = 0;
  fb::FbCompression compression = fb::FbCompression::NONE;
  std::vector<FileBlockInfo> blocks;
  bool is_ec = false;
  bool is_encrypted = false;
};

// Marks a replica host index as cached (bit 15).
inline constexpr uint16_t kCachedReplicaBit = 0x8000;

// Returns the compression Impala infers from a file name's extension
// (.gz, .deflate, .bz2, .snappy, .lzo, .lz4, .zst/.zstd; NONE otherwise).
fb::FbCompression CompressionFromFileName(std::string_view file_name);

// Most blocks SplitIntoBlocks gives one file (as HDFS bounds blocks per
// file): with 128 MiB blocks, files up to 1.25 TiB keep their block size.
inline constexpr int64_t kMaxBlocksPerFile = 10000;

// Splits a file of `length` bytes into blocks of `block_size` bytes, each
// placed on `host_idx` (used for local, single-host warehouses). No blocks
// when length <= 0 or block_size <= 0. Safe for any int64 inputs (no
// overflow up to length INT64_MAX): a file that would need more than
// kMaxBlocksPerFile blocks is split into kMaxBlocksPerFile blocks of
// ceil(length / kMaxBlocksPerFile) bytes (the last one shorter) instead,
// so a huge file or a tiny block size never makes a huge allocation.
std::vector<FileBlockInfo> SplitIntoBlocks(int64_t length, int64_t block_size, uint16_t host_idx);

// Encodes one descriptor as a finished FlatBuffer.
std::string BuildFileDesc(const FileDescInfo& info);

// Verifies `bytes` and returns a view into them; the view is valid as long
// as `bytes` is. CORRUPTION if the buffer does not verify.
Result<const fb::FbFileDesc*> ReadFileDesc(std::string_view bytes);

// Decodes a verified descriptor back into the plain form.
FileDescInfo ToFileDescInfo(const fb::FbFileDesc& desc);

}  // namespace ics
