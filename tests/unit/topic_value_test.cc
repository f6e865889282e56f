#include "common/codec/topic_value.h"

#include <lz4.h>

#include <gtest/gtest.h>

#include "CatalogObjects_types.h"
#include "common/codec/thrift_serde.h"

namespace ics {
namespace {

impala::TCatalogObject SampleDatabase() {
  impala::TCatalogObject obj;
  obj.type = impala::TCatalogObjectType::DATABASE;
  obj.catalog_version = 42;
  obj.__isset.db = true;
  obj.db.db_name = "sales";
  return obj;
}

TEST(TopicValueTest, HeaderIsBigEndianUncompressedLength) {
  const std::string raw(300, 'x');
  auto c = CompressTopicValue(raw);
  ASSERT_TRUE(c.ok());
  ASSERT_GE(c->size(), 4u);
  EXPECT_EQ(static_cast<unsigned char>((*c)[0]), 0x00);
  EXPECT_EQ(static_cast<unsigned char>((*c)[1]), 0x00);
  EXPECT_EQ(static_cast<unsigned char>((*c)[2]), 0x01);  // 300 = 0x012C
  EXPECT_EQ(static_cast<unsigned char>((*c)[3]), 0x2C);
  // The rest is one raw LZ4 block that the plain LZ4 API decodes.
  std::string out(300, '\0');
  const int n = LZ4_decompress_safe(c->data() + 4, out.data(), static_cast<int>(c->size() - 4), 300);
  EXPECT_EQ(n, 300);
  EXPECT_EQ(out, raw);
}

TEST(TopicValueTest, CatalogObjectRoundTripCompactedAndNot) {
  for (bool compact : {false, true}) {
    auto enc = EncodeTopicValue(SampleDatabase(), compact);
    ASSERT_TRUE(enc.ok());
    impala::TCatalogObject back;
    ASSERT_TRUE(DecodeTopicValue(*enc, compact, &back).ok());
    EXPECT_EQ(back, SampleDatabase());
  }
  // Uncompacted value is exactly the TBinaryProtocol bytes.
  auto plain = EncodeTopicValue(SampleDatabase(), false);
  auto direct = SerializeThrift(SampleDatabase());
  ASSERT_TRUE(plain.ok() && direct.ok());
  EXPECT_EQ(*plain, *direct);
}

TEST(TopicValueTest, EmptyInputRoundTrips) {
  auto c = CompressTopicValue("");
  ASSERT_TRUE(c.ok());
  auto d = DecompressTopicValue(*c);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->empty());
}

TEST(TopicValueTest, RejectsShortHeader) {
  auto d = DecompressTopicValue(std::string("\x00\x01", 2));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kCorruption);
}

TEST(TopicValueTest, RejectsTruncatedBlock) {
  auto c = CompressTopicValue(std::string(5000, 'a') + std::string(5000, 'b'));
  ASSERT_TRUE(c.ok());
  for (size_t cut : {size_t{5}, c->size() / 2, c->size() - 1}) {
    EXPECT_FALSE(DecompressTopicValue(c->substr(0, cut)).ok()) << cut;
  }
}

TEST(TopicValueTest, RejectsWrongDeclaredLength) {
  auto c = CompressTopicValue(std::string(1000, 'z'));
  ASSERT_TRUE(c.ok());
  std::string lie = *c;
  lie[3] = static_cast<char>(static_cast<unsigned char>(lie[3]) + 1);  // 1001
  EXPECT_FALSE(DecompressTopicValue(lie).ok());
}

TEST(TopicValueTest, RejectsDeclaredLengthOverCap) {
  // Declares 0x7FFFFFFF bytes: must be refused before allocating.
  const std::string bomb("\x7F\xFF\xFF\xFF\x00", 5);
  auto d = DecompressTopicValue(bomb);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kCorruption);
  auto c = CompressTopicValue(std::string(2000, 'q'));
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(DecompressTopicValue(*c, 1000).ok());
}

TEST(TopicValueTest, RejectsGarbage) {
  std::string garbage = "\x00\x00\x00\x10garbage-garbage!";
  EXPECT_FALSE(DecompressTopicValue(garbage).ok());
  impala::TCatalogObject obj;
  EXPECT_FALSE(DecodeTopicValue("not thrift at all", false, &obj).ok());
}

TEST(TopicValueTest, InputOverLz4LimitFailsWithPeerCode) {
  // Only the length is inspected before refusing, so no memory is touched.
  const char dummy = 0;
  auto c = CompressTopicValue(std::string_view(&dummy, kMaxLz4InputBytes + 1));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLz4CompressionInputTooLarge);
}

}  // namespace
}  // namespace ics
