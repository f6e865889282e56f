// coordinator_memory_bench: resident memory of one coordinator for a large
// catalog in full-replica and on-demand mode, and the latency of resolving
// a table and planning a pruned scan.
//
// Setup in this process: a temp SQLite metastore with --tables tables and
// --partitions partitions (bulk MetastoreTxn batches), a StatestoreServer
// and a catalogd (BenchCatalogd: CatalogServer's parts with a synthetic
// file source of --files_per_partition files per directory; pass
// --use_catalog_server to run the real CatalogServer instead, whose
// synthetic source has 10 files per directory) publishing in mixed mode
// (v1 objects for full replicas, v2 invalidations for on-demand
// coordinators), every table loaded before the coordinators start.
//
// Then, for each mode, ONE coordinator in a fresh child process
// (coordinator-sim --num_coordinators=1 --use_local_catalog=true|false), so
// its RSS is its own. After it has caught up with the topic (the
// statestore reports it processed the topic's current version), 1% of the
// tables are touched through its CoordinatorService: DESCRIBE t and
// EXPLAIN SELECT * FROM t WHERE year = 2000 AND day < 10 (a pruned scan).
// Its VmRSS (/proc/<pid>/status) is read after catching up and after the
// touch. Latencies (cold = first statement on a table, warm = repeated)
// are then sampled on --latency_tables further tables.
//
// Prints one line per figure. Not a test.
//   coordinator_memory_bench [--tables=1000] [--partitions=100000]
//       [--files_per_partition=1] [--coordinator_sim=build/bin/coordinator-sim]
#include <fcntl.h>
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <thrift/TOutput.h>

#include "CoordinatorService.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "statestore/statestore_server.h"
#include "tests/perf/bench_catalogd.h"
#include "tests/perf/child_process.h"
#include "tests/perf/perf_util.h"

DEFINE_int32(tables, 1000, "Tables in the catalog.");
DEFINE_int64(partitions, 100000, "Partitions in total (spread evenly over the tables).");
DEFINE_int32(files_per_partition, 1, "Synthetic files per partition directory.");
DEFINE_int32(columns, 10, "Data columns per table.");
DEFINE_bool(use_catalog_server, false,
            "Run the real CatalogServer (its synthetic source has 10 files per partition; "
            "--files_per_partition is then ignored) instead of BenchCatalogd.");
DEFINE_string(coordinator_sim, "",
              "Path of the coordinator-sim binary (default: next to this binary).");
DEFINE_string(modes, "full_replica,on_demand", "Coordinator modes to measure, in order.");
DEFINE_double(touch_percent, 1, "Percent of the tables touched before the RSS reading.");
DEFINE_int32(latency_tables, 50, "Further tables for the cold/warm latency figures.");
DEFINE_int32(warm_repeats, 5, "Warm repetitions of each statement.");
DEFINE_int32(local_catalog_cache_mb, 256, "On-demand cache limit of the coordinator.");
DEFINE_int32(pause_before_stop_s, 0,
             "Keep each coordinator running this long after measuring (to inspect it).");
DEFINE_int32(catch_up_timeout_s, 600, "Give up waiting for a coordinator after this long.");

namespace ics::perf {
namespace {

constexpr const char* kBench = "coordinator_memory";
using CoordClient = ThriftClient<ics::thrift::CoordinatorServiceClient>;

std::string SiblingBinary(const char* argv0, const std::string& name) {
  std::string self = argv0;
  const size_t slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/" + name;
}

// A coordinator-sim child and the CoordinatorService port it bound.
struct Child {
  std::unique_ptr<ChildProcess> proc;
  int port = 0;
  pid_t pid() const { return proc != nullptr ? proc->pid() : -1; }
};

// coordinator-sim with one coordinator; stdout/stderr to `log`.
Child SpawnCoordinator(const std::string& binary, const std::string& mode, int statestore_port,
                       int catalogd_port, const std::string& dir) {
  const std::string port_file = dir + "/" + mode + ".port";
  const std::string log = dir + "/" + mode + ".log";
  std::vector<std::string> args = {
      binary,
      "--num_coordinators=1",
      "--coordinator_port=0",
      "--state_store_subscriber_port=0",
      "--state_store_port=" + std::to_string(statestore_port),
      "--catalog_service_port=" + std::to_string(catalogd_port),
      std::string("--use_local_catalog=") + (mode == "on_demand" ? "true" : "false"),
      "--local_catalog_cache_mb=" + std::to_string(FLAGS_local_catalog_cache_mb),
      "--id_prefix=bench-" + mode,
      "--port_file=" + port_file,
  };
  Child c;
  c.proc = std::make_unique<ChildProcess>();
  if (!c.proc->Start(args, log)) return c;
  // The port file's line is "<index> <coordinator port> <subscriber port>".
  const std::vector<std::string> tokens =
      c.proc->WaitForPortFile(port_file, std::chrono::seconds(30));
  if (tokens.size() >= 2) c.port = std::atoi(tokens[1].c_str());
  if (c.port == 0) std::fprintf(stderr, "coordinator-sim did not start; see %s\n", log.c_str());
  return c;
}

void StopChild(Child* c) {
  if (c->proc != nullptr) c->proc->Stop();
}

int64_t TopicVersion(statestore::Statestore* ss) {
  for (const auto& t : ss->Topics()) {
    if (t.name == ics::kCatalogTopic) return t.last_version;
  }
  return -1;
}

// The catalog-update version the subscriber `id` has processed (-1 if unknown).
int64_t ProcessedVersion(statestore::Statestore* ss, const std::string& id) {
  for (const auto& s : ss->Subscribers()) {
    if (s.id != id) continue;
    for (const auto& t : s.topics) {
      if (t.topic == ics::kCatalogTopic) return t.last_version;
    }
  }
  return -1;
}

struct Exec {
  Status status;
  std::vector<std::string> messages;
};

Exec Run(CoordClient* c, const std::string& sql) {
  ics::thrift::TExecuteStatementRequest req;
  req.statement = sql;
  req.__set_default_db("bench");
  ics::thrift::TExecuteStatementResponse resp;
  Exec r;
  r.status = c->Call("ExecuteStatement",
                     [&](ics::thrift::CoordinatorServiceClient& cl) { cl.ExecuteStatement(resp, req); });
  if (r.status.ok() && resp.status.status_code != impala::TErrorCode::OK) {
    std::string msg;
    for (const auto& m : resp.status.error_msgs) msg += m;
    r.status = Status::Internal(sql + ": " + msg);
  }
  r.messages = resp.messages;
  return r;
}

std::string Describe(const std::string& t) { return "DESCRIBE bench." + t; }
std::string Explain(const std::string& t) {
  return "EXPLAIN SELECT * FROM bench." + t + " WHERE year = 2000 AND day < 10";
}

struct ModeResult {
  bool ok = false;
  int64_t rss_caught_up = 0;
  int64_t rss_touched = 0;
};

struct StatementLatencies {
  Latencies cold_describe, cold_explain, warm_describe, warm_explain;
};

// Cold then warm DESCRIBE + EXPLAIN on `tables`; false on any error.
bool Touch(CoordClient* c, const std::vector<std::string>& tables, StatementLatencies* lat,
           int* errors) {
  for (const std::string& t : tables) {
    auto t0 = Clock::now();
    Exec d = Run(c, Describe(t));
    lat->cold_describe.Add(t0);
    t0 = Clock::now();
    Exec e = Run(c, Explain(t));
    lat->cold_explain.Add(t0);
    if (!d.status.ok() || !e.status.ok()) {
      if ((*errors)++ == 0) {
        std::fprintf(stderr, "%s\n", (d.status.ok() ? e.status : d.status).ToString().c_str());
      }
    }
  }
  for (int r = 0; r < FLAGS_warm_repeats; ++r) {
    for (const std::string& t : tables) {
      auto t0 = Clock::now();
      Exec d = Run(c, Describe(t));
      lat->warm_describe.Add(t0);
      t0 = Clock::now();
      Exec e = Run(c, Explain(t));
      lat->warm_explain.Add(t0);
      if (!d.status.ok() || !e.status.ok()) ++*errors;
    }
  }
  return *errors == 0;
}

void ReportLatency(const std::string& mode, const char* what, const Latencies& l) {
  Figure(kBench, mode + "_" + what + "_p50", l.Percentile(0.5) / 1e3, "ms",
         std::to_string(l.us.size()) + " samples");
  Figure(kBench, mode + "_" + what + "_p99", l.Percentile(0.99) / 1e3, "ms");
}

ModeResult MeasureMode(const std::string& binary, const std::string& mode,
                       statestore::StatestoreServer* ss, int catalogd_port,
                       const std::string& dir) {
  ModeResult r;
  const auto t0 = Clock::now();
  Child child = SpawnCoordinator(binary, mode, ss->port(), catalogd_port, dir);
  if (child.pid() <= 0 || child.port == 0) {
    std::fprintf(stderr, "%s: coordinator-sim did not start (binary %s)\n", mode.c_str(),
                 binary.c_str());
    StopChild(&child);
    return r;
  }
  const std::string id = "bench-" + mode + "-0";
  const auto deadline = Clock::now() + std::chrono::seconds(FLAGS_catch_up_timeout_s);
  bool caught_up = false;
  while (Clock::now() < deadline) {
    const int64_t topic = TopicVersion(ss->statestore());
    if (topic > 0 && ProcessedVersion(ss->statestore(), id) >= topic) {
      caught_up = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!caught_up) {
    std::fprintf(stderr, "%s: coordinator did not catch up with the topic\n", mode.c_str());
    StopChild(&child);
    return r;
  }
  Figure(kBench, mode + "_catch_up_time", SecondsSince(t0), "s",
         "process start to topic processed");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  r.rss_caught_up = ProcessRssBytes(child.pid());
  Figure(kBench, mode + "_rss_after_catch_up", static_cast<double>(r.rss_caught_up), "bytes");
  Figure(kBench, mode + "_peak_rss_during_catch_up",
         static_cast<double>(ProcessPeakRssBytes(child.pid())), "bytes", "VmHWM");

  ThriftClientOptions co;
  co.recv_timeout_ms = 300000;
  co.send_timeout_ms = 300000;
  CoordClient client("127.0.0.1", child.port, co);
  // 1% of the tables, spread over the catalog.
  const int step = std::max(1, static_cast<int>(100.0 / FLAGS_touch_percent));
  std::vector<std::string> touched;
  for (int i = 0; i < FLAGS_tables; i += step) touched.push_back("t" + std::to_string(i));
  StatementLatencies lat;
  int errors = 0;
  const bool touch_ok = Touch(&client, touched, &lat, &errors);
  {
    Exec e = Run(&client, Explain(touched[0]));
    std::string plan;
    for (const auto& m : e.messages) plan += (plan.empty() ? "" : " | ") + m;
    Note(kBench, mode + " plan of " + touched[0] + ": " + plan);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  r.rss_touched = ProcessRssBytes(child.pid());
  Figure(kBench, mode + "_rss_after_touch", static_cast<double>(r.rss_touched), "bytes",
         std::to_string(touched.size()) + " tables touched (DESCRIBE + pruned EXPLAIN)");

  // Latency sample on further tables (not the touched ones).
  std::vector<std::string> more;
  const int lstep = std::max(1, FLAGS_tables / std::max(1, FLAGS_latency_tables));
  for (int i = 1; i < FLAGS_tables && static_cast<int>(more.size()) < FLAGS_latency_tables;
       i += lstep) {
    if (i % step != 0) more.push_back("t" + std::to_string(i));
  }
  Touch(&client, more, &lat, &errors);
  ReportLatency(mode, "cold_describe", lat.cold_describe);
  ReportLatency(mode, "cold_explain", lat.cold_explain);
  ReportLatency(mode, "warm_describe", lat.warm_describe);
  ReportLatency(mode, "warm_explain", lat.warm_explain);
  if (errors > 0) Figure(kBench, mode + "_statement_errors", errors);
  if (FLAGS_pause_before_stop_s > 0) {
    Note(kBench, mode + " coordinator pid " + std::to_string(child.pid()) + " kept for " +
                     std::to_string(FLAGS_pause_before_stop_s) + " s");
    std::this_thread::sleep_for(std::chrono::seconds(FLAGS_pause_before_stop_s));
  }
  StopChild(&child);
  r.ok = touch_ok && errors == 0;
  return r;
}

int Main(const char* argv0) {
  TempDir dir("ics_coord_mem_bench");
  if (!dir.ok()) return 1;
  const std::string binary =
      FLAGS_coordinator_sim.empty() ? SiblingBinary(argv0, "coordinator-sim") : FLAGS_coordinator_sim;
  const int files = FLAGS_use_catalog_server ? 10 : FLAGS_files_per_partition;
  std::printf("%s # %d tables, %lld partitions, %d file(s) per partition, catalogd = %s, topic "
              "mode mixed; load average %s; %u cpus\n",
              kBench, FLAGS_tables, static_cast<long long>(FLAGS_partitions), files,
              FLAGS_use_catalog_server ? "CatalogServer" : "BenchCatalogd", LoadAverage().c_str(),
              std::thread::hardware_concurrency());
  const std::string data_dir = dir.path() + "/catalogd";
  std::filesystem::create_directories(data_dir);
  {
    auto ms = catalog::OpenSqliteMetastore(data_dir + "/metastore.db");
    if (!ms.ok()) {
      std::fprintf(stderr, "metastore: %s\n", ms.status().ToString().c_str());
      return 1;
    }
    SyntheticCatalogSpec spec;
    spec.tables = FLAGS_tables;
    spec.partitions = FLAGS_partitions;
    spec.columns = FLAGS_columns;
    spec.warehouse = "/warehouse";  // synthetic files: never touched; fixed => same sizes every run
    const auto t0 = Clock::now();
    Status s = PopulateMetastore(ms->get(), spec);
    if (!s.ok()) {
      std::fprintf(stderr, "populate: %s\n", s.ToString().c_str());
      return 1;
    }
    Figure(kBench, "metastore_write_time", SecondsSince(t0), "s");
  }

  statestore::StatestoreServerOptions so;
  so.bind_host = "127.0.0.1";
  so.port = 0;
  so.statestore.update_frequency_ms = 500;
  statestore::StatestoreServer ss(so);
  Status s = ss.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "statestore: %s\n", s.ToString().c_str());
    return 1;
  }

  // catalogd, every table loaded.
  std::unique_ptr<BenchCatalogd> bench_cat;
  std::unique_ptr<catalog::CatalogServer> server;
  catalog::Catalog* cat = nullptr;
  catalog::CatalogTopicPublisher* pub = nullptr;
  int catalogd_port = 0;
  const auto load_start = Clock::now();
  if (FLAGS_use_catalog_server) {
    catalog::CatalogServerOptions co;
    co.bind_host = "127.0.0.1";
    co.port = 0;
    co.subscriber_port = 0;
    co.data_dir = data_dir;
    co.synthetic_files = true;
    co.statestore_port = ss.port();
    co.publisher.mode = catalog::TopicMode::kMixed;
    co.load_in_background = true;
    server = std::make_unique<catalog::CatalogServer>(co);
    s = server->Start();
    cat = server->catalog();
    pub = server->publisher();
    catalogd_port = server->port();
  } else {
    BenchCatalogdOptions bo;
    bo.metastore_path = data_dir + "/metastore.db";
    bo.files.files_per_dir = FLAGS_files_per_partition;
    bo.statestore_port = ss.port();
    bo.publisher.mode = catalog::TopicMode::kMixed;
    bench_cat = std::make_unique<BenchCatalogd>(bo);
    s = bench_cat->Start();
    if (s.ok()) {
      bench_cat->loads()->Prioritize(bench_cat->tables());
      cat = bench_cat->catalog();
      pub = bench_cat->publisher();
      catalogd_port = bench_cat->port();
    }
  }
  if (!s.ok()) {
    std::fprintf(stderr, "catalogd: %s\n", s.ToString().c_str());
    return 1;
  }
  while (true) {
    int loaded = 0, total = 0;
    for (const auto& t : cat->TablesOf("bench")) {
      ++total;
      if (t->loaded) ++loaded;
    }
    if (total > 0 && loaded == total) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Figure(kBench, "catalogd_load_time", SecondsSince(load_start), "s");
  // Wait until the statestore holds everything catalogd has.
  while (pub->last_published_version() < cat->version()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // "Published" means handed over in an UpdateState reply; the statestore
  // applies it once the reply arrives. Wait until the topic stops moving.
  {
    int64_t last = TopicVersion(ss.statestore());
    auto stable_since = Clock::now();
    while (SecondsSince(stable_since) < 2.0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const int64_t v = TopicVersion(ss.statestore());
      if (v != last) {
        last = v;
        stable_since = Clock::now();
      }
    }
  }
  for (const auto& t : ss.statestore()->Topics()) {
    if (t.name != ics::kCatalogTopic) continue;
    Figure(kBench, "topic_entries", static_cast<double>(t.num_entries));
    Figure(kBench, "topic_bytes", static_cast<double>(t.key_bytes + t.value_bytes), "bytes",
           "mixed mode, LZ4");
  }

  std::vector<std::pair<std::string, ModeResult>> results;
  std::stringstream modes(FLAGS_modes);
  std::string mode;
  int failures = 0;
  while (std::getline(modes, mode, ',')) {
    ModeResult r = MeasureMode(binary, mode, &ss, catalogd_port, dir.path());
    if (!r.ok) ++failures;
    results.emplace_back(mode, r);
  }
  const ModeResult* full = nullptr;
  const ModeResult* od = nullptr;
  for (const auto& [m, r] : results) {
    if (m == "full_replica" && r.rss_touched > 0) full = &r;
    if (m == "on_demand" && r.rss_touched > 0) od = &r;
  }
  if (full != nullptr && od != nullptr) {
    Figure(kBench, "rss_ratio_on_demand_vs_full_replica",
           static_cast<double>(od->rss_touched) / static_cast<double>(full->rss_touched), "",
           "after touching; target <= 0.10");
  }
  Note(kBench, "load average at end " + LoadAverage());
  if (bench_cat) bench_cat->Stop();
  if (server) server->Stop();
  ss.Stop();
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::SetUsageMessage("Coordinator RSS in full-replica vs on-demand mode.");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  FLAGS_logtostderr = true;
  // Errors only: the statestore warns (and Thrift prints) when it cannot
  // reach a coordinator process this bench has just stopped.
  FLAGS_minloglevel = 2;
  google::InitGoogleLogging(argv[0]);
  apache::thrift::GlobalOutput.setOutputFunction([](const char*) {});
  signal(SIGPIPE, SIG_IGN);
  return ics::perf::Main(argv[0]);
}
