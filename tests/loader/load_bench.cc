// load_bench: how fast TableLoader builds a large table and how much memory
// the loaded state takes.
//
// A FakeMetastore holds one table with --partitions partitions (each with its
// own storage descriptor carrying the column list, as the Hive Metastore
// stores them); a SyntheticFileSystem "lists" --files files per partition.
// The table is loaded twice: once with no files (the per-partition cost) and
// once with the files (the difference is the per-file-descriptor cost).
// Memory is reported two ways: EstimateBytes() and the growth of the
// process's resident set (/proc/self/statm, after malloc_trim).
//
// Prints one "name: value [unit]" line per figure. Not a test.
//   load_bench [--partitions=10000] [--files=10] [--threads=8] [--columns=10]
//              [--incremental_stats]
#include <gflags/gflags.h>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/loader/table_loader.h"
#include "tests/loader/fake_metastore.h"

DEFINE_int32(partitions, 10000, "partitions of the synthetic table");
DEFINE_int32(files, 10, "files per partition");
DEFINE_int32(threads, 8, "listing threads (LoaderOptions.num_threads)");
DEFINE_int32(columns, 10, "data columns (copied into every partition's storage descriptor)");
DEFINE_bool(incremental_stats, false, "give every partition chunked incremental stats");

namespace ics::catalog {
namespace {

int64_t RssBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

int64_t TrimmedRss() {
  malloc_trim(0);
  return RssBytes();
}

void Print(const char* name, double value, const char* unit = "") {
  const bool integral = value == static_cast<double>(static_cast<int64_t>(value));
  std::printf(integral ? "%s: %.0f%s%s\n" : "%s: %.1f%s%s\n", name, value, *unit ? " " : "", unit);
}

hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

int Populate(FakeMetastore* ms) {
  hive::Table t;
  t.dbName = "bench";
  t.tableName = "t";
  t.tableType = "MANAGED_TABLE";
  t.sd.location = "/warehouse/bench.db/t";
  t.sd.inputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  for (int c = 0; c < FLAGS_columns; ++c) {
    t.sd.cols.push_back(Field("column_" + std::to_string(c), c % 3 ? "bigint" : "string"));
  }
  t.partitionKeys = {Field("year", "int"), Field("day", "int")};
  ms->PutTable(t);

  impala::TPartitionStats stats;
  stats.stats.num_rows = 1000;
  for (int c = 0; c < FLAGS_columns; ++c) {
    impala::TIntermediateColumnStats cs;
    cs.__set_num_nulls(c);
    cs.__set_intermediate_ndv(std::string(256, static_cast<char>(c)));
    stats.intermediate_col_stats["column_" + std::to_string(c)] = cs;
  }
  stats.__isset.intermediate_col_stats = true;

  for (int i = 0; i < FLAGS_partitions; ++i) {
    hive::Partition p;
    p.dbName = t.dbName;
    p.tableName = t.tableName;
    p.values = {std::to_string(2000 + i / 365), std::to_string(i % 365)};
    p.sd = t.sd;
    p.sd.location.clear();  // default location under the table
    p.parameters["numRows"] = "1000";
    p.parameters["transient_lastDdlTime"] = "1700000000";
    if (FLAGS_incremental_stats && !SetStatsParams(stats, &p.parameters).ok()) return 1;
    if (!ms->PutPartition(std::move(p)).ok()) return 1;
  }
  return 0;
}

struct Measured {
  std::shared_ptr<TableState> table;
  double seconds = 0;
  int64_t rss_delta = 0;
};

int Load(TableLoader* loader, Measured* out) {
  const int64_t rss_before = TrimmedRss();
  const auto start = std::chrono::steady_clock::now();
  auto r = loader->Load("bench", "t");
  const auto end = std::chrono::steady_clock::now();
  if (!r.ok()) {
    std::fprintf(stderr, "load failed: %s\n", r.status().ToString().c_str());
    return 1;
  }
  out->table = std::move(r).value();
  out->seconds = std::chrono::duration<double>(end - start).count();
  out->rss_delta = TrimmedRss() - rss_before;
  return 0;
}

int Run() {
  FakeMetastore ms;
  if (Populate(&ms) != 0) {
    std::fprintf(stderr, "could not build the synthetic metastore\n");
    return 1;
  }
  std::atomic<int64_t> next_id{1};
  LoaderOptions opts;
  opts.num_threads = FLAGS_threads;

  SyntheticFileSystemOptions no_files;
  no_files.files_per_dir = 0;
  SyntheticFileSystem empty_fs(no_files);
  SyntheticFileSystemOptions with_files;
  with_files.files_per_dir = FLAGS_files;
  SyntheticFileSystem files_fs(with_files);

  Measured bare;
  Measured full;
  {
    TableLoader bare_loader(&ms, &empty_fs, opts, &next_id);
    if (Load(&bare_loader, &bare) != 0) return 1;
  }
  {
    TableLoader loader(&ms, &files_fs, opts, &next_id);
    // Warm-up load, so the pool's threads and allocator arenas exist
    // before the measured one.
    Measured warm;
    if (Load(&loader, &warm) != 0) return 1;
    warm.table.reset();
    if (Load(&loader, &full) != 0) return 1;
  }

  const double parts = FLAGS_partitions;
  const double files = static_cast<double>(full.table->NumFiles());
  int64_t fd_raw = 0;
  for (const auto& [id, p] : full.table->partitions) {
    for (std::string_view fd : p->file_descs) fd_raw += static_cast<int64_t>(fd.size());
  }
  const double est_bare = static_cast<double>(bare.table->EstimateBytes());
  const double est_full = static_cast<double>(full.table->EstimateBytes());

  Print("partitions", parts);
  Print("files", files);
  Print("threads", FLAGS_threads);
  Print("load_time", full.seconds * 1000, "ms");
  Print("load_time_no_files", bare.seconds * 1000, "ms");
  Print("partitions_per_sec", parts / full.seconds);
  Print("files_per_sec", files / full.seconds);
  Print("estimate_bytes_total", est_full, "bytes");
  Print("estimate_bytes_per_partition", est_bare / parts, "bytes");
  if (files > 0) Print("estimate_bytes_per_file_desc", (est_full - est_bare) / files, "bytes");
  if (files > 0) Print("flatbuffer_bytes_per_file_desc", static_cast<double>(fd_raw) / files, "bytes");
  Print("rss_delta_total", static_cast<double>(full.rss_delta), "bytes");
  Print("rss_bytes_per_partition", static_cast<double>(bare.rss_delta) / parts, "bytes");
  if (files > 0) {
    Print("rss_bytes_per_file_desc", static_cast<double>(full.rss_delta - bare.rss_delta) / files,
          "bytes");
  }
  return 0;
}

}  // namespace
}  // namespace ics::catalog

int main(int argc, char** argv) {
  gflags::SetUsageMessage("TableLoader load speed and memory per partition / file");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return ics::catalog::Run();
}
