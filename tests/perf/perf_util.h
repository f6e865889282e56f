// Helpers shared by the catalog performance benchmarks (tests/perf): figure
// printing, latency percentiles, process memory and CPU readings, temp
// directories, and a bulk writer of a synthetic Hive-shaped catalog into a
// Metastore (MetastoreTxn batches, the way a real HMS would hold it).
//
// Output convention (as tests/bench/statestore_bench.cc): one line per
// figure, "<bench> <figure>: <value> [unit] [(note)]", so runs can be
// grepped and compared.
//
// Thread-safety: the functions are thread-safe; Latencies is not (one per
// thread, merged afterwards).
#pragma once

#include <malloc.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "common/util/result.h"
#include "tests/perf/cpu_time.h"
#include "tests/util/temp_dir.h"

namespace ics::perf {

using Clock = std::chrono::steady_clock;

inline double SecondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Prints "<bench> <name>: <value> [unit] [(note)]".
inline void Figure(const char* bench, const std::string& name, double value,
                   const std::string& unit = "", const std::string& note = "") {
  // Whole numbers and anything >= 100 without decimals; small values with
  // three significant digits.
  const bool whole = std::abs(value) >= 100 ||
                     value == static_cast<double>(static_cast<int64_t>(value));
  std::printf(whole ? "%s %s: %.0f" : "%s %s: %.3g", bench, name.c_str(), value);
  if (!unit.empty()) std::printf(" %s", unit.c_str());
  if (!note.empty()) std::printf(" (%s)", note.c_str());
  std::printf("\n");
  std::fflush(stdout);
}

inline void Note(const char* bench, const std::string& text) {
  std::printf("%s # %s\n", bench, text.c_str());
  std::fflush(stdout);
}

// Resident bytes of this process (/proc/self/statm).
inline int64_t RssBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// RSS after returning free heap pages to the OS, so deltas measure live data.
inline int64_t TrimmedRss() {
  malloc_trim(0);
  return RssBytes();
}

// A "Vm...:" field of /proc/<pid>/status in bytes (0 if it cannot be read).
inline int64_t ProcessStatusBytes(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1)) * 1024;
  }
  return 0;
}

// Resident set (VmRSS) and its peak so far (VmHWM) of any process.
inline int64_t ProcessRssBytes(pid_t pid) { return ProcessStatusBytes(pid, "VmRSS"); }
inline int64_t ProcessPeakRssBytes(pid_t pid) { return ProcessStatusBytes(pid, "VmHWM"); }


// A --*_extra_flags value: flags separated by white space.
inline std::vector<std::string> SplitFlags(const std::string& flags) {
  std::vector<std::string> out;
  std::istringstream in(flags);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

// "1.23 0.98 0.80" from /proc/loadavg.
inline std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

// Latency samples in microseconds.
struct Latencies {
  std::vector<double> us;
  void Add(Clock::time_point t0) {
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  void Merge(const Latencies& o) { us.insert(us.end(), o.us.begin(), o.us.end()); }
  // p in [0, 1]; nearest-rank on a sorted copy.
  double Percentile(double p) const {
    if (us.empty()) return 0;
    std::vector<double> v = us;
    std::sort(v.begin(), v.end());
    const size_t idx =
        std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
    return v[idx];
  }
};

using ::ics::testing::TempDir;

// A synthetic catalog: `tables` tables in database `db`, `partitions`
// partitions spread evenly over them (the first tables take the remainder),
// partitioned by (year int, day int) with values year = 2000 + i / 365,
// day = i % 365 for the table's i-th partition. Every partition carries its
// own storage descriptor (columns, formats, explicit location), as the Hive
// Metastore stores them. Tables are MANAGED, Parquet, `columns` data
// columns. Locations are under <warehouse>/<db>.db/<table>.
struct SyntheticCatalogSpec {
  std::string db = "bench";
  std::string table_prefix = "t";
  int tables = 1000;
  int64_t partitions = 100000;
  int columns = 10;
  std::string warehouse = "/warehouse";
  int ops_per_txn = 5000;  // metastore ops per MetastoreTxn (one durable commit each)
};

inline std::string TableNameOf(const SyntheticCatalogSpec& s, int i) {
  return s.table_prefix + std::to_string(i);
}

inline int64_t PartitionsOfTable(const SyntheticCatalogSpec& s, int i) {
  const int64_t base = s.partitions / s.tables;
  return base + (i < s.partitions % s.tables ? 1 : 0);
}

inline hive::FieldSchema PerfField(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

inline hive::Table SyntheticTable(const SyntheticCatalogSpec& s, int i) {
  hive::Table t;
  t.dbName = s.db;
  t.tableName = TableNameOf(s, i);
  t.owner = "bench";
  t.createTime = 1700000000;
  t.tableType = "MANAGED_TABLE";
  t.sd.location = s.warehouse + "/" + s.db + ".db/" + t.tableName;
  t.sd.inputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  for (int c = 0; c < s.columns; ++c) {
    t.sd.cols.push_back(PerfField("column_" + std::to_string(c), c % 3 ? "bigint" : "string"));
  }
  t.partitionKeys = {PerfField("year", "int"), PerfField("day", "int")};
  t.parameters["transient_lastDdlTime"] = "1700000000";
  return t;
}

inline hive::Partition SyntheticPartition(const hive::Table& t, int64_t i) {
  hive::Partition p;
  p.dbName = t.dbName;
  p.tableName = t.tableName;
  const std::string year = std::to_string(2000 + i / 365);
  const std::string day = std::to_string(i % 365);
  p.values = {year, day};
  p.createTime = 1700000000;
  p.sd = t.sd;
  p.sd.location = t.sd.location + "/year=" + year + "/day=" + day;
  p.parameters["numRows"] = "1000";
  p.parameters["transient_lastDdlTime"] = "1700000000";
  return p;
}

// Writes the database, tables and partitions of `s` into `ms` in batches
// of s.ops_per_txn ops (each batch one atomic, durable commit). The
// database is created unless it exists.
inline Status PopulateMetastore(catalog::Metastore* ms, const SyntheticCatalogSpec& s) {
  using catalog::MetastoreOp;
  using catalog::MetastoreTxn;
  ICS_ASSIGN_OR_RETURN(auto dbs, ms->GetAllDatabases());
  MetastoreTxn txn;
  auto flush = [&]() -> Status {
    if (txn.ops.empty()) return Status::OK();
    auto r = ms->Commit(txn);
    txn.ops.clear();
    return r.ok() ? Status::OK() : r.status();
  };
  if (std::find(dbs.begin(), dbs.end(), s.db) == dbs.end()) {
    MetastoreOp op;
    op.kind = MetastoreOp::Kind::kCreateDatabase;
    op.database.name = s.db;
    op.database.locationUri = s.warehouse + "/" + s.db + ".db";
    txn.ops.push_back(std::move(op));
  }
  for (int i = 0; i < s.tables; ++i) {
    MetastoreOp op;
    op.kind = MetastoreOp::Kind::kCreateTable;
    op.table = SyntheticTable(s, i);
    txn.ops.push_back(std::move(op));
    if (static_cast<int>(txn.ops.size()) >= s.ops_per_txn) ICS_RETURN_IF_ERROR(flush());
  }
  ICS_RETURN_IF_ERROR(flush());
  for (int i = 0; i < s.tables; ++i) {
    const hive::Table t = SyntheticTable(s, i);
    const int64_t n = PartitionsOfTable(s, i);
    for (int64_t j = 0; j < n; ++j) {
      MetastoreOp op;
      op.kind = MetastoreOp::Kind::kAddPartition;
      op.partition = SyntheticPartition(t, j);
      txn.ops.push_back(std::move(op));
      if (static_cast<int>(txn.ops.size()) >= s.ops_per_txn) ICS_RETURN_IF_ERROR(flush());
    }
  }
  return flush();
}

}  // namespace ics::perf
