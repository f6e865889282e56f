#include "common/hive/partition_name.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

TEST(MetastorePartitionNameTest, EscapesHiveSpecialCharacters) {
  EXPECT_EQ(EscapePathName("plain-value_1.5 x"), "plain-value_1.5 x");
  EXPECT_EQ(EscapePathName("a/b"), "a%2Fb");
  EXPECT_EQ(EscapePathName("k=v"), "k%3Dv");
  EXPECT_EQ(EscapePathName("100%"), "100%25");
  EXPECT_EQ(EscapePathName("\"#'*:?\\{[]^"), "%22%23%27%2A%3A%3F%5C%7B%5B%5D%5E");
  EXPECT_EQ(EscapePathName(std::string("\x01\x1f\x7f", 3)), "%01%1F%7F");
  EXPECT_EQ(EscapePathName(std::string("a\0b", 3)), "a%00b");
  // Not escaped by Hive: '}', '<', '>', '|', space, non-ASCII UTF-8.
  EXPECT_EQ(EscapePathName("}<>| "), "}<>| ");
  EXPECT_EQ(EscapePathName("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(EscapePathName(""), kDefaultPartitionName);
}

TEST(MetastorePartitionNameTest, UnescapeInvertsEscape) {
  const std::string all = [] {
    std::string s;
    for (int c = 0; c < 256; ++c) s.push_back(static_cast<char>(c));
    return s;
  }();
  auto back = UnescapePathName(EscapePathName(all));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, all);
  // Lower-case hex is accepted too.
  EXPECT_EQ(*UnescapePathName("a%2fb"), "a/b");
}

TEST(MetastorePartitionNameTest, UnescapeRejectsMalformedEscapes) {
  for (const char* bad : {"%", "a%", "a%2", "%zz", "%2g", "x%%41"}) {
    auto r = UnescapePathName(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_NE(r.status().message().find("hex digits"), std::string::npos);
  }
}

TEST(MetastorePartitionNameTest, MakeBuildsHiveNames) {
  EXPECT_EQ(*MakePartitionName({"year"}, {"2024"}), "year=2024");
  EXPECT_EQ(*MakePartitionName({"Year", "Month"}, {"2024", "01"}), "year=2024/month=01");
  EXPECT_EQ(*MakePartitionName({"p"}, {"a/b=c"}), "p=a%2Fb%3Dc");
  EXPECT_EQ(*MakePartitionName({"p", "q"}, {"", "x"}), "p=__HIVE_DEFAULT_PARTITION__/q=x");
  EXPECT_EQ(*MakePartitionName({"p"}, {std::string(kDefaultPartitionName)}),
            "p=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(*MakePartitionName({"we:ird"}, {"v"}), "we%3Aird=v");
}

TEST(MetastorePartitionNameTest, MakeRejectsBadInput) {
  EXPECT_EQ(MakePartitionName({}, {}).status().code(), ErrorCode::kInvalidArgument);
  auto mismatch = MakePartitionName({"a", "b"}, {"1"});
  EXPECT_EQ(mismatch.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(mismatch.status().message().find("1 values"), std::string::npos);
  EXPECT_EQ(MakePartitionName({""}, {"1"}).status().code(), ErrorCode::kInvalidArgument);
}

TEST(MetastorePartitionNameTest, ParseSplitsAndUnescapes) {
  auto spec = ParsePartitionName("year=2024/p=a%2Fb%3Dc/q=__HIVE_DEFAULT_PARTITION__");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  const PartitionSpec expected = {
      {"year", "2024"}, {"p", "a/b=c"}, {"q", std::string(kDefaultPartitionName)}};
  EXPECT_EQ(*spec, expected);
}

TEST(MetastorePartitionNameTest, ParseRoundTripsMake) {
  const std::vector<std::string> keys = {"k1", "k=2", "k/3"};
  const std::vector<std::string> values = {"x y", "%25", std::string("\x01:\x7f", 3)};
  auto name = MakePartitionName(keys, values);
  ASSERT_TRUE(name.ok());
  auto spec = ParsePartitionName(*name);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->size(), 3u);
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ((*spec)[i].first, keys[i]);
    EXPECT_EQ((*spec)[i].second, values[i]);
  }
}

TEST(MetastorePartitionNameTest, ParseRejectsMalformedNames) {
  struct Case {
    const char* name;
    const char* expect_in_message;
  };
  const Case cases[] = {
      {"", "empty"},
      {"a=1//b=2", "empty component"},
      {"a=1/", "empty component"},
      {"/a=1", "empty component"},
      {"a", "no '='"},
      {"a=1=2", "more than one"},
      {"=1", "empty key"},
      {"a=", "empty value"},
      {"a=%zz", "hex digits"},
      {"a=1/a=2", "repeats"},
  };
  for (const Case& c : cases) {
    auto r = ParsePartitionName(c.name);
    ASSERT_FALSE(r.ok()) << "'" << c.name << "' parsed";
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument) << c.name;
    EXPECT_NE(r.status().message().find(c.expect_in_message), std::string::npos)
        << c.name << ": " << r.status().ToString();
  }
}

}  // namespace
}  // namespace ics
