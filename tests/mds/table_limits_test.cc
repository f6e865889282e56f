// TableService limits: field checks, version ids, max results and the
// GetTables name pattern.
#include <gtest/gtest.h>

#include "catalogd/ops/table_limits.h"

namespace ics::catalog::ops {
namespace {

TEST(TableLimitsTest, Fields) {
  EXPECT_TRUE(CheckField("f", "", 0, 5, true).ok());
  EXPECT_TRUE(CheckField("f", "abcde", 1, 5, true).ok());
  EXPECT_TRUE(CheckField("f", "abcdef", 1, 5, true).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(CheckField("f", "", 1, 5, true).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(CheckField("f", "a\nb", 0, 5, true).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(CheckField("f", "a\nb", 0, 5, false).ok());
  EXPECT_TRUE(CheckField("f", std::string("a\0b", 3), 0, 5, false).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(CheckField("f", "\xff", 0, 5, false).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(CheckField("f", "\xc3\xa9t\xc3\xa9", 0, 10, true).ok());  // UTF-8
  Status s = CheckField("Description", std::string(2049, 'x'), 0, kMaxDescriptionBytes, false);
  EXPECT_NE(s.message().find("Description is 2049 bytes; the limit is 2048"), std::string::npos)
      << s.ToString();
}

TEST(TableLimitsTest, NamesAreLowerCasedAndBounded) {
  EXPECT_EQ(*NormalizeTable("MyTable"), "mytable");
  EXPECT_TRUE(NormalizeTable(std::string(255, 'a')).ok());
  EXPECT_FALSE(NormalizeTable(std::string(256, 'a')).ok());
  EXPECT_FALSE(NormalizeTable("").ok());
  EXPECT_FALSE(NormalizeDb("a\nb").ok());
  EXPECT_FALSE(NormalizeColumn("a.b").ok());
}

TEST(TableLimitsTest, Parameters) {
  EXPECT_TRUE(CheckParameters("p", {{"k", std::string(512000, 'v')}}).ok());
  EXPECT_FALSE(CheckParameters("p", {{"k", std::string(512001, 'v')}}).ok());
  EXPECT_FALSE(CheckParameters("p", {{"", "v"}}).ok());
  EXPECT_FALSE(CheckParameters("p", {{std::string(256, 'k'), "v"}}).ok());
}

TEST(TableLimitsTest, VersionIdsAndMaxResults) {
  EXPECT_EQ(*ParseVersionId("17"), 17);
  EXPECT_FALSE(ParseVersionId("0").ok());
  EXPECT_FALSE(ParseVersionId("-1").ok());
  EXPECT_FALSE(ParseVersionId("1a").ok());
  EXPECT_FALSE(ParseVersionId("").ok());
  EXPECT_FALSE(ParseVersionId("99999999999999999999").ok());
  EXPECT_EQ(*CheckMaxResults(false, 0, 100, 100), 100);
  EXPECT_EQ(*CheckMaxResults(true, 1, 100, 100), 1);
  EXPECT_FALSE(CheckMaxResults(true, 0, 100, 100).ok());
  EXPECT_FALSE(CheckMaxResults(true, 101, 100, 100).ok());
  EXPECT_TRUE(CheckListSize("l", 100, 100).ok());
  EXPECT_TRUE(CheckListSize("l", 101, 100).Is(ErrorCode::kLimitExceeded));
}

TEST(TableLimitsTest, NamePattern) {
  auto p = NamePattern::Parse("sales_*|web.*|x.z");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->Matches("sales_2024"));
  EXPECT_TRUE(p->Matches("SALES_"));
  EXPECT_TRUE(p->Matches("web"));
  EXPECT_TRUE(p->Matches("website"));
  EXPECT_TRUE(p->Matches("xyz"));
  EXPECT_FALSE(p->Matches("xz"));
  EXPECT_FALSE(p->Matches("my_sales_1"));
  auto any = NamePattern::Parse("*a*b*c*");
  ASSERT_TRUE(any.ok());
  EXPECT_TRUE(any->Matches("xxaxxbxxcxx"));
  EXPECT_FALSE(any->Matches("cba"));
  // A long adversarial name does not blow up.
  EXPECT_FALSE(any->Matches(std::string(200, 'a') + std::string(200, 'b')));
  EXPECT_FALSE(NamePattern::Parse(std::string(2049, 'a')).ok());
  EXPECT_FALSE(NamePattern::Parse("a\nb").ok());
}

}  // namespace
}  // namespace ics::catalog::ops
