// Helpers for metastore tests: a temp dir per test and object builders.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalogd/metastore/metastore.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::testing {

inline const Status& StatusOf(const Status& s) { return s; }
template <typename T>
const Status& StatusOf(const Result<T>& r) {
  return r.status();
}

// Asserts that a Status or Result is OK, printing the error otherwise.
#define ASSERT_OK(expr)                                                              \
  do {                                                                               \
    const auto& _ics_r = (expr);                                                     \
    ASSERT_TRUE(_ics_r.ok()) << ::ics::catalog::testing::StatusOf(_ics_r).ToString(); \
  } while (false)

// Asserts that a Status or Result failed with `want_code`.
#define ASSERT_ERROR(expr, want_code)                                                    \
  do {                                                                              \
    const auto& _ics_r = (expr);                                                    \
    ASSERT_FALSE(_ics_r.ok()) << "expected " #want_code;                                 \
    ASSERT_EQ(::ics::catalog::testing::StatusOf(_ics_r).code(), want_code)              \
        << ::ics::catalog::testing::StatusOf(_ics_r).ToString();                    \
  } while (false)

using ::ics::testing::TempDir;

inline hive::Database MakeDb(const std::string& name, const std::string& comment = "") {
  hive::Database db;
  db.name = name;
  db.description = comment;
  db.locationUri = "/warehouse/" + name + ".db";
  db.parameters["k"] = "v";
  return db;
}

inline hive::Table MakeTable(const std::string& db, const std::string& name,
                             const std::vector<std::string>& part_keys = {}) {
  hive::Table t;
  t.dbName = db;
  t.tableName = name;
  t.owner = "alice";
  t.tableType = "MANAGED_TABLE";
  t.sd.location = "/warehouse/" + db + ".db/" + name;
  hive::FieldSchema c;
  c.name = "id";
  c.type = "bigint";
  t.sd.cols.push_back(c);
  for (const std::string& k : part_keys) {
    hive::FieldSchema f;
    f.name = k;
    f.type = "string";
    t.partitionKeys.push_back(f);
  }
  return t;
}

inline hive::Partition MakePartition(const std::string& db, const std::string& table,
                                     const std::vector<std::string>& values) {
  hive::Partition p;
  p.dbName = db;
  p.tableName = table;
  p.values = values;
  p.createTime = 1234;
  p.parameters["numRows"] = "10";
  return p;
}

inline impala::TFunction MakeFunction(const std::string& db, const std::string& name) {
  impala::TFunction fn;
  fn.name.__set_db_name(db);
  fn.name.function_name = name;
  fn.__set_signature(name + "(INT)");
  fn.__set_hdfs_location("/udfs/" + name + ".so");
  return fn;
}

inline hive::ColumnStatisticsObj MakeLongStats(const std::string& col, int64_t ndv) {
  hive::ColumnStatisticsObj obj;
  obj.colName = col;
  obj.colType = "bigint";
  hive::LongColumnStatsData data;
  data.numNulls = 1;
  data.numDVs = ndv;
  data.__set_lowValue(0);
  data.__set_highValue(ndv);
  obj.statsData.__set_longStats(data);
  return obj;
}

// Op builders.
inline MetastoreOp CreateDbOp(const hive::Database& db) {
  MetastoreOp op;
  op.kind = MetastoreOp::Kind::kCreateDatabase;
  op.database = db;
  return op;
}
inline MetastoreOp CreateTableOp(const hive::Table& t) {
  MetastoreOp op;
  op.kind = MetastoreOp::Kind::kCreateTable;
  op.table = t;
  return op;
}
inline MetastoreOp AddPartitionOp(const hive::Partition& p) {
  MetastoreOp op;
  op.kind = MetastoreOp::Kind::kAddPartition;
  op.partition = p;
  return op;
}
inline MetastoreOp TableOp(MetastoreOp::Kind kind, const std::string& db,
                           const std::string& table) {
  MetastoreOp op;
  op.kind = kind;
  op.db_name = db;
  op.table_name = table;
  return op;
}

inline MetastoreTxn Txn(std::vector<MetastoreOp> ops) { return MetastoreTxn{std::move(ops)}; }

}  // namespace ics::catalog::testing
