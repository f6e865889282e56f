// partial_fetch_rpc_bench: GetPartialCatalogObject over Thrift against a
// real CatalogServer, next to a bare Thrift server that returns the same
// bytes.
//
// Setup: a temp SQLite metastore holding one table with --partitions
// partitions; a CatalogServer on 127.0.0.1 port 0 with synthetic files (the
// CatalogServer's SyntheticFileSystem: 10 files per partition) and no
// statestore. The table is loaded by a first fetch of all partition names.
//
// Each request asks for --ids random partitions with files (names,
// metadata, file descriptors), as a coordinator planning a scan does.
// Client threads each own a ThriftClient<impala::CatalogServiceClient>
// (one connection each) and call in a closed loop.
//
// Baseline in the same run: a ThriftServer (common/rpc/thrift_server.h)
// whose CatalogService handler returns one pre-built response (captured once
// from the real catalogd) for every call, driven the same way. The ratio
// catalogd/bare requests per second is the figure (target >= 0.9). The two
// servers are measured alternately (--rounds) to spread machine noise.
//
// TLS row (--tls, on by default): catalogd's own handler, over the same
// loaded catalog, behind a ThriftServer that speaks TLS (certificates from
// scripts/make_certs.sh in a temp dir), driven by TLS clients; reported as
// catalogd_tls and as the ratio to plaintext catalogd in the same run.
//
// Prints one line per figure. Not a test.
//   partial_fetch_rpc_bench [--partitions=10000] [--ids=100] [--clients=1,8,32]
//                           [--seconds=3] [--rounds=2]
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>

#include "CatalogService.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/service/catalog_server.h"
#include "catalogd/service/catalog_service_handler.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/rpc/tls.h"
#include "tests/perf/perf_util.h"

DEFINE_int32(partitions, 10000, "Partitions of the table.");
DEFINE_int32(ids, 100, "Random partitions (with files) per request.");
DEFINE_string(clients, "1,8,32", "Client thread counts to measure.");
DEFINE_double(seconds, 3, "Seconds per measurement (per server, per round).");
DEFINE_int32(rounds, 2, "Alternating catalogd/bare measurements per client count.");
DEFINE_int32(columns, 10, "Data columns of the table.");
DEFINE_string(only, "",
              "Drive only 'catalogd', 'bare' or 'big_buffers' (for profiling); default all.");
DEFINE_bool(big_buffers, true,
            "Also measure both handlers behind a Thrift server with 64 KB transport buffers "
            "(what common/rpc would give with larger TBufferedTransport buffers).");
DEFINE_int32(max_concurrent_fetches, 16, "catalogd's PartialFetchOptions.max_concurrent_fetches.");
DEFINE_bool(tls, true, "Also measure catalogd's handler behind a TLS server with TLS clients.");

namespace ics::perf {
namespace {

constexpr const char* kBench = "partial_fetch_rpc";
using Client = ThriftClient<impala::CatalogServiceClient>;

// The baseline: every GetPartialCatalogObject gets the same canned answer.
class CannedHandler : public impala::CatalogServiceNull {
 public:
  explicit CannedHandler(impala::TGetPartialCatalogObjectResponse canned)
      : canned_(std::move(canned)) {}
  void GetPartialCatalogObject(impala::TGetPartialCatalogObjectResponse& resp,
                               const impala::TGetPartialCatalogObjectRequest&) override {
    resp = canned_;
  }

 private:
  const impala::TGetPartialCatalogObjectResponse canned_;
};

// A TThreadedServer like common/rpc/thrift_server.cc's but whose buffered
// transports have 64 KB buffers instead of TBufferedTransportFactory's 512
// bytes (same wire format). Used to show what the transport costs.
class BigBufferServer {
 public:
  explicit BigBufferServer(std::shared_ptr<apache::thrift::TProcessor> processor) {
    using namespace apache::thrift;
    auto socket = std::make_shared<ListenOnce>("127.0.0.1", 0);
    socket->listen();
    port_ = socket->getPort();
    server_ = std::make_shared<server::TThreadedServer>(
        std::move(processor), socket, std::make_shared<Factory>(),
        std::make_shared<protocol::TBinaryProtocolFactory>());
    thread_ = std::thread([s = server_] {
      try {
        s->serve();
      } catch (const std::exception& e) {
        LOG(ERROR) << "big-buffer server: " << e.what();
      }
    });
  }
  ~BigBufferServer() {
    server_->stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  class ListenOnce : public apache::thrift::transport::TServerSocket {
   public:
    using TServerSocket::TServerSocket;
    void listen() override {
      if (listening_) return;
      TServerSocket::listen();
      listening_ = true;
    }

   private:
    bool listening_ = false;
  };
  class Factory : public apache::thrift::transport::TTransportFactory {
   public:
    std::shared_ptr<apache::thrift::transport::TTransport> getTransport(
        std::shared_ptr<apache::thrift::transport::TTransport> trans) override {
      return std::make_shared<apache::thrift::transport::TBufferedTransport>(trans, 64 << 10,
                                                                             64 << 10);
    }
  };
  int port_ = 0;
  std::shared_ptr<apache::thrift::server::TThreadedServer> server_;
  std::thread thread_;
};

impala::TGetPartialCatalogObjectRequest TableRequest(const std::string& db,
                                                     const std::string& table) {
  impala::TGetPartialCatalogObjectRequest req;
  req.protocol_version = impala::CatalogServiceVersion::V2;
  req.object_desc.type = impala::TCatalogObjectType::TABLE;
  req.object_desc.__isset.table = true;
  req.object_desc.table.db_name = db;
  req.object_desc.table.tbl_name = table;
  return req;
}

// `ids` random partitions with files, as a coordinator planning a scan asks.
impala::TGetPartialCatalogObjectRequest FilesRequest(const std::vector<int64_t>& all_ids,
                                                     std::mt19937_64& rng) {
  impala::TGetPartialCatalogObjectRequest req = TableRequest("bench", "t0");
  impala::TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.want_partition_names = true;
  sel.want_partition_metadata = true;
  // Distinct ids (catalogd answers a repeated id once): a random sample.
  std::vector<int64_t> ids;
  std::sample(all_ids.begin(), all_ids.end(), std::back_inserter(ids),
              static_cast<size_t>(FLAGS_ids), rng);
  std::shuffle(ids.begin(), ids.end(), rng);
  sel.__set_partition_ids(std::move(ids));
  req.__set_table_info_selector(std::move(sel));
  return req;
}

struct Phase {
  int64_t requests = 0;
  int64_t errors = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  Latencies lat;
};

// `clients` threads, each with its own connection to port, calling for
// `seconds`. Requests are pre-built so both servers see identical traffic.
Phase Drive(int port, int clients, double seconds, const std::vector<int64_t>& all_ids,
            std::shared_ptr<const TlsContext> tls = nullptr) {
  std::vector<std::unique_ptr<Client>> conns;
  ThriftClientOptions copts;
  copts.tls = std::move(tls);
  for (int i = 0; i < clients; ++i) {
    conns.push_back(std::make_unique<Client>("127.0.0.1", port, copts));
  }
  std::atomic<int> ready{0};
  std::atomic<bool> go{false}, stop{false};
  std::vector<Latencies> lat(static_cast<size_t>(clients));
  std::vector<int64_t> errors(static_cast<size_t>(clients), 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back([&, i] {
      std::mt19937_64 rng(0x5eed + static_cast<uint64_t>(i));
      std::vector<impala::TGetPartialCatalogObjectRequest> reqs;
      for (int k = 0; k < 64; ++k) reqs.push_back(FilesRequest(all_ids, rng));
      Client& c = *conns[static_cast<size_t>(i)];
      impala::TGetPartialCatalogObjectResponse resp;
      // Connect and warm up outside the measurement.
      (void)c.Call("GetPartialCatalogObject", [&](impala::CatalogServiceClient& cl) {
        cl.GetPartialCatalogObject(resp, reqs[0]);
      });
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      size_t k = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        const auto t0 = Clock::now();
        Status s = c.Call("GetPartialCatalogObject", [&](impala::CatalogServiceClient& cl) {
          cl.GetPartialCatalogObject(resp, reqs[k++ % reqs.size()]);
        });
        lat[static_cast<size_t>(i)].Add(t0);
        if (!s.ok() || resp.status.status_code != impala::TErrorCode::OK ||
            resp.table_info.partitions.size() != static_cast<size_t>(FLAGS_ids)) {
          ++errors[static_cast<size_t>(i)];
        }
      }
    });
  }
  while (ready.load() < clients) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  Phase p;
  const double cpu0 = ProcessCpuSeconds();
  const auto t0 = Clock::now();
  go = true;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& t : threads) t.join();
  p.seconds = SecondsSince(t0);
  p.cpu_seconds = ProcessCpuSeconds() - cpu0;
  for (int i = 0; i < clients; ++i) {
    p.lat.Merge(lat[static_cast<size_t>(i)]);
    p.errors += errors[static_cast<size_t>(i)];
  }
  p.requests = static_cast<int64_t>(p.lat.us.size());
  return p;
}

void Accumulate(Phase* into, const Phase& p) {
  into->requests += p.requests;
  into->errors += p.errors;
  into->seconds += p.seconds;
  into->cpu_seconds += p.cpu_seconds;
  into->lat.Merge(p.lat);
}

void Report(int clients, const char* server, const Phase& p) {
  const std::string tag = "clients" + std::to_string(clients) + "_" + server;
  Figure(kBench, tag + "_req_per_sec", static_cast<double>(p.requests) / p.seconds, "req/s",
         std::to_string(p.requests) + " requests, " + std::to_string(p.errors) + " errors");
  Figure(kBench, tag + "_p50", p.lat.Percentile(0.50), "us");
  Figure(kBench, tag + "_p99", p.lat.Percentile(0.99), "us");
  Figure(kBench, tag + "_cpu_per_req",
         p.requests > 0 ? p.cpu_seconds * 1e6 / static_cast<double>(p.requests) : 0, "cpu-us",
         "server + client threads, whole process");
}

int Run() {
  TempDir dir("ics_fetch_rpc_bench");
  if (!dir.ok()) return 1;
  std::printf("%s # 1 table, %d partitions x 10 synthetic files, %d random partitions with "
              "files per request; %d round(s) x %.1f s per server; load average %s; %u cpus\n",
              kBench, FLAGS_partitions, FLAGS_ids, FLAGS_rounds, FLAGS_seconds,
              LoadAverage().c_str(), std::thread::hardware_concurrency());
  {
    auto ms = catalog::OpenSqliteMetastore(dir.path() + "/metastore.db");
    if (!ms.ok()) {
      std::fprintf(stderr, "metastore: %s\n", ms.status().ToString().c_str());
      return 1;
    }
    SyntheticCatalogSpec spec;
    spec.tables = 1;
    spec.partitions = FLAGS_partitions;
    spec.columns = FLAGS_columns;
    spec.warehouse = "/warehouse";  // synthetic files: never touched; fixed => same sizes every run
    Status s = PopulateMetastore(ms->get(), spec);
    if (!s.ok()) {
      std::fprintf(stderr, "populate: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  catalog::CatalogServerOptions co;
  co.bind_host = "127.0.0.1";
  co.port = 0;
  co.data_dir = dir.path();
  co.synthetic_files = true;
  co.statestore_port = -1;
  co.fetch.max_concurrent_fetches = FLAGS_max_concurrent_fetches;
  catalog::CatalogServer server(co);
  Status s = server.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "catalogd: %s\n", s.ToString().c_str());
    return 1;
  }

  // Load the table and learn its partition ids.
  Client admin("127.0.0.1", server.port());
  std::vector<int64_t> all_ids;
  {
    impala::TGetPartialCatalogObjectRequest req = TableRequest("bench", "t0");
    impala::TTableInfoSelector sel;
    sel.want_partition_names = true;
    req.__set_table_info_selector(sel);
    impala::TGetPartialCatalogObjectResponse resp;
    const auto t0 = Clock::now();
    s = admin.Call("GetPartialCatalogObject",
                   [&](impala::CatalogServiceClient& c) { c.GetPartialCatalogObject(resp, req); });
    if (!s.ok() || resp.status.status_code != impala::TErrorCode::OK) {
      std::fprintf(stderr, "first fetch failed: %s\n", s.ToString().c_str());
      return 1;
    }
    Figure(kBench, "first_fetch_with_load", SecondsSince(t0) * 1e3, "ms",
           "loads the table on demand");
    for (const auto& p : resp.table_info.partitions) all_ids.push_back(p.id);
  }
  // The canned response: one typical answer from the real catalogd.
  impala::TGetPartialCatalogObjectResponse canned;
  {
    std::mt19937_64 rng(42);
    impala::TGetPartialCatalogObjectRequest req = FilesRequest(all_ids, rng);
    s = admin.Call("GetPartialCatalogObject", [&](impala::CatalogServiceClient& c) {
      c.GetPartialCatalogObject(canned, req);
    });
    if (!s.ok() || canned.table_info.partitions.size() != static_cast<size_t>(FLAGS_ids)) {
      std::fprintf(stderr, "sample fetch failed: %s\n", s.ToString().c_str());
      return 1;
    }
    int64_t fds = 0, fd_bytes = 0;
    for (const auto& p : canned.table_info.partitions) {
      fds += static_cast<int64_t>(p.file_descriptors.size());
      for (const auto& fd : p.file_descriptors) fd_bytes += static_cast<int64_t>(fd.file_desc_data.size());
    }
    Figure(kBench, "response_file_descs", static_cast<double>(fds));
    Figure(kBench, "response_file_desc_bytes", static_cast<double>(fd_bytes), "bytes");
  }
  ThriftServerOptions bo;
  bo.name = "bare-catalog-service";
  bo.bind_host = "127.0.0.1";
  bo.port = 0;
  bo.max_message_bytes = co.max_message_bytes;
  const impala::TGetPartialCatalogObjectResponse canned_copy = canned;
  ThriftServer bare(std::make_shared<impala::CatalogServiceProcessor>(
                        std::make_shared<CannedHandler>(std::move(canned))),
                    bo);
  s = bare.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "bare server: %s\n", s.ToString().c_str());
    return 1;
  }

  // The same two handlers behind the big-buffer transport: catalogd's own
  // handler over a fetcher on the server's catalog (the table is loaded).
  catalog::CatalogContext big_ctx;
  big_ctx.catalog = server.catalog();
  catalog::PartialFetchOptions fo;
  fo.max_concurrent_fetches = FLAGS_max_concurrent_fetches;
  catalog::PartialFetcher big_fetcher(&big_ctx, fo);
  std::unique_ptr<BigBufferServer> big_real, big_bare;
  if (FLAGS_big_buffers) {
    big_real = std::make_unique<BigBufferServer>(catalog::MakeCatalogServiceProcessor(
        catalog::HandlerDeps{&big_ctx, nullptr, &big_fetcher, 0}));
    big_bare = std::make_unique<BigBufferServer>(std::make_shared<impala::CatalogServiceProcessor>(
        std::make_shared<CannedHandler>(canned_copy)));
  }

  // The TLS server: catalogd's handler again, TLS on.
  std::shared_ptr<const TlsContext> tls;
  std::unique_ptr<ThriftServer> tls_server;
  if (FLAGS_tls) {
    const std::string certs = dir.path() + "/certs";
    if (std::system((std::string(ICS_MAKE_CERTS) + " " + certs + " >/dev/null").c_str()) != 0) {
      std::fprintf(stderr, "make_certs failed\n");
      return 1;
    }
    TlsOptions to;
    to.certificate_file = certs + "/server.pem";
    to.private_key_file = certs + "/server.key";
    to.ca_certificate_file = certs + "/ca.pem";
    auto ctx = TlsContext::Create(to);
    if (!ctx.ok()) {
      std::fprintf(stderr, "tls: %s\n", ctx.status().ToString().c_str());
      return 1;
    }
    tls = *ctx;
    ThriftServerOptions so = bo;
    so.name = "tls-catalog-service";
    so.security.tls = tls;
    tls_server = std::make_unique<ThriftServer>(
        catalog::MakeCatalogServiceProcessor(
            catalog::HandlerDeps{&big_ctx, nullptr, &big_fetcher, 0}),
        so);
    s = tls_server->Start();
    if (!s.ok()) {
      std::fprintf(stderr, "tls server: %s\n", s.ToString().c_str());
      return 1;
    }
  }

  int failures = 0;
  std::stringstream list(FLAGS_clients);
  std::string tok;
  while (std::getline(list, tok, ',')) {
    const int clients = std::stoi(tok);
    Phase real, base, big_r, big_b, real_tls;
    for (int r = 0; r < FLAGS_rounds; ++r) {
      if (FLAGS_only.empty() || FLAGS_only == "catalogd") {
        Accumulate(&real, Drive(server.port(), clients, FLAGS_seconds, all_ids));
      }
      if (FLAGS_only.empty() || FLAGS_only == "bare") {
        Accumulate(&base, Drive(bare.port(), clients, FLAGS_seconds, all_ids));
      }
      if (tls_server && (FLAGS_only.empty() || FLAGS_only == "tls")) {
        Accumulate(&real_tls, Drive(tls_server->port(), clients, FLAGS_seconds, all_ids, tls));
      }
      if (big_real && (FLAGS_only.empty() || FLAGS_only == "big_buffers")) {
        Accumulate(&big_r, Drive(big_real->port(), clients, FLAGS_seconds, all_ids));
        Accumulate(&big_b, Drive(big_bare->port(), clients, FLAGS_seconds, all_ids));
      }
    }
    if (real.requests > 0) Report(clients, "catalogd", real);
    if (base.requests > 0) Report(clients, "bare", base);
    if (real_tls.requests > 0) {
      Report(clients, "catalogd_tls", real_tls);
      failures += static_cast<int>(real_tls.errors);
      if (real.requests > 0) {
        Figure(kBench, "clients" + std::to_string(clients) + "_tls_ratio",
               (static_cast<double>(real_tls.requests) / real_tls.seconds) /
                   std::max(1e-9, static_cast<double>(real.requests) / real.seconds),
               "", "catalogd over TLS / plaintext catalogd req/s, same run");
      }
    }
    if (big_r.requests > 0 && big_b.requests > 0) {
      Report(clients, "catalogd_64k_buffers", big_r);
      Report(clients, "bare_64k_buffers", big_b);
      Figure(kBench, "clients" + std::to_string(clients) + "_ratio_64k_buffers",
             (static_cast<double>(big_r.requests) / big_r.seconds) /
                 std::max(1e-9, static_cast<double>(big_b.requests) / big_b.seconds),
             "", "both servers with 64 KB transport buffers");
      failures += static_cast<int>(big_r.errors + big_b.errors);
    }
    if (real.requests == 0 || base.requests == 0) continue;
    const double ratio = (static_cast<double>(real.requests) / real.seconds) /
                         std::max(1e-9, static_cast<double>(base.requests) / base.seconds);
    Figure(kBench, "clients" + std::to_string(clients) + "_ratio", ratio, "",
           "catalogd / bare req/s; target >= 0.9");
    Figure(kBench, "clients" + std::to_string(clients) + "_p99_ratio",
           real.lat.Percentile(0.99) / std::max(1e-9, base.lat.Percentile(0.99)), "",
           "catalogd / bare p99");
    failures += static_cast<int>(real.errors + base.errors);
  }
  Note(kBench, "load average at end " + LoadAverage());
  if (tls_server) tls_server->Stop();
  big_real.reset();
  big_bare.reset();
  bare.Stop();
  server.Stop();
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::SetUsageMessage("GetPartialCatalogObject over Thrift vs a bare Thrift server.");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = 1;
  google::InitGoogleLogging(argv[0]);
  signal(SIGPIPE, SIG_IGN);
  return ics::perf::Run();
}
