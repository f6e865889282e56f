#include "common/codec/deflate.h"

#include <zlib.h>

#include <gtest/gtest.h>

#include "common/codec/partition_stats.h"
#include "common/codec/thrift_serde.h"

namespace ics {
namespace {

TEST(DeflateTest, ProducesZlibWrappedBestSpeedStream) {
  const std::string raw = "partition stats partition stats partition stats";
  auto c = DeflateCompress(raw);
  ASSERT_TRUE(c.ok());
  // RFC 1950 header: CMF 0x78 (deflate, 32K window); FLG 0x01 = fastest level.
  ASSERT_GE(c->size(), 6u);
  EXPECT_EQ(static_cast<unsigned char>((*c)[0]), 0x78);
  EXPECT_EQ(static_cast<unsigned char>((*c)[1]), 0x01);
  // A standard inflater (zlib's uncompress) decodes it.
  std::string out(raw.size(), '\0');
  uLongf out_len = out.size();
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &out_len,
                       reinterpret_cast<const Bytef*>(c->data()), c->size()),
            Z_OK);
  EXPECT_EQ(out, raw);
}

TEST(DeflateTest, InflatesStreamFromStandardDeflater) {
  const std::string raw(100000, 'r');
  uLongf len = compressBound(raw.size());
  std::string c(len, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(c.data()), &len,
                      reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 9),
            Z_OK);
  c.resize(len);
  auto d = InflateDecompress(c, raw.size());
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(*d, raw);
}

TEST(DeflateTest, BombIsStoppedAtTheCap) {
  const std::string raw(64 << 20, '\0');  // 64 MiB of zeros -> ~64 KiB stream
  auto c = DeflateCompress(raw);
  ASSERT_TRUE(c.ok());
  EXPECT_LT(c->size(), 1u << 20);
  auto d = InflateDecompress(*c, 1 << 20);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kLimitExceeded);
}

TEST(DeflateTest, ExactCapIsAccepted) {
  const std::string raw(4096, 'e');
  auto c = DeflateCompress(raw);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(InflateDecompress(*c, 4096).ok());
  EXPECT_FALSE(InflateDecompress(*c, 4095).ok());
}

TEST(DeflateTest, RejectsTruncatedCorruptAndTrailing) {
  auto c = DeflateCompress(std::string(10000, 'a') + "tail");
  ASSERT_TRUE(c.ok());
  for (size_t cut : {size_t{0}, size_t{1}, size_t{2}, c->size() / 2, c->size() - 1}) {
    auto d = InflateDecompress(c->substr(0, cut), 1 << 20);
    ASSERT_FALSE(d.ok()) << cut;
    EXPECT_EQ(d.status().code(), ErrorCode::kCorruption);
  }
  std::string bad = *c;
  bad[bad.size() - 2] ^= 0x55;  // breaks the Adler-32 checksum
  EXPECT_FALSE(InflateDecompress(bad, 1 << 20).ok());
  EXPECT_FALSE(InflateDecompress(*c + "junk", 1 << 20).ok());
  EXPECT_FALSE(InflateDecompress("\x78\x01garbage", 1 << 20).ok());
}

impala::TPartitionStats SampleStats() {
  impala::TPartitionStats stats;
  stats.stats.num_rows = 1234;
  stats.__isset.intermediate_col_stats = true;
  impala::TIntermediateColumnStats col;
  col.num_nulls = 7;
  col.max_width = 12;
  col.avg_width = 4.5;
  col.num_rows = 1234;
  col.__isset.num_nulls = col.__isset.max_width = col.__isset.avg_width = col.__isset.num_rows = true;
  stats.intermediate_col_stats["c1"] = col;
  return stats;
}

TEST(PartitionStatsTest, RoundTripsThroughCompactAndDeflate) {
  auto enc = EncodePartitionStats(SampleStats());
  ASSERT_TRUE(enc.ok());
  // Inflating gives exactly the TCompactProtocol bytes.
  auto raw = InflateDecompress(*enc, 1 << 20);
  ASSERT_TRUE(raw.ok());
  auto compact = SerializeThrift(SampleStats(), ThriftProtocol::kCompact);
  ASSERT_TRUE(compact.ok());
  EXPECT_EQ(*raw, *compact);
  auto dec = DecodePartitionStats(*enc);
  ASSERT_TRUE(dec.ok()) << dec.status().ToString();
  EXPECT_EQ(*dec, SampleStats());
}

TEST(PartitionStatsTest, RejectsNonStatsPayload) {
  auto enc = DeflateCompress("definitely not compact thrift");
  ASSERT_TRUE(enc.ok());
  EXPECT_FALSE(DecodePartitionStats(*enc).ok());
  EXPECT_FALSE(DecodePartitionStats("").ok());
}

}  // namespace
}  // namespace ics
