// TEMPORARY smoke test against a real in-process cluster (deleted before hand-off).
#include <gtest/gtest.h>
#include <iostream>
#include "tests/cluster/mini_cluster.h"

namespace ics::testing {
namespace {

void Show(MiniCluster& c, int i, const std::string& sql) {
  auto r = c.Exec(i, sql);
  std::cout << "### [" << i << "] " << sql << "\n";
  if (!r.ok()) { std::cout << "ERROR: " << r.status().ToString() << "\n"; return; }
  if (!r->columns.empty()) {
    for (auto& col : r->columns) std::cout << col << " | ";
    std::cout << "\n";
    for (auto& row : r->rows) { for (auto& v : row) std::cout << v << " | "; std::cout << "\n"; }
  }
  for (auto& m : r->messages) std::cout << m << "\n";
}

void Script(bool full) {
  MiniClusterOptions o;
  o.full_replica = full;
  MiniCluster c(o);
  ASSERT_TRUE(c.Start().ok());
  for (const char* s : {
    "SET SYNC_DDL=1",
    "CREATE DATABASE s1 COMMENT 'smoke'",
    "USE s1",
    "CREATE TABLE t (id INT, name STRING) PARTITIONED BY (year INT, city STRING)",
    "INSERT INTO t PARTITION (year, city) VALUES (1, 'a', 2024, 'rome'), (2, 'b', 2025, 'oslo'), (3, NULL, 2024, 'rome'), (4, 'd', 2025, NULL)",
    "INSERT INTO t PARTITION (year=2024, city='rome') VALUES (5, 'e')",
    "SHOW PARTITIONS t",
    "SHOW FILES IN t",
    "COMPUTE INCREMENTAL STATS t",
    "SHOW PARTITIONS t",
    "SHOW COLUMN STATS t",
    "SHOW TABLE STATS t",
    "EXPLAIN SELECT id FROM t WHERE year = 2024 AND id > 1",
    "COMPUTE STATS t",
    "SHOW COLUMN STATS t",
    "EXPLAIN SELECT count(*) FROM t WHERE city IS NULL",
    "INSERT OVERWRITE t PARTITION (year=2024, city='rome') VALUES (9, 'z')",
    "SHOW FILES IN t PARTITION (year=2024)",
    "CREATE TABLE u (a BIGINT, b BOOLEAN) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','",
    "INSERT INTO u VALUES (1, true), (2, false)",
    "COMPUTE STATS u",
    "SHOW TABLE STATS u",
    "SHOW CREATE TABLE u",
    "DESCRIBE FORMATTED u",
    "CREATE VIEW v AS SELECT id, name FROM t WHERE year = 2024",
    "DESCRIBE v",
    "SHOW CREATE VIEW v",
    "ALTER TABLE t ADD PARTITION (year=2030, city='x')",
    "ALTER TABLE t DROP PARTITION (year=2030)",
    "ALTER TABLE u ADD COLUMNS (c STRING)",
    "ALTER TABLE u RENAME TO u2",
    "SHOW TABLES",
    "DESCRIBE DATABASE s1",
    "TRUNCATE u2",
    "DROP STATS t",
    "REFRESH t",
    "INVALIDATE METADATA t",
    "SHOW PARTITIONS t",
    "COMMENT ON TABLE t IS 'hello'",
    "DROP VIEW v",
    "SHOW DATABASES",
  }) Show(c, 0, s);
  // Coordinator 1 sees it after SYNC_DDL.
  Show(c, 1, "SHOW TABLES IN s1");
  Show(c, 1, "SHOW PARTITIONS s1.t");
}

TEST(ExecSmokeTmp, OnDemand) { Script(false); }
TEST(ExecSmokeTmp, FullReplica) { Script(true); }

}  // namespace
}  // namespace ics::testing
