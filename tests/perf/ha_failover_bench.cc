// ha_failover_bench: catalogd failover with the real daemons (statestored,
// two HA catalogds sharing one SQLite metastore, one coordinator-sim
// process with --coordinators coordinators), per timing profile:
//
//   failover_to_ack_ms      kill -9 of the active catalogd -> the first DDL
//                           acknowledged by the new active (a storm of
//                           CREATE TABLE on coordinator 0 runs throughout)
//   failover_to_applied_ms  kill -9 -> every coordinator lists that table
//   storm_ddl_per_s_before  storm throughput in the 2 s before the kill
//   storm_ddl_per_s_failover  ... in the 3 s from the kill (one failover)
//   cache_hit_ratio_after   local-catalog hit ratio of DESCRIBE on the
//                           tables every coordinator had cached before the
//                           kill, run right after the failover
//                           (coordinator_local_catalog_{hits,misses}_total)
//
// Profiles: "default" (statestored's and the subscribers' default
// heartbeat timings with the HA defaults) and "fast" (the shortest timings
// that stay safe on this machine: fencing keeps a wrong guess harmless, so
// only false failovers cost). Medians over --rounds fresh clusters.
//
// For reference, Apache Impala detects a failed active catalogd from missed
// statestore heartbeats (10-40 s with its defaults) and the new active
// starts with a full metadata reset.
#include <gflags/gflags.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/external/external_cluster.h"
#include "tests/perf/perf_util.h"
#include "tests/web/http_client.h"

DEFINE_int32(rounds, 3, "Fresh clusters per profile (medians are reported).");
DEFINE_int32(coordinators, 4, "Coordinators (one coordinator-sim process).");
DEFINE_int32(tables, 50, "Tables every coordinator caches before the failover.");
DEFINE_string(profiles, "default,fast", "Timing profiles to run: default, fast.");
DEFINE_string(statestored, "", "statestored binary (default: the build's).");
DEFINE_string(catalogd, "", "catalogd binary (default: the build's).");
DEFINE_string(coordinator_sim, "", "coordinator-sim binary (default: the build's).");

namespace ics::perf {
namespace {

constexpr const char* kBench = "ha_failover";
using external::ExecOptions;
using external::ExternalCluster;
using external::ExternalClusterOptions;
using external::Millis;

struct Profile {
  std::string name;
  int heartbeat_ms, heartbeat_timeout_ms, max_missed, update_ms, subscriber_timeout_s;
  std::vector<std::string> statestored_flags;
};

Profile MakeProfile(const std::string& name) {
  if (name == "fast") {
    return {name,
            100,
            200,
            5,
            500,
            3,
            {"--catalogd_ha_preemption_wait_period_ms=3000",
             "--active_catalogd_designation_monitoring_interval_ms=50",
             "--active_catalogd_max_missed_heartbeats=2"}};
  }
  // statestored's defaults (heartbeats every 1 s, 3 s RPC timeout, 10
  // misses; the active catalogd probed every 100 ms after a miss, 3 misses).
  return {"default", 1000, 3000, 10, 2000, 30, {}};
}

struct RoundResult {
  bool ok = false;
  double to_ack_ms = 0, to_applied_ms = 0, before_per_s = 0, failover_per_s = 0;
  double hit_ratio = 0;
};

// Sums a counter family over a coordinator's /metrics (0 if absent).
double MetricValue(int web_port, const std::string& name) {
  auto r = webtest::HttpGet(web_port, "/metrics");
  if (!r.ok() || r->status != 200) return -1;
  std::istringstream in(r->body);
  std::string line;
  double sum = 0;
  while (std::getline(in, line)) {
    if (line.rfind(name, 0) != 0) continue;
    const size_t sp = line.rfind(' ');
    if (sp != std::string::npos) sum += std::atof(line.c_str() + sp + 1);
  }
  return sum;
}

RoundResult RunRound(const Profile& p) {
  RoundResult out;
  ExternalClusterOptions o;
  o.catalogd_ha = true;
  o.coordinator_processes = {external::CoordinatorProcessSpec{FLAGS_coordinators, {}, {}}};
  o.statestored_bin = FLAGS_statestored;
  o.catalogd_bin = FLAGS_catalogd;
  o.coordinator_bin = FLAGS_coordinator_sim;
  o.name = "ics-ha-bench";
  o.heartbeat_frequency_ms = p.heartbeat_ms;
  o.heartbeat_tcp_timeout_ms = p.heartbeat_timeout_ms;
  o.max_missed_heartbeats = p.max_missed;
  o.update_frequency_ms = p.update_ms;
  o.subscriber_timeout_seconds = p.subscriber_timeout_s;
  o.statestored_flags = p.statestored_flags;
  o.start_timeout = Millis(30000);
  ExternalCluster c(o);
  Status s = c.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "cluster: %s\n", s.ToString().c_str());
    return out;
  }
  if (!external::WaitFor([&] { return c.CatalogdTakeovers(ExternalCluster::kCatalogd) == 1; },
                         Millis(20000))) {
    std::fprintf(stderr, "catalogd never became active\n");
    return out;
  }
  ExecOptions eo;
  eo.timeout_ms = 60000;
  if (!c.Exec(0, "CREATE DATABASE b", eo).ok()) return out;
  for (int t = 0; t < FLAGS_tables; ++t) {
    if (!c.Exec(0, "CREATE TABLE b.w" + std::to_string(t) + " (x INT)", eo).ok()) return out;
  }
  // Every coordinator caches every table.
  for (int i = 0; i < c.num_coordinators(); ++i) {
    for (int t = 0; t < FLAGS_tables; ++t) {
      if (!c.Exec(i, "DESCRIBE b.w" + std::to_string(t), eo).ok()) return out;
    }
  }

  // The storm: CREATE TABLE b.s<i> on coordinator 0, acknowledgement times.
  std::mutex mu;
  std::vector<std::pair<Clock::time_point, int>> acks;  // (time, table)
  std::atomic<bool> stop{false};
  std::thread storm([&] {
    ExecOptions so;
    so.timeout_ms = 60000;
    for (int i = 0; !stop; ++i) {
      if (c.Exec(0, "CREATE TABLE b.s" + std::to_string(i) + " (x INT)", so).ok()) {
        std::lock_guard<std::mutex> l(mu);
        acks.emplace_back(Clock::now(), i);
      }
    }
  });
  std::this_thread::sleep_for(Millis(2000));
  const auto killed = Clock::now();
  c.Kill(ExternalCluster::kCatalogd);
  int first_after = -1;
  Clock::time_point first_at;
  external::WaitFor(
      [&] {
        std::lock_guard<std::mutex> l(mu);
        for (const auto& [t, i] : acks) {
          if (t > killed) {
            first_after = i;
            first_at = t;
            return true;
          }
        }
        return false;
      },
      Millis(60000));
  if (first_after < 0) {
    stop = true;
    storm.join();
    std::fprintf(stderr, "no DDL acknowledged after the kill\n");
    return out;
  }
  out.to_ack_ms = std::chrono::duration<double, std::milli>(first_at - killed).count();
  // Every coordinator lists that table (polled in parallel).
  const std::string table = "s" + std::to_string(first_after);
  std::vector<std::thread> pollers;
  std::vector<double> applied(c.num_coordinators(), -1);
  for (int i = 0; i < c.num_coordinators(); ++i) {
    pollers.emplace_back([&, i] {
      ExecOptions po;
      po.timeout_ms = 10000;
      external::WaitFor(
          [&] {
            external::ExecResult r = c.Exec(i, "SHOW TABLES IN b", po);
            const auto col = r.Column(0);
            return r.ok() && std::find(col.begin(), col.end(), table) != col.end();
          },
          Millis(60000));
      applied[i] = SecondsSince(killed) * 1000;
    });
  }
  for (auto& t : pollers) t.join();
  out.to_applied_ms = *std::max_element(applied.begin(), applied.end());
  std::this_thread::sleep_for(Millis(3000) - (Clock::now() - killed));
  stop = true;
  storm.join();
  int before = 0, during = 0;
  for (const auto& [t, i] : acks) {
    if (t <= killed && t > killed - Millis(2000)) ++before;
    if (t > killed && t <= killed + Millis(3000)) ++during;
  }
  out.before_per_s = before / 2.0;
  out.failover_per_s = during / 3.0;

  // The tables cached before the kill, read right after the failover.
  double hits0 = 0, misses0 = 0, hits1 = 0, misses1 = 0;
  for (int i = 0; i < c.num_coordinators(); ++i) {
    hits0 += MetricValue(c.coordinator_web_port(i), "coordinator_local_catalog_hits_total");
    misses0 += MetricValue(c.coordinator_web_port(i), "coordinator_local_catalog_misses_total");
  }
  for (int i = 0; i < c.num_coordinators(); ++i) {
    for (int t = 0; t < FLAGS_tables; ++t) c.Exec(i, "DESCRIBE b.w" + std::to_string(t), eo);
  }
  for (int i = 0; i < c.num_coordinators(); ++i) {
    hits1 += MetricValue(c.coordinator_web_port(i), "coordinator_local_catalog_hits_total");
    misses1 += MetricValue(c.coordinator_web_port(i), "coordinator_local_catalog_misses_total");
  }
  const double lookups = (hits1 - hits0) + (misses1 - misses0);
  out.hit_ratio = lookups > 0 ? (hits1 - hits0) / lookups : 0;
  out.ok = c.CatalogdTakeovers(ExternalCluster::kCatalogd2) == 1;
  if (!out.ok) std::fprintf(stderr, "catalogd2 did not take over exactly once\n");
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int Run() {
  std::vector<std::string> profiles;
  std::stringstream ss(FLAGS_profiles);
  for (std::string p; std::getline(ss, p, ',');) profiles.push_back(p);
  Note(kBench, std::to_string(FLAGS_coordinators) + " coordinators, " +
                   std::to_string(FLAGS_tables) + " cached tables, " +
                   std::to_string(FLAGS_rounds) + " round(s) per profile; load average " +
                   LoadAverage());
  for (const std::string& name : profiles) {
    const Profile p = MakeProfile(name);
    std::vector<double> ack, applied, before, during, hit;
    for (int r = 0; r < FLAGS_rounds; ++r) {
      RoundResult rr = RunRound(p);
      if (!rr.ok) return 1;
      ack.push_back(rr.to_ack_ms);
      applied.push_back(rr.to_applied_ms);
      before.push_back(rr.before_per_s);
      during.push_back(rr.failover_per_s);
      hit.push_back(rr.hit_ratio);
    }
    const std::string n = "_" + p.name;
    Figure(kBench, "failover_to_ack_ms" + n, Median(ack), "ms",
           "kill -9 of the active catalogd -> first DDL acknowledged by the new active");
    Figure(kBench, "failover_to_applied_ms" + n, Median(applied), "ms",
           "kill -9 -> every coordinator lists that table");
    Figure(kBench, "storm_ddl_per_s_before" + n, Median(before), "DDL/s");
    Figure(kBench, "storm_ddl_per_s_failover" + n, Median(during), "DDL/s",
           "the 3 s from the kill");
    Figure(kBench, "cache_hit_ratio_after" + n, Median(hit), "",
           "cached tables read right after the failover");
  }
  return 0;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return ics::perf::Run();
}
