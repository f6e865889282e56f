#include "common/codec/file_desc.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

FileDescInfo Sample() {
  FileDescInfo info;
  info.relative_path = "000000_0.gz";
  info.length = 300;
  info.mtime_ms = 1700000000123;
  info.compression = CompressionFromFileName(info.relative_path);
  info.blocks = SplitIntoBlocks(info.length, 128, 0);
  info.blocks[0].replica_host_idxs.push_back(3 | kCachedReplicaBit);
  info.blocks[0].disk_ids.push_back(2);
  return info;
}

TEST(FileDescTest, RoundTrip) {
  const std::string bytes = BuildFileDesc(Sample());
  auto fd = ReadFileDesc(bytes);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  const FileDescInfo back = ToFileDescInfo(**fd);
  EXPECT_EQ(back.relative_path, "000000_0.gz");
  EXPECT_TRUE(back.absolute_path.empty());
  EXPECT_EQ(back.length, 300);
  EXPECT_EQ(back.mtime_ms, 1700000000123);
  EXPECT_EQ(back.compression, fb::FbCompression::GZIP);
  ASSERT_EQ(back.blocks.size(), 3u);
  EXPECT_EQ(back.blocks[2].offset, 256);
  EXPECT_EQ(back.blocks[2].length, 44);
  ASSERT_EQ(back.blocks[0].replica_host_idxs.size(), 2u);
  EXPECT_EQ(back.blocks[0].replica_host_idxs[1], 3 | kCachedReplicaBit);
  EXPECT_EQ(back.blocks[0].disk_ids[1], 2);
}

TEST(FileDescTest, DefaultsMatchSchema) {
  FileDescInfo info;
  info.relative_path = "f";
  const std::string bytes = BuildFileDesc(info);
  auto fd = ReadFileDesc(bytes);
  ASSERT_TRUE(fd.ok());
  EXPECT_FALSE((*fd)->is_ec());
  EXPECT_FALSE((*fd)->is_encrypted());
  EXPECT_EQ((*fd)->file_blocks(), nullptr);
  // A block with no explicit length reads back the schema default -1.
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::CreateFbFileBlock(fbb, 0, -1));
  auto* block = flatbuffers::GetRoot<fb::FbFileBlock>(fbb.GetBufferPointer());
  EXPECT_EQ(block->length(), -1);
  EXPECT_EQ(block->offset(), 0);
}

TEST(FileDescTest, CompressionFromExtension) {
  EXPECT_EQ(CompressionFromFileName("a.txt"), fb::FbCompression::NONE);
  EXPECT_EQ(CompressionFromFileName("a.GZ"), fb::FbCompression::GZIP);
  EXPECT_EQ(CompressionFromFileName("a.snappy"), fb::FbCompression::SNAPPY);
  EXPECT_EQ(CompressionFromFileName("a.bz2"), fb::FbCompression::BZIP2);
  EXPECT_EQ(CompressionFromFileName("a.deflate"), fb::FbCompression::DEFLATE);
  EXPECT_EQ(CompressionFromFileName("a.lz4"), fb::FbCompression::LZ4);
  EXPECT_EQ(CompressionFromFileName("a.lzo"), fb::FbCompression::LZO);
  EXPECT_EQ(CompressionFromFileName("a.zst"), fb::FbCompression::ZSTD);
  EXPECT_EQ(CompressionFromFileName("gz"), fb::FbCompression::NONE);
}

TEST(FileDescTest, SplitIntoBlocksEdgeCases) {
  EXPECT_TRUE(SplitIntoBlocks(0, 128, 0).empty());
  EXPECT_EQ(SplitIntoBlocks(128, 128, 0).size(), 1u);
  EXPECT_EQ(SplitIntoBlocks(129, 128, 0).size(), 2u);
  EXPECT_TRUE(SplitIntoBlocks(10, 0, 0).empty());
}

TEST(FileDescTest, RejectsGarbageAndTruncation) {
  EXPECT_FALSE(ReadFileDesc("").ok());
  EXPECT_FALSE(ReadFileDesc("xyz").ok());
  EXPECT_FALSE(ReadFileDesc(std::string(64, '\xff')).ok());
  const std::string bytes = BuildFileDesc(Sample());
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    EXPECT_FALSE(ReadFileDesc(bytes.substr(0, cut)).ok()) << cut;
  }
}

}  // namespace
}  // namespace ics
