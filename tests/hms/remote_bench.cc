// remote_metastore_bench: per-call latency of the remote Hive Metastore
// backend (HmsRemoteMetastore -> ThriftHiveMetastore over loopback -> an HMS
// endpoint in this process over its SQLite file) next to the embedded SQLite
// backend, for the same calls on the same data. Both stores use synchronous
// (durable) commits. Prints one line per call: median, p90, p99 and mean in
// microseconds. Not a test; figures depend on the machine.
//
//   remote_metastore_bench [--iterations=2000] [--partitions=100] [--pool_size=8]
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "tests/hms/remote_test_util.h"
#include "tests/metastore/metastore_test_util.h"

DEFINE_int32(iterations, 2000, "Calls per read figure (writes: a quarter of it).");
DEFINE_int32(partitions, 100, "Partitions of the table that GetPartitions reads.");
DEFINE_int32(pool_size, 8, "Connection pool size of the remote backend.");

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Clock = std::chrono::steady_clock;

struct Figures {
  double p50 = 0, p90 = 0, p99 = 0, mean = 0;
};

Figures Measure(int n, const std::function<Status(int)>& call, const char* what) {
  std::vector<double> us;
  us.reserve(n);
  for (int i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    Status s = call(i);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!s.ok()) {
      std::fprintf(stderr, "%s failed: %s\n", what, s.ToString().c_str());
      std::exit(1);
    }
  }
  std::sort(us.begin(), us.end());
  Figures f;
  auto at = [&](double q) { return us[std::min(us.size() - 1, static_cast<size_t>(q * us.size()))]; };
  f.p50 = at(0.5);
  f.p90 = at(0.9);
  f.p99 = at(0.99);
  double sum = 0;
  for (double v : us) sum += v;
  f.mean = sum / us.size();
  return f;
}

void Print(const std::string& call, int n, const Figures& local, const Figures& remote) {
  std::printf(
      "remote_metastore_bench %-28s n=%-5d sqlite p50=%7.1fus p90=%7.1fus p99=%7.1fus "
      "mean=%7.1fus | remote p50=%7.1fus p90=%7.1fus p99=%7.1fus mean=%7.1fus | x%.1f\n",
      call.c_str(), n, local.p50, local.p90, local.p99, local.mean, remote.p50, remote.p90,
      remote.p99, remote.mean, remote.p50 / std::max(local.p50, 0.001));
  std::fflush(stdout);
}

void Populate(Metastore* ms) {
  auto must = [](const Result<int64_t>& r) {
    if (!r.ok()) {
      std::fprintf(stderr, "setup failed: %s\n", r.status().ToString().c_str());
      std::exit(1);
    }
  };
  must(ms->Commit(Txn({CreateDbOp(MakeDb("bench"))})));
  must(ms->Commit(Txn({CreateTableOp(MakeTable("bench", "flat"))})));
  must(ms->Commit(Txn({CreateTableOp(MakeTable("bench", "parted", {"k"}))})));
  MetastoreTxn parts;
  for (int p = 0; p < FLAGS_partitions; ++p) {
    parts.ops.push_back(AddPartitionOp(MakePartition("bench", "parted", {std::to_string(p)})));
  }
  if (!parts.ops.empty()) must(ms->Commit(parts));
  MetastoreOp stats = TableOp(MetastoreOp::Kind::kSetTableColumnStats, "bench", "flat");
  stats.column_stats = {MakeLongStats("id", 100)};
  must(ms->Commit(Txn({stats})));
}

int Run() {
  TempDir dir;
  auto local = OpenSqliteMetastore(dir.File("local.db"));
  if (!local.ok()) return std::fprintf(stderr, "%s\n", local.status().ToString().c_str()), 1;
  InProcessHms hms(dir.path());
  Status started = hms.Start();
  if (!started.ok()) return std::fprintf(stderr, "%s\n", started.ToString().c_str()), 1;
  RemoteMetastoreOptions o = hms.ClientOptions();
  o.pool_size = FLAGS_pool_size;
  auto remote = OpenRemoteMetastore(o);
  if (!remote.ok()) return std::fprintf(stderr, "%s\n", remote.status().ToString().c_str()), 1;
  Metastore* backends[2] = {local->get(), remote->get()};
  for (Metastore* ms : backends) Populate(ms);

  const int n = FLAGS_iterations;
  struct Case {
    std::string name;
    int n;
    std::function<Status(Metastore*, int)> call;
  };
  const std::vector<Case> cases = {
      {"GetDatabase", n, [](Metastore* ms, int) { return ms->GetDatabase("bench").status(); }},
      {"GetAllTables", n, [](Metastore* ms, int) { return ms->GetAllTables("bench").status(); }},
      {"GetTable", n, [](Metastore* ms, int) { return ms->GetTable("bench", "flat").status(); }},
      {"GetTableColumnStats", n,
       [](Metastore* ms, int) { return ms->GetTableColumnStats("bench", "flat").status(); }},
      {"GetPartitions(" + std::to_string(FLAGS_partitions) + ")", n / 4,
       [](Metastore* ms, int) { return ms->GetPartitions("bench", "parted").status(); }},
      {"Commit(ADD_PARTITION)", n / 4,
       [](Metastore* ms, int i) {
         return ms
             ->Commit(Txn({AddPartitionOp(
                 MakePartition("bench", "parted", {"new" + std::to_string(i)}))}))
             .status();
       }},
      {"Commit(CREATE_TABLE)", n / 4,
       [](Metastore* ms, int i) {
         return ms->Commit(Txn({CreateTableOp(MakeTable("bench", "t" + std::to_string(i)))}))
             .status();
       }},
      // Multi-op: the remote backend reads pre-images for all but the last op.
      {"Commit(ALTER+STATS+ALTER)", n / 4,
       [](Metastore* ms, int i) {
         MetastoreOp alter = TableOp(MetastoreOp::Kind::kAlterTable, "bench", "flat");
         alter.table = MakeTable("bench", "flat");
         alter.table.parameters["i"] = std::to_string(i);
         MetastoreOp stats = TableOp(MetastoreOp::Kind::kSetTableColumnStats, "bench", "flat");
         stats.column_stats = {MakeLongStats("id", i + 1)};
         return ms->Commit(Txn({alter, stats, alter})).status();
       }},
      {"GetNextNotifications(100)", n / 4,
       [](Metastore* ms, int) { return ms->GetNextNotifications(0, 100).status(); }},
  };
  std::printf("remote_metastore_bench: loopback, endpoint in process, pool_size=%d\n",
              FLAGS_pool_size);
  for (const Case& c : cases) {
    Figures f[2];
    for (int b = 0; b < 2; ++b) {
      Metastore* ms = backends[b];
      Measure(std::max(1, c.n / 10), [&](int i) { return c.call(ms, 1000000 + b * 100000 + i); },
              c.name.c_str());  // warm-up
      f[b] = Measure(c.n, [&](int i) { return c.call(ms, i); }, c.name.c_str());
    }
    Print(c.name, c.n, f[0], f[1]);
  }
  return 0;
}

}  // namespace
}  // namespace ics::catalog

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return ics::catalog::Run();
}
