// catalog_load_bench: loading a whole synthetic catalog the way catalogd
// does, and the size of the catalog topic it publishes.
//
// Setup: a temp SQLite metastore (OpenSqliteMetastore) is filled in bulk
// with MetastoreTxn batches: --tables tables, --partitions partitions spread
// evenly over them (each with its own storage descriptor, as HMS stores
// them). Files come from a SyntheticFileSystem with --files / --partitions
// files per partition directory.
//
// Measured, as catalogd with --load_catalog_in_background: the table names
// are installed unloaded (Catalog::ResetAll), every table is queued on a
// TableLoadManager with --loading_threads background loaders sharing a
// TableLoader whose listing pool has --loading_threads threads, and the
// clock runs until every table is loaded. This is done twice: once with no
// files (the per-partition cost) and once with the files (the difference
// is the per-file-descriptor cost). Memory: growth of this process's RSS
// (/proc/self/statm after malloc_trim) and TableState::EstimateBytes().
//
// Topic: CatalogTopicPublisher::BuildFullTopic over the loaded catalog in
// full, mixed and minimal modes, LZ4-compacted or not: entries, bytes and
// build time (cold = fresh publisher; warm = second build, which may reuse
// cached values).
//
// Prints one line per figure. Not a test. Default size runs in a couple of
// minutes on 2 cores; the full size is
//   catalog_load_bench --tables=1000 --partitions=1000000 --files=10000000
// (needs ~8 GB RAM and a few minutes to write the metastore; pass
// --metastore_path=/some/file.db to keep and reuse it across runs).
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/pg_metastore.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "tests/external/postgres_server.h"
#include "tests/perf/perf_util.h"

DEFINE_int32(tables, 1000, "Tables in the synthetic catalog.");
DEFINE_int64(partitions, 100000, "Partitions in total (spread evenly over the tables).");
DEFINE_int64(files, 1000000, "Files in total (files / partitions per partition directory).");
DEFINE_int32(columns, 10, "Data columns per table (copied into every partition's SD).");
DEFINE_int32(loading_threads, 4,
             "Background table loaders and listing threads "
             "(catalogd --num_metadata_loading_threads).");
DEFINE_int32(ops_per_txn, 5000, "Metastore ops per MetastoreTxn while writing the catalog.");
DEFINE_string(metastore_path, "",
              "SQLite metastore file; if it exists it is reused as is (must hold the same "
              "catalog), otherwise it is created and kept. Default: a temp file, removed.");
DEFINE_bool(topic, true, "Measure the full topic (BuildFullTopic) after loading.");
DEFINE_bool(postgres, false,
            "Keep the catalog in PostgreSQL (a private server the bench starts, fsync on) "
            "instead of the SQLite file.");

namespace ics::perf {
namespace {

constexpr const char* kBench = "catalog_load";

using catalog::Catalog;
using catalog::ChangeSet;
using catalog::TablePtr;

struct LoadResult {
  double seconds = 0;
  double cpu_seconds = 0;  // user + system CPU of the whole process during the load
  int64_t rss_delta = 0;
  int64_t estimate_bytes = 0;
  int64_t partitions = 0;
  int64_t files = 0;
  int64_t fd_bytes = 0;  // sum of the FlatBuffer sizes
  int failed = 0;
};

// Installs the names of every table unloaded, as CatalogServer does at start.
Status InstallNames(catalog::Metastore* ms, Catalog* cat,
                    std::vector<std::pair<std::string, std::string>>* all) {
  ChangeSet cs;
  ICS_ASSIGN_OR_RETURN(auto dbs, ms->GetAllDatabases());
  for (const std::string& db : dbs) {
    ICS_ASSIGN_OR_RETURN(auto hms_db, ms->GetDatabase(db));
    auto d = std::make_shared<catalog::DatabaseState>();
    d->name = db;
    d->hms = std::move(hms_db);
    cs.put_databases.push_back(std::move(d));
    ICS_ASSIGN_OR_RETURN(auto tables, ms->GetAllTables(db));
    for (const std::string& t : tables) {
      cs.put_tables.push_back(catalog::MakeUnloadedTable(db, t));
      all->emplace_back(db, t);
    }
  }
  cat->ResetAll(std::move(cs));
  return Status::OK();
}

// Loads every table of `cat` through a TableLoadManager (background mode)
// and measures time and memory.
LoadResult LoadAll(catalog::Metastore* ms, Catalog* cat, catalog::FileSystem* fs) {
  LoadResult r;
  std::vector<std::pair<std::string, std::string>> all;
  Status s = InstallNames(ms, cat, &all);
  if (!s.ok()) {
    std::fprintf(stderr, "cannot read names: %s\n", s.ToString().c_str());
    r.failed = 1;
    return r;
  }
  catalog::LoaderOptions lo;
  lo.num_threads = FLAGS_loading_threads;
  const int64_t rss0 = TrimmedRss();
  {
    catalog::TableLoader loader(ms, fs, lo, cat->partition_id_allocator());
    catalog::TableLoadManager loads(cat, &loader, FLAGS_loading_threads);
    const auto t0 = Clock::now();
    const double cpu0 = ProcessCpuSeconds();
    loads.Prioritize(all);
    while (true) {
      size_t done = 0;
      int failed = 0;
      for (const auto& [db, t] : all) {
        TablePtr tp = cat->GetTable(db, t);
        if (tp && tp->loaded) ++done;
        if (tp && !tp->loaded && !tp->load_status.ok()) ++failed;
      }
      if (done + static_cast<size_t>(failed) == all.size()) {
        r.failed = failed;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    r.seconds = SecondsSince(t0);
    r.cpu_seconds = ProcessCpuSeconds() - cpu0;
    loads.Shutdown();
  }
  r.rss_delta = TrimmedRss() - rss0;
  for (const auto& [db, t] : all) {
    TablePtr tp = cat->GetTable(db, t);
    if (!tp) continue;
    r.estimate_bytes += tp->EstimateBytes();
    r.partitions += static_cast<int64_t>(tp->partitions.size());
    for (const auto& [id, p] : tp->partitions) {
      r.files += static_cast<int64_t>(p->file_descs.size());
      for (std::string_view fd : p->file_descs) r.fd_bytes += static_cast<int64_t>(fd.size());
    }
  }
  return r;
}

void MeasureTopic(Catalog* cat) {
  struct Mode {
    const char* name;
    catalog::TopicMode mode;
  };
  const Mode modes[] = {{"full", catalog::TopicMode::kFull},
                        {"mixed", catalog::TopicMode::kMixed},
                        {"minimal", catalog::TopicMode::kMinimal}};
  {
    // Throwaway build: the first one also pays for growing the heap.
    catalog::PublisherOptions po;
    po.mode = catalog::TopicMode::kFull;
    catalog::CatalogTopicPublisher warmup(cat, po);
    impala::TTopicDelta d = warmup.BuildFullTopic();
  }
  for (const Mode& m : modes) {
    int64_t raw_bytes = 0;
    for (bool compact : {false, true}) {
      catalog::PublisherOptions po;
      po.mode = m.mode;
      po.compact = compact;
      catalog::CatalogTopicPublisher pub(cat, po);
      auto t0 = Clock::now();
      int64_t entries = 0, key_bytes = 0, value_bytes = 0;
      {
        impala::TTopicDelta d = pub.BuildFullTopic();
        const double cold_ms = SecondsSince(t0) * 1e3;
        entries = static_cast<int64_t>(d.topic_entries.size());
        for (const auto& e : d.topic_entries) {
          key_bytes += static_cast<int64_t>(e.key.size());
          value_bytes += static_cast<int64_t>(e.value.size());
        }
        const std::string tag =
            std::string("topic_") + m.name + (compact ? "_lz4" : "_uncompressed");
        Figure(kBench, tag + "_entries", static_cast<double>(entries));
        Figure(kBench, tag + "_bytes", static_cast<double>(key_bytes + value_bytes), "bytes",
               "keys " + std::to_string(key_bytes) + " + values " + std::to_string(value_bytes));
        Figure(kBench, tag + "_build_cold", cold_ms, "ms");
      }
      t0 = Clock::now();
      { impala::TTopicDelta again = pub.BuildFullTopic(); }
      Figure(kBench,
             std::string("topic_") + m.name + (compact ? "_lz4" : "_uncompressed") +
                 "_build_warm",
             SecondsSince(t0) * 1e3, "ms", "second build, same publisher (value cache)");
      if (!compact) {
        raw_bytes = value_bytes;
      } else if (value_bytes > 0) {
        Figure(kBench, std::string("topic_") + m.name + "_lz4_ratio",
               static_cast<double>(raw_bytes) / static_cast<double>(value_bytes), "x",
               "uncompressed / compacted value bytes");
      }
    }
  }
}

// Prints the load figures: `full` loaded with files, `bare` without.
void PrintLoadFigures(const LoadResult& bare, const LoadResult& full) {
  const double parts = static_cast<double>(full.partitions);
  const double files = static_cast<double>(full.files);
  Figure(kBench, "partitions_loaded", parts);
  Figure(kBench, "files_loaded", files);
  Figure(kBench, "load_time", full.seconds, "s");
  Figure(kBench, "load_time_no_files", bare.seconds, "s");
  Figure(kBench, "partitions_per_sec", parts / full.seconds, "partitions/s", "target >= 100000");
  Figure(kBench, "files_per_sec", files / full.seconds, "files/s");
  Figure(kBench, "partitions_per_sec_no_files", parts / bare.seconds, "partitions/s");
  Figure(kBench, "load_cpu", full.cpu_seconds, "cpu-s",
         "all threads; wall time stretches when the machine is shared");
  Figure(kBench, "partitions_per_cpu_sec", parts / full.cpu_seconds, "partitions/cpu-s");
  Figure(kBench, "files_per_cpu_sec", files / full.cpu_seconds, "files/cpu-s");
  Figure(kBench, "rss_delta_total", static_cast<double>(full.rss_delta), "bytes");
  Figure(kBench, "rss_bytes_per_partition", static_cast<double>(bare.rss_delta) / parts, "bytes",
         "no-files pass");
  if (files > 0) {
    Figure(kBench, "rss_bytes_per_file_desc",
           static_cast<double>(full.rss_delta - bare.rss_delta) / files, "bytes",
           "target <= 150");
  }
  Figure(kBench, "estimate_bytes_total", static_cast<double>(full.estimate_bytes), "bytes");
  Figure(kBench, "estimate_bytes_per_partition",
         static_cast<double>(bare.estimate_bytes) / parts, "bytes");
  if (files > 0) {
    Figure(kBench, "estimate_bytes_per_file_desc",
           static_cast<double>(full.estimate_bytes - bare.estimate_bytes) / files, "bytes",
           "target <= 150");
    Figure(kBench, "flatbuffer_bytes_per_file_desc", static_cast<double>(full.fd_bytes) / files,
           "bytes");
  }
}

// The metastore the bench reads and writes: the SQLite file at `where`, or
// the PostgreSQL database `where` names (postgresql://...).
Result<std::unique_ptr<catalog::Metastore>> OpenBenchMetastore(const std::string& where) {
  if (catalog::IsPostgresUri(where)) return catalog::OpenPostgresMetastore(where);
  return catalog::OpenSqliteMetastore(where);
}

// Loads the catalog in a child process (fresh heap) with `files_per_dir`
// synthetic files per partition and sends its LoadResult back. With
// `bare` (the result of the no-files pass) the child also prints the load
// figures and then measures the topic of the catalog it loaded.
bool RunPass(const std::string& ms_path, int files_per_dir, const LoadResult* bare,
             LoadResult* out) {
  std::fflush(stdout);
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    close(fds[0]);
    LoadResult r;
    auto opened = OpenBenchMetastore(ms_path);
    if (!opened.ok()) {
      std::fprintf(stderr, "metastore: %s\n", opened.status().ToString().c_str());
      r.failed = -1;
    } else {
      catalog::SyntheticFileSystemOptions fo;
      fo.files_per_dir = files_per_dir;
      catalog::SyntheticFileSystem fs(fo);
      Catalog cat;
      r = LoadAll(opened->get(), &cat, &fs);
      if (bare != nullptr && r.failed == 0) {
        PrintLoadFigures(*bare, r);
        if (FLAGS_topic) MeasureTopic(&cat);
      }
    }
    std::fflush(stdout);
    const bool sent = write(fds[1], &r, sizeof(r)) == static_cast<ssize_t>(sizeof(r));
    _exit(sent ? 0 : 1);
  }
  close(fds[1]);
  const bool got = read(fds[0], out, sizeof(*out)) == static_cast<ssize_t>(sizeof(*out));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!got || out->failed < 0) {
    std::fprintf(stderr, "load pass (files per partition %d) failed\n", files_per_dir);
    return false;
  }
  return true;
}

int Run() {
  if (FLAGS_tables < 1 || FLAGS_partitions < FLAGS_tables ||
      FLAGS_files % FLAGS_partitions != 0) {
    std::fprintf(stderr,
                 "need tables >= 1, partitions >= tables, files a multiple of partitions\n");
    return 2;
  }
  const int files_per_dir = static_cast<int>(FLAGS_files / FLAGS_partitions);
  TempDir dir("ics_load_bench");
  if (!dir.ok()) return 1;
  std::string ms_path =
      FLAGS_metastore_path.empty() ? dir.path() + "/metastore.db" : FLAGS_metastore_path;
  const bool reuse = !FLAGS_metastore_path.empty() && std::filesystem::exists(ms_path);
  std::unique_ptr<external::PostgresServer> pg;
  if (FLAGS_postgres) {
    pg = std::make_unique<external::PostgresServer>(/*durable=*/true);
    Status s = pg->Start();
    Result<std::string> uri = s.ok() ? pg->CreateDatabase("load_bench") : Result<std::string>(s);
    if (!uri.ok()) {
      std::fprintf(stderr, "postgres: %s\n", uri.status().ToString().c_str());
      return 1;
    }
    ms_path = *uri;
  }

  std::printf("%s # %d tables, %lld partitions, %lld files (%d per partition), %d columns, "
              "%d loading threads; load average %s; %u cpus\n",
              kBench, FLAGS_tables, static_cast<long long>(FLAGS_partitions),
              static_cast<long long>(FLAGS_files), files_per_dir, FLAGS_columns,
              FLAGS_loading_threads, LoadAverage().c_str(), std::thread::hardware_concurrency());
  Note(kBench, "full size: catalog_load_bench --tables=1000 --partitions=1000000 "
               "--files=10000000 [--metastore_path=/tmp/ms1m.db to keep the metastore]");

  Note(kBench, std::string("metastore: ") + (FLAGS_postgres ? "PostgreSQL (private server on "
                                                              "loopback, fsync on)"
                                                            : "SQLite file"));
  auto opened = OpenBenchMetastore(ms_path);
  if (!opened.ok()) {
    std::fprintf(stderr, "metastore: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<catalog::Metastore> ms = std::move(opened).value();

  SyntheticCatalogSpec spec;
  spec.tables = FLAGS_tables;
  spec.partitions = FLAGS_partitions;
  spec.columns = FLAGS_columns;
  spec.ops_per_txn = FLAGS_ops_per_txn;
  if (reuse) {
    Note(kBench, "reusing metastore " + ms_path);
  } else {
    const auto t0 = Clock::now();
    Status s = PopulateMetastore(ms.get(), spec);
    if (!s.ok()) {
      std::fprintf(stderr, "populate: %s\n", s.ToString().c_str());
      return 1;
    }
    const double secs = SecondsSince(t0);
    Figure(kBench, "metastore_write_time", secs, "s");
    Figure(kBench, "metastore_write_rows_per_sec",
           static_cast<double>(FLAGS_partitions + FLAGS_tables) / secs, "rows/s",
           std::to_string(spec.ops_per_txn) + " ops per txn");
    if (!FLAGS_postgres) {
      std::error_code ec;
      Figure(kBench, "metastore_file_bytes",
             static_cast<double>(std::filesystem::file_size(ms_path, ec)), "bytes");
    }
  }

  // Each pass runs in a forked child with a fresh heap, so its RSS growth
  // is its own (the metastore is reopened there; no threads exist yet).
  ms.reset();
  LoadResult bare;
  if (!RunPass(ms_path, 0, nullptr, &bare)) return 1;
  if (bare.failed != 0) {
    std::fprintf(stderr, "%d tables failed to load\n", bare.failed);
    return 1;
  }
  LoadResult full;
  if (!RunPass(ms_path, files_per_dir, &bare, &full)) return 1;
  if (full.failed != 0) {
    std::fprintf(stderr, "%d tables failed to load\n", full.failed);
    return 1;
  }
  Note(kBench, "load average at end " + LoadAverage());
  if (!FLAGS_metastore_path.empty()) Note(kBench, "metastore kept at " + ms_path);
  return 0;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::SetUsageMessage("Loads a synthetic catalog as catalogd does; prints figures.");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = 1;  // warnings and errors only
  google::InitGoogleLogging(argv[0]);
  return ics::perf::Run();
}
