// DdlStorm: a thread issuing CREATE TABLE storm.t_<i> and ALTER TABLE ...
// ADD PARTITION (p=1) PARTITION (p=2) through coordinator 0 of an
// ExternalCluster, recording what was acknowledged and what failed, for
// failure tests that then check nothing acknowledged was lost.
//
// Thread-safety: Start/Finish from the test's thread; the counters and
// statements() may be read while the storm runs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/external/external_cluster.h"

namespace ics::external {

struct StormStatement {
  int table = 0;
  bool create = true;  // CREATE TABLE, else ADD PARTITION (p=1) PARTITION (p=2)
  bool ok = false;
  std::string error;
  int64_t elapsed_ms = 0;
};

// A thread issuing CREATE TABLE storm.t_<i> / ALTER TABLE ... ADD PARTITION
// through coordinator 0 and recording what was acknowledged.
class DdlStorm {
 public:
  explicit DdlStorm(ExternalCluster* cluster) : cluster_(cluster) {}
  ~DdlStorm() { Finish(); }

  void Start() {
    thread_ = std::thread([this] { Run(); });
  }
  void Finish() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int acked() const { return acked_; }
  int failed() const { return failed_; }
  std::vector<StormStatement> statements() {
    std::lock_guard<std::mutex> l(mu_);
    return log_;
  }

 private:
  void Run() {
    for (int i = 0; !stop_; ++i) {
      if (!Issue(i, true)) continue;  // no table: no partitions to add
      Issue(i, false);
    }
  }
  bool Issue(int i, bool create) {
    const std::string t = "storm.t_" + std::to_string(i);
    const std::string sql = create
                                ? "CREATE TABLE " + t + " (id INT, s STRING) PARTITIONED BY (p INT)"
                                : "ALTER TABLE " + t + " ADD PARTITION (p=1) PARTITION (p=2)";
    ExecOptions o;
    o.timeout_ms = 15000;
    ExecResult r = cluster_->Exec(0, sql, o);
    {
      std::lock_guard<std::mutex> l(mu_);
      log_.push_back(
          {i, create, r.ok(), r.ok() ? "" : r.status.ToString(), int64_t{r.elapsed.count()}});
    }
    if (r.ok()) {
      ++acked_;
    } else {
      ++failed_;
      // Pace the retries while catalogd is down (not a synchronisation).
      std::this_thread::sleep_for(Millis(20));
    }
    return r.ok();
  }

  ExternalCluster* const cluster_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> acked_{0};
  std::atomic<int> failed_{0};
  std::mutex mu_;
  std::vector<StormStatement> log_;
};

// Checks the outcome of a storm, as one coordinator sees it (`tables`: SHOW
// TABLES IN storm; `partitions`: the partition values of storm.<table>):
// every acknowledged CREATE TABLE and ADD PARTITION is there, and no table
// is half-applied (it has both of its partitions or none).
inline void ExpectStormDurable(
    const std::vector<StormStatement>& log, const std::vector<std::string>& tables,
    const std::function<std::vector<std::string>(const std::string&)>& partitions) {
  const std::vector<std::string> both = {"1", "2"};
  for (const StormStatement& s : log) {
    if (!s.ok) continue;
    const std::string name = "t_" + std::to_string(s.table);
    if (s.create) {
      EXPECT_NE(std::find(tables.begin(), tables.end(), name), tables.end())
          << "acknowledged CREATE TABLE storm." << name << " lost";
    } else {
      EXPECT_EQ(partitions(name), both)
          << "acknowledged ADD PARTITION on storm." << name << " lost";
    }
  }
  for (const std::string& t : tables) {
    const std::vector<std::string> parts = partitions(t);
    EXPECT_TRUE(parts.empty() || parts == both)
        << "storm." << t << " has partitions " << ::testing::PrintToString(parts);
  }
}

}  // namespace ics::external
