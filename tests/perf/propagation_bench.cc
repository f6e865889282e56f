// propagation_bench: how long a DDL issued on one coordinator takes to be
// applied by all N coordinators, and the latency of a SYNC_DDL statement.
//
// Per size N, from scratch: statestored and catalogd run as separate
// processes (the built binaries, loopback, free ports, a temp data dir;
// catalogd's SQLite metastore there commits every DDL durably; the
// warehouse, where each ADD PARTITION makes its directory, is on tmpfs as in
// real_path_bench: --warehouse_parent), and N coordinators
// (coordinator-sim's Coordinator class, on-demand local catalogs unless
// --use_local_catalog=false) run in this process, so the bench can watch
// each one's local catalog. Coordinator 0 creates a partitioned table; then
// each round issues ALTER TABLE ADD PARTITION through coordinator 0
// (Coordinator::ExecDdl, what its SQL executor calls) and the clock runs
// until every coordinator's local catalog has the DDL's catalog version:
// each coordinator's time is taken on its statestore callback thread right
// after the topic update that brought the version was applied
// (CoordinatorOptions::on_topic_catalog_version), as the baselines take
// theirs on the receiving thread; coordinator 0 applies its own result
// directly, so its time is the DDL's return at the latest. Output lines come from
// tests/bench/fanout_stats.h ("propagation n<N>_all_received_p99: ... ms")
// so they compare one to one with redis_fanout_bench.
//
// Then --sync_rounds SYNC_DDL statements (ADD PARTITION with sync_ddl):
// latency until the statement returns, and a check that every coordinator
// had the DDL's version when it returned (sync_ddl_violations; must be 0).
//
// Also printed per size: the topic bytes one DDL put on the wire to a
// coordinator (payload_bytes, keys + values of the delta, seen by one extra
// observing subscriber; feed it to redis_fanout_bench --payload_bytes), the
// DDL RPC latency itself, and statestored's CPU and RSS during the rounds.
//
// TLS (--tls, on by default): each size is measured twice in the same run,
// first plaintext, then with mutual TLS on every port (statestored,
// catalogd, every coordinator and the observer present certificates made
// by scripts/make_certs.sh); the TLS figures are printed under
// "propagation_tls" and their ratios to plaintext as
// "propagation_tls n<N>_all_received_p50_ratio" (and p99, sync_ddl_p50).
//
// Prints one line per figure. Not a test.
//   propagation_bench [--sizes=10,100,500] [--rounds=30] [--sync_rounds=10] [--tls]
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <thrift/TOutput.h>

#include "CatalogService.h"
#include "common/rpc/tls.h"
#include "common/types/column_type.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "coordinator-sim/coordinator.h"
#include "statestore/subscriber.h"
#include "tests/bench/fanout_stats.h"
#include "tests/perf/child_process.h"
#include "tests/perf/perf_util.h"

DEFINE_string(sizes, "10,100,500", "Coordinator counts.");
DEFINE_int32(rounds, 30, "Measured DDL rounds per size.");
DEFINE_int32(warmup_rounds, 3, "DDL rounds run first and not counted.");
DEFINE_int32(sync_rounds, 10, "SYNC_DDL statements per size (0 skips them).");
DEFINE_bool(use_local_catalog, true, "On-demand coordinators (false: full replicas).");
DEFINE_string(catalog_topic_mode, "minimal", "catalogd --catalog_topic_mode.");
DEFINE_string(statestored, "", "statestored binary (default: next to this binary).");
DEFINE_string(catalogd, "", "catalogd binary (default: next to this binary).");
DEFINE_string(catalogd_extra_flags, "",
              "Space-separated flags added to catalogd's (e.g. --catalog_topic_push=false), as "
              "real_path_bench's.");
DEFINE_string(rounds_csv, "",
              "Also write every measured round of the plaintext run to this file: "
              "coordinators, round, DDL RPC ms, all-applied ms (to see what slow rounds share).");
DEFINE_int32(timeout_ms, 30000, "Give up on a round (or start-up) after this long.");
DEFINE_bool(tls, true, "Also measure every size with mutual TLS on every port.");
DEFINE_string(warehouse_parent, "/dev/shm",
              "Directory under which catalogd's warehouse is made (tmpfs by default, as for "
              "real_path_bench; the metastore stays in the temp dir, on disk). A partition "
              "directory on an aged ext4 costs catalogd an inode search per ADD PARTITION.");

namespace ics::perf {
namespace {

constexpr const char* kPlainBench = "propagation";
constexpr const char* kTlsBench = "propagation_tls";

// Transport of one measured cluster: plaintext (certs empty) or mutual TLS.
struct Transport {
  std::string certs;                     // scripts/make_certs.sh output
  std::shared_ptr<const TlsContext> tls;  // coordinators' and the observer's
  const char* bench = kPlainBench;        // figure prefix

  // --ssl_* flags for a daemon (catalogd presents CN=catalogd, the identity
  // the statestore lets write catalog-update).
  std::vector<std::string> Flags(const std::string& role) const {
    if (certs.empty()) return {};
    const std::string cert = role == "catalogd" ? "catalogd" : "server";
    std::vector<std::string> f = {"--ssl_server_certificate=" + certs + "/" + cert + ".pem",
                                  "--ssl_private_key=" + certs + "/" + cert + ".key",
                                  "--ssl_client_ca_certificate=" + certs + "/ca.pem",
                                  "--ssl_require_client_certificate"};
    if (role == "statestored") f.push_back("--statestore_catalogd_identity=CN=catalogd");
    return f;
  }
};

// What the TLS row compares.
struct SizeFigures {
  double all_p50 = 0, all_p99 = 0, sync_p50 = 0;
};
constexpr const char* kDb = "prop";
constexpr const char* kTable = "t";

using coord::Coordinator;
using coord::CoordinatorOptions;

std::string SiblingBinary(const char* argv0, const std::string& name) {
  std::string self = argv0;
  const size_t slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/" + name;
}

impala::TDdlExecRequest CreateDb() {
  impala::TDdlExecRequest r;
  r.ddl_type = impala::TDdlType::CREATE_DATABASE;
  r.__isset.create_db_params = true;
  r.create_db_params.db = kDb;
  r.create_db_params.owner = "bench";
  return r;
}

impala::TColumn Col(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = ParseHiveType(type).value();
  return c;
}

// prop.t (id int, name string) PARTITIONED BY (k int) STORED AS PARQUET.
impala::TDdlExecRequest CreateTable() {
  impala::TDdlExecRequest r;
  r.ddl_type = impala::TDdlType::CREATE_TABLE;
  r.__isset.create_table_params = true;
  auto& p = r.create_table_params;
  p.table_name.db_name = kDb;
  p.table_name.table_name = kTable;
  p.columns = {Col("id", "int"), Col("name", "string")};
  p.__set_partition_columns({Col("k", "int")});
  p.file_format = impala::THdfsFileFormat::PARQUET;
  p.owner = "bench";
  return r;
}

// ALTER TABLE prop.t ADD PARTITION (k=<k>).
impala::TDdlExecRequest AddPartition(int k) {
  impala::TDdlExecRequest r;
  r.ddl_type = impala::TDdlType::ALTER_TABLE;
  r.__isset.alter_table_params = true;
  r.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
  r.alter_table_params.table_name.db_name = kDb;
  r.alter_table_params.table_name.table_name = kTable;
  r.alter_table_params.__isset.add_partition_params = true;
  impala::TPartitionDef def;
  impala::TPartitionKeyValue kv;
  kv.name = "k";
  kv.value = std::to_string(k);
  def.partition_spec = {kv};
  r.alter_table_params.add_partition_params.partitions = {def};
  return r;
}

// Records the bytes of every non-empty catalog-topic delta it receives.
class TopicObserver {
 public:
  Status Start(int statestore_port, const std::string& prefix, const Transport& transport) {
    statestore::StatestoreSubscriberOptions o;
    o.security.tls = transport.tls;
    o.subscriber_id = "propagation-bench-observer";
    o.statestore_port = statestore_port;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.advertised_host = "127.0.0.1";
    sub_ = std::make_unique<statestore::StatestoreSubscriber>(o);
    statestore::TopicSubscription t;
    t.topic = "catalog-update";
    t.is_transient = true;
    t.filter_prefix = prefix;
    t.callback = [this](const impala::TTopicDelta& d, std::vector<impala::TTopicDelta>*) {
      if (d.topic_entries.empty() || !d.is_delta) return;
      int64_t bytes = 0;
      for (const auto& e : d.topic_entries) {
        bytes += static_cast<int64_t>(e.key.size() + e.value.size());
      }
      MutexLock l(&mu_);
      bytes_.push_back(static_cast<double>(bytes));
    };
    ICS_RETURN_IF_ERROR(sub_->AddTopic(std::move(t)));
    return sub_->Start();
  }
  void Clear() EXCLUDES(mu_) {
    MutexLock l(&mu_);
    bytes_.clear();
  }
  double MedianBytes() EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return bench::FanoutPercentile(bytes_, 0.5);
  }
  void Stop() {
    if (sub_) sub_->Stop();
  }

 private:
  std::unique_ptr<statestore::StatestoreSubscriber> sub_;
  Mutex mu_;
  std::vector<double> bytes_ GUARDED_BY(mu_);
};

// The rounds' target catalog versions (announced before each DDL is sent)
// and, per coordinator, the first round it has not reached yet; turns the
// versions coordinators report into FanoutRecorder arrivals.
class Rounds {
 public:
  Rounds(int total, int coordinators, bench::FanoutRecorder* rec)
      : target_(static_cast<size_t>(total), 0),
        next_(static_cast<size_t>(coordinators), 0),
        rec_(rec) {}
  void Announce(int round, int64_t target) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    target_[static_cast<size_t>(round)] = target;
  }
  // Coordinator `i` has catalog version `v` now: every announced round it
  // reached is seen.
  void Reached(int i, int64_t v) EXCLUDES(mu_) {
    const auto now = bench::FanoutClock::now();
    MutexLock l(&mu_);
    size_t& r = next_[static_cast<size_t>(i)];
    while (r < target_.size() && target_[r] != 0 && target_[r] <= v) {
      rec_->Seen(static_cast<int>(r), i, now);
      ++r;
    }
  }

 private:
  Mutex mu_;
  std::vector<int64_t> target_ GUARDED_BY(mu_);
  std::vector<size_t> next_ GUARDED_BY(mu_);
  bench::FanoutRecorder* const rec_;
};

struct Cluster {
  TempDir dir{"ics_propagation_bench"};
  TempDir warehouse{"ics_propagation_warehouse", FLAGS_warehouse_parent};
  ChildProcess statestored;
  ChildProcess catalogd;
  int statestore_port = 0;
  int catalogd_port = 0;
  TopicObserver observer;
  std::vector<std::unique_ptr<Coordinator>> coords;

  ~Cluster() { Stop(); }
  void Stop() {
    for (auto& c : coords) c->Stop();
    coords.clear();
    observer.Stop();
    catalogd.Stop();
    statestored.Stop();
  }
};

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Status StartDaemons(const std::string& statestored, const std::string& catalogd,
                    const Transport& transport, Cluster* c) {
  if (!c->dir.ok() || !c->warehouse.ok()) return Status::Internal("cannot create a temp dir");
  const std::string d = c->dir.path();
  if (!c->statestored.Start(Concat({statestored, "--state_store_port=0", "--hostname=127.0.0.1",
                                    "--port_file=" + d + "/statestored.port",
                                    "--statestore_max_subscribers=20000"},
                                   transport.Flags("statestored")),
                            d + "/statestored.log")) {
    return Status::Internal("cannot fork statestored");
  }
  auto ss = c->statestored.WaitForPortFile(d + "/statestored.port", std::chrono::seconds(30));
  if (ss.empty()) return Status::Internal("statestored did not start; see " + d + "/statestored.log");
  c->statestore_port = std::stoi(ss[0]);
  if (!c->catalogd.Start(Concat({catalogd, "--catalog_service_port=0",
                                 "--state_store_subscriber_port=0", "--listen_host=127.0.0.1",
                                 "--hostname=127.0.0.1",
                                 "--state_store_port=" + std::to_string(c->statestore_port),
                                 "--data_dir=" + d + "/catalogd",
                                 "--warehouse_dir=" + c->warehouse.File("warehouse"),
                                 "--catalog_topic_mode=" + FLAGS_catalog_topic_mode,
                                 "--port_file=" + d + "/catalogd.port"},
                                Concat(transport.Flags("catalogd"),
                                       SplitFlags(FLAGS_catalogd_extra_flags))),
                         d + "/catalogd.log")) {
    return Status::Internal("cannot fork catalogd");
  }
  auto cd = c->catalogd.WaitForPortFile(d + "/catalogd.port", std::chrono::seconds(60));
  if (cd.empty()) return Status::Internal("catalogd did not start; see " + d + "/catalogd.log");
  c->catalogd_port = std::stoi(cd[0]);
  return Status::OK();
}

Status StartCoordinators(int n, const Transport& transport, Rounds* rounds, Cluster* c) {
  for (int i = 0; i < n; ++i) {
    CoordinatorOptions o;
    o.on_topic_catalog_version = [rounds, i](int64_t v) { rounds->Reached(i, v); };
    o.security.tls = transport.tls;
    o.id = "prop-" + std::to_string(n) + "-" + std::to_string(i);
    o.port = 0;
    o.subscriber_port = 0;
    o.statestore_port = c->statestore_port;
    o.catalogd_port = c->catalogd_port;
    o.use_local_catalog = FLAGS_use_local_catalog;
    o.sync_ddl_timeout_ms = FLAGS_timeout_ms;
    auto coord = std::make_unique<Coordinator>(o);
    ICS_RETURN_IF_ERROR(coord->Start());
    c->coords.push_back(std::move(coord));
  }
  return Status::OK();
}

// Waits until every coordinator's local catalog reached version `v`.
Status WaitAllAt(Cluster* c, int64_t v) {
  for (auto& coord : c->coords) {
    ICS_RETURN_IF_ERROR(coord->catalog()->WaitForCatalogVersion(v, FLAGS_timeout_ms));
  }
  return Status::OK();
}

// One line per measured round whose DDL succeeded and reached everyone
// (the two lists line up only then; a mismatch writes nothing and says so).
void WriteRoundsCsv(const std::string& path, int n, const Latencies& ddl_rpc,
                    bench::FanoutRecorder& rec) {
  const std::vector<double> all = rec.AllReceivedMs(FLAGS_warmup_rounds);
  if (all.size() != ddl_rpc.us.size()) {
    std::fprintf(stderr, "--rounds_csv: %zu complete rounds but %zu DDL times; not written\n",
                 all.size(), ddl_rpc.us.size());
    return;
  }
  static bool started = false;  // the first size starts the file, later sizes append
  FILE* f = std::fopen(path.c_str(), started ? "a" : "w");
  if (f == nullptr) {
    std::fprintf(stderr, "--rounds_csv: cannot open %s\n", path.c_str());
    return;
  }
  if (!started) std::fprintf(f, "coordinators,round,ddl_rpc_ms,all_applied_ms\n");
  started = true;
  for (size_t i = 0; i < all.size(); ++i) {
    std::fprintf(f, "%d,%zu,%.3f,%.3f\n", n, i, ddl_rpc.us[i] / 1e3, all[i]);
  }
  std::fclose(f);
}

bool MeasureSize(int n, const std::string& statestored, const std::string& catalogd,
                 const Transport& transport, SizeFigures* figures) {
  const char* bench = transport.bench;
  // Before the cluster, whose coordinators report to them until stopped.
  const int total = FLAGS_warmup_rounds + FLAGS_rounds;
  bench::FanoutRecorder rec(total, n);
  Rounds rounds(total, n, &rec);
  Cluster c;
  auto fail = [&](const std::string& what, const Status& s) {
    std::fprintf(stderr, "n=%d: %s: %s\n", n, what.c_str(), s.ToString().c_str());
    return false;
  };
  Status s = StartDaemons(statestored, catalogd, transport, &c);
  if (!s.ok()) return fail("daemons", s);
  const auto t_start = Clock::now();
  s = StartCoordinators(n, transport, &rounds, &c);
  if (!s.ok()) return fail("coordinators", s);
  s = c.observer.Start(c.statestore_port, FLAGS_use_local_catalog ? "2:" : "1:", transport);
  if (!s.ok()) return fail("observer", s);
  Coordinator* c0 = c.coords[0].get();

  // Setup: database and table; every coordinator must see them.
  for (const auto& req : {CreateDb(), CreateTable()}) {
    auto r = c0->ExecDdl(req, /*sync_ddl=*/false);
    if (!r.ok()) return fail("setup DDL", r.status());
    s = WaitAllAt(&c, r->result.version);
    if (!s.ok()) return fail("setup propagation", s);
  }
  Figure(bench, "n" + std::to_string(n) + "_startup", SecondsSince(t_start), "s",
         "coordinators started and caught up");


  Latencies ddl_rpc;
  int unexpected_versions = 0;
  int errors = 0;
  const double cpu0 = ChildCpuSeconds(c.statestored.pid());
  const auto rounds_t0 = Clock::now();
  for (int r = 0; r < total; ++r) {
    if (r == FLAGS_warmup_rounds) c.observer.Clear();
    const int64_t before = c0->catalog()->catalog_version();
    rounds.Announce(r, before + 1);
    rec.Begin(r);
    const auto t0 = Clock::now();
    auto res = c0->ExecDdl(AddPartition(r), /*sync_ddl=*/false);
    if (r >= FLAGS_warmup_rounds) ddl_rpc.Add(t0);
    rounds.Reached(0, c0->catalog()->catalog_version());  // its own result, applied on return
    if (!res.ok()) {
      if (errors++ == 0) std::fprintf(stderr, "DDL failed: %s\n", res.status().ToString().c_str());
      continue;
    }
    // One ADD PARTITION is one catalog version; if not, a round may have
    // been taken as reached early, so it is flagged.
    if (res->result.version != before + 1) ++unexpected_versions;
    if (!rec.WaitAll(r, std::chrono::milliseconds(FLAGS_timeout_ms))) {
      std::fprintf(stderr, "n=%d round %d: %d of %d coordinators applied it\n", n, r,
                   rec.Count(r), n);
    }
  }
  const double rounds_s = SecondsSince(rounds_t0);
  const double cpu1 = ChildCpuSeconds(c.statestored.pid());

  const std::string p = "n" + std::to_string(n) + "_";
  Figure(bench, p + "payload_bytes", c.observer.MedianBytes(), "bytes",
         "median topic delta (keys + values) per DDL, one coordinator");
  rec.Report(bench, FLAGS_warmup_rounds);
  if (!FLAGS_rounds_csv.empty() && bench == kPlainBench) {
    WriteRoundsCsv(FLAGS_rounds_csv, n, ddl_rpc, rec);
  }
  const std::vector<double> all = rec.AllReceivedMs(FLAGS_warmup_rounds);
  figures->all_p50 = bench::FanoutPercentile(all, 0.5);
  figures->all_p99 = bench::FanoutPercentile(all, 0.99);
  Figure(bench, p + "ddl_rpc_p50", ddl_rpc.Percentile(0.5) / 1e3, "ms",
         "ExecDdl round trip incl. durable metastore commit");
  Figure(bench, p + "ddl_rpc_p99", ddl_rpc.Percentile(0.99) / 1e3, "ms");
  Figure(bench, p + "statestored_cpu", 100.0 * (cpu1 - cpu0) / rounds_s, "%",
         "of one core during the rounds");
  Figure(bench, p + "statestored_rss", static_cast<double>(ProcessRssBytes(c.statestored.pid())),
         "bytes");
  if (unexpected_versions > 0) Figure(bench, p + "unexpected_versions", unexpected_versions);
  if (errors > 0) Figure(bench, p + "ddl_errors", errors);

  // SYNC_DDL: latency, and every coordinator must have the version on return.
  Latencies sync;
  int violations = 0;
  for (int r = 0; r < FLAGS_sync_rounds; ++r) {
    const auto t0 = Clock::now();
    auto res = c0->ExecDdl(AddPartition(total + r), /*sync_ddl=*/true);
    sync.Add(t0);
    if (!res.ok()) {
      if (errors++ == 0) std::fprintf(stderr, "SYNC_DDL failed: %s\n", res.status().ToString().c_str());
      continue;
    }
    for (auto& coord : c.coords) {
      if (coord->catalog()->catalog_version() < res->result.version) ++violations;
    }
  }
  if (FLAGS_sync_rounds > 0) {
    figures->sync_p50 = sync.Percentile(0.5) / 1e3;
    Figure(bench, p + "sync_ddl_p50", sync.Percentile(0.5) / 1e3, "ms",
           std::to_string(sync.us.size()) + " statements");
    Figure(bench, p + "sync_ddl_p99", sync.Percentile(0.99) / 1e3, "ms");
    Figure(bench, p + "sync_ddl_max", sync.Percentile(1.0) / 1e3, "ms");
    Figure(bench, p + "sync_ddl_violations", violations, "",
           "coordinators without the version when SYNC_DDL returned");
  }
  c.Stop();
  return errors == 0 && violations == 0;
}

int Main(const char* argv0) {
  const std::string statestored =
      FLAGS_statestored.empty() ? SiblingBinary(argv0, "statestored") : FLAGS_statestored;
  const std::string catalogd =
      FLAGS_catalogd.empty() ? SiblingBinary(argv0, "catalogd") : FLAGS_catalogd;
  if (FLAGS_rounds < 1 || FLAGS_warmup_rounds < 0 || FLAGS_sync_rounds < 0) {
    std::fprintf(stderr, "--rounds must be >= 1, --warmup_rounds and --sync_rounds >= 0\n");
    return 2;
  }
  std::printf("%s # %s coordinators in this process; statestored and catalogd (topic mode %s) "
              "as processes; %d rounds (+%d warm-up), %d SYNC_DDL; load average %s; %u cpus\n",
              kPlainBench, FLAGS_use_local_catalog ? "on-demand" : "full-replica",
              FLAGS_catalog_topic_mode.c_str(), FLAGS_rounds, FLAGS_warmup_rounds,
              FLAGS_sync_rounds, LoadAverage().c_str(), std::thread::hardware_concurrency());
  std::fflush(stdout);
  Transport tls;
  tls.bench = kTlsBench;
  TempDir cert_dir{"ics_propagation_certs"};
  if (FLAGS_tls) {
    tls.certs = cert_dir.path() + "/certs";
    if (std::system((std::string(ICS_MAKE_CERTS) + " " + tls.certs + " >/dev/null").c_str()) !=
        0) {
      std::fprintf(stderr, "make_certs failed\n");
      return 1;
    }
    TlsOptions to;
    to.certificate_file = tls.certs + "/server.pem";
    to.private_key_file = tls.certs + "/server.key";
    to.ca_certificate_file = tls.certs + "/ca.pem";
    to.require_client_certificate = true;
    auto ctx = TlsContext::Create(to);
    if (!ctx.ok()) {
      std::fprintf(stderr, "tls: %s\n", ctx.status().ToString().c_str());
      return 1;
    }
    tls.tls = *ctx;
  }
  const std::optional<std::vector<int>> sizes = bench::ParseFanoutSizes(FLAGS_sizes);
  if (!sizes) return 2;
  int failures = 0;
  for (int n : *sizes) {
    SizeFigures plain_figures;
    if (!MeasureSize(n, statestored, catalogd, Transport{}, &plain_figures)) ++failures;
    if (!tls.certs.empty()) {
      SizeFigures tls_figures;
      if (!MeasureSize(n, statestored, catalogd, tls, &tls_figures)) ++failures;
      const std::string p = "n" + std::to_string(n) + "_";
      auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
      Figure(kTlsBench, p + "all_received_p50_ratio",
             ratio(tls_figures.all_p50, plain_figures.all_p50), "", "TLS / plaintext, same run");
      Figure(kTlsBench, p + "all_received_p99_ratio",
             ratio(tls_figures.all_p99, plain_figures.all_p99), "", "TLS / plaintext, same run");
      if (FLAGS_sync_rounds > 0) {
        Figure(kTlsBench, p + "sync_ddl_p50_ratio",
               ratio(tls_figures.sync_p50, plain_figures.sync_p50), "",
               "TLS / plaintext, same run");
      }
    }
  }
  Note(kPlainBench, "load average at end " + LoadAverage());
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::SetUsageMessage("DDL propagation to N coordinators and SYNC_DDL latency.");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = 2;  // errors only: stopping hundreds of coordinators is noisy
  google::InitGoogleLogging(argv[0]);
  apache::thrift::GlobalOutput.setOutputFunction([](const char*) {});
  signal(SIGPIPE, SIG_IGN);
  return ics::perf::Main(argv[0]);
}
