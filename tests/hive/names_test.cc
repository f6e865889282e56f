// Name validation (common/hive/names.h).
#include "common/hive/names.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

TEST(DdlNamesTest, LowerCasesValidNames) {
  auto r = NormalizeTableName("My_Table1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "my_table1");
  EXPECT_EQ(*NormalizeDatabaseName("Sales DB"), "sales db");  // spaces are allowed
  EXPECT_EQ(*NormalizeColumnName("CAFÉ"), "cafÉ");            // only ASCII is folded
  EXPECT_EQ(*NormalizeColumnName("日本語"), "日本語");
}

TEST(DdlNamesTest, LengthLimits) {
  EXPECT_TRUE(ValidateName("table", std::string(255, 'a')).ok());
  Status s = ValidateName("table", std::string(256, 'a'));
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(s.message().find("256 bytes"), std::string::npos) << s.message();
  s = ValidateName("database", "");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(s.message().find("empty"), std::string::npos) << s.message();
}

TEST(DdlNamesTest, RejectsReservedCharacters) {
  for (const char* bad : {"a/b", "a\\b", "a.b", "a`b", "a:b", "a;b"}) {
    Status s = ValidateName("table", bad);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("Invalid table name"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("is not allowed"), std::string::npos) << s.message();
  }
}

TEST(DdlNamesTest, RejectsControlCharactersAndBadUtf8) {
  for (const std::string& bad : {std::string("a\tb"), std::string("a\nb"), std::string("a\x7f"),
                                 std::string("a\0b", 3), std::string("a\xc2\x85")}) {
    Status s = ValidateName("column", bad);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(s.message().find("control"), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << "message must stay one line";
  }
  for (const std::string& bad : {std::string("a\xff"), std::string("\xc0\xaf"),
                                 std::string("\xed\xa0\x80"), std::string("ab\xe6\x97")}) {
    Status s = ValidateName("column", bad);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(s.message().find("UTF-8"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace ics
