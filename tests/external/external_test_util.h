// Shared fixture of the External* multi-process suites: owns one
// ExternalCluster, tears it down (every process killed) after each test,
// and on failure prints the tail of every role's log and keeps its dir.
#pragma once

#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/external/external_cluster.h"
#include "tests/util/eventually.h"

namespace ics::external {

// A sorted copy.
inline std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

inline bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

class ExternalTest : public ::testing::Test {
 protected:
  // Creates and starts the cluster; nullptr (with a test failure) if it did
  // not come up.
  ExternalCluster* StartCluster(ExternalClusterOptions o) {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    o.name = "ics-ext-" + name;
    cluster_ = std::make_unique<ExternalCluster>(std::move(o));
    Status s = cluster_->Start();
    if (!s.ok()) {
      ADD_FAILURE() << "cluster did not start: " << s.ToString();
      return nullptr;
    }
    return cluster_.get();
  }

  void TearDown() override { StopCluster(); }

  void StopCluster() {
    if (cluster_ == nullptr) return;
    if (HasFailure()) {
      cluster_->set_keep_dir(true);
      cluster_->DumpLogs(std::cout);
    }
    cluster_.reset();  // kills every process
  }

  ExternalCluster& c() { return *cluster_; }

  // Runs `sql` on coordinator i and records a failure when it fails.
  ExecResult MustExec(int i, const std::string& sql, bool sync_ddl = false) {
    ExecResult r = cluster_->Exec(i, sql, sync_ddl);
    EXPECT_TRUE(r.ok()) << "coordinator " << i << ": " << sql << "\n  -> " << r.ToString();
    return r;
  }

  // SHOW TABLES IN db on coordinator i, sorted; empty (with `*ok` false)
  // when the statement failed.
  std::vector<std::string> Tables(int i, const std::string& db, bool* ok = nullptr,
                                  int timeout_ms = 10000) {
    ExecOptions o;
    o.timeout_ms = timeout_ms;
    ExecResult r = cluster_->Exec(i, "SHOW TABLES IN " + db, o);
    if (ok != nullptr) *ok = r.ok();
    return r.ok() ? Sorted(r.Column(0)) : std::vector<std::string>{};
  }

  // Partition values (first column of SHOW PARTITIONS, without the Total
  // row), sorted.
  std::vector<std::string> Partitions(int i, const std::string& table, bool* ok = nullptr) {
    ExecResult r = cluster_->Exec(i, "SHOW PARTITIONS " + table);
    if (ok != nullptr) *ok = r.ok();
    std::vector<std::string> out;
    for (const auto& v : r.Column(0)) {
      if (v != "Total") out.push_back(v);
    }
    return Sorted(out);
  }

  std::unique_ptr<ExternalCluster> cluster_;
};

}  // namespace ics::external
