// Seeds of the text fuzz targets (SQL, Hive types, HMS and partition
// filters): hand-written statements and expressions; see make_seeds.h.
#include <string>
#include <utility>
#include <vector>

#include "tests/fuzz/make_seeds.h"

namespace ics::fuzz {

void TextSeeds() {
  const std::vector<std::pair<std::string, std::string>> sql = {
      {"ddl_script",
       "CREATE DATABASE IF NOT EXISTS d1 COMMENT 'c' LOCATION '/w/d1';\n"
       "CREATE EXTERNAL TABLE d1.t (a INT COMMENT 'x', b STRUCT<f:DECIMAL(10,2), "
       "g:ARRAY<STRING>>)\n"
       "  PARTITIONED BY (p STRING) COMMENT 'tbl' ROW FORMAT DELIMITED FIELDS TERMINATED BY ','\n"
       "  ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' STORED AS TEXTFILE LOCATION '/w/t'\n"
       "  TBLPROPERTIES ('k'='v', 'k2'='v2');\n"
       "CREATE TABLE t2 LIKE d1.t STORED AS PARQUET;\n"
       "CREATE VIEW IF NOT EXISTS v (c1 COMMENT 'one') COMMENT 'view' AS SELECT a FROM d1.t;\n"
       "DROP DATABASE IF EXISTS d1 CASCADE;"},
      {"alter_script",
       "ALTER TABLE t ADD IF NOT EXISTS PARTITION (p='a', q=1) LOCATION '/x' PARTITION (p='b', "
       "q=2);\n"
       "ALTER TABLE t DROP IF EXISTS PARTITION (p='a'), PARTITION (p='b') PURGE;\n"
       "ALTER TABLE t ADD COLUMNS (c BIGINT, d VARCHAR(10));\n"
       "ALTER TABLE t CHANGE COLUMN c c2 DOUBLE COMMENT 'renamed';\n"
       "ALTER TABLE t PARTITION (p='a') SET TBLPROPERTIES ('x'='y');\n"
       "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('x');\n"
       "ALTER TABLE t RENAME TO d2.t3; ALTER TABLE t SET OWNER ROLE admins;\n"
       "ALTER VIEW v SET TBLPROPERTIES ('a'='b', 'c'='d');\n"
       "ALTER VIEW d.v UNSET TBLPROPERTIES IF EXISTS ('a', 'c'); ALTER VIEW v UNSET TBLPROPERTIES "
       "('a');\n"
       "COMMENT ON COLUMN d.t.c IS 'col'; TRUNCATE TABLE IF EXISTS t"},
      {"query_script",
       "EXPLAIN SELECT DISTINCT a, count(*) AS n, sum(b * 2 + -1) FROM d.t AS x\n"
       "WHERE (a = 1 OR b IN (2, 3)) AND c IS NOT NULL AND d NOT LIKE 'x%' AND\n"
       "  e BETWEEN DATE '2024-01-01' AND CAST('2024-12-31' AS DATE) AND NOT f && g || h\n"
       "GROUP BY a HAVING count(DISTINCT b) > 1 ORDER BY a DESC, 2 LIMIT 10 OFFSET 5;\n"
       "SELECT 1.5e10, .5, -7, 'it\\'s', \"dq\", `quoted``id`, TRUE, NULL -- comment\n"
       "/* block */ ;"},
      {"misc_script",
       "INSERT OVERWRITE TABLE t (a, b) PARTITION (p='x', q) VALUES (1, 'a', 3), (2, NULL, 4);\n"
       "COMPUTE INCREMENTAL STATS t PARTITION (p='x'); COMPUTE STATS t (a, b);\n"
       "DROP INCREMENTAL STATS t PARTITION (p='x'); SHOW TABLE STATS t; SHOW COLUMN STATS t;\n"
       "SHOW DATABASES LIKE 'd*'; SHOW TABLES IN d 'x*'; SHOW FILES IN t PARTITION (p='x');\n"
       "DESCRIBE DATABASE EXTENDED d; DESCRIBE FORMATTED d.t; SHOW CREATE VIEW v;\n"
       "INVALIDATE METADATA d.t; REFRESH t PARTITION (p='x') PARTITION (p='y'); USE d; SET ALL; "
       "SET SYNC_DDL = 1;\n"
       "SET mem_limit = '1g'"},
      {"expression", "year = 2024 AND month IN (1, 2) OR NOT (a + b * c % 3 >= -d / 2)"},
      {"partition_predicate",
       "a IN (2024, 2023, NULL) AND s LIKE 'e_%' AND d BETWEEN '2024-1-1' AND DATE '2024-12-31' "
       "AND t > d AND (b OR x < 0.25) AND -a <= 9223372036854775808 AND s NOT IN ('x') AND "
       "x IS NOT NULL"},
  };
  for (const auto& [name, text] : sql) Write("sql_fuzz", name, text);

  const std::vector<std::pair<std::string, std::string>> types = {
      {"map", "map<string,array<int>>"},
      {"struct", "STRUCT<a:INT COMMENT 'first', `b c`:DECIMAL(38,10), d:ARRAY<MAP<BIGINT,DATE>>>"},
      {"scalars", "varchar(65535)"},
      {"double_precision", "double precision"},
      {"char", "char(255)"},
  };
  for (const auto& [name, text] : types) Write("column_type_fuzz", name, text);

  const std::vector<std::pair<std::string, std::string>> uris = {
      {"postgres_full",
       "postgresql://cat:secret@db.example.com:5432/meta?sslmode=require&pool_size=4&"
       "statement_timeout_ms=1500&acquire_timeout_ms=200&application_name=x"},
      {"postgres_socket", "postgres:///meta?host=/var/run/postgresql"},
      {"thrift", "thrift://hms.example.com:9083?pool_size=8&rpc_timeout_ms=60000&retries=3"},
      {"placeholders", "SELECT '?1' FROM t WHERE a = ?1 AND b = \"?2\" AND c = ?12"},
  };
  for (const auto& [name, text] : uris) Write("metastore_uri_fuzz", name, text);

  // Paths the data-root check judges, relative to the fuzz target's tree
  // (its root, top and outside directory are prefixed in turn).
  const std::vector<std::pair<std::string, std::string>> paths = {
      {"new_partition", "db.db/t/k=2"},
      {"through_escape", "db.db/escape/../x"},
      {"dotdot_out", "db.db/t/missing/../../../../outside"},
      {"inner_link", "db.db/inner/../k=9"},
      {"dangling", "db.db/dangling/x"},
      {"file_in_way", "db.db/t/file.txt/.."},
      {"alias_root", "alias/db.db/t/k=5"},
      {"slash", "/"},
      {"nul_byte", std::string("db.db/t/k=1") + '\0' + "/../../../.."},
  };
  for (const auto& [name, text] : paths) Write("data_root_path_fuzz", name, text);

  const std::vector<std::pair<std::string, std::string>> hms_filters = {
      {"compare", "year = 2024 and region like \"e.*\""},
      {"nested", "(year > 2000 or day <> '2024-01-31') and region != \"us\""},
      {"flipped", "2024 <= year AND \"a\\\"b\" = region"},
      {"like_split", std::string("a.*b\\.c*") + '\0' + "aXXb.cc"},
      {"ints", "year >= -12 or year < 99999999999999999999"},
  };
  for (const auto& [name, text] : hms_filters) Write("hms_filter_fuzz", name, text);

  const std::vector<std::pair<std::string, std::string>> filters = {
      {"in_between", "year = 2024 AND region IN ('eu', 'us') AND year NOT BETWEEN 1 AND 3"},
      {"dates", "day BETWEEN DATE '2024-01-01' AND CAST('2024-1-31' AS DATE)"},
      {"bools", "NOT (ok) OR ratio >= -1.5e3 OR ok = TRUE"},
      {"nulls", "region IS NOT NULL AND ts < TIMESTAMP '2024-01-31 10:00:00' OR day IS NULL"},
      {"quoted", "`year` == 1 or year <> +2 and region = 'it''s' and region != \"a\\\\b\""},
  };
  for (const auto& [name, text] : filters) Write("partition_filter_fuzz", name, text);
}


}  // namespace ics::fuzz
