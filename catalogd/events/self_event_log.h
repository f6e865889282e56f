// Self-event tracking: which notification-log events catalogd's own DDL
// wrote, so the HMS event processor does not apply them a second time.
//
// SelfRecordingMetastore is a Metastore decorator for catalogd's DDL path:
// reads pass straight through; a successful Commit whose ops write n events
// wrote the ids last - n + 1 .. last, because a metastore assigns the ids of
// one transaction contiguously and Commit returns the last one
// (metastore.h). That range is recorded in the SelfEventLog. Writers that
// use the undecorated Metastore (the HMS endpoint, other processes) are
// external: their events are applied by the processor.
//
// Race the log closes: a commit is visible in the notification log a moment
// before Commit returns and its range is recorded. Barrier() waits until
// every commit that had started when it was called has recorded its range
// (or failed), so the processor calls it after fetching a batch and before
// classifying it: any event in the batch was committed before the fetch,
// hence by a commit that started before the barrier. Commits that start
// later never delay the barrier.
//
// A commit that fails with an unknown outcome (IO_ERROR from the final
// commit step) records nothing: if it did write events, they are applied as
// external ones, which is harmless (they converge to the metastore state).
//
// Ownership: the decorator borrows the inner Metastore and the log; both
// must outlive it. Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class SelfEventLog {
 public:
  SelfEventLog() = default;
  SelfEventLog(const SelfEventLog&) = delete;
  SelfEventLog& operator=(const SelfEventLog&) = delete;

  // Commits `txn` through `inner` and records the range of event ids it
  // wrote (when recording is on). Returns what inner->Commit returned.
  Result<int64_t> CommitAndRecord(Metastore* inner, const MetastoreTxn& txn) EXCLUDES(mu_);

  // Whether event `event_id` was written by a recorded commit.
  bool IsSelf(int64_t event_id) const EXCLUDES(mu_);

  // Waits until every commit that started before this call has finished
  // (and recorded its range if it succeeded).
  void Barrier() EXCLUDES(mu_);

  // Forgets ranges that end at or before `event_id` (already processed).
  void ForgetThrough(int64_t event_id) EXCLUDES(mu_);

  // Off by default: with no processor consuming the log, recording would
  // only grow it. The processor turns it on when it starts.
  void SetRecording(bool on) EXCLUDES(mu_);

  size_t num_ranges() const EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  CondVar cv_;
  bool recording_ GUARDED_BY(mu_) = false;
  int64_t next_ticket_ GUARDED_BY(mu_) = 0;
  std::set<int64_t> in_flight_ GUARDED_BY(mu_);  // tickets of unfinished commits
  std::map<int64_t, int64_t> ranges_ GUARDED_BY(mu_);  // last event id -> first
};

// Forwards everything to `inner`; Commit goes through `log`.
class SelfRecordingMetastore final : public Metastore {
 public:
  SelfRecordingMetastore(Metastore* inner, SelfEventLog* log) : inner_(inner), log_(log) {}

  Result<std::vector<std::string>> GetAllDatabases() override { return inner_->GetAllDatabases(); }
  Result<hive::Database> GetDatabase(const std::string& db) override {
    return inner_->GetDatabase(db);
  }
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override {
    return inner_->GetAllTables(db);
  }
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override {
    return inner_->GetTable(db, table);
  }
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override {
    return inner_->GetPartitions(db, table);
  }
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override {
    return inner_->GetPartitionsByNames(db, table, names);
  }
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override {
    return inner_->GetFunctions(db);
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override {
    return inner_->GetTableColumnStats(db, table);
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table,
      const std::string& partition_name) override {
    return inner_->GetPartitionColumnStats(db, table, partition_name);
  }
  Result<TableVersionRecord> GetCurrentTableVersion(const std::string& db,
                                                    const std::string& table) override {
    return inner_->GetCurrentTableVersion(db, table);
  }
  Result<TableVersionRecord> GetArchivedTableVersion(const std::string& db,
                                                     const std::string& table,
                                                     int64_t version_id) override {
    return inner_->GetArchivedTableVersion(db, table, version_id);
  }
  Result<std::vector<TableVersionRecord>> ListArchivedTableVersions(const std::string& db,
                                                                    const std::string& table,
                                                                    int64_t below_version_id,
                                                                    int limit) override {
    return inner_->ListArchivedTableVersions(db, table, below_version_id, limit);
  }
  Result<TableVersionRecord> GetTableVersionAsOf(const std::string& db, const std::string& table,
                                                 int64_t at_ms) override {
    return inner_->GetTableVersionAsOf(db, table, at_ms);
  }
  Result<int64_t> Commit(const MetastoreTxn& txn) override {
    return log_->CommitAndRecord(inner_, txn);
  }
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override {
    return inner_->GetNextNotifications(after_event_id, max_events);
  }
  Result<int64_t> CurrentNotificationEventId() override {
    return inner_->CurrentNotificationEventId();
  }

 private:
  Metastore* const inner_;
  SelfEventLog* const log_;
};

}  // namespace ics::catalog
