// PartitionIndexManager: the partition indexes of every table — their
// definitions, states and in-memory indexes (partition_index.h).
//
// Definitions live in the table's parameters, one per index:
//   "ics.partition_index.<name>" = "key1,key2"
// so they are written with the table (in the same metastore transaction as
// any DDL) and survive a restart. SyncTable(t) reconciles memory with a
// table state's definitions: a new definition gets an index in state
// CREATING, built by a background worker, which then becomes ACTIVE (or
// FAILED, with backfill errors, if some partition's values do not fit the
// key types); a definition that disappeared drops its index. Listings use
// only ACTIVE indexes; after partition changes, Changed(t) has the worker
// bring the table's indexes up to date (a lookup also syncs first, so a
// listing never sees a stale index).
//
// Exception barrier: a background job that throws (an allocation while
// building or syncing) never ends the worker. The job's indexes become
// FAILED with the reason in `failure` (a half-synced index is not used, so
// listings stay correct, scanning), the exception is logged and counted
// (job_exceptions), and the worker takes the next job.
//
// Lock order: mu_ -> nothing (the indexes' own mutexes are taken without
// holding mu_). Thread-safety: thread-safe. Shutdown() stops the worker;
// idempotent, also run by the destructor.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/ops/partition_index.h"
#include "common/util/mutex.h"

namespace ics::catalog::ops {

inline constexpr char kIndexParamPrefix[] = "ics.partition_index.";
inline constexpr size_t kMaxIndexesPerTable = 3;
inline constexpr size_t kMaxIndexNameBytes = 255;

enum class IndexState { kCreating, kActive, kFailed, kDeleting };
std::string_view IndexStateName(IndexState s);

struct IndexDefinition {
  std::string name;
  std::vector<std::string> keys;
};

// The definitions stored in a table's parameters, by name.
std::map<std::string, IndexDefinition> IndexDefinitions(const hive::Table& t);
// The parameter value of a definition ("k1,k2").
std::string IndexParamValue(const IndexDefinition& d);
// INVALID_ARGUMENT unless 1..255 bytes of [A-Za-z0-9_-].
[[nodiscard]] Status ValidateIndexName(const std::string& name);

struct IndexInfo {
  std::string name;
  std::vector<PartitionKeyInfo> keys;
  std::vector<std::string> key_types;  // Hive type strings
  IndexState state = IndexState::kCreating;
  std::vector<BackfillError> backfill_errors;
  std::string failure;  // why FAILED, when it is not backfill
};

class PartitionIndexManager {
 public:
  PartitionIndexManager();
  ~PartitionIndexManager();
  PartitionIndexManager(const PartitionIndexManager&) = delete;
  PartitionIndexManager& operator=(const PartitionIndexManager&) = delete;

  void Shutdown() EXCLUDES(mu_);

  // Jobs of the background worker that threw (see the file comment).
  int64_t job_exceptions() const EXCLUDES(mu_);
  // Test seam: run by the worker at the start of every job, with the
  // table's key ("db.table"). May throw.
  void SetJobHookForTesting(std::function<void(const std::string&)> hook) EXCLUDES(mu_);

  // Reconciles the table's indexes with `t`'s definitions (see above).
  void SyncTable(const TablePtr& t) EXCLUDES(mu_);
  // After a partition change: schedules a background sync of the table's
  // ACTIVE indexes to `t`.
  void Changed(const TablePtr& t) EXCLUDES(mu_);
  // Forgets a table's indexes (table dropped).
  void ForgetTable(const std::string& db, const std::string& table) EXCLUDES(mu_);

  // The indexes of a table, by name (after SyncTable).
  std::vector<IndexInfo> List(const std::string& db, const std::string& table) const EXCLUDES(mu_);
  std::optional<IndexInfo> Get(const std::string& db, const std::string& table,
                               const std::string& name) const EXCLUDES(mu_);
  // Marks an index DELETING (while its definition is being removed).
  void MarkDeleting(const std::string& db, const std::string& table, const std::string& name)
      EXCLUDES(mu_);
  // Undoes MarkDeleting after a failed delete.
  void UnmarkDeleting(const std::string& db, const std::string& table, const std::string& name)
      EXCLUDES(mu_);

  struct Candidates {
    std::string index_name;
    std::vector<int64_t> ids;
  };
  // Candidate partition ids of `t` from the ACTIVE index that pins the most
  // keys of `constraints`; nullopt if no index helps.
  std::optional<Candidates> Find(const TablePtr& t,
                                 const std::map<size_t, KeyConstraint>& constraints) const
      EXCLUDES(mu_);

 private:
  struct Entry {
    IndexInfo info;
    std::vector<size_t> positions;
    std::shared_ptr<PartitionIndex> index;  // set when built
  };
  struct Job {
    std::string table_key;
    std::string name;  // empty: sync every ACTIVE index
    std::shared_ptr<Entry> entry;
    TablePtr table;
  };
  static std::string TableKey(const std::string& db, const std::string& table) {
    return db + "." + table;
  }
  void Worker() EXCLUDES(mu_);
  void RunJob(const Job& job) EXCLUDES(mu_);
  // After `job` threw: marks the indexes it was building or syncing FAILED.
  void FailJob(const Job& job, const std::string& why) EXCLUDES(mu_);

  mutable Mutex mu_;
  CondVar cv_;
  bool shutdown_ GUARDED_BY(mu_) = false;
  // table key -> index name -> entry (entries are replaced, not mutated,
  // except info and index under mu_; readers copy `index` under mu_).
  std::map<std::string, std::map<std::string, std::shared_ptr<Entry>>> tables_ GUARDED_BY(mu_);
  // The newest table version SyncTable saw, per table with indexes: an
  // older snapshot (a listing that raced a change) is not synced back.
  std::map<std::string, int64_t> synced_versions_ GUARDED_BY(mu_);
  std::deque<Job> jobs_ GUARDED_BY(mu_);
  int64_t job_exceptions_ GUARDED_BY(mu_) = 0;
  std::function<void(const std::string&)> job_hook_ GUARDED_BY(mu_);
  std::thread worker_;
};

}  // namespace ics::catalog::ops
