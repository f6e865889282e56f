// FakeMetastore: an in-memory Metastore for loader tests and benchmarks.
//
// Tables, partitions and column stats live in maps; the test populates them
// directly with Put*() (no transactions, no notification log: Commit and the
// notification calls return NOT_IMPLEMENTED / empty). Partitions are keyed
// by their Hive name, computed from the table's partition keys, so
// GetPartitions returns them ordered by name as the interface promises.
// FailNext() makes the next read fail with a given status (fault injection).
// UseStoredForm(true) makes ReadPartitions behave as the SQL metastores'
// reader: partitions held encoded, named and digested (Peek) before they
// are decoded; decodes() counts the partitions decoded (taken) so far.
//
// Thread-safety: thread-safe (one mutex around everything).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "common/codec/thrift_serde.h"
#include "common/hive/partition_name.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class FakeMetastore final : public Metastore {
 public:
  void PutTable(hive::Table t) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    tables_[Key(t.dbName, t.tableName)] = std::move(t);
  }

  // The table must have been put first (its keys name the partition).
  [[nodiscard]] Status PutPartition(hive::Partition p) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    auto t = tables_.find(Key(p.dbName, p.tableName));
    if (t == tables_.end()) return Status::NotFound("no table " + p.dbName + "." + p.tableName);
    std::vector<std::string> keys;
    for (const hive::FieldSchema& f : t->second.partitionKeys) keys.push_back(f.name);
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, p.values));
    partitions_[Key(p.dbName, p.tableName)][name] = std::move(p);
    return Status::OK();
  }

  void PutTableColumnStats(const std::string& db, const std::string& table,
                           std::vector<hive::ColumnStatisticsObj> stats) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    col_stats_[Key(db, table)] = std::move(stats);
  }

  // The next read call returns `s` instead of its result.
  void FailNext(Status s) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    fail_next_ = std::move(s);
  }

  Result<std::vector<std::string>> GetAllDatabases() override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    std::vector<std::string> dbs;
    for (const auto& [key, t] : tables_) {
      if (dbs.empty() || dbs.back() != t.dbName) dbs.push_back(t.dbName);
    }
    return dbs;
  }
  Result<hive::Database> GetDatabase(const std::string& db) override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    hive::Database d;
    d.name = db;
    return d;
  }
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    std::vector<std::string> names;
    for (const auto& [key, t] : tables_) {
      if (t.dbName == db) names.push_back(t.tableName);
    }
    return names;
  }
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override
      EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    auto it = tables_.find(Key(db, table));
    if (it == tables_.end()) return Status::NotFound("table " + db + "." + table + " does not exist");
    return it->second;
  }
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override
      EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    std::vector<hive::Partition> out;
    auto it = partitions_.find(Key(db, table));
    if (it == partitions_.end()) return out;
    out.reserve(it->second.size());
    for (const auto& [name, p] : it->second) out.push_back(p);
    return out;
  }
  void UseStoredForm(bool on) { stored_form_ = on; }
  int64_t decodes() const { return decodes_.load(); }

  Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                          const std::string& table) override {
    ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts, GetPartitions(db, table));
    if (!stored_form_) return ReaderOf(std::move(parts));
    ICS_ASSIGN_OR_RETURN(hive::Table t, GetTable(db, table));
    std::vector<std::string> keys;
    for (const hive::FieldSchema& f : t.partitionKeys) keys.push_back(f.name);
    auto reader = std::make_unique<StoredReader>(&decodes_);
    for (const hive::Partition& p : parts) {
      ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, p.values));
      ICS_ASSIGN_OR_RETURN(std::string bytes, SerializeThrift(p, ThriftProtocol::kCompact));
      reader->rows.emplace_back(std::move(name), std::move(bytes));
    }
    return std::unique_ptr<PartitionReader>(std::move(reader));
  }
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    std::vector<hive::Partition> out;
    auto it = partitions_.find(Key(db, table));
    if (it == partitions_.end()) return out;
    for (const std::string& n : names) {
      auto p = it->second.find(n);
      if (p != it->second.end()) out.push_back(p->second);
    }
    return out;
  }
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string&) override {
    return std::vector<impala::TFunction>{};
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ICS_RETURN_IF_ERROR(TakeFailure());
    auto it = col_stats_.find(Key(db, table));
    if (it == col_stats_.end()) return std::vector<hive::ColumnStatisticsObj>{};
    return it->second;
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string&, const std::string&, const std::string&) override {
    return std::vector<hive::ColumnStatisticsObj>{};
  }
  Result<int64_t> Commit(const MetastoreTxn&) override {
    return Status::NotImplemented("FakeMetastore does not commit");
  }
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t, int) override {
    return std::vector<NotificationEvent>{};
  }
  Result<int64_t> CurrentNotificationEventId() override { return int64_t{0}; }

 private:
  // Partitions as (name, compact-encoded bytes), decoded when taken.
  struct StoredReader final : PartitionReader {
    explicit StoredReader(std::atomic<int64_t>* decodes) : decodes(decodes) {}
    size_t size() const override { return rows.size(); }
    std::optional<Stored> Peek(size_t i) const override {
      Stored st;
      st.name = rows[i].first;
      st.digest = std::hash<std::string>{}(rows[i].second) | 1;
      return st;
    }
    Result<hive::Partition> Take(size_t i) override {
      decodes->fetch_add(1);
      return DeserializeThriftAs<hive::Partition>(rows[i].second, ThriftProtocol::kCompact);
    }
    std::atomic<int64_t>* const decodes;
    std::vector<std::pair<std::string, std::string>> rows;
  };

  static std::string Key(const std::string& db, const std::string& table) {
    return db + "." + table;
  }
  Status TakeFailure() REQUIRES(mu_) {
    Status s = std::move(fail_next_);
    fail_next_ = Status::OK();
    return s;
  }

  std::atomic<bool> stored_form_{false};
  std::atomic<int64_t> decodes_{0};
  Mutex mu_;
  std::map<std::string, hive::Table> tables_ GUARDED_BY(mu_);
  std::map<std::string, std::map<std::string, hive::Partition>> partitions_ GUARDED_BY(mu_);
  std::map<std::string, std::vector<hive::ColumnStatisticsObj>> col_stats_ GUARDED_BY(mu_);
  Status fail_next_ GUARDED_BY(mu_);
};

}  // namespace ics::catalog
