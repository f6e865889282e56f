#include "catalogd/web/timed_metastore.h"

#include <chrono>

namespace ics::catalog {

TimedMetastore::TimedMetastore(std::unique_ptr<Metastore> inner, metrics::MetricRegistry* registry)
    : inner_(std::move(inner)),
      get_all_databases_(MakeCall(registry, "get_all_databases")),
      get_database_(MakeCall(registry, "get_database")),
      get_all_tables_(MakeCall(registry, "get_all_tables")),
      get_table_(MakeCall(registry, "get_table")),
      get_partitions_(MakeCall(registry, "get_partitions")),
      get_partitions_by_names_(MakeCall(registry, "get_partitions_by_names")),
      get_functions_(MakeCall(registry, "get_functions")),
      get_table_column_stats_(MakeCall(registry, "get_table_column_stats")),
      get_partition_column_stats_(MakeCall(registry, "get_partition_column_stats")),
      get_current_table_version_(MakeCall(registry, "get_current_table_version")),
      get_archived_table_version_(MakeCall(registry, "get_archived_table_version")),
      list_archived_table_versions_(MakeCall(registry, "list_archived_table_versions")),
      get_table_version_as_of_(MakeCall(registry, "get_table_version_as_of")),
      commit_(MakeCall(registry, "commit")),
      get_next_notifications_(MakeCall(registry, "get_next_notifications")),
      current_notification_event_id_(MakeCall(registry, "current_notification_event_id")),
      first_retained_notification_event_id_(
          MakeCall(registry, "first_retained_notification_event_id")),
      prune_notifications_(MakeCall(registry, "prune_notifications")),
      prune_table_versions_(MakeCall(registry, "prune_table_versions")),
      lookup_request_(MakeCall(registry, "lookup_request")),
      writer_epoch_(MakeCall(registry, "writer_epoch")) {}

TimedMetastore::Call TimedMetastore::MakeCall(metrics::MetricRegistry* registry,
                                              const std::string& name) {
  const metrics::Labels labels = {{"call", name}};
  return Call{registry->AddHistogram("catalogd_metastore_call_duration_seconds",
                                     "Latency of catalogd's calls to its metastore, by call.",
                                     1e-6, labels),
              registry->AddCounter("catalogd_metastore_call_errors_total",
                                   "Metastore calls of catalogd that returned an error, by call.",
                                   labels)};
}

template <typename Fn>
auto TimedMetastore::Timed(const Call& call, Fn&& fn) -> decltype(fn()) {
  const auto start = std::chrono::steady_clock::now();
  auto r = fn();
  call.latency->RecordMicrosSince(start);
  if (!r.ok()) call.errors->Increment();
  return r;
}

Result<std::vector<std::string>> TimedMetastore::GetAllDatabases() {
  return Timed(get_all_databases_, [&] { return inner_->GetAllDatabases(); });
}
Result<hive::Database> TimedMetastore::GetDatabase(const std::string& db) {
  return Timed(get_database_, [&] { return inner_->GetDatabase(db); });
}
Result<std::vector<std::string>> TimedMetastore::GetAllTables(const std::string& db) {
  return Timed(get_all_tables_, [&] { return inner_->GetAllTables(db); });
}
Result<hive::Table> TimedMetastore::GetTable(const std::string& db, const std::string& table) {
  return Timed(get_table_, [&] { return inner_->GetTable(db, table); });
}
Result<std::vector<hive::Partition>> TimedMetastore::GetPartitions(const std::string& db,
                                                                   const std::string& table) {
  return Timed(get_partitions_, [&] { return inner_->GetPartitions(db, table); });
}
Result<std::unique_ptr<PartitionReader>> TimedMetastore::ReadPartitions(const std::string& db,
                                                                        const std::string& table) {
  // Timed as get_partitions: the read is the metastore's part; decoding
  // happens in the loader's tasks.
  return Timed(get_partitions_, [&] { return inner_->ReadPartitions(db, table); });
}
Result<std::vector<hive::Partition>> TimedMetastore::GetPartitionsByNames(
    const std::string& db, const std::string& table, const std::vector<std::string>& names) {
  return Timed(get_partitions_by_names_,
               [&] { return inner_->GetPartitionsByNames(db, table, names); });
}
Result<std::vector<impala::TFunction>> TimedMetastore::GetFunctions(const std::string& db) {
  return Timed(get_functions_, [&] { return inner_->GetFunctions(db); });
}
Result<std::vector<hive::ColumnStatisticsObj>> TimedMetastore::GetTableColumnStats(
    const std::string& db, const std::string& table) {
  return Timed(get_table_column_stats_, [&] { return inner_->GetTableColumnStats(db, table); });
}
Result<std::vector<hive::ColumnStatisticsObj>> TimedMetastore::GetPartitionColumnStats(
    const std::string& db, const std::string& table, const std::string& partition_name) {
  return Timed(get_partition_column_stats_,
               [&] { return inner_->GetPartitionColumnStats(db, table, partition_name); });
}
Result<TableVersionRecord> TimedMetastore::GetCurrentTableVersion(const std::string& db,
                                                                  const std::string& table) {
  return Timed(get_current_table_version_,
               [&] { return inner_->GetCurrentTableVersion(db, table); });
}
Result<TableVersionRecord> TimedMetastore::GetArchivedTableVersion(const std::string& db,
                                                                   const std::string& table,
                                                                   int64_t version_id) {
  return Timed(get_archived_table_version_,
               [&] { return inner_->GetArchivedTableVersion(db, table, version_id); });
}
Result<std::vector<TableVersionRecord>> TimedMetastore::ListArchivedTableVersions(
    const std::string& db, const std::string& table, int64_t below_version_id, int limit) {
  return Timed(list_archived_table_versions_, [&] {
    return inner_->ListArchivedTableVersions(db, table, below_version_id, limit);
  });
}
Result<TableVersionRecord> TimedMetastore::GetTableVersionAsOf(const std::string& db,
                                                               const std::string& table,
                                                               int64_t at_ms) {
  return Timed(get_table_version_as_of_,
               [&] { return inner_->GetTableVersionAsOf(db, table, at_ms); });
}
Result<int64_t> TimedMetastore::Commit(const MetastoreTxn& txn) {
  return Timed(commit_, [&] { return inner_->Commit(txn); });
}
Result<std::vector<NotificationEvent>> TimedMetastore::GetNextNotifications(int64_t after_event_id,
                                                                            int max_events) {
  return Timed(get_next_notifications_,
               [&] { return inner_->GetNextNotifications(after_event_id, max_events); });
}
Result<std::vector<NotificationEvent>> TimedMetastore::GetMatchingNotifications(
    int64_t after_event_id, int max_events, const NotificationFilter& filter) {
  return Timed(get_next_notifications_, [&] {
    return inner_->GetMatchingNotifications(after_event_id, max_events, filter);
  });
}
Result<int64_t> TimedMetastore::CurrentNotificationEventId() {
  return Timed(current_notification_event_id_,
               [&] { return inner_->CurrentNotificationEventId(); });
}
Result<int64_t> TimedMetastore::FirstRetainedNotificationEventId() {
  return Timed(first_retained_notification_event_id_,
               [&] { return inner_->FirstRetainedNotificationEventId(); });
}
Result<int64_t> TimedMetastore::PruneNotifications(const NotificationRetention& r) {
  return Timed(prune_notifications_, [&] { return inner_->PruneNotifications(r); });
}
Result<int64_t> TimedMetastore::PruneTableVersions(int64_t keep_per_table, int batch_limit) {
  return Timed(prune_table_versions_,
               [&] { return inner_->PruneTableVersions(keep_per_table, batch_limit); });
}
Result<std::optional<RecordedRequest>> TimedMetastore::LookupRequest(
    const std::string& request_id) {
  return Timed(lookup_request_, [&] { return inner_->LookupRequest(request_id); });
}
Result<WriterEpoch> TimedMetastore::AcquireWriterEpoch(const WriterEpochClaim& claim) {
  return Timed(writer_epoch_, [&] { return inner_->AcquireWriterEpoch(claim); });
}
Result<WriterEpoch> TimedMetastore::ReadWriterEpoch() {
  return Timed(writer_epoch_, [&] { return inner_->ReadWriterEpoch(); });
}
Result<int64_t> TimedMetastore::CommitFenced(const MetastoreTxn& txn, int64_t epoch) {
  // A commit like any other for the latency figures.
  return Timed(commit_, [&] { return inner_->CommitFenced(txn, epoch); });
}

}  // namespace ics::catalog
