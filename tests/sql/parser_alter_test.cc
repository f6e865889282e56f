// Parser: ALTER TABLE forms and partition specs.
#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

using testing::ParseAs;
using testing::ParseError;

TEST(SqlParserAlterTest, AddPartitions) {
  auto s = ParseAs<AlterTableAddPartitionsStmt>(
      "ALTER TABLE db.t ADD IF NOT EXISTS PARTITION (year=2024, month='01') LOCATION '/p1' "
      "PARTITION (year=-1, month=NULL) PARTITION (year=2025, month=\"x\\ty\")");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.ToString(), "db.t");
  EXPECT_TRUE(s->if_not_exists);
  ASSERT_EQ(s->partitions.size(), 3u);
  const PartitionSpec& p0 = s->partitions[0].spec;
  ASSERT_EQ(p0.size(), 2u);
  EXPECT_EQ(p0[0].column, "year");
  EXPECT_EQ(p0[0].value->kind, LiteralKind::kInteger);
  EXPECT_EQ(p0[0].value->int_value, 2024);
  EXPECT_EQ(p0[0].value->value, "2024");
  EXPECT_EQ(p0[1].column, "month");
  EXPECT_EQ(p0[1].value->kind, LiteralKind::kString);
  EXPECT_EQ(p0[1].value->value, "01");
  EXPECT_EQ(s->partitions[0].location.value(), "/p1");
  EXPECT_EQ(s->partitions[1].spec[0].value->int_value, -1);
  EXPECT_EQ(s->partitions[1].spec[0].value->value, "-1");
  EXPECT_TRUE(s->partitions[1].spec[1].value->is_null());
  EXPECT_FALSE(s->partitions[1].location);
  EXPECT_EQ(s->partitions[2].spec[1].value->value, "x\ty");
}

TEST(SqlParserAlterTest, PartitionValueLiterals) {
  auto s = ParseAs<AlterTableAddPartitionsStmt>(
      "alter table t add partition (a=TRUE, b=false, c=1.50, d=-0.5, e=DATE '2024-2-9', "
      "f=+7, g=99999999999999999999, h=-9223372036854775808)");
  ASSERT_TRUE(s);
  const PartitionSpec& p = s->partitions[0].spec;
  EXPECT_EQ(p[0].value->kind, LiteralKind::kBoolean);
  EXPECT_TRUE(p[0].value->bool_value);
  EXPECT_FALSE(p[1].value->bool_value);
  EXPECT_EQ(p[2].value->kind, LiteralKind::kDecimal);
  EXPECT_EQ(p[2].value->value, "1.50");
  EXPECT_EQ(p[3].value->value, "-0.5");
  EXPECT_EQ(p[4].value->kind, LiteralKind::kDate);
  EXPECT_EQ(p[4].value->value, "2024-02-09");
  EXPECT_EQ(p[5].value->int_value, 7);
  EXPECT_EQ(p[6].value->kind, LiteralKind::kDecimal);  // too large for BIGINT
  EXPECT_EQ(p[6].value->value, "99999999999999999999");
  EXPECT_EQ(p[7].value->kind, LiteralKind::kInteger);
  EXPECT_EQ(p[7].value->int_value, INT64_MIN);
}

TEST(SqlParserAlterTest, DropPartitions) {
  auto s = ParseAs<AlterTableDropPartitionsStmt>(
      "ALTER TABLE t DROP IF EXISTS PARTITION (y=1), PARTITION (y=2, m='b') PURGE");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->if_exists);
  EXPECT_TRUE(s->purge);
  ASSERT_EQ(s->partitions.size(), 2u);
  EXPECT_EQ(s->partitions[1][1].column, "m");
  EXPECT_EQ(s->partitions[1][1].value->value, "b");
  s = ParseAs<AlterTableDropPartitionsStmt>("alter table t drop partition (y=1)");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->if_exists);
  EXPECT_FALSE(s->purge);
}

TEST(SqlParserAlterTest, AddAndReplaceColumns) {
  auto a = ParseAs<AlterTableAddColumnsStmt>(
      "ALTER TABLE t ADD COLUMNS (x INT COMMENT 'new', y ARRAY<STRING>)");
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->if_not_exists);
  ASSERT_EQ(a->columns.size(), 2u);
  EXPECT_EQ(a->columns[0].name, "x");
  EXPECT_EQ(a->columns[0].comment.value(), "new");
  EXPECT_EQ(a->columns[1].type, "array<string>");
  a = ParseAs<AlterTableAddColumnsStmt>("alter table t add if not exists columns (x int)");
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->if_not_exists);
  a = ParseAs<AlterTableAddColumnsStmt>("alter table t add column if not exists x bigint");
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->if_not_exists);
  ASSERT_EQ(a->columns.size(), 1u);
  EXPECT_EQ(a->columns[0].type, "bigint");
  auto r = ParseAs<AlterTableReplaceColumnsStmt>("ALTER TABLE t REPLACE COLUMNS (a STRING, b INT)");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->columns.size(), 2u);
  EXPECT_EQ(r->columns[0].type, "string");
}

TEST(SqlParserAlterTest, DropColumn) {
  auto s = ParseAs<AlterTableDropColumnStmt>("ALTER TABLE t DROP COLUMN c");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->column, "c");
  s = ParseAs<AlterTableDropColumnStmt>("alter table t drop c");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->column, "c");
  // COLUMN alone is the column's name.
  s = ParseAs<AlterTableDropColumnStmt>("alter table t drop column");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->column, "column");
}

TEST(SqlParserAlterTest, ChangeColumn) {
  auto s = ParseAs<AlterTableChangeColumnStmt>(
      "ALTER TABLE t CHANGE COLUMN old_c New_C DECIMAL(12,4) COMMENT 'money'");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->old_name, "old_c");
  EXPECT_EQ(s->new_column.name, "new_c");
  EXPECT_EQ(s->new_column.type, "decimal(12,4)");
  EXPECT_EQ(s->new_column.comment.value(), "money");
  s = ParseAs<AlterTableChangeColumnStmt>("alter table t change a a bigint");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->old_name, "a");
  EXPECT_EQ(s->new_column.type, "bigint");
  EXPECT_FALSE(s->new_column.comment);
}

TEST(SqlParserAlterTest, Rename) {
  auto s = ParseAs<AlterTableRenameStmt>("ALTER TABLE db.t RENAME TO db2.t2");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.ToString(), "db.t");
  EXPECT_EQ(s->new_name.db, "db2");
  EXPECT_EQ(s->new_name.table, "t2");
  s = ParseAs<AlterTableRenameStmt>("alter table t rename to t2");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->new_name.qualified());
}

TEST(SqlParserAlterTest, SetAndUnsetTblProperties) {
  auto s = ParseAs<AlterTableSetTblPropertiesStmt>(
      "ALTER TABLE t SET TBLPROPERTIES ('a'='1', \"b\"='two')");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->partition);
  ASSERT_EQ(s->properties.size(), 2u);
  EXPECT_EQ(s->properties[1].first, "b");
  EXPECT_EQ(s->properties[1].second, "two");
  s = ParseAs<AlterTableSetTblPropertiesStmt>(
      "alter table t partition (y=1) set tblproperties ('k'='v')");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->partition);
  EXPECT_EQ((*s->partition)[0].column, "y");
  auto u = ParseAs<AlterTableUnsetTblPropertiesStmt>(
      "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', 'b')");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->if_exists);
  EXPECT_EQ(u->keys, (std::vector<std::string>{"a", "b"}));
  u = ParseAs<AlterTableUnsetTblPropertiesStmt>("alter table t unset tblproperties ('a')");
  ASSERT_TRUE(u);
  EXPECT_FALSE(u->if_exists);
}

TEST(SqlParserAlterTest, SetLocationFileFormatOwner) {
  auto l = ParseAs<AlterTableSetLocationStmt>("ALTER TABLE t SET LOCATION '/new'");
  ASSERT_TRUE(l);
  EXPECT_FALSE(l->partition);
  EXPECT_EQ(l->location, "/new");
  l = ParseAs<AlterTableSetLocationStmt>(
      "ALTER TABLE t PARTITION (y=2024, m='1') SET LOCATION '/p'");
  ASSERT_TRUE(l);
  ASSERT_TRUE(l->partition);
  EXPECT_EQ(l->partition->size(), 2u);
  auto f = ParseAs<AlterTableSetFileFormatStmt>("ALTER TABLE t SET FILEFORMAT PARQUET");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->file_format, FileFormat::kParquet);
  f = ParseAs<AlterTableSetFileFormatStmt>("alter table t partition (y=1) set fileformat avro");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->partition);
  EXPECT_EQ(f->file_format, FileFormat::kAvro);
  auto o = ParseAs<AlterTableSetOwnerStmt>("ALTER TABLE t SET OWNER ROLE etl");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->owner.type, PrincipalType::kRole);
  EXPECT_EQ(o->owner.name, "etl");
}

TEST(SqlParserAlterTest, RecoverPartitions) {
  auto s = ParseAs<AlterTableRecoverPartitionsStmt>("ALTER TABLE db.t RECOVER PARTITIONS");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table.ToString(), "db.t");
}

TEST(SqlParserAlterTest, Errors) {
  EXPECT_EQ(ParseError("alter table t add partition (y)"),
            "Syntax error at line 1, column 31: expected '=' but found ')'");
  EXPECT_EQ(ParseError("alter table t add partition ()"),
            "Syntax error at line 1, column 30: expected partition column name but found ')'");
  EXPECT_EQ(ParseError("alter table t add partition (y=col)"),
            "Syntax error at line 1, column 32: expected a literal value but found 'col'");
  EXPECT_EQ(ParseError("alter table t add partition (d=date '2024-02-30')"),
            "Syntax error at line 1, column 37: invalid DATE literal '2024-02-30' (expected "
            "'yyyy-mm-dd')");
  EXPECT_EQ(ParseError("alter table t partition (y=1) set owner user x"),
            "Syntax error at line 1, column 35: SET OWNER does not take a PARTITION clause");
  EXPECT_EQ(ParseError("alter table t partition (y=1) drop"),
            "Syntax error at line 1, column 31: expected SET but found 'drop'");
  EXPECT_EQ(ParseError("alter table t set fileformat csv"),
            "Syntax error at line 1, column 30: unknown file format 'csv' (expected TEXTFILE, "
            "PARQUET, SEQUENCEFILE, RCFILE, AVRO, ORC, KUDU, ICEBERG or JSONFILE)");
  EXPECT_EQ(ParseError("alter table t set tblproperties ()"),
            "Syntax error at line 1, column 34: expected a property key string but found ')'");
  EXPECT_EQ(ParseError("alter table t set tblproperties ('a'=1)"),
            "Syntax error at line 1, column 38: expected a property value string but found '1'");
  EXPECT_EQ(ParseError("alter table t frobnicate"),
            "Syntax error at line 1, column 15: expected ADD, DROP, REPLACE COLUMNS, CHANGE, "
            "RENAME TO, SET, UNSET, PARTITION or RECOVER PARTITIONS but found 'frobnicate'");
  EXPECT_EQ(ParseError("alter table t add if exists partition (a=1)"),
            "Syntax error at line 1, column 22: expected NOT but found 'exists'");
  EXPECT_EQ(ParseError("alter table t rename t2"),
            "Syntax error at line 1, column 22: expected TO but found 't2'");
}

}  // namespace
}  // namespace ics::sql
