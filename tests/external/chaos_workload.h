// ChaosClient: one client of the fault-injection run (chaos_main.cc). It
// runs DDL through one coordinator of an ExternalCluster — CREATE TABLE,
// ALTER TABLE ADD PARTITION / DROP PARTITION / SET TBLPROPERTIES, a share
// of them with SYNC_DDL — on tables only it writes (chaos.c<k>_t<n>), and
// keeps a model of what those tables must hold:
//  * an acknowledged statement's effect must be there (unless a later
//    acknowledged statement of this client undid it);
//  * a failed statement's effect must not be (every value it writes is
//    used once: partition p=<n>, property ck<n>; a table whose CREATE
//    failed, or a partition whose DROP failed, is never touched again).
// After every acknowledged SYNC_DDL statement it reads the change back on
// another coordinator; a read that does not show it is a stale read.
//
// Thread-safety: Start/Finish/Verify from one thread (the run's); the
// counters and statements() may be read while the client runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/util/mutex.h"
#include "tests/external/external_cluster.h"

namespace ics::external {

// One statement a client sent and how it ended.
struct ChaosStatement {
  int client = 0;
  std::string sql;
  bool sync_ddl = false;
  bool ok = false;
  std::string error;
  // An acknowledged SYNC_DDL statement whose wait for every coordinator
  // timed out carries a WARNING message (the change is committed).
  std::string warning;
  Clock::time_point start;
  Clock::time_point end;
};

class ChaosClient {
 public:
  // `client` is this client's number (and its tables' prefix); it sends its
  // statements to coordinator `coordinator` and reads SYNC_DDL results back
  // on `check_coordinator`. `sync_ddl_percent` of the statements use SYNC_DDL.
  ChaosClient(ExternalCluster* cluster, int client, int coordinator, int check_coordinator,
              uint64_t seed, int sync_ddl_percent);
  ~ChaosClient();
  ChaosClient(const ChaosClient&) = delete;
  ChaosClient& operator=(const ChaosClient&) = delete;

  void Start();
  // Stops after the statement in flight; idempotent.
  void Finish();

  int acked() const { return acked_.load(); }
  int failed() const { return failed_.load(); }
  int stale_reads() const { return stale_reads_.load(); }
  std::vector<ChaosStatement> statements() const;
  // Stale reads seen, one line each.
  std::vector<std::string> stale_read_log() const;

  // Reads this client's tables on `coordinator` (after Finish) and appends
  // one line per difference from the model to `problems`.
  void Verify(int coordinator, std::vector<std::string>* problems);

  // The database every client writes in.
  static constexpr const char* kDb = "chaos";

 private:
  struct TableModel {
    std::set<int> partitions;       // must be present
    std::set<int> absent;           // must not be present (dropped, or failed ADD)
    std::set<int> pinned;           // a DROP failed: present, never touched again
    std::map<std::string, std::string> properties;  // must be present with this value
    std::set<std::string> absent_properties;       // a failed SET wrote these keys
  };

  void Run();
  // One statement: picks it, runs it, updates the model.
  void Step();
  ExecResult Send(const std::string& sql, bool sync_ddl);
  // Reads the effect of an acknowledged SYNC_DDL statement back on the
  // check coordinator; `holds` judges the read. Retries reads that fail
  // (not stale: a read may meet a fault); counts one that succeeds and
  // does not hold.
  void CheckRead(const std::string& sql, const std::string& what,
                 const std::function<bool(const ExecResult&)>& holds);
  std::string TableName(int n) const;
  void Record(ChaosStatement s);

  ExternalCluster* const cluster_;
  const int client_;
  const int coordinator_;
  const int check_coordinator_;
  const int sync_ddl_percent_;
  std::mt19937_64 rng_;  // the client thread's only

  // The model: touched by the client thread while it runs, then by Verify.
  std::map<std::string, TableModel> tables_;
  std::set<std::string> absent_tables_;
  int next_table_ = 0;
  int next_value_ = 0;

  std::atomic<bool> stop_{false};
  std::atomic<int> acked_{0};
  std::atomic<int> failed_{0};
  std::atomic<int> stale_reads_{0};
  mutable Mutex mu_;
  std::vector<ChaosStatement> log_ GUARDED_BY(mu_);
  std::vector<std::string> stale_log_ GUARDED_BY(mu_);
  std::thread thread_;
};

// The time of day (UTC, with milliseconds) as the daemons' logs print it, of
// `t` and of now.
std::string TimeOfDay(Clock::time_point t);
std::string WallClock();

// Property keys and values of DESCRIBE FORMATTED's "Table Parameters"
// section.
std::map<std::string, std::string> TableParameters(const ExecResult& describe);
// Partition values p of SHOW PARTITIONS (its first column, "p=<n>" or
// "<n>", without the Total row).
std::set<int> PartitionValues(const ExecResult& show_partitions);

}  // namespace ics::external
