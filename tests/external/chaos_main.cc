// chaos: the fault-injection run of the HA cluster (scripts/chaos.sh runs it;
// ctest runs a short one). Two statestoreds (HA), two catalogds (HA, one
// shared SQLite file or PostgreSQL database), one coordinator-sim process
// with --clients coordinators, one client per coordinator writing DDL
// (chaos_workload.h). Every --fault_min_ms..--fault_max_ms the active
// catalogd or the active statestored is killed with SIGKILL (restarted
// --restart_min_ms..--restart_max_ms later) or stopped with SIGSTOP (resumed
// --pause_min_ms..--pause_max_ms later); a member is faulted only while its
// peer is up. When the faults stop, every daemon is brought back and the
// clients write on for a few seconds.
//
// The run passes when:
//  * every coordinator holds every acknowledged change and no change of a
//    statement that failed (the coordinators read through catalogd, so this
//    is catalogd's state too), and no read after a SYNC_DDL was stale;
//  * no daemon exited by itself and no log has a crash or abort line;
//  * after every fault the pair had an active member again within
//    --active_bound_ms, and after healing both pairs within that bound;
// and prints, per fault kind, the unavailability (p50, max): the longest
// gap between acknowledgements (any client) from the fault until the next,
// the longest stall of one client, and the time until the pair's other
// member reported the active role. A baseline of the same gaps is measured
// first, without faults.
//
// Timings: --timings=default runs the daemons with their default heartbeat
// and failure-detection flags; --timings=fast with the short ones the
// External* tests use.
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/external/chaos_monitor.h"
#include "tests/external/chaos_workload.h"
#include "tests/external/external_cluster.h"
#include "tests/external/metastore_backends.h"

DEFINE_int32(seconds, 180, "How long faults are injected.");
DEFINE_string(metastore, "sqlite", "The catalogds' shared metastore: sqlite or postgres.");
DEFINE_uint64(seed, 1, "Seed of the fault schedule and the clients' statements.");
DEFINE_int32(clients, 3, "Coordinators, one client each.");
DEFINE_int32(sync_ddl_percent, 30, "Share of statements sent with SYNC_DDL.");
DEFINE_string(faults, "kill_catalogd,pause_catalogd,kill_statestored,pause_statestored",
              "Fault kinds to inject (comma-separated).");
DEFINE_int32(fault_min_ms, 3000, "Shortest time between two faults.");
DEFINE_int32(fault_max_ms, 8000, "Longest time between two faults.");
DEFINE_int32(restart_min_ms, 2000, "Shortest time a killed daemon stays down.");
DEFINE_int32(restart_max_ms, 8000, "Longest time a killed daemon stays down.");
DEFINE_int32(pause_min_ms, 2000, "Shortest SIGSTOP.");
DEFINE_int32(pause_max_ms, 5000, "Longest SIGSTOP.");
DEFINE_int32(baseline_seconds, 5, "Fault-free run first, for the baseline gaps.");
DEFINE_int32(settle_seconds, 5, "Clients keep writing this long after healing.");
DEFINE_int32(active_bound_ms, 15000,
             "A pair must have an active member within this of a fault or of healing.");
DEFINE_string(timings, "default", "default: the daemons' own failure-detection flags; fast: "
                                  "the short ones of the External* tests.");
DEFINE_string(statements_file, "",
              "Write every statement (client, start and end time of day, ms, outcome, SQL) "
              "here, tab-separated, for a post-mortem next to the daemons' logs.");
DEFINE_string(statestored_flags, "", "More flags for both statestoreds (space-separated).");
DEFINE_string(catalogd_flags, "", "More flags for both catalogds (space-separated).");
DEFINE_string(coordinator_flags, "", "More flags for coordinator-sim (space-separated).");
DEFINE_int32(keep_dir_gap_ms, 3000,
             "Keep the cluster dir (logs, data) when a gap between acknowledgements was "
             "longer than this, even when the run passed, for a post-mortem.");
DEFINE_bool(keep_dir, false, "Keep the cluster dir (logs, data) even when the run passes.");

namespace ics::external {
namespace {

using Role = HaMonitor::Role;

struct Fault {
  std::string kind;  // kill_catalogd, pause_statestored, ...
  std::string role;
  Clock::time_point at;
  Clock::time_point until;  // the next fault, or the end of the run
};

struct Heal {
  Clock::time_point at;
  std::string role;
  bool restart = false;  // else resume
};

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// The longest gap between consecutive times in `times` (sorted) within
// [from, to], counting from the last time before `from` (or `from` itself),
// and up to `to` when nothing follows the last one.
double LongestGap(const std::vector<Clock::time_point>& times, Clock::time_point from,
                  Clock::time_point to) {
  auto it = std::lower_bound(times.begin(), times.end(), from);
  Clock::time_point prev = it == times.begin() ? from : *std::prev(it);
  double longest = 0;
  for (; it != times.end() && *it <= to; ++it) {
    longest = std::max(longest, Ms(*it - prev));
    prev = *it;
  }
  if (it == times.end() || *it > to) {
    // Nothing acknowledged from `prev` to `to`: at least this long.
    if (it == times.end() || prev < to) longest = std::max(longest, Ms(to - prev));
  }
  return longest;
}

std::string Percentiles(std::vector<double> v) {
  if (v.empty()) return "n/a";
  std::sort(v.begin(), v.end());
  char buf[96];
  std::snprintf(buf, sizeof buf, "p50 %.0f ms, max %.0f ms", v[v.size() / 2], v.back());
  return buf;
}

// Lines of a daemon log that mean a crash or an abort.
std::vector<std::string> CrashLines(const std::string& path) {
  static const std::regex kCrash(
      "(^F[0-9]{4} )|Check failed|terminate called|Sanitizer|Segmentation fault|"
      "\\*\\*\\* SIG|Aborted|uncaught exception|core dumped");
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (std::regex_search(line, kCrash)) out.push_back(line);
  }
  return out;
}

class ChaosRun {
 public:
  int Main();

 private:
  [[nodiscard]] Status StartCluster();
  void InjectFaults(Clock::time_point end);
  void ApplyDueHeals(bool all);
  void UpdatePort(const std::string& role, bool up);
  // The pair member of `kind` to fault ("" if none may be faulted now).
  std::string PickTarget(const std::string& kind);
  void CheckNoneExited();
  // Waits until each pair has exactly one member reporting active.
  bool WaitForActives(Millis bound, double* waited_ms);
  void Report(Clock::time_point run_start, Clock::time_point faults_end,
              Clock::time_point healed_at, Clock::time_point end);

  std::mt19937_64 rng_{FLAGS_seed};
  std::unique_ptr<ExternalCluster> cluster_;
  std::unique_ptr<HaMonitor> monitor_;
  std::vector<std::unique_ptr<ChaosClient>> clients_;
  std::vector<Fault> faults_;
  std::vector<Heal> heals_;
  std::map<std::string, std::string> down_;  // role -> "killed" / "paused"
  std::vector<std::string> problems_;
  Clock::time_point baseline_from_, baseline_to_;
  double longest_gap_ms_ = 0;
};

int Uniform(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, std::max(lo, hi))(rng);
}

std::vector<std::string> SplitFlags(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

Status ChaosRun::StartCluster() {
  ExternalClusterOptions o;
  o.name = "ics-chaos";
  o.catalogd_ha = true;
  o.statestored_ha = true;
  o.coordinator_processes = {CoordinatorProcessSpec{FLAGS_clients, {}, {}}};
  o.start_timeout = Millis(60000);
  o.sync_ddl_timeout_ms = 60000;
  if (FLAGS_timings == "default") {
    // The daemons' defaults (statestored_main.cc, catalogd_main.cc).
    o.heartbeat_frequency_ms = 1000;
    o.heartbeat_tcp_timeout_ms = 3000;
    o.max_missed_heartbeats = 10;
    o.update_frequency_ms = 2000;
    o.subscriber_timeout_seconds = 30;
    o.statestored_ha_flags = {};
  } else if (FLAGS_timings == "fast") {
    o.statestored_flags = {"--catalogd_ha_preemption_wait_period_ms=3000",
                           "--active_catalogd_designation_monitoring_interval_ms=100",
                           "--active_catalogd_max_missed_heartbeats=3"};
  } else {
    return Status::InvalidArgument("--timings must be default or fast");
  }
  for (std::string& f : SplitFlags(FLAGS_statestored_flags)) o.statestored_flags.push_back(f);
  o.catalogd_flags = SplitFlags(FLAGS_catalogd_flags);
  o.coordinator_processes[0].extra_flags = SplitFlags(FLAGS_coordinator_flags);
  if (FLAGS_metastore == "postgres") {
    ICS_ASSIGN_OR_RETURN(o.shared_metastore, FreshMetastoreUri(MetastoreBackend::kPostgres, ""));
  } else if (FLAGS_metastore != "sqlite") {
    return Status::InvalidArgument("--metastore must be sqlite or postgres");
  }
  cluster_ = std::make_unique<ExternalCluster>(o);
  ICS_RETURN_IF_ERROR(cluster_->Start());
  monitor_ = std::make_unique<HaMonitor>(Millis(50));
  for (const char* role : {ExternalCluster::kStatestored, ExternalCluster::kStatestored2,
                           ExternalCluster::kCatalogd, ExternalCluster::kCatalogd2}) {
    UpdatePort(role, true);
  }
  monitor_->Start();
  double waited = 0;
  if (!WaitForActives(Millis(60000), &waited)) {
    return Status::General("no active catalogd and statestored 60 s after the start");
  }
  ExecOptions eo;
  eo.sync_ddl = true;
  eo.timeout_ms = 60000;
  ExecResult r = cluster_->Exec(0, std::string("CREATE DATABASE ") + ChaosClient::kDb, eo);
  if (!r.ok()) return Status::General("CREATE DATABASE: " + r.ToString());
  return Status::OK();
}

void ChaosRun::UpdatePort(const std::string& role, bool up) {
  monitor_->SetPort(HaMonitor::RoleOf(role), up ? cluster_->web_port(role) : 0);
}

std::string ChaosRun::PickTarget(const std::string& kind) {
  const bool catalogd = kind.find("catalogd") != std::string::npos;
  const Role a = catalogd ? Role::kCatalogd : Role::kStatestored;
  const Role b = catalogd ? Role::kCatalogd2 : Role::kStatestored2;
  if (down_.count(HaMonitor::Name(a)) != 0 || down_.count(HaMonitor::Name(b)) != 0) return "";
  const bool a_active = monitor_->Latest(a) == HaMonitor::kActive;
  const bool b_active = monitor_->Latest(b) == HaMonitor::kActive;
  if (a_active == b_active) return "";  // none or both: wait for the pair to settle
  return HaMonitor::Name(a_active ? a : b);
}

void ChaosRun::ApplyDueHeals(bool all) {
  const auto now = Clock::now();
  for (auto it = heals_.begin(); it != heals_.end();) {
    if (!all && it->at > now) {
      ++it;
      continue;
    }
    if (it->restart) {
      Status s = cluster_->Restart(it->role);
      if (!s.ok()) problems_.push_back(it->role + " did not restart: " + s.ToString());
    } else {
      cluster_->Resume(it->role);
    }
    down_.erase(it->role);
    UpdatePort(it->role, true);
    it = heals_.erase(it);
  }
}

void ChaosRun::CheckNoneExited() {
  std::vector<std::string> roles = {ExternalCluster::kStatestored, ExternalCluster::kStatestored2,
                                    ExternalCluster::kCatalogd, ExternalCluster::kCatalogd2,
                                    ExternalCluster::CoordinatorProcess(0)};
  for (const std::string& role : roles) {
    if (down_.count(role) != 0 || cluster_->IsRunning(role)) continue;
    problems_.push_back(role + " exited by itself: " +
                        cluster_->process(role)->ExitDescription());
    down_[role] = "exited";  // reported once; not restarted
  }
}

void ChaosRun::InjectFaults(Clock::time_point end) {
  std::vector<std::string> kinds;
  std::stringstream in(FLAGS_faults);
  for (std::string k; std::getline(in, k, ',');) {
    if (!k.empty()) kinds.push_back(k);
  }
  auto next = Clock::now() + Millis(Uniform(rng_, FLAGS_fault_min_ms, FLAGS_fault_max_ms));
  while (Clock::now() < end) {
    ApplyDueHeals(false);
    CheckNoneExited();
    if (Clock::now() >= next && !kinds.empty()) {
      const std::string kind = kinds[Uniform(rng_, 0, static_cast<int>(kinds.size()) - 1)];
      const std::string role = PickTarget(kind);
      if (role.empty()) {
        next = Clock::now() + Millis(200);  // the pair is not settled yet
      } else {
        const bool kill = kind.rfind("kill", 0) == 0;
        UpdatePort(role, false);
        Fault f{kind, role, Clock::now(), end};
        if (kill) {
          cluster_->Kill(role);
          heals_.push_back({f.at + Millis(Uniform(rng_, FLAGS_restart_min_ms,
                                                  FLAGS_restart_max_ms)), role, true});
        } else {
          Status s = cluster_->Pause(role);
          if (!s.ok()) problems_.push_back("could not pause " + role + ": " + s.ToString());
          heals_.push_back(
              {f.at + Millis(Uniform(rng_, FLAGS_pause_min_ms, FLAGS_pause_max_ms)), role, false});
        }
        down_[role] = kill ? "killed" : "paused";
        if (!faults_.empty()) faults_.back().until = f.at;
        faults_.push_back(f);
        std::printf("[%6.1f s, %s] %s %s\n", Ms(f.at - baseline_from_) / 1000,
                    WallClock().c_str(), kind.c_str(), role.c_str());
        std::fflush(stdout);
        next = Clock::now() + Millis(Uniform(rng_, FLAGS_fault_min_ms, FLAGS_fault_max_ms));
      }
    }
    std::this_thread::sleep_for(Millis(20));
  }
}

bool ChaosRun::WaitForActives(Millis bound, double* waited_ms) {
  const auto start = Clock::now();
  const bool ok = WaitFor(
      [&] {
        const auto one = [&](Role a, Role b) {
          return (monitor_->Latest(a) == HaMonitor::kActive) !=
                 (monitor_->Latest(b) == HaMonitor::kActive);
        };
        return one(Role::kCatalogd, Role::kCatalogd2) &&
               one(Role::kStatestored, Role::kStatestored2);
      },
      bound);
  *waited_ms = Ms(Clock::now() - start);
  return ok;
}

int ChaosRun::Main() {
  Status s = StartCluster();
  if (!s.ok()) {
    std::fprintf(stderr, "chaos: the cluster did not start: %s\n", s.ToString().c_str());
    if (cluster_) {
      cluster_->set_keep_dir(true);
      cluster_->DumpLogs(std::cerr);
    }
    return 2;
  }
  std::printf("chaos: seed %llu, metastore %s, timings %s, %d s of faults (%s), cluster dir %s\n",
              static_cast<unsigned long long>(FLAGS_seed), FLAGS_metastore.c_str(),
              FLAGS_timings.c_str(), FLAGS_seconds, FLAGS_faults.c_str(),
              cluster_->dir().c_str());
  std::fflush(stdout);
  for (int c = 0; c < FLAGS_clients; ++c) {
    clients_.push_back(std::make_unique<ChaosClient>(cluster_.get(), c, c,
                                                     (c + 1) % FLAGS_clients,
                                                     FLAGS_seed * 1000 + c, FLAGS_sync_ddl_percent));
  }
  baseline_from_ = Clock::now();
  for (auto& c : clients_) c->Start();
  std::this_thread::sleep_for(std::chrono::seconds(FLAGS_baseline_seconds));
  baseline_to_ = Clock::now();

  InjectFaults(baseline_to_ + std::chrono::seconds(FLAGS_seconds));
  const auto faults_end = Clock::now();
  ApplyDueHeals(true);
  const auto healed_at = Clock::now();
  double waited = 0;
  if (!WaitForActives(Millis(FLAGS_active_bound_ms), &waited)) {
    problems_.push_back("after healing, no single active catalogd and statestored within " +
                        std::to_string(FLAGS_active_bound_ms) + " ms");
  }
  std::printf("healed: every daemon up; one active of each pair %.0f ms later\n", waited);
  std::this_thread::sleep_for(std::chrono::seconds(FLAGS_settle_seconds));
  for (auto& c : clients_) c->Finish();
  const auto end = Clock::now();
  if (!faults_.empty()) faults_.back().until = faults_end;
  CheckNoneExited();

  // Every coordinator agrees with every client's model.
  for (int i = 0; i < FLAGS_clients; ++i) {
    ExecOptions eo;
    eo.sync_ddl = true;
    eo.timeout_ms = 60000;
    ExecResult r = cluster_->Exec(i, "CREATE DATABASE IF NOT EXISTS chaos_done", eo);
    if (!r.ok()) problems_.push_back("final SYNC_DDL on coordinator " + std::to_string(i) +
                                     " failed: " + r.ToString());
  }
  for (auto& c : clients_) {
    for (int i = 0; i < FLAGS_clients; ++i) c->Verify(i, &problems_);
  }
  monitor_->Finish();
  for (const char* role : {ExternalCluster::kStatestored, ExternalCluster::kStatestored2,
                           ExternalCluster::kCatalogd, ExternalCluster::kCatalogd2}) {
    for (const std::string& line : CrashLines(cluster_->LogPath(role))) {
      problems_.push_back(std::string(role) + " log: " + line);
    }
  }
  for (const std::string& line : CrashLines(cluster_->LogPath(ExternalCluster::CoordinatorProcess(0)))) {
    problems_.push_back("coordinator-sim log: " + line);
  }
  Report(baseline_from_, faults_end, healed_at, end);
  const bool long_gap = longest_gap_ms_ > FLAGS_keep_dir_gap_ms;
  if (!problems_.empty() || FLAGS_keep_dir || long_gap) cluster_->set_keep_dir(true);
  if (long_gap && problems_.empty()) {
    std::printf("a gap of %.0f ms: logs kept in %s\n", longest_gap_ms_, cluster_->dir().c_str());
  }
  if (!problems_.empty()) {
    std::printf("FAILED: %zu problem(s)\n", problems_.size());
    for (size_t i = 0; i < problems_.size() && i < 50; ++i) {
      std::printf("  %s\n", problems_[i].c_str());
    }
    std::printf("logs kept in %s\n", cluster_->dir().c_str());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

void ChaosRun::Report(Clock::time_point run_start, Clock::time_point faults_end,
                      Clock::time_point healed_at, Clock::time_point end) {
  std::vector<Clock::time_point> all;
  std::vector<std::vector<Clock::time_point>> per_client;
  int acked = 0, failed = 0, sync_acked = 0, stale = 0, unconfirmed = 0;
  std::vector<std::string> errors;
  std::ofstream dump;
  if (!FLAGS_statements_file.empty()) dump.open(FLAGS_statements_file);
  for (auto& c : clients_) {
    std::vector<Clock::time_point> mine;
    for (const ChaosStatement& st : c->statements()) {
      if (dump.is_open()) {
        dump << st.client << '\t' << TimeOfDay(st.start) << '\t' << TimeOfDay(st.end) << '\t'
             << static_cast<int64_t>(Ms(st.end - st.start)) << '\t'
             << (st.ok ? (st.warning.empty() ? "ok" : "ok-unconfirmed") : "failed") << '\t'
             << (st.sync_ddl ? "sync" : "-") << '\t' << st.sql << '\n';
      }
      if (st.ok) {
        ++acked;
        sync_acked += st.sync_ddl ? 1 : 0;
        if (!st.warning.empty()) {
          ++unconfirmed;
          errors.push_back(st.sql + " [SYNC_DDL] acknowledged with " + st.warning);
        }
        all.push_back(st.end);
        mine.push_back(st.end);
      } else {
        ++failed;
        errors.push_back(st.sql + (st.sync_ddl ? " [SYNC_DDL]" : "") + " -> " + st.error);
      }
    }
    std::sort(mine.begin(), mine.end());
    per_client.push_back(std::move(mine));
    stale += c->stale_reads();
    for (const std::string& line : c->stale_read_log()) problems_.push_back("stale read: " + line);
  }
  std::sort(all.begin(), all.end());
  std::printf("statements: %d acknowledged (%d with SYNC_DDL, %d of them unconfirmed), %d failed, "
              "%d stale reads, %.1f s in all\n",
              acked, sync_acked, unconfirmed, failed, stale, Ms(end - run_start) / 1000);
  for (size_t i = 0; i < errors.size() && i < 20; ++i) {
    std::printf("  failed: %s\n", errors[i].c_str());
  }

  const auto client_stall = [&](Clock::time_point from, Clock::time_point to) {
    double worst = 0;
    for (const auto& mine : per_client) worst = std::max(worst, LongestGap(mine, from, to));
    return worst;
  };
  std::printf("baseline (%d s, no faults): gap %.0f ms, client stall %.0f ms\n",
              FLAGS_baseline_seconds, LongestGap(all, baseline_from_, baseline_to_),
              client_stall(baseline_from_, baseline_to_));

  const std::vector<HaMonitor::Sample> samples = monitor_->samples();
  std::map<std::string, std::vector<double>> gaps, stalls, to_active;
  for (const Fault& f : faults_) {
    gaps[f.kind].push_back(LongestGap(all, f.at, f.until));
    stalls[f.kind].push_back(client_stall(f.at, f.until));
    const bool catalogd = f.kind.find("catalogd") != std::string::npos;
    const Role faulted = HaMonitor::RoleOf(f.role);
    const Role peer = catalogd ? (faulted == Role::kCatalogd ? Role::kCatalogd2 : Role::kCatalogd)
                               : (faulted == Role::kStatestored ? Role::kStatestored2
                                                                : Role::kStatestored);
    double took = -1;
    for (const HaMonitor::Sample& s : samples) {
      if (s.at < f.at) continue;
      if (s.at > f.until) break;
      if (s.state[peer] == HaMonitor::kActive) {
        took = Ms(s.at - f.at);
        break;
      }
    }
    if (took < 0) {
      const double window = Ms(f.until - f.at);
      if (window > FLAGS_active_bound_ms) {
        problems_.push_back(f.kind + " of " + f.role + ": " + HaMonitor::Name(peer) +
                            " was not active within " + std::to_string(FLAGS_active_bound_ms) +
                            " ms");
      }
      took = window;
    }
    to_active[f.kind].push_back(took);
  }
  std::printf("faults: %zu in %.0f s\n", faults_.size(), Ms(faults_end - baseline_to_) / 1000);
  for (const auto& [kind, v] : gaps) {
    std::printf("  %-18s n=%-3zu gap: %s; client stall: %s; peer active after: %s\n",
                kind.c_str(), v.size(), Percentiles(v).c_str(), Percentiles(stalls[kind]).c_str(),
                Percentiles(to_active[kind]).c_str());
  }
  std::printf("after healing: gap %.0f ms\n", LongestGap(all, healed_at, end));
  // The longest gaps of the whole run, wherever they fell.
  std::vector<std::pair<double, Clock::time_point>> longest;
  for (size_t i = 1; i < all.size(); ++i) longest.emplace_back(Ms(all[i] - all[i - 1]), all[i - 1]);
  std::sort(longest.begin(), longest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (!longest.empty()) longest_gap_ms_ = longest[0].first;
  std::printf("longest gaps:");
  for (size_t i = 0; i < longest.size() && i < 5; ++i) {
    std::printf(" %.0f ms from %s;", longest[i].first, TimeOfDay(longest[i].second).c_str());
  }
  std::printf("\n");

  // Moments two members of a pair reported the active role at once.
  for (const bool catalogd : {true, false}) {
    const Role a = catalogd ? Role::kCatalogd : Role::kStatestored;
    const Role b = catalogd ? Role::kCatalogd2 : Role::kStatestored2;
    int both = 0;
    for (const HaMonitor::Sample& s : samples) {
      both += s.state[a] == HaMonitor::kActive && s.state[b] == HaMonitor::kActive ? 1 : 0;
    }
    std::printf("samples with both %s reporting active: %d of %zu\n",
                catalogd ? "catalogds" : "statestoreds", both, samples.size());
  }
}

}  // namespace
}  // namespace ics::external

int main(int argc, char** argv) {
  gflags::SetUsageMessage("fault-injection run of the HA cluster (see tests/external/chaos_main.cc)");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  ics::external::ChaosRun run;
  return run.Main();
}
