// Cross-check with common/types: every canonical type string the SQL parser
// produces is accepted by ParseHiveType and printed back unchanged by
// TypeToString, so the executor can hand ColumnDef::type to the catalog as is.
#include <gtest/gtest.h>

#include "common/sql/parser.h"
#include "common/types/column_type.h"

namespace ics::sql {
namespace {

TEST(SqlTypeCompatTest, CanonicalStringsRoundTripThroughHiveTypes) {
  const char* inputs[] = {
      "BOOLEAN",
      "TINYINT",
      "SMALLINT",
      "INT",
      "INTEGER",
      "BIGINT",
      "FLOAT",
      "REAL",
      "DOUBLE",
      "DOUBLE PRECISION",
      "DATE",
      "TIMESTAMP",
      "STRING",
      "BINARY",
      "DECIMAL",
      "DEC(5)",
      "NUMERIC(38,38)",
      "DECIMAL(10, 2)",
      "CHAR(1)",
      "CHAR(255)",
      "VARCHAR(65535)",
      "ARRAY<INT>",
      "ARRAY<ARRAY<DECIMAL(9,3)>>",
      "MAP<STRING,ARRAY<INT>>",
      "MAP<DATE, STRUCT<a:INT>>",
      "STRUCT<a:INT, b:STRING COMMENT 'it\\'s \\\\ here'>",
      "STRUCT<`x y`:INT, `a``b`:MAP<INT,INT>, `from`:DATE>",
  };
  for (const char* input : inputs) {
    auto canonical = ParseColumnType(input);
    ASSERT_TRUE(canonical.ok()) << input << ": " << canonical.status().ToString();
    auto hive = ParseHiveType(*canonical);
    ASSERT_TRUE(hive.ok()) << *canonical << ": " << hive.status().ToString();
    EXPECT_EQ(TypeToString(*hive), *canonical) << input;
  }
}

TEST(SqlTypeCompatTest, SameLimitsAsHiveTypes) {
  for (const char* bad : {"decimal(39)", "decimal(5,6)", "char(256)", "varchar(0)",
                          "map<array<int>,int>", "struct<a:int,a:int>"}) {
    EXPECT_FALSE(ParseColumnType(bad).ok()) << bad;
    EXPECT_FALSE(ParseHiveType(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace ics::sql
