// ddl_bench: DDL statements per second through ExecDdl over Thrift against a
// CatalogServer with a real metastore — the embedded SQLite file (WAL,
// synchronous commits) and/or PostgreSQL (a private server the bench starts;
// synchronous commits): every acknowledged DDL is durable — and the local
// filesystem warehouse (ADD PARTITION and CREATE TABLE create real
// directories). --backends=sqlite,postgres runs every phase on each, in one
// run; figures of the PostgreSQL run are prefixed ddl_postgres.
//
// Phases (statements are counted in total; with C clients each runs 1/C):
//   create_table      CREATE TABLE (partitioned), 1 client and --clients clients
//   add_partition     ALTER TABLE ADD PARTITION, one partition per statement:
//                     1 client on one table; --clients clients each on its
//                     own table (parallel); --clients clients on ONE table
//                     (serialized by the table's DDL lock)
//   hms               through catalogd's HMS endpoint (ThriftHiveMetastore):
//                     add_partitions of --hms_partitions partitions in one
//                     call, then get_partitions of all of them
//   big_table         ADD PARTITION into a table that already has
//                     --big_table_partitions partitions, with a full response
//                     (what coordinator-sim asks for today) and with
//                     want_minimal_response — shows the per-statement cost
//                     growing with the table.
// Every client has its own ThriftClient<impala::CatalogServiceClient>.
//
// Prints one line per figure. Not a test.
//   ddl_bench [--backends=sqlite] [--statements=400] [--create_tables=200] [--clients=4]
//             [--hms_partitions=1000] [--big_table_partitions=10000]
//             [--big_table_statements=50]
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "CatalogService.h"
#include "ThriftHiveMetastore.h"
#include "catalogd/service/catalog_server.h"
#include "common/codec/thrift_serde.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "tests/external/postgres_server.h"
#include "tests/perf/ddl_requests.h"
#include "tests/perf/perf_util.h"

DEFINE_int32(statements, 400, "ADD PARTITION statements per add_partition phase.");
DEFINE_int32(create_tables, 200, "CREATE TABLE statements per create_table phase.");
DEFINE_int32(clients, 4, "Concurrent clients of the multi-client phases.");
DEFINE_int32(big_table_partitions, 10000,
             "Partitions of the big table (added 1,000 per statement); 0 skips big_table.");
DEFINE_int32(big_table_statements, 50, "ADD PARTITION statements per big_table phase.");
DEFINE_bool(big_table_full_response, true,
            "Also run the big_table phase with full (non-minimal) responses.");
DEFINE_string(backends, "sqlite",
              "Metastores to run on, in order: sqlite, postgres (a private server started "
              "by the bench), comma-separated.");
DEFINE_int32(hms_partitions, 1000,
             "Partitions of the hms phase's add_partitions call; 0 skips it.");

namespace ics::perf {
namespace {

std::string g_bench = "ddl";  // figure prefix of the backend being run
using Client = CatalogClient;

impala::TColumn Col(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = ParseHiveType(type).value();
  return c;
}

impala::TTableName Name(const std::string& db, const std::string& table) {
  impala::TTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

impala::TDdlExecRequest CreateDb(const std::string& db) {
  impala::TDdlExecRequest r = DdlRequest(impala::TDdlType::CREATE_DATABASE, false);
  r.__isset.create_db_params = true;
  r.create_db_params.db = db;
  r.create_db_params.owner = "bench";
  return r;
}

// db.table (id int, name string, v double) PARTITIONED BY (k int) STORED AS PARQUET.
impala::TDdlExecRequest CreateTable(const std::string& db, const std::string& table) {
  impala::TDdlExecRequest r = DdlRequest(impala::TDdlType::CREATE_TABLE, false);
  r.__isset.create_table_params = true;
  auto& p = r.create_table_params;
  p.table_name = Name(db, table);
  p.columns = {Col("id", "int"), Col("name", "string"), Col("v", "double")};
  p.__set_partition_columns({Col("k", "int")});
  p.file_format = impala::THdfsFileFormat::PARQUET;
  p.is_external = false;
  p.if_not_exists = false;
  p.owner = "bench";
  return r;
}

// ALTER TABLE db.table ADD PARTITION (k=first) ... (k=first+count-1).
impala::TDdlExecRequest AddPartitions(const std::string& db, const std::string& table, int first,
                                      int count, bool minimal) {
  std::vector<PartitionSpec> specs;
  for (int i = first; i < first + count; ++i) specs.push_back({{"k", std::to_string(i)}});
  return AddPartitionsRequest(db, table, specs, minimal);
}

struct Phase {
  int64_t statements = 0;
  int64_t errors = 0;
  double seconds = 0;
  Latencies lat;
  std::string first_error;
};

// Runs `per_client` statements on each of `clients` clients; stmt(client,
// i) builds the i-th statement of a client.
Phase Run(int port, int clients, int per_client,
          const std::function<impala::TDdlExecRequest(int, int)>& stmt) {
  std::vector<std::unique_ptr<Client>> conns;
  for (int i = 0; i < clients; ++i) conns.push_back(std::make_unique<Client>("127.0.0.1", port));
  for (auto& c : conns) (void)c->connection().Open();
  std::vector<Latencies> lat(static_cast<size_t>(clients));
  std::vector<int64_t> errors(static_cast<size_t>(clients), 0);
  std::vector<std::string> first_error(static_cast<size_t>(clients));
  std::vector<std::thread> threads;
  const auto t0 = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      for (int i = 0; i < per_client; ++i) {
        const impala::TDdlExecRequest req = stmt(c, i);
        const auto s0 = Clock::now();
        Status s = ExecDdl(conns[static_cast<size_t>(c)].get(), req);
        lat[static_cast<size_t>(c)].Add(s0);
        if (!s.ok()) {
          if (errors[static_cast<size_t>(c)]++ == 0) first_error[static_cast<size_t>(c)] = s.ToString();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  Phase p;
  p.seconds = SecondsSince(t0);
  for (int c = 0; c < clients; ++c) {
    p.lat.Merge(lat[static_cast<size_t>(c)]);
    p.errors += errors[static_cast<size_t>(c)];
    if (p.first_error.empty()) p.first_error = first_error[static_cast<size_t>(c)];
  }
  p.statements = static_cast<int64_t>(p.lat.us.size());
  return p;
}

int failures = 0;

void Report(const std::string& tag, const Phase& p) {
  Figure(g_bench.c_str(), tag + "_per_sec", static_cast<double>(p.statements) / p.seconds,
         "stmts/s",
         std::to_string(p.statements) + " statements, " + std::to_string(p.errors) + " errors");
  Figure(g_bench.c_str(), tag + "_p50", p.lat.Percentile(0.50) / 1e3, "ms");
  Figure(g_bench.c_str(), tag + "_p99", p.lat.Percentile(0.99) / 1e3, "ms");
  if (p.errors > 0) {
    std::fprintf(stderr, "%s: first error: %s\n", tag.c_str(), p.first_error.c_str());
    failures += static_cast<int>(p.errors);
  }
}

// add_partitions of `n` partitions in one call through the HMS endpoint on
// `port`, then get_partitions of them all; figures in ms.
void HmsPhase(int port, int n) {
  try {
    auto socket = std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", port);
    socket->setRecvTimeout(600000);
    auto transport = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket);
    hive::ThriftHiveMetastoreClient hms(
        std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport));
    transport->open();
    hive::Table t;
    t.dbName = "ddl";
    t.tableName = "hms_parts";
    t.owner = "bench";
    t.tableType = "MANAGED_TABLE";
    hive::FieldSchema id, k;
    id.name = "id";
    id.type = "int";
    k.name = "k";
    k.type = "int";
    t.sd.cols = {id};
    t.partitionKeys = {k};
    t.sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
    t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    hms.create_table(t);
    std::vector<hive::Partition> parts(n);
    for (int i = 0; i < n; ++i) {
      parts[i].dbName = "ddl";
      parts[i].tableName = "hms_parts";
      parts[i].values = {std::to_string(i)};
    }
    auto t0 = Clock::now();
    const int added = hms.add_partitions(parts);
    const double add_ms = SecondsSince(t0) * 1e3;
    t0 = Clock::now();
    std::vector<hive::Partition> got;
    hms.get_partitions(got, "ddl", "hms_parts", -1);
    const double get_ms = SecondsSince(t0) * 1e3;
    if (added != n || static_cast<int>(got.size()) != n) {
      std::fprintf(stderr, "hms phase: added %d, read %zu of %d\n", added, got.size(), n);
      ++failures;
    }
    const std::string tag = std::to_string(n);
    Figure(g_bench.c_str(), "hms_add_partitions_" + tag, add_ms, "ms",
           "one call, one metastore txn");
    Figure(g_bench.c_str(), "hms_get_partitions_" + tag, get_ms, "ms");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hms phase: %s\n", e.what());
    ++failures;
  }
}

int RunBackend(const std::string& metastore, const std::string& what) {
  TempDir dir("ics_ddl_bench");
  if (!dir.ok()) return 1;
  const int C = std::max(1, FLAGS_clients);
  std::printf(
      "%s # CatalogServer with %s metastore (durable commits) in %s; %d clients for "
      "the multi-client phases; load average %s; %u cpus\n",
      g_bench.c_str(), what.c_str(), dir.path().c_str(), C, LoadAverage().c_str(),
      std::thread::hardware_concurrency());
  catalog::CatalogServerOptions co;
  co.bind_host = "127.0.0.1";
  co.port = 0;
  co.data_dir = dir.path();
  co.statestore_port = -1;
  co.metastore = metastore;
  co.hms_port = FLAGS_hms_partitions > 0 ? 0 : -1;
  catalog::CatalogServer server(co);
  Status s = server.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "catalogd: %s\n", s.ToString().c_str());
    return 1;
  }
  const int port = server.port();
  Client admin("127.0.0.1", port);
  s = ExecDdl(&admin, CreateDb("ddl"));
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }

  // CREATE TABLE.
  const int nt = FLAGS_create_tables;
  Report("create_table_1_client", Run(port, 1, nt, [](int, int i) {
           return CreateTable("ddl", "c1_" + std::to_string(i));
         }));
  Report("create_table_" + std::to_string(C) + "_clients",
         Run(port, C, nt / C, [](int c, int i) {
           return CreateTable("ddl", "cn_" + std::to_string(c) + "_" + std::to_string(i));
         }));

  // ADD PARTITION.
  for (const std::string& t : {std::string("p_single"), std::string("p_shared")}) {
    s = ExecDdl(&admin, CreateTable("ddl", t));
  }
  for (int c = 0; c < C; ++c) {
    if (s.ok()) s = ExecDdl(&admin, CreateTable("ddl", "p_own_" + std::to_string(c)));
  }
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const int n = FLAGS_statements;
  Report("add_partition_1_client", Run(port, 1, n, [](int, int i) {
           return AddPartitions("ddl", "p_single", i, 1, false);
         }));
  Report("add_partition_" + std::to_string(C) + "_clients_own_tables",
         Run(port, C, n / C, [](int c, int i) {
           return AddPartitions("ddl", "p_own_" + std::to_string(c), i, 1, false);
         }));
  Report("add_partition_" + std::to_string(C) + "_clients_one_table",
         Run(port, C, n / C, [n, C](int c, int i) {
           return AddPartitions("ddl", "p_shared", c * (n / C) + i, 1, false);
         }));

  if (FLAGS_hms_partitions > 0) HmsPhase(server.hms_port(), FLAGS_hms_partitions);

  // A big table: the cost of one ADD PARTITION as the table grows.
  if (FLAGS_big_table_partitions > 0) {
    s = ExecDdl(&admin, CreateTable("ddl", "big"));
    const auto t0 = Clock::now();
    for (int first = 0; s.ok() && first < FLAGS_big_table_partitions; first += 1000) {
      s = ExecDdl(&admin, AddPartitions("ddl", "big", first,
                                     std::min(1000, FLAGS_big_table_partitions - first), true));
    }
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
    Figure(g_bench.c_str(), "bulk_add_partition_rate",
           FLAGS_big_table_partitions / SecondsSince(t0), "partitions/s",
           "1,000 partitions per ADD PARTITION statement");
    int next = FLAGS_big_table_partitions;
    const int m = FLAGS_big_table_statements;
    const std::string size = std::to_string(FLAGS_big_table_partitions / 1000) + "k";
    for (bool minimal : {false, true}) {
      int64_t bytes = 0;
      s = ExecDdl(&admin, AddPartitions("ddl", "big", next++, 1, minimal), &bytes);
      Figure(g_bench.c_str(),
             "add_partition_" + size + "_table_response_bytes_" + (minimal ? "minimal" : "full"),
             static_cast<double>(bytes), "bytes");
    }
    if (FLAGS_big_table_full_response) {
      Report("add_partition_1_client_" + size + "_table_full_response",
             Run(port, 1, m, [&next](int, int) {
               return AddPartitions("ddl", "big", next++, 1, false);
             }));
    }
    Report("add_partition_1_client_" + size + "_table_minimal_response",
           Run(port, 1, m, [&next](int, int) {
             return AddPartitions("ddl", "big", next++, 1, true);
           }));
  }
  Note(g_bench.c_str(), "load average at end " + LoadAverage());
  server.Stop();
  return failures == 0 ? 0 : 1;
}

int Main() {
  int rc = 0;
  std::unique_ptr<external::PostgresServer> pg;
  std::string backends = FLAGS_backends;
  for (size_t pos = 0; pos <= backends.size();) {
    const size_t comma = std::min(backends.find(',', pos), backends.size());
    const std::string b = backends.substr(pos, comma - pos);
    pos = comma + 1;
    if (b == "sqlite") {
      g_bench = "ddl";
      rc |= RunBackend("", "SQLite");
    } else if (b == "postgres") {
      g_bench = "ddl_postgres";
      if (pg == nullptr) {
        pg = std::make_unique<external::PostgresServer>(/*durable=*/true);
        Status s = pg->Start();
        if (!s.ok()) {
          std::fprintf(stderr, "postgres: %s\n", s.ToString().c_str());
          return 1;
        }
      }
      auto uri = pg->CreateDatabase("ddl_bench_" + std::to_string(::getpid()));
      if (!uri.ok()) {
        std::fprintf(stderr, "postgres: %s\n", uri.status().ToString().c_str());
        return 1;
      }
      rc |= RunBackend(*uri, "PostgreSQL (private server on loopback, fsync on)");
    } else if (!b.empty()) {
      std::fprintf(stderr, "--backends: unknown backend '%s' (sqlite, postgres)\n", b.c_str());
      return 2;
    }
  }
  return rc;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::SetUsageMessage("DDL statements per second through ExecDdl over Thrift.");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = 1;
  google::InitGoogleLogging(argv[0]);
  signal(SIGPIPE, SIG_IGN);
  return ics::perf::Main();
}
