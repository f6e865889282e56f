#include "common/util/result.h"
#include "common/util/status.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status::InvalidArgument("not positive: " + std::to_string(v));
  return v;
}

Result<int> Doubled(int v) {
  ICS_ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return 2 * x;
}

Status Check(int v) {
  ICS_RETURN_IF_ERROR(ParsePositive(v).status());
  return Status::OK();
}

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kOk);
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_TRUE(s.message().empty());
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = Status::NotFound("table a.b");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.ToString(), "NOT_FOUND: table a.b");
  Status copy = s;
  EXPECT_EQ(copy.message(), "table a.b");
  EXPECT_EQ(s.WithContext("lookup").message(), "lookup: table a.b");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

TEST(StatusTest, WireCodesMatchImpala) {
  // These numbers are TErrorCode values on the wire.
  EXPECT_EQ(static_cast<int>(ErrorCode::kGeneral), 2);
  EXPECT_EQ(static_cast<int>(ErrorCode::kLz4CompressionInputTooLarge), 113);
  EXPECT_EQ(static_cast<int>(ErrorCode::kCatalogIncompatibleProtocol), 157);
  EXPECT_EQ(static_cast<int>(ErrorCode::kStatestoreIncompatibleProtocol), 158);
}

TEST(ResultTest, ValueAndErrorPropagate) {
  auto ok = Doubled(4);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 8);
  auto bad = Doubled(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(Check(3).ok());
  EXPECT_EQ(Check(0).code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace ics

#include "common/util/base64.h"

namespace ics {
namespace {

TEST(Base64Test, KnownVectorsAndRoundTrip) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  auto back = Base64Decode(Base64Encode(all));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, all);
}

TEST(Base64Test, RejectsMalformed) {
  EXPECT_FALSE(Base64Decode("abc").ok());
  EXPECT_FALSE(Base64Decode("ab!d").ok());
  EXPECT_FALSE(Base64Decode("a===").ok());
  EXPECT_FALSE(Base64Decode("ab=c").ok());
  EXPECT_FALSE(Base64Decode("Zg==Zg==").ok());
}

}  // namespace
}  // namespace ics
