// ForwardingMetastore: a Metastore that passes every call to another one
// (not owned; it must outlive this object). Decorators derive from it and
// override only the calls they change, so a method added to Metastore is
// forwarded by all of them without further edits.
//
// Thread-safety: as thread-safe as the inner metastore.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

class ForwardingMetastore : public Metastore {
 public:
  explicit ForwardingMetastore(Metastore* inner) : inner_(inner) {}

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
  Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                          const std::string& table) override {
    return inner_->ReadPartitions(db, table);
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
  Result<int64_t> Commit(const MetastoreTxn& txn) override { return inner_->Commit(txn); }
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override {
    return inner_->GetNextNotifications(after_event_id, max_events);
  }
  Result<std::vector<NotificationEvent>> GetMatchingNotifications(
      int64_t after_event_id, int max_events, const NotificationFilter& filter) override {
    return inner_->GetMatchingNotifications(after_event_id, max_events, filter);
  }
  Result<int64_t> CurrentNotificationEventId() override {
    return inner_->CurrentNotificationEventId();
  }
  Result<int64_t> FirstRetainedNotificationEventId() override {
    return inner_->FirstRetainedNotificationEventId();
  }
  Result<int64_t> PruneNotifications(const NotificationRetention& r) override {
    return inner_->PruneNotifications(r);
  }
  Result<int64_t> PruneTableVersions(int64_t keep_per_table, int batch_limit) override {
    return inner_->PruneTableVersions(keep_per_table, batch_limit);
  }
  Result<std::optional<RecordedRequest>> LookupRequest(const std::string& request_id) override {
    return inner_->LookupRequest(request_id);
  }
  Result<WriterEpoch> AcquireWriterEpoch(const WriterEpochClaim& claim) override {
    return inner_->AcquireWriterEpoch(claim);
  }
  Result<WriterEpoch> ReadWriterEpoch() override { return inner_->ReadWriterEpoch(); }
  Result<int64_t> CommitFenced(const MetastoreTxn& txn, int64_t epoch) override {
    return inner_->CommitFenced(txn, epoch);
  }

 protected:
  Metastore* inner() const { return inner_; }

 private:
  Metastore* const inner_;
};

}  // namespace ics::catalog
