// Known byte vectors prove the field ids and types of our IDL match the
// peer's: the expected bytes below were computed by hand from the
// TBinaryProtocol rules (field header = type byte + big-endian i16 id).
#include "common/codec/thrift_serde.h"

#include <gtest/gtest.h>

#include "CatalogObjects_types.h"
#include "StatestoreService_types.h"
#include "Types_types.h"

namespace ics {
namespace {

std::string Bytes(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(static_cast<char>(b));
  return s;
}

TEST(ThriftSerdeTest, UniqueIdKnownBinaryBytes) {
  impala::TUniqueId id;
  id.hi = 1;
  id.lo = -2;
  auto bytes = SerializeThrift(id);
  ASSERT_TRUE(bytes.ok());
  const std::string expected = Bytes({
      0x0A, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1,                          // 1: hi i64
      0x0A, 0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,  // 2: lo i64
      0x00});                                                            // stop
  EXPECT_EQ(*bytes, expected);
  auto back = DeserializeThriftAs<impala::TUniqueId>(expected);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->hi, 1);
  EXPECT_EQ(back->lo, -2);
}

TEST(ThriftSerdeTest, TopicItemKnownBinaryBytes) {
  impala::TTopicItem item;
  item.key = "k";
  item.value = "vv";
  item.deleted = true;
  auto bytes = SerializeThrift(item);
  ASSERT_TRUE(bytes.ok());
  const std::string expected = Bytes({
      0x0B, 0x00, 0x01, 0, 0, 0, 1, 'k',       // 1: key string
      0x0B, 0x00, 0x02, 0, 0, 0, 2, 'v', 'v',  // 2: value binary
      0x02, 0x00, 0x03, 0x01,                  // 3: deleted bool
      0x00});
  EXPECT_EQ(*bytes, expected);
}

TEST(ThriftSerdeTest, UniqueIdKnownCompactBytes) {
  impala::TUniqueId id;
  id.hi = 1;
  id.lo = -1;
  auto bytes = SerializeThrift(id, ThriftProtocol::kCompact);
  ASSERT_TRUE(bytes.ok());
  // Compact: (delta 1 << 4 | type i64=6), zigzag varint; 1 -> 2, -1 -> 1.
  EXPECT_EQ(*bytes, Bytes({0x16, 0x02, 0x16, 0x01, 0x00}));
}

TEST(ThriftSerdeTest, CompactRoundTrip) {
  impala::TTableName name;
  name.db_name = "db";
  name.table_name = "t";
  auto bytes = SerializeThrift(name, ThriftProtocol::kCompact);
  ASSERT_TRUE(bytes.ok());
  auto back = DeserializeThriftAs<impala::TTableName>(*bytes, ThriftProtocol::kCompact);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, name);
}

TEST(ThriftSerdeTest, RejectsTruncatedInput) {
  impala::TUniqueId id;
  auto bytes = SerializeThrift(id);
  ASSERT_TRUE(bytes.ok());
  for (size_t n = 0; n < bytes->size(); ++n) {
    auto r = DeserializeThriftAs<impala::TUniqueId>(std::string_view(*bytes).substr(0, n));
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes accepted";
  }
}

TEST(ThriftSerdeTest, RejectsMissingRequiredField) {
  // Only field 1 (hi) then stop: lo is required.
  const std::string bytes = Bytes({0x0A, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0x00});
  auto r = DeserializeThriftAs<impala::TUniqueId>(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kCorruption);
}

TEST(ThriftSerdeTest, RejectsTrailingBytes) {
  impala::TUniqueId id;
  auto bytes = SerializeThrift(id);
  ASSERT_TRUE(bytes.ok());
  auto r = DeserializeThriftAs<impala::TUniqueId>(*bytes + "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("trailing"), std::string::npos);
}

TEST(ThriftSerdeTest, RejectsHugeDeclaredLengths) {
  // TTopicItem whose key claims 2^31-1 bytes but carries 3.
  const std::string bytes = Bytes({0x0B, 0x00, 0x01, 0x7F, 0xFF, 0xFF, 0xFF, 'a', 'b', 'c'});
  auto r = DeserializeThriftAs<impala::TTopicItem>(bytes);
  EXPECT_FALSE(r.ok());
  // A list claiming a billion elements must fail fast, not allocate.
  const std::string list = Bytes({0x0F, 0x00, 0x02, 0x0C, 0x3B, 0x9A, 0xCA, 0x00, 0x00});
  auto r2 = DeserializeThriftAs<impala::TTopicDelta>(list);
  EXPECT_FALSE(r2.ok());
}

TEST(ThriftSerdeTest, RejectsOversizedMessage) {
  impala::TTopicItem item;
  item.key = std::string(1000, 'k');
  item.value = "v";
  auto bytes = SerializeThrift(item);
  ASSERT_TRUE(bytes.ok());
  auto r = DeserializeThriftAs<impala::TTopicItem>(*bytes, ThriftProtocol::kBinary, 100);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
}

}  // namespace
}  // namespace ics
