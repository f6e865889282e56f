// No-crash sweep: every prefix of valid statements and deterministic random
// mutations must yield OK or an error, never a crash or a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "common/sql/analyzer.h"
#include "common/sql/parser.h"
#include "common/sql/splitter.h"

namespace ics::sql {
namespace {

const std::vector<std::string>& ValidStatements() {
  static const std::vector<std::string> kStatements = {
      "CREATE DATABASE IF NOT EXISTS d COMMENT 'c' LOCATION '/w/d.db'",
      "DROP DATABASE IF EXISTS d CASCADE",
      "ALTER DATABASE d SET OWNER USER alice",
      "CREATE EXTERNAL TABLE IF NOT EXISTS d.t (a INT COMMENT 'x', b DECIMAL(10,2), "
      "c MAP<STRING,ARRAY<STRUCT<f:INT,g:VARCHAR(5)>>>) PARTITIONED BY (p INT, q STRING) "
      "COMMENT 'tbl' ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LINES TERMINATED BY '\\n' "
      "ESCAPED BY '\\\\' STORED AS TEXTFILE LOCATION '/w/t' TBLPROPERTIES ('k'='v', 'k2'='v2')",
      "CREATE TABLE t2 LIKE d.t STORED AS PARQUET LOCATION '/w/t2'",
      "CREATE VIEW IF NOT EXISTS v (c1 COMMENT 'a', c2) AS SELECT a, b FROM t WHERE a > 1",
      "ALTER VIEW v AS SELECT 1",
      "DROP VIEW IF EXISTS v",
      "DROP TABLE IF EXISTS d.t PURGE",
      "ALTER TABLE t ADD IF NOT EXISTS PARTITION (p=1, q='a') LOCATION '/x' PARTITION (p=2, q='b')",
      "ALTER TABLE t DROP IF EXISTS PARTITION (p=1, q='a'), PARTITION (p=-2, q=NULL) PURGE",
      "ALTER TABLE t ADD COLUMNS (x INT, y STRING COMMENT 'y')",
      "ALTER TABLE t REPLACE COLUMNS (a BIGINT, b CHAR(3))",
      "ALTER TABLE t DROP COLUMN x",
      "ALTER TABLE t CHANGE COLUMN a a2 DOUBLE COMMENT 'renamed'",
      "ALTER TABLE t RENAME TO d2.t3",
      "ALTER TABLE t PARTITION (p=1) SET TBLPROPERTIES ('a'='b')",
      "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', 'b')",
      "ALTER TABLE t PARTITION (p=1) SET LOCATION '/y'",
      "ALTER TABLE t SET FILEFORMAT ORC",
      "ALTER TABLE t SET OWNER ROLE r",
      "ALTER TABLE t RECOVER PARTITIONS",
      "TRUNCATE TABLE IF EXISTS t",
      "COMPUTE INCREMENTAL STATS t PARTITION (p=1)",
      "DROP INCREMENTAL STATS t PARTITION (p=1)",
      "INSERT OVERWRITE TABLE t (a, b) PARTITION (p=1, q) VALUES (1, 'x', 'q1'), "
      "(-2, CAST('3.5' AS DECIMAL(4,1)), 'q2'), (NULL, DATE '2024-01-01', 'q3')",
      "SHOW TABLES IN d LIKE 't*'",
      "SHOW FILES IN t PARTITION (p=1)",
      "SHOW COLUMN STATS d.t",
      "DESCRIBE FORMATTED d.t",
      "EXPLAIN SELECT a, count(*) c FROM d.t x WHERE (p = 1 OR p IN (2, 3)) AND q NOT BETWEEN "
      "'a' AND 'c' AND a IS NOT NULL AND NOT b < 2 * (a + 1) AND f(a, 'z') != -1.5 "
      "GROUP BY a LIMIT 10",
      "INVALIDATE METADATA d.t",
      "REFRESH t PARTITION (p=1)",
      "USE d",
      "SET SYNC_DDL=1",
      "COMMENT ON COLUMN d.t.a IS 'col'",
  };
  return kStatements;
}

// Parses, analyzes and splits `sql`; all must return (the result does not matter).
void Exercise(const std::string& sql) {
  auto stmt = ParseStatement(sql);
  if (stmt.ok()) {
    (void)AnalyzeStatement(**stmt);
    EXPECT_FALSE((*stmt)->text.empty());
  } else {
    EXPECT_EQ(stmt.status().code(), ErrorCode::kAnalysisError) << sql;
    EXPECT_EQ(stmt.status().message().rfind("Syntax error at line ", 0), 0u)
        << sql << "\n"
        << stmt.status().message();
  }
  auto script = ParseScript(sql);
  (void)script;
  auto pieces = SplitStatements(sql);
  (void)pieces;
  (void)IsStatementComplete(sql);
}

TEST(SqlRobustnessTest, ValidStatementsParseAndAnalyze) {
  for (const std::string& sql : ValidStatements()) {
    auto stmt = ParseStatement(sql);
    ASSERT_TRUE(stmt.ok()) << sql << "\n" << stmt.status().ToString();
    EXPECT_TRUE(AnalyzeStatement(**stmt).ok()) << sql;
    EXPECT_EQ((*stmt)->text, sql);
  }
  std::string script;
  for (const std::string& sql : ValidStatements()) script += sql + ";\n";
  auto all = ParseScript(script);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->size(), ValidStatements().size());
  auto pieces = SplitStatements(script);
  ASSERT_TRUE(pieces.ok());
  EXPECT_EQ(*pieces, ValidStatements());
}

TEST(SqlRobustnessTest, EveryPrefix) {
  size_t ok = 0, failed = 0;
  for (const std::string& sql : ValidStatements()) {
    for (size_t n = 0; n <= sql.size(); ++n) {
      const std::string prefix = sql.substr(0, n);
      Exercise(prefix);
      (ParseStatement(prefix).ok() ? ok : failed)++;
    }
  }
  EXPECT_GT(ok, 0u);
  EXPECT_GT(failed, 0u);
}

TEST(SqlRobustnessTest, RandomMutations) {
  std::mt19937 rng(20240531);  // fixed seed: deterministic
  static const std::string kAlphabet = "abcXYZ_019 \n\t'\"`\\;,.()<>=!-+*/%:?&|$#@{}[]~^";
  static const std::vector<std::string> kWords = {
      "SELECT",  "FROM",    "WHERE",
      "(",       ")",       "'",
      "\"",      "`",       "--",
      "/*",      "*/",      "NOT",
      "AND",     "OR",      "IN",
      "BETWEEN", "IS",      "NULL",
      "CAST",    "AS",      "ARRAY<",
      "MAP<",    "STRUCT<", ">",
      ",",       ";",       "PARTITION",
      "TABLE",   "DATE",    "-",
      "1e",      ".5",      "999999999999999999999",
      "IF",      "EXISTS",
  };
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const auto start = std::chrono::steady_clock::now();
  size_t ok = 0;
  constexpr int kMutations = 5000;
  for (int i = 0; i < kMutations; ++i) {
    std::string sql = ValidStatements()[pick(ValidStatements().size())];
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits; ++e) {
      const size_t pos = sql.empty() ? 0 : pick(sql.size() + 1);
      switch (pick(6)) {
        case 0:  // delete a run
          if (!sql.empty() && pos < sql.size()) sql.erase(pos, 1 + pick(5));
          break;
        case 1:  // insert a character
          sql.insert(pos, 1, kAlphabet[pick(kAlphabet.size())]);
          break;
        case 2:  // insert a keyword or delimiter
          sql.insert(pos, " " + kWords[pick(kWords.size())] + " ");
          break;
        case 3:  // duplicate a slice
          if (!sql.empty()) {
            const size_t from = pick(sql.size());
            sql.insert(pos, sql.substr(from, 1 + pick(20)));
          }
          break;
        case 4:  // replace a character with a random byte
          if (!sql.empty() && pos < sql.size()) sql[pos] = static_cast<char>(pick(256));
          break;
        default:  // swap two halves
          if (pos < sql.size()) sql = sql.substr(pos) + " " + sql.substr(0, pos);
          break;
      }
    }
    Exercise(sql);
    ok += ParseStatement(sql).ok() ? 1 : 0;
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(60));
  // Some mutations stay valid (e.g. an inserted space), most do not.
  EXPECT_GT(ok, 0u);
  EXPECT_LT(ok, static_cast<size_t>(kMutations));
}

TEST(SqlRobustnessTest, PathologicalInputs) {
  const std::vector<std::string> inputs = {
      std::string(1, '\0'),
      std::string("select\0x", 8),
      std::string(100000, '('),
      std::string(100000, ')'),
      std::string(100000, '-'),
      std::string(50000, '\''),
      std::string(50000, '`'),
      std::string(100000, ';'),
      "select " + std::string(100000, '9'),
      "/*" + std::string(100000, '*'),
      "create table t (a " + std::string(50000, '<'),
      "\xff\xfe\xfd",
  };
  for (const std::string& sql : inputs) Exercise(sql);
}

}  // namespace
}  // namespace ics::sql
