// CatalogQueries: the read side of the command core (command_core.h is the
// write side). A door answers its read calls — an HMS get_table, a
// TableService GetTableVersions, a listing's table objects — from here, never
// from the metastore itself, so that what every read passes through is in
// one place:
//
//   1. names: database and table names are validated and lower-cased by the
//      catalog's rules (common/hive/names.h); a malformed one is
//      INVALID_ARGUMENT before anything is read, whichever door sent it;
//   2. the caller (caller.h): who reads. Authorization decides on it here,
//      as one step for every door, when the catalog holds privileges;
//   3. one read of the metastore, answering the objects as stored (every
//      parameter, statistics and table versions included), which the catalog
//      itself does not keep for tables it has not loaded.
//
// Results are the catalog's own objects (hive::*, TableVersionRecord,
// NotificationEvent), never a door's wire types. Errors are the metastore's
// Status codes: NOT_FOUND for an absent object, NOT_IMPLEMENTED where the
// backend lacks a capability (table versions on a remote Hive Metastore).
//
// Thread-safety: thread-safe (the metastore must be; it outlives this).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/caller.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

class CatalogQueries {
 public:
  explicit CatalogQueries(Metastore* metastore) : metastore_(metastore) {}

  // ---- databases and tables ----
  // Database names, sorted.
  Result<std::vector<std::string>> DatabaseNames(const Caller& caller);
  Result<hive::Database> Database(const Caller& caller, const std::string& db);
  // Table (and view) names of a database, sorted.
  Result<std::vector<std::string>> TableNames(const Caller& caller, const std::string& db);
  Result<hive::Table> Table(const Caller& caller, const std::string& db, const std::string& table);

  // ---- partitions (ordered by name) ----
  Result<std::vector<hive::Partition>> Partitions(const Caller& caller, const std::string& db,
                                                  const std::string& table);
  // Names that do not exist are skipped; repeated names collapse.
  Result<std::vector<hive::Partition>> PartitionsByNames(const Caller& caller,
                                                         const std::string& db,
                                                         const std::string& table,
                                                         const std::vector<std::string>& names);

  // ---- column statistics (ordered by column name) ----
  Result<std::vector<hive::ColumnStatisticsObj>> TableColumnStats(const Caller& caller,
                                                                  const std::string& db,
                                                                  const std::string& table);
  Result<std::vector<hive::ColumnStatisticsObj>> PartitionColumnStats(
      const Caller& caller, const std::string& db, const std::string& table,
      const std::string& partition_name);

  // ---- functions (ordered by signature) ----
  Result<std::vector<impala::TFunction>> Functions(const Caller& caller, const std::string& db);

  // ---- table versions (see Metastore's table-version capability) ----
  Result<TableVersionRecord> CurrentTableVersion(const Caller& caller, const std::string& db,
                                                 const std::string& table);
  Result<TableVersionRecord> ArchivedTableVersion(const Caller& caller, const std::string& db,
                                                  const std::string& table, int64_t version_id);
  // Version `version_id` of the table, current or archived; the current one
  // for version_id 0.
  Result<TableVersionRecord> TableVersion(const Caller& caller, const std::string& db,
                                          const std::string& table, int64_t version_id);
  // Archived versions below `below_version_id` (0: no bound), newest first,
  // at most `limit` (> 0).
  Result<std::vector<TableVersionRecord>> ArchivedTableVersions(const Caller& caller,
                                                                const std::string& db,
                                                                const std::string& table,
                                                                int64_t below_version_id,
                                                                int limit);
  // The version current at `at_ms`.
  Result<TableVersionRecord> TableVersionAsOf(const Caller& caller, const std::string& db,
                                              const std::string& table, int64_t at_ms);

  // ---- the notification log ----
  // At most `max_events` (> 0) events after `after_event_id` (>= 0) that
  // `filter` matches (all by default), in id order.
  Result<std::vector<NotificationEvent>> NextNotifications(
      const Caller& caller, int64_t after_event_id, int max_events,
      const NotificationFilter& filter = NotificationFilter());
  Result<int64_t> CurrentNotificationEventId(const Caller& caller);

 private:
  struct TableName {
    std::string db;
    std::string table;
  };
  // Step 1 (and where step 2 goes) for a read of one table.
  Result<TableName> Admit(const Caller& caller, const std::string& db, const std::string& table);
  Result<std::string> AdmitDatabase(const Caller& caller, const std::string& db);

  Metastore* const metastore_;
};

}  // namespace ics::catalog::ops
