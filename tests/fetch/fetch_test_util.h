// Builders of catalog states for the partial-fetch tests and benchmark:
// databases, loaded partitioned tables with FlatBuffer file descriptors and
// compressed partition stats, views, unloaded tables and functions, built
// directly (no metastore, no loader) and installed into a Catalog.
//
// Thread-safety: plain functions; the returned states are fresh.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"

namespace ics::catalog::testing {

inline impala::TColumn Column(const std::string& name, int position) {
  impala::TColumn c;
  c.columnName = name;
  impala::TTypeNode node;
  node.type = impala::TTypeNodeType::SCALAR;
  node.__isset.scalar_type = true;
  node.scalar_type.type = impala::TPrimitiveType::BIGINT;
  c.columnType.types.push_back(node);
  c.__set_position(position);
  return c;
}

inline hive::ColumnStatisticsObj LongStats(const std::string& col, int64_t ndv) {
  hive::ColumnStatisticsObj s;
  s.colName = col;
  s.colType = "bigint";
  hive::LongColumnStatsData d;
  d.numNulls = 0;
  d.numDVs = ndv;
  s.statsData.__set_longStats(d);
  return s;
}

inline std::shared_ptr<DatabaseState> MakeDb(const std::string& name) {
  auto db = std::make_shared<DatabaseState>();
  db->name = name;
  db->hms.name = name;
  db->hms.description = "database " + name;
  db->hms.locationUri = "/wh/" + name + ".db";
  return db;
}

// A file descriptor whose relative path names its partition and index, so
// tests can tell every descriptor apart.
inline std::string FileDescFor(int64_t part, int file) {
  FileDescInfo info;
  info.relative_path = "p" + std::to_string(part) + "-f" + std::to_string(file) + ".parq";
  info.length = 1000 + file;
  info.mtime_ms = 1'700'000'000'000 + part;
  info.blocks = SplitIntoBlocks(info.length, 512, 0);
  return BuildFileDesc(info);
}

struct TableSpec {
  std::string db = "sales";
  std::string name = "orders";
  int num_partitions = 4;
  int files_per_partition = 3;
  // Partition i carries files_per_partition + i * extra_files_step files.
  int extra_files_step = 0;
  int64_t first_partition_id = 100;
  bool stats_on_even_partitions = true;  // partition_stats on ids at even index
};

// A loaded HDFS table partitioned by "day" with data columns "id", "amount".
inline std::shared_ptr<TableState> MakeTable(const TableSpec& spec) {
  auto t = std::make_shared<TableState>();
  t->db = spec.db;
  t->name = spec.name;
  t->loaded = true;
  t->hms.dbName = spec.db;
  t->hms.tableName = spec.name;
  t->hms.tableType = "MANAGED_TABLE";
  t->hms.parameters["comment"] = "orders table";
  t->hms.sd.location = "/wh/" + spec.db + ".db/" + spec.name;
  t->hms.sd.inputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  t->clustering_columns.push_back(Column("day", 0));
  t->columns.push_back(Column("id", 1));
  t->columns.push_back(Column("amount", 2));
  t->column_stats["day"] = LongStats("day", spec.num_partitions);
  t->column_stats["id"] = LongStats("id", 12345);
  // "amount" has no stats.
  t->table_stats.num_rows = -1;
  t->network_addresses.resize(1);
  t->network_addresses[0].hostname = "localhost";
  t->network_addresses[0].port = 0;
  t->partition_prefixes.push_back(t->hms.sd.location);
  t->load_time_ms = 1234;
  t->storage_load_time_ns = 5678;
  for (int i = 0; i < spec.num_partitions; ++i) {
    auto p = NewPartition();
    p->id = spec.first_partition_id + i;
    p->set_name("day=" + std::to_string(i));
    p->set_values({std::to_string(i)});
    const std::string dir = t->hms.sd.location + "/" + std::string(p->name());
    hive::Partition hms;
    hms.dbName = spec.db;
    hms.tableName = spec.name;
    hms.sd = t->hms.sd;
    hms.sd.location = dir;
    hms.parameters["numRows"] = std::to_string(10 * i);
    p->SetHms(std::move(hms), dir, t->hms.sd.location);
    const int nfiles = spec.files_per_partition + i * spec.extra_files_step;
    FileDescList::Builder descs;
    for (int f = 0; f < nfiles; ++f) descs.Add(FileDescFor(p->id, f), 0, 0);
    p->file_descs = descs.Finish();
    if (spec.stats_on_even_partitions && i % 2 == 0) {
      impala::TPartitionStats ps;
      ps.stats.num_rows = 10 * i;
      auto enc = EncodePartitionStats(ps);
      if (enc.ok()) p->set_partition_stats(*enc);
      p->set_has_incremental_stats(true);
    }
    t->partitions_by_name.Put(p);
    t->partitions[p->id] = std::move(p);
  }
  return t;
}

inline std::shared_ptr<TableState> MakeView(const std::string& db, const std::string& name) {
  auto t = std::make_shared<TableState>();
  t->db = db;
  t->name = name;
  t->loaded = true;
  t->table_type = impala::TTableType::VIEW;
  t->hms.dbName = db;
  t->hms.tableName = name;
  t->hms.tableType = "VIRTUAL_VIEW";
  t->hms.viewOriginalText = "select 1";
  t->columns.push_back(Column("x", 0));
  return t;
}

// Unloaded table; `hms_type` empty means only the name is known.
inline std::shared_ptr<TableState> MakeUnloaded(const std::string& db, const std::string& name,
                                                const std::string& hms_type = "") {
  auto t = std::make_shared<TableState>();
  t->db = db;
  t->name = name;
  t->hms.dbName = db;
  t->hms.tableName = name;
  t->hms.tableType = hms_type;
  return t;
}

inline std::shared_ptr<FunctionState> MakeFunction(const std::string& db, const std::string& name,
                                                   const std::string& arg) {
  auto f = std::make_shared<FunctionState>();
  f->db = db;
  f->signature = name + "(" + arg + ")";
  f->fn.name.__set_db_name(db);
  f->fn.name.function_name = name;
  f->fn.__set_signature(f->signature);
  f->fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  f->fn.__set_has_var_args(false);
  return f;
}

}  // namespace ics::catalog::testing
