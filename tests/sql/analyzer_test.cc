// Analyzer-lite: catalog-free checks.
#include "common/sql/analyzer.h"

#include <gtest/gtest.h>

#include "tests/sql/sql_test_util.h"

namespace ics::sql {
namespace {

// "OK" or the analysis error message for `sql` (which must parse).
std::string Analyze(std::string_view sql) {
  auto r = ParseStatement(sql);
  if (!r.ok()) return "PARSE ERROR: " + r.status().message();
  Status s = AnalyzeStatement(**r);
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), ErrorCode::kAnalysisError);
  return s.message();
}

TEST(SqlAnalyzerTest, ViewPropertyKeys) {
  EXPECT_EQ(Analyze("alter view v set tblproperties ('k'='v')"), "OK");
  EXPECT_EQ(Analyze("alter view v unset tblproperties if exists ('k')"), "OK");
  EXPECT_NE(Analyze("alter view v set tblproperties ('storage_handler'='x')"), "OK");
  EXPECT_NE(Analyze("alter view v unset tblproperties ('storage_handler')"), "OK");
  EXPECT_EQ(Analyze("refresh t partition (a=1) partition (a=2)"), "OK");
  EXPECT_NE(Analyze("refresh t partition (a=1) partition (a=1, a=2)"), "OK");
}

TEST(SqlAnalyzerTest, CreateTable) {
  EXPECT_EQ(Analyze("create table t (a int, b string) partitioned by (p int)"), "OK");
  EXPECT_EQ(Analyze("create table t ()"), "CREATE TABLE requires at least one column");
  EXPECT_EQ(Analyze("create table t (a int, A string)"), "Duplicate column name: a");
  EXPECT_EQ(Analyze("create table t (`a` int, b string, a int)"), "Duplicate column name: a");
  EXPECT_EQ(Analyze("create table t (a int) partitioned by (p int, p string)"),
            "Duplicate partition column name: p");
  EXPECT_EQ(Analyze("create table t (a int, p int) partitioned by (p int)"),
            "Duplicate column name: p (a partition column cannot also be a table column)");
  EXPECT_EQ(Analyze("create table t (a int) partitioned by (p array<int>)"),
            "Partition column p has complex type array<int>; partition columns must have "
            "scalar types");
  EXPECT_EQ(Analyze("create table t2 like t1"), "OK");
}

TEST(SqlAnalyzerTest, ViewsAndColumns) {
  EXPECT_EQ(Analyze("create view v (a, b) as select 1, 2"), "OK");
  EXPECT_EQ(Analyze("create view v as select 1"), "OK");
  EXPECT_EQ(Analyze("create view v () as select 1"),
            "CREATE VIEW column list requires at least one column");
  EXPECT_EQ(Analyze("create view v (a, a) as select 1, 2"), "Duplicate column name: a");
  EXPECT_EQ(Analyze("alter table t add columns ()"), "ADD COLUMNS requires at least one column");
  EXPECT_EQ(Analyze("alter table t add columns (x int, X int)"), "Duplicate column name: x");
  EXPECT_EQ(Analyze("alter table t replace columns ()"),
            "REPLACE COLUMNS requires at least one column");
  EXPECT_EQ(Analyze("alter table t replace columns (a int, b int, a string)"),
            "Duplicate column name: a");
  EXPECT_EQ(Analyze("alter table t replace columns (a int)"), "OK");
}

TEST(SqlAnalyzerTest, PartitionSpecs) {
  EXPECT_EQ(Analyze("alter table t add partition (p=1) partition (p=2)"), "OK");
  EXPECT_EQ(Analyze("alter table t add partition (p=1, p=2)"),
            "Duplicate partition key name: p in PARTITION (p=1, p=2)");
  EXPECT_EQ(Analyze("alter table t add partition (a=1, b='x') partition (b='x', a=1)"),
            "Duplicate partition spec: PARTITION (b='x', a=1)");
  EXPECT_EQ(Analyze("alter table t drop partition (a=1), partition (a=1)"),
            "Duplicate partition spec: PARTITION (a=1)");
  EXPECT_EQ(Analyze("alter table t partition (a=1, a=1) set location '/x'"),
            "Duplicate partition key name: a in PARTITION (a=1, a=1)");
  EXPECT_EQ(Analyze("alter table t partition (a=1, a=1) set fileformat orc"),
            "Duplicate partition key name: a in PARTITION (a=1, a=1)");
  EXPECT_EQ(Analyze("alter table t partition (a=1, a=2) set tblproperties ('k'='v')"),
            "Duplicate partition key name: a in PARTITION (a=1, a=2)");
  EXPECT_EQ(Analyze("refresh t partition (a=1, A=1)"),
            "Duplicate partition key name: a in PARTITION (a=1, a=1)");
  EXPECT_EQ(Analyze("show files in t partition (a=1, a=1)"),
            "Duplicate partition key name: a in PARTITION (a=1, a=1)");
}

TEST(SqlAnalyzerTest, Insert) {
  EXPECT_EQ(Analyze("insert into t values (1, 'a'), (2, 'b')"), "OK");
  EXPECT_EQ(Analyze("insert into t values (1, 'a'), (2)"),
            "VALUES rows have different numbers of values: row 1 has 2, row 2 has 1");
  EXPECT_EQ(Analyze("insert into t values (1), (2), (3, 4)"),
            "VALUES rows have different numbers of values: row 1 has 1, row 3 has 2");
  EXPECT_EQ(Analyze("insert into t (a, b) values (1, 2)"), "OK");
  EXPECT_EQ(Analyze("insert into t (a, a) values (1, 2)"), "Duplicate column name: a");
  EXPECT_EQ(Analyze("insert into t (a, b) values (1)"),
            "VALUES rows have 1 values but the column list names 2 columns");
  EXPECT_EQ(Analyze("insert into t (a) partition (p) values (1, 2)"), "OK");
  EXPECT_EQ(Analyze("insert into t (a) partition (p=1, q) values (1)"),
            "VALUES rows have 1 values but the column list and dynamic partition keys name 2 "
            "columns");
  EXPECT_EQ(Analyze("insert into t (a, p) partition (p=1) values (1, 2)"),
            "Duplicate column p in the column list and PARTITION clause");
  EXPECT_EQ(Analyze("insert into t partition (p=1, p=2) values (1)"),
            "Duplicate partition key name: p in PARTITION (p=1, p=2)");
  EXPECT_EQ(Analyze("insert into t partition (p=1) values (1, 2, 3)"), "OK");
}

TEST(SqlAnalyzerTest, SelectLimits) {
  EXPECT_EQ(Analyze("select * from t limit 0"), "OK");
  EXPECT_EQ(Analyze("select * from t limit -1"), "LIMIT must be a non-negative integer, not -1");
  EXPECT_EQ(Analyze("explain select * from t where a = 1 limit -5"),
            "LIMIT must be a non-negative integer, not -5");
  EXPECT_EQ(Analyze("select * from t order by a limit 5 offset -1"),
            "OFFSET must be a non-negative integer, not -1");
  EXPECT_EQ(Analyze("select * from t limit 5 offset 2"), "OFFSET requires an ORDER BY clause");
  EXPECT_EQ(Analyze("select * from t order by a limit 5 offset 2"), "OK");
}

TEST(SqlAnalyzerTest, Stats) {
  EXPECT_EQ(Analyze("compute stats t"), "OK");
  EXPECT_EQ(Analyze("compute stats t (a, b)"), "OK");
  EXPECT_EQ(Analyze("compute stats t (a, a)"), "Duplicate column name: a");
  EXPECT_EQ(Analyze("compute incremental stats t partition (p=1)"), "OK");
  EXPECT_EQ(Analyze("compute incremental stats t"), "OK");
  EXPECT_EQ(Analyze("compute stats t partition (p=1)"),
            "COMPUTE STATS with a PARTITION clause requires COMPUTE INCREMENTAL STATS");
  EXPECT_EQ(Analyze("compute incremental stats t (a)"),
            "COMPUTE INCREMENTAL STATS does not take a column list");
  EXPECT_EQ(Analyze("drop stats t"), "OK");
  EXPECT_EQ(Analyze("drop incremental stats t partition (p=1)"), "OK");
  EXPECT_EQ(Analyze("drop incremental stats t"),
            "DROP INCREMENTAL STATS requires a PARTITION clause");
  EXPECT_EQ(Analyze("drop stats t partition (p=1)"),
            "DROP STATS with a PARTITION clause requires DROP INCREMENTAL STATS");
}

TEST(SqlAnalyzerTest, EverythingElsePasses) {
  for (const char* sql :
       {"use d", "set sync_ddl=1", "show databases", "describe t", "invalidate metadata",
        "drop table t", "truncate t", "comment on table t is 'x'", "alter table t rename to u"}) {
    EXPECT_EQ(Analyze(sql), "OK") << sql;
  }
}

}  // namespace
}  // namespace ics::sql
