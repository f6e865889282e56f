// TimedMetastore: a Metastore decorator that records how long every call to
// the wrapped metastore takes, for catalogd's /metrics:
//
//   catalogd_metastore_call_duration_seconds{call="get_table"}  histogram
//   catalogd_metastore_call_errors_total{call="get_table"}      counter
//
// `call` is the method name in snake_case ("commit" for transactions). The
// results are passed through unchanged.
//
// Ownership: owns the wrapped metastore; the registry is borrowed and must
// outlive it. Thread-safety: as thread-safe as the wrapped metastore (the
// metrics are lock-free).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "common/metrics/metrics.h"

namespace ics::catalog {

class TimedMetastore final : public Metastore {
 public:
  TimedMetastore(std::unique_ptr<Metastore> inner, metrics::MetricRegistry* registry);

  Result<std::vector<std::string>> GetAllDatabases() override;
  Result<hive::Database> GetDatabase(const std::string& db) override;
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override;
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override;
  Result<std::unique_ptr<PartitionReader>> ReadPartitions(const std::string& db,
                                                          const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override;
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table, const std::string& partition_name) override;
  Result<TableVersionRecord> GetCurrentTableVersion(const std::string& db,
                                                    const std::string& table) override;
  Result<TableVersionRecord> GetArchivedTableVersion(const std::string& db,
                                                     const std::string& table,
                                                     int64_t version_id) override;
  Result<std::vector<TableVersionRecord>> ListArchivedTableVersions(const std::string& db,
                                                                    const std::string& table,
                                                                    int64_t below_version_id,
                                                                    int limit) override;
  Result<TableVersionRecord> GetTableVersionAsOf(const std::string& db, const std::string& table,
                                                 int64_t at_ms) override;
  Result<int64_t> Commit(const MetastoreTxn& txn) override;
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override;
  Result<std::vector<NotificationEvent>> GetMatchingNotifications(
      int64_t after_event_id, int max_events, const NotificationFilter& filter) override;
  Result<int64_t> CurrentNotificationEventId() override;
  Result<int64_t> FirstRetainedNotificationEventId() override;
  Result<int64_t> PruneNotifications(const NotificationRetention& r) override;
  Result<int64_t> PruneTableVersions(int64_t keep_per_table, int batch_limit) override;
  Result<std::optional<RecordedRequest>> LookupRequest(const std::string& request_id) override;
  Result<WriterEpoch> AcquireWriterEpoch(const WriterEpochClaim& claim) override;
  Result<WriterEpoch> ReadWriterEpoch() override;
  Result<int64_t> CommitFenced(const MetastoreTxn& txn, int64_t epoch) override;

 private:
  // The metrics of one method.
  struct Call {
    metrics::Histogram* latency;
    metrics::Counter* errors;
  };
  Call MakeCall(metrics::MetricRegistry* registry, const std::string& name);
  // Runs fn() and records its latency (and an error) under `call`.
  template <typename Fn>
  auto Timed(const Call& call, Fn&& fn) -> decltype(fn());

  const std::unique_ptr<Metastore> inner_;
  Call get_all_databases_, get_database_, get_all_tables_, get_table_, get_partitions_,
      get_partitions_by_names_, get_functions_, get_table_column_stats_,
      get_partition_column_stats_, get_current_table_version_, get_archived_table_version_,
      list_archived_table_versions_, get_table_version_as_of_, commit_, get_next_notifications_,
      current_notification_event_id_, first_retained_notification_event_id_, prune_notifications_,
      prune_table_versions_, lookup_request_, writer_epoch_;
};

}  // namespace ics::catalog
