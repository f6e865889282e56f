// Defaults of the optional Metastore capabilities (metastore.h): a backend
// that does not keep table versions or prune its log answers NOT_IMPLEMENTED.
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {
namespace {

Status NoVersions(const std::string& db, const std::string& table) {
  return Status::NotImplemented("this metastore backend does not keep table versions (table " +
                                db + "." + table + ")");
}

}  // namespace

Result<TableVersionRecord> Metastore::GetCurrentTableVersion(const std::string& db,
                                                             const std::string& table) {
  return NoVersions(db, table);
}

Result<TableVersionRecord> Metastore::GetArchivedTableVersion(const std::string& db,
                                                              const std::string& table,
                                                              int64_t /*version_id*/) {
  return NoVersions(db, table);
}

Result<std::vector<TableVersionRecord>> Metastore::ListArchivedTableVersions(
    const std::string& db, const std::string& table, int64_t /*below_version_id*/,
    int /*limit*/) {
  return NoVersions(db, table);
}

Result<TableVersionRecord> Metastore::GetTableVersionAsOf(const std::string& db,
                                                          const std::string& table,
                                                          int64_t /*at_ms*/) {
  return NoVersions(db, table);
}

Result<int64_t> Metastore::FirstRetainedNotificationEventId() {
  ICS_ASSIGN_OR_RETURN(std::vector<NotificationEvent> first, GetNextNotifications(0, 1));
  if (!first.empty()) return first.front().eventId;
  ICS_ASSIGN_OR_RETURN(int64_t latest, CurrentNotificationEventId());
  return latest + 1;
}

Result<int64_t> Metastore::PruneNotifications(const NotificationRetention& /*r*/) {
  return Status::NotImplemented("this metastore backend does not prune its notification log");
}

Result<int64_t> Metastore::PruneTableVersions(int64_t /*keep_per_table*/, int /*batch_limit*/) {
  return Status::NotImplemented("this metastore backend does not keep table versions");
}

}  // namespace ics::catalog
