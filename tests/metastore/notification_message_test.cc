// Base64 and the JSON notification message format: known vectors and round trips.
#include "catalogd/metastore/notification_message.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/util/base64.h"

namespace ics::catalog {
namespace {

TEST(MetastoreBase64Test, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    auto back = Base64Decode(encoded);
    ASSERT_TRUE(back.ok()) << encoded;
    EXPECT_EQ(*back, plain);
  }
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  EXPECT_EQ(*Base64Decode(Base64Encode(all)), all);
  EXPECT_EQ(Base64Encode("\xff\xfe"), "//4=");
}

TEST(MetastoreBase64Test, RejectsMalformedText) {
  for (const char* bad : {"Zg=", "Zg", "Z===", "Zm9v!A==", "Zg==Zg==", "Zh==", "Zm9=", "=AAA"}) {
    auto r = Base64Decode(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kCorruption) << bad;
  }
}

TEST(MetastoreNotificationMessageTest, KnownJson) {
  NotificationMessage msg;
  msg.db = "db1";
  msg.table = "t1";
  msg.partition = "p=1";
  msg.object = std::string("\x01\x02", 2);
  const auto j = nlohmann::json::parse(EncodeNotificationMessage(msg));
  EXPECT_EQ(j, nlohmann::json::parse(R"({"db":"db1","table":"t1","partition":"p=1",
                                         "object":"AQI="})"));
}

TEST(MetastoreNotificationMessageTest, RoundTripsEveryField) {
  NotificationMessage msg;
  msg.db = "new_db";
  msg.table = "new_t";
  msg.partition = "a=x%2Fy";
  msg.function = "f(INT)";
  msg.old_db = "old_db";
  msg.old_table = "old_t";
  msg.object = std::string("\0\xff\x10", 3);
  auto back = DecodeNotificationMessage(EncodeNotificationMessage(msg));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, msg);

  NotificationMessage minimal;
  minimal.db = "d";
  auto back2 = DecodeNotificationMessage(EncodeNotificationMessage(minimal));
  ASSERT_TRUE(back2.ok());
  EXPECT_EQ(*back2, minimal);
  EXPECT_FALSE(back2->object.has_value());
}

TEST(MetastoreNotificationMessageTest, InvalidUtf8NamesDoNotThrow) {
  NotificationMessage msg;
  msg.db = "d";
  msg.table = "bad\xff";
  const std::string json = EncodeNotificationMessage(msg);
  auto back = DecodeNotificationMessage(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->table, "bad\xef\xbf\xbd");  // U+FFFD
}

TEST(MetastoreNotificationMessageTest, RejectsMalformedMessages) {
  for (const char* bad : {"", "not json", "[1]", R"({"table":"t"})", R"({"db":"d"})",
                          R"({"db":1,"table":"t"})", R"({"db":"d","table":"t","object":"!"})",
                          R"({"db":"d","table":"t","partition":3})"}) {
    auto r = DecodeNotificationMessage(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kCorruption) << bad;
  }
  // Unknown fields are ignored.
  EXPECT_TRUE(DecodeNotificationMessage(R"({"db":"d","table":"","future":[1]})").ok());
}

}  // namespace
}  // namespace ics::catalog
