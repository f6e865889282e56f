#include "catalogd/ops/catalog_queries.h"

#include "common/hive/names.h"

namespace ics::catalog::ops {

Result<std::string> CatalogQueries::AdmitDatabase(const Caller& caller, const std::string& db) {
  (void)caller;  // every caller may read until the catalog holds privileges
  return NormalizeDatabaseName(db);
}

Result<CatalogQueries::TableName> CatalogQueries::Admit(const Caller& caller, const std::string& db,
                                                        const std::string& table) {
  TableName n;
  ICS_ASSIGN_OR_RETURN(n.db, AdmitDatabase(caller, db));
  ICS_ASSIGN_OR_RETURN(n.table, NormalizeTableName(table));
  return n;
}

Result<std::vector<std::string>> CatalogQueries::DatabaseNames(const Caller& caller) {
  (void)caller;
  return metastore_->GetAllDatabases();
}

Result<hive::Database> CatalogQueries::Database(const Caller& caller, const std::string& db) {
  ICS_ASSIGN_OR_RETURN(std::string d, AdmitDatabase(caller, db));
  return metastore_->GetDatabase(d);
}

Result<std::vector<std::string>> CatalogQueries::TableNames(const Caller& caller,
                                                            const std::string& db) {
  ICS_ASSIGN_OR_RETURN(std::string d, AdmitDatabase(caller, db));
  return metastore_->GetAllTables(d);
}

Result<hive::Table> CatalogQueries::Table(const Caller& caller, const std::string& db,
                                          const std::string& table) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetTable(n.db, n.table);
}

Result<std::vector<hive::Partition>> CatalogQueries::Partitions(const Caller& caller,
                                                                const std::string& db,
                                                                const std::string& table) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetPartitions(n.db, n.table);
}

Result<std::vector<hive::Partition>> CatalogQueries::PartitionsByNames(
    const Caller& caller, const std::string& db, const std::string& table,
    const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetPartitionsByNames(n.db, n.table, names);
}

Result<std::vector<hive::ColumnStatisticsObj>> CatalogQueries::TableColumnStats(
    const Caller& caller, const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetTableColumnStats(n.db, n.table);
}

Result<std::vector<hive::ColumnStatisticsObj>> CatalogQueries::PartitionColumnStats(
    const Caller& caller, const std::string& db, const std::string& table,
    const std::string& partition_name) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetPartitionColumnStats(n.db, n.table, partition_name);
}

Result<std::vector<impala::TFunction>> CatalogQueries::Functions(const Caller& caller,
                                                                 const std::string& db) {
  ICS_ASSIGN_OR_RETURN(std::string d, AdmitDatabase(caller, db));
  return metastore_->GetFunctions(d);
}

Result<TableVersionRecord> CatalogQueries::CurrentTableVersion(const Caller& caller,
                                                               const std::string& db,
                                                               const std::string& table) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetCurrentTableVersion(n.db, n.table);
}

Result<TableVersionRecord> CatalogQueries::ArchivedTableVersion(const Caller& caller,
                                                                const std::string& db,
                                                                const std::string& table,
                                                                int64_t version_id) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetArchivedTableVersion(n.db, n.table, version_id);
}

Result<TableVersionRecord> CatalogQueries::TableVersion(const Caller& caller,
                                                        const std::string& db,
                                                        const std::string& table,
                                                        int64_t version_id) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  ICS_ASSIGN_OR_RETURN(TableVersionRecord cur, metastore_->GetCurrentTableVersion(n.db, n.table));
  if (version_id == 0 || version_id == cur.version_id) return cur;
  return metastore_->GetArchivedTableVersion(n.db, n.table, version_id);
}

Result<std::vector<TableVersionRecord>> CatalogQueries::ArchivedTableVersions(
    const Caller& caller, const std::string& db, const std::string& table, int64_t below_version_id,
    int limit) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->ListArchivedTableVersions(n.db, n.table, below_version_id, limit);
}

Result<TableVersionRecord> CatalogQueries::TableVersionAsOf(const Caller& caller,
                                                            const std::string& db,
                                                            const std::string& table,
                                                            int64_t at_ms) {
  ICS_ASSIGN_OR_RETURN(TableName n, Admit(caller, db, table));
  return metastore_->GetTableVersionAsOf(n.db, n.table, at_ms);
}

Result<std::vector<NotificationEvent>> CatalogQueries::NextNotifications(
    const Caller& caller, int64_t after_event_id, int max_events,
    const NotificationFilter& filter) {
  (void)caller;
  if (after_event_id < 0) {
    return Status::InvalidArgument("the last event id must not be negative (got " +
                                   std::to_string(after_event_id) + ")");
  }
  if (max_events <= 0) return Status::InvalidArgument("at least one event must be asked for");
  return metastore_->GetMatchingNotifications(after_event_id, max_events, filter);
}

Result<int64_t> CatalogQueries::CurrentNotificationEventId(const Caller& caller) {
  (void)caller;
  return metastore_->CurrentNotificationEventId();
}

}  // namespace ics::catalog::ops
