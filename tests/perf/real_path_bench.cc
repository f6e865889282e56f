// real_path_bench: catalogd's memory and load rate on the path a user takes,
// with the real daemons.
//
// A cluster of the real binaries (statestored, catalogd on its embedded
// SQLite metastore, one coordinator-sim with an on-demand local catalog) on
// loopback ports. Then, as a user would:
//   1. through catalogd's HMS endpoint (ThriftHiveMetastore, binary
//      protocol): create_database, create_table of --tables tables, and
//      add_partitions of --partitions partitions in all, in calls of 1,000.
//      Every partition is sent with its own full storage descriptor, as
//      Hive and Spark clients send them;
//   2. real data files: --files_per_partition files per partition directory
//      with Spark's names (part-<5 digits>-<job uuid>-c000.snappy.parquet),
//      under a warehouse on tmpfs (--warehouse_parent, default /dev/shm);
//   3. REFRESH of every table through the coordinator (its CoordinatorService
//      port, one statement per table, one after the other);
//   4. ADD PARTITION through the coordinator on a table of
//      --small_table_partitions partitions and on the first (big) table,
//      alternating, --ddl_rounds each.
// catalogd is restarted between steps 2 and 3, so it starts knowing the
// tables by name only. Its RSS comes from /proc/<pid>/status (VmRSS) before
// step 3 and after it; the difference over
// the partitions is the per-partition figure. Run once with 1 and once with
// 10 files per partition to get the cost of one more file.
//
// Figures (one line each, "real_path <name>: <value> <unit>"):
//   rss_before_refresh_mb, rss_after_refresh_mb, rss_bytes_per_partition,
//   state_bytes_per_partition (catalogd's own estimate of its table states:
//   the rest of the RSS growth is what the allocator keeps),
//   refresh_seconds, refresh_partitions_per_s, second_refresh_partitions_per_s
//   (an unchanged table again), and the medians of --refresh_rounds of each
//   (unchanged_refresh_partitions_per_s_median, and
//   load_refresh_partitions_per_s_median: INVALIDATE METADATA, then the
//   timed REFRESH loads the tables again), add_partition_ms_p50/p99 for both tables and
//   their ratio, through the coordinator and (catalogd_add_partition_*)
//   straight to catalogd's ExecDdl. Not a test; scripts/bench.sh runs it
//   (scenario s8).
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "ThriftHiveMetastore.h"
#include "tests/external/external_cluster.h"
#include "tests/perf/ddl_requests.h"
#include "tests/perf/child_process.h"
#include "tests/perf/perf_util.h"
#include "tests/web/http_client.h"

DEFINE_int64(partitions, 10000, "Partitions in all, spread evenly over the tables.");
DEFINE_int32(tables, 1, "Tables (the first is the 'big' table of the ADD PARTITION phase).");
DEFINE_int32(files_per_partition, 1, "Data files in every partition directory.");
DEFINE_int32(columns, 10, "Data columns per table.");
DEFINE_int32(small_table_partitions, 100, "Partitions of the small table of the DDL phase.");
DEFINE_int32(ddl_rounds, 20, "ADD PARTITION statements per table in the DDL phase.");
DEFINE_string(catalogd_extra_flags, "",
              "Space-separated flags added to catalogd's (e.g. --num_metadata_loading_threads=2).");
DEFINE_int32(refresh_rounds, 5,
             "Timed rounds of each REFRESH rate figure (the median is printed): REFRESH of the "
             "unchanged tables, and INVALIDATE METADATA then REFRESH (a load).");
DEFINE_string(warehouse_parent, "/dev/shm",
              "Directory (tmpfs) under which the warehouse of real files is made.");
DEFINE_int32(pause_before_refresh_s, 0,
             "Seconds to wait, after printing catalogd's pid, before the measured REFRESH "
             "(time to attach a profiler to it).");
DEFINE_string(statestored, "", "statestored binary (default: the build's).");
DEFINE_string(catalogd, "", "catalogd binary (default: the build's).");
DEFINE_string(coordinator_sim, "", "coordinator-sim binary (default: the build's).");

namespace ics::perf {
namespace {

constexpr const char* kBench = "real_path";
constexpr const char* kDb = "rp";
namespace fs = std::filesystem;

class Hms {
 public:
  explicit Hms(int port) {
    socket_ = std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", port);
    socket_->setRecvTimeout(600000);
    transport_ = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket_);
    client_ = std::make_unique<hive::ThriftHiveMetastoreClient>(
        std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport_));
    transport_->open();
  }
  hive::ThriftHiveMetastoreClient* operator->() { return client_.get(); }

 private:
  std::shared_ptr<apache::thrift::transport::TSocket> socket_;
  std::shared_ptr<apache::thrift::transport::TTransport> transport_;
  std::unique_ptr<hive::ThriftHiveMetastoreClient> client_;
};

std::string JobUuid(std::mt19937_64* rng) {
  static const char* hex = "0123456789abcdef";
  std::string u;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) u.push_back('-');
    u.push_back(hex[(*rng)() & 15]);
  }
  return u;
}

// Spark's data file name for task `task` of job `uuid`.
std::string SparkFileName(int task, const std::string& uuid) {
  char num[16];
  std::snprintf(num, sizeof num, "%05d", task);
  return std::string("part-") + num + "-" + uuid + "-c000.snappy.parquet";
}

bool WriteFile(const std::string& path, size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  static const std::string body(4096, 'x');
  out.write(body.data(), static_cast<std::streamsize>(std::min(bytes, body.size())));
  return static_cast<bool>(out);
}

// Creates the tables and partitions through the HMS endpoint and their
// files; returns the partitions created per table.
bool Populate(int hms_port, const SyntheticCatalogSpec& spec, int small_table) {
  Hms hms(hms_port);
  hive::Database db;
  db.name = kDb;
  db.locationUri = spec.warehouse + "/" + kDb + ".db";
  hms->create_database(db);
  std::mt19937_64 rng(42);
  int64_t files = 0;
  auto t0 = Clock::now();
  auto make_table = [&](const hive::Table& t, int64_t n) {
    hms->create_table(t);
    std::vector<hive::Partition> batch;
    for (int64_t i = 0; i < n; ++i) {
      hive::Partition p = SyntheticPartition(t, i);
      fs::create_directories(p.sd.location);
      const std::string uuid = JobUuid(&rng);
      for (int f = 0; f < FLAGS_files_per_partition; ++f) {
        if (!WriteFile(p.sd.location + "/" + SparkFileName(f, uuid), 1000 + 37 * f)) return false;
        ++files;
      }
      batch.push_back(std::move(p));
      if (batch.size() == 1000 || i + 1 == n) {
        hms->add_partitions(batch);
        batch.clear();
      }
    }
    return true;
  };
  for (int i = 0; i < spec.tables; ++i) {
    if (!make_table(SyntheticTable(spec, i), PartitionsOfTable(spec, i))) return false;
  }
  SyntheticCatalogSpec small = spec;
  small.table_prefix = "small";
  small.tables = 1;
  if (!make_table(SyntheticTable(small, 0), small_table)) return false;
  Figure(kBench, "populate_seconds", SecondsSince(t0), "s",
         std::to_string(files) + " files written, partitions added through the HMS endpoint");
  return true;
}

// ALTER TABLE rp.<table> ADD PARTITION (year=<year>, day=<day>) sent to
// catalogd's CatalogService as an on-demand coordinator sends it (minimal
// response); an error Status if it fails.
Status DirectAddPartition(CatalogClient* c, const std::string& table, int year, int day) {
  return ExecDdl(c, AddPartitionsRequest(kDb, table,
                                         {{{"year", std::to_string(year)},
                                           {"day", std::to_string(day)}}},
                                         /*minimal=*/true, "real_path_bench"));
}

bool Ok(const external::ExecResult& r, const std::string& what) {
  if (r.ok()) return true;
  std::fprintf(stderr, "%s: %s\n", what.c_str(), r.status.ToString().c_str());
  return false;
}

// CPU seconds (user + system) a process used over each of several runs.
struct CpuRecord {
  pid_t pid = 0;
  std::vector<double> seconds;
};

// REFRESH of every table of `names`, one after the other; seconds. With
// `cpu`, adds the CPU its process used meanwhile.
double RefreshAll(external::ExternalCluster* c, const std::vector<std::string>& names, bool* ok,
                  CpuRecord* cpu = nullptr) {
  external::ExecOptions eo;
  eo.timeout_ms = 3600 * 1000;
  const double cpu0 = cpu != nullptr ? ChildCpuSeconds(cpu->pid) : 0;
  auto t0 = Clock::now();
  for (const std::string& t : names) {
    if (!Ok(c->Exec(0, std::string("REFRESH ") + kDb + "." + t, eo), "REFRESH " + t)) *ok = false;
  }
  const double secs = SecondsSince(t0);
  if (cpu != nullptr) cpu->seconds.push_back(ChildCpuSeconds(cpu->pid) - cpu0);
  return secs;
}

// INVALIDATE METADATA of every table of `names` (untimed), then their
// REFRESH, a load again from the metastore and the files; its seconds. The
// INVALIDATEs run with SYNC_DDL: their topic work (catalogd publishing the
// table's partitions as gone, the coordinator applying that) is over before
// the clock starts, instead of running on the same two cores as the load.
// `cpu` as RefreshAll's, over the REFRESHes only.
double ReloadAll(external::ExternalCluster* c, const std::vector<std::string>& names, bool* ok,
                 CpuRecord* cpu) {
  for (const std::string& t : names) {
    if (!Ok(c->Exec(0, std::string("INVALIDATE METADATA ") + kDb + "." + t, /*sync_ddl=*/true),
            "INVALIDATE " + t)) {
      *ok = false;
    }
  }
  return RefreshAll(c, names, ok, cpu);
}

// The median of non-empty `v`.
double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The median of `n` >= 1 timings of `run`.
template <typename Run>
double MedianSeconds(int n, Run run) {
  std::vector<double> v;
  for (int i = 0; i < std::max(1, n); ++i) v.push_back(run());
  return Median(std::move(v));
}

// catalogd's own estimate of the heap its table states hold (its table
// page's estimated_memory_bytes, heap blocks sized as glibc sizes them), over
// the tables; -1 when a page cannot be read. Set against the RSS growth, it
// shows what the allocator keeps beyond the states.
int64_t StateBytes(int web_port, const std::vector<std::string>& tables) {
  int64_t total = 0;
  for (const std::string& t : tables) {
    auto r = webtest::HttpGet(web_port, std::string("/catalog/table?db=") + kDb + "&table=" + t +
                                            "&json");
    if (!r.ok() || r->status != 200) return -1;
    auto doc = nlohmann::json::parse(r->body, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("estimated_memory_bytes")) return -1;
    total += doc["estimated_memory_bytes"].get<int64_t>();
  }
  return total;
}

int Run() {
  const int64_t P = std::max<int64_t>(1, FLAGS_partitions);
  const int T = static_cast<int>(std::clamp<int64_t>(FLAGS_tables, 1, P));
  TempDir warehouse_dir("ics_real_path", FLAGS_warehouse_parent);
  if (!warehouse_dir.ok()) return 1;
  SyntheticCatalogSpec spec;
  spec.db = kDb;
  spec.tables = T;
  spec.partitions = P;
  spec.columns = FLAGS_columns;
  spec.warehouse = warehouse_dir.path() + "/warehouse";

  external::ExternalClusterOptions o;
  o.coordinator_processes = {external::CoordinatorProcessSpec{1, {}, {}}};
  o.statestored_bin = FLAGS_statestored;
  o.catalogd_bin = FLAGS_catalogd;
  o.coordinator_bin = FLAGS_coordinator_sim;
  o.name = "ics-real-path";
  // Default timings: this measures memory and rates, not failure detection.
  o.heartbeat_frequency_ms = 1000;
  o.heartbeat_tcp_timeout_ms = 3000;
  o.subscriber_timeout_seconds = 30;
  o.sync_ddl_timeout_ms = 60000;
  o.catalogd_flags = {"--hms_port=0", "--metastore_service_port=-1", "--webserver_port=0",
                      "--warehouse_dir=" + spec.warehouse, "--data_roots=" + spec.warehouse};
  for (std::string& f : SplitFlags(FLAGS_catalogd_extra_flags)) o.catalogd_flags.push_back(f);
  external::ExternalCluster cluster(o);
  Status s = cluster.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "cluster: %s\n", s.ToString().c_str());
    return 1;
  }
  Note(kBench, std::to_string(P) + " partitions in " + std::to_string(T) + " table(s), " +
                   std::to_string(FLAGS_files_per_partition) + " file(s) each, " +
                   std::to_string(FLAGS_columns) + " columns; warehouse on " +
                   FLAGS_warehouse_parent + "; load average " + LoadAverage());
  try {
    if (!Populate(cluster.catalogd_named_port("hms"), spec, FLAGS_small_table_partitions)) {
      std::fprintf(stderr, "populate failed\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "populate: %s\n", e.what());
    return 1;
  }
  std::vector<std::string> names;
  for (int i = 0; i < T; ++i) names.push_back(TableNameOf(spec, i));
  // A fresh catalogd (as after a restart) knows the tables by name only;
  // its RSS is the baseline, without what serving the population left.
  s = cluster.Restart(external::ExternalCluster::kCatalogd);
  if (s.ok()) s = cluster.WaitForCoordinatorsReady(external::Millis(60000));
  if (!s.ok()) {
    std::fprintf(stderr, "restarting catalogd: %s\n", s.ToString().c_str());
    return 1;
  }
  const pid_t catalogd = cluster.process(external::ExternalCluster::kCatalogd)->pid();
  if (FLAGS_pause_before_refresh_s > 0) {
    Note(kBench, "catalogd pid " + std::to_string(catalogd) + "; REFRESH in " +
                     std::to_string(FLAGS_pause_before_refresh_s) + " s");
    std::this_thread::sleep_for(std::chrono::seconds(FLAGS_pause_before_refresh_s));
  }

  const int64_t rss0 = ProcessRssBytes(catalogd);
  bool ok = true;
  CpuRecord first_cpu{catalogd, {}};
  const double secs = RefreshAll(&cluster, names, &ok, &first_cpu);
  const int64_t rss1 = ProcessRssBytes(catalogd);
  const int64_t state1 = StateBytes(cluster.catalogd_named_port("webserver"), names);
  const double secs2 = RefreshAll(&cluster, names, &ok);
  const int64_t rss2 = ProcessRssBytes(catalogd);
  if (!ok) return 1;
  Figure(kBench, "rss_before_refresh_mb", rss0 / 1048576.0, "MiB");
  Figure(kBench, "rss_after_refresh_mb", rss1 / 1048576.0, "MiB");
  Figure(kBench, "rss_after_second_refresh_mb", rss2 / 1048576.0, "MiB");
  Figure(kBench, "rss_bytes_per_partition", static_cast<double>(rss1 - rss0) / P, "B",
         "catalogd VmRSS growth over the first REFRESH of every table / partitions");
  if (state1 >= 0) {
    Figure(kBench, "state_bytes_per_partition", static_cast<double>(state1) / P, "B",
           "catalogd's estimate of its table states after the first REFRESH / partitions");
  }
  Figure(kBench, "refresh_seconds", secs, "s");
  Figure(kBench, "refresh_partitions_per_s", P / secs, "partitions/s", "first REFRESH (a load)");
  Figure(kBench, "refresh_catalogd_cpu_us_per_partition", first_cpu.seconds[0] * 1e6 / P, "us",
         "catalogd user+system CPU over the first REFRESH / partitions");
  Figure(kBench, "second_refresh_partitions_per_s", P / secs2, "partitions/s",
         "REFRESH of unchanged tables");

  // ADD PARTITION on the small and the big table, alternating.
  Latencies small_lat, big_lat;
  if (!Ok(cluster.Exec(0, std::string("REFRESH ") + kDb + ".small0"), "REFRESH small0")) return 1;
  for (int r = 0; r < FLAGS_ddl_rounds; ++r) {
    for (int which = 0; which < 2; ++which) {
      const std::string table = which == 0 ? "small0" : names[0];
      const std::string sql = std::string("ALTER TABLE ") + kDb + "." + table +
                              " ADD PARTITION (year=1900, day=" + std::to_string(r) + ")";
      auto t0 = Clock::now();
      if (!Ok(cluster.Exec(0, sql), sql)) return 1;
      (which == 0 ? small_lat : big_lat).Add(t0);
    }
  }
  std::string in_order;
  for (double us : big_lat.us) in_order += (in_order.empty() ? "" : " ") + std::to_string(us / 1e3);
  Note(kBench, "ADD PARTITION on the big table, ms in statement order: " + in_order);
  const std::string big_tag = "t" + std::to_string(PartitionsOfTable(spec, 0));
  const std::string small_tag = "t" + std::to_string(FLAGS_small_table_partitions);
  Figure(kBench, "add_partition_ms_p50_" + small_tag, small_lat.Percentile(0.5) / 1e3, "ms");
  Figure(kBench, "add_partition_ms_p99_" + small_tag, small_lat.Percentile(0.99) / 1e3, "ms");
  Figure(kBench, "add_partition_ms_p50_" + big_tag, big_lat.Percentile(0.5) / 1e3, "ms");
  Figure(kBench, "add_partition_ms_p99_" + big_tag, big_lat.Percentile(0.99) / 1e3, "ms");
  Figure(kBench, "add_partition_p50_ratio",
         big_lat.Percentile(0.5) / std::max(1.0, small_lat.Percentile(0.5)), "",
         big_tag + " table / " + small_tag + " table, median latency through the coordinator");

  // The same statements sent straight to catalogd: its own cost.
  Latencies small_direct, big_direct;
  CatalogClient direct("127.0.0.1", cluster.catalogd_port());
  for (int r = 0; r < FLAGS_ddl_rounds; ++r) {
    for (int which = 0; which < 2; ++which) {
      auto t0 = Clock::now();
      s = DirectAddPartition(&direct, which == 0 ? "small0" : names[0], 1901, r);
      if (!s.ok()) {
        std::fprintf(stderr, "catalogd ADD PARTITION: %s\n", s.ToString().c_str());
        return 1;
      }
      (which == 0 ? small_direct : big_direct).Add(t0);
    }
  }
  Figure(kBench, "catalogd_add_partition_ms_p50_" + small_tag, small_direct.Percentile(0.5) / 1e3,
         "ms");
  Figure(kBench, "catalogd_add_partition_ms_p50_" + big_tag, big_direct.Percentile(0.5) / 1e3,
         "ms");
  Figure(kBench, "catalogd_add_partition_ms_p99_" + big_tag, big_direct.Percentile(0.99) / 1e3,
         "ms");
  Figure(kBench, "catalogd_add_partition_p50_ratio",
         big_direct.Percentile(0.5) / std::max(1.0, small_direct.Percentile(0.5)), "",
         big_tag + " table / " + small_tag + " table, ExecDdl straight to catalogd");
  // Single REFRESHes vary by 20% on a busy 2-core machine: the medians. Last,
  // so the reloads do not disturb the DDL phase.
  const int rounds = FLAGS_refresh_rounds;
  const double unchanged_s =
      MedianSeconds(rounds, [&] { return RefreshAll(&cluster, names, &ok); });
  // catalogd's CPU during each timed load as well: it moves far less than
  // the wall time with whatever else shares the two cores.
  CpuRecord load_cpu{catalogd, {}};
  const double load_s =
      MedianSeconds(rounds, [&] { return ReloadAll(&cluster, names, &ok, &load_cpu); });
  if (!ok) return 1;
  Figure(kBench, "unchanged_refresh_partitions_per_s_median", P / unchanged_s, "partitions/s",
         "REFRESH of unchanged tables, median of " + std::to_string(rounds));
  Figure(kBench, "load_refresh_partitions_per_s_median", P / load_s, "partitions/s",
         "INVALIDATE METADATA then REFRESH (a load), median of " + std::to_string(rounds));
  Figure(kBench, "load_refresh_catalogd_cpu_us_per_partition",
         Median(load_cpu.seconds) * 1e6 / P, "us",
         "catalogd user+system CPU over such a REFRESH / partitions, median of " +
             std::to_string(rounds));
  return 0;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  google::InitGoogleLogging(argv[0]);
  return ics::perf::Run();
}
