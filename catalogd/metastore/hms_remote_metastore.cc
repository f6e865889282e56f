// The remote metastore's reads, notifications and factory. Commit lives in
// hms_remote_commit.cc.
#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/pg_metastore.h"

#include <algorithm>
#include <utility>

#include "catalogd/metastore/hms_remote_commit.h"
#include "catalogd/metastore/hms_remote_function.h"
#include "catalogd/metastore/hms_remote_writes.h"
#include "common/hive/partition_name.h"

namespace ics::catalog {
namespace {

// Names per call when a read takes a list of partition names: servers bound
// the objects of one request (catalogd's endpoint: 10,000 by default).
constexpr size_t kNamesPerCall = 1000;

bool ByColumn(const hive::ColumnStatisticsObj& a, const hive::ColumnStatisticsObj& b) {
  return a.colName < b.colName;
}

// The columns whose stats a table may have: its columns and partition keys.
std::vector<std::string> StatsColumns(const hive::Table& t) {
  std::vector<std::string> cols;
  for (const hive::FieldSchema& f : t.sd.cols) cols.push_back(f.name);
  for (const hive::FieldSchema& f : t.partitionKeys) cols.push_back(f.name);
  return cols;
}

}  // namespace

HmsRemoteMetastore::HmsRemoteMetastore(const RemoteMetastoreOptions& options)
    : pool_(options), caller_(&pool_) {}

HmsRemoteMetastore::~HmsRemoteMetastore() { Shutdown(); }

void HmsRemoteMetastore::Shutdown() { pool_.Shutdown(); }

Result<std::vector<std::string>> HmsRemoteMetastore::GetAllDatabases() {
  std::vector<std::string> names;
  ICS_RETURN_IF_ERROR(
      caller_.Read("get_all_databases", [&](HmsStub& c) { c.get_all_databases(names); }));
  std::sort(names.begin(), names.end());
  return names;
}

Result<hive::Database> HmsRemoteMetastore::GetDatabase(const std::string& db) {
  hive::Database out;
  ICS_RETURN_IF_ERROR(caller_.Read("get_database", [&](HmsStub& c) { c.get_database(out, db); }));
  return out;
}

Result<std::vector<std::string>> HmsRemoteMetastore::GetAllTables(const std::string& db) {
  // get_all_tables answers an empty list for an unknown database.
  ICS_RETURN_IF_ERROR(GetDatabase(db).status());
  std::vector<std::string> names;
  ICS_RETURN_IF_ERROR(
      caller_.Read("get_all_tables", [&](HmsStub& c) { c.get_all_tables(names, db); }));
  std::sort(names.begin(), names.end());
  return names;
}

Result<hive::Table> HmsRemoteMetastore::FetchTable(const std::string& db,
                                                   const std::string& table) {
  hive::Table out;
  ICS_RETURN_IF_ERROR(
      caller_.Read("get_table", [&](HmsStub& c) { c.get_table(out, db, table); }));
  return out;
}

Result<hive::Table> HmsRemoteMetastore::GetTable(const std::string& db, const std::string& table) {
  return FetchTable(db, table);
}

Result<std::vector<hive::Partition>> HmsRemoteMetastore::SortByName(
    const hive::Table& table, std::vector<hive::Partition> parts) {
  std::vector<std::string> keys;
  for (const hive::FieldSchema& f : table.partitionKeys) keys.push_back(f.name);
  std::vector<std::pair<std::string, hive::Partition>> named;
  named.reserve(parts.size());
  for (hive::Partition& p : parts) {
    auto name = MakePartitionName(keys, p.values);
    if (!name.ok()) {
      return Status::Corruption("metastore " + pool_.options().Address() + " returned a partition of " +
                                table.dbName + "." + table.tableName +
                                " that does not match its keys: " + name.status().message());
    }
    named.emplace_back(std::move(*name), std::move(p));
  }
  std::sort(named.begin(), named.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  named.erase(std::unique(named.begin(), named.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              named.end());
  std::vector<hive::Partition> out;
  out.reserve(named.size());
  for (auto& [name, p] : named) out.push_back(std::move(p));
  return out;
}

Result<std::vector<hive::Partition>> HmsRemoteMetastore::GetPartitions(const std::string& db,
                                                                       const std::string& table) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, FetchTable(db, table));
  std::vector<hive::Partition> parts;
  if (!t.partitionKeys.empty()) {
    ICS_RETURN_IF_ERROR(caller_.Read(
        "get_partitions", [&](HmsStub& c) { c.get_partitions(parts, db, table, -1); }));
  }
  return SortByName(t, std::move(parts));
}

Result<std::vector<hive::Partition>> HmsRemoteMetastore::GetPartitionsByNames(
    const std::string& db, const std::string& table, const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, FetchTable(db, table));
  std::vector<hive::Partition> parts;
  if (t.partitionKeys.empty()) return parts;
  for (size_t i = 0; i < names.size(); i += kNamesPerCall) {
    const std::vector<std::string> chunk(
        names.begin() + i, names.begin() + std::min(names.size(), i + kNamesPerCall));
    std::vector<hive::Partition> got;
    ICS_RETURN_IF_ERROR(caller_.Read("get_partitions_by_names", [&](HmsStub& c) {
      c.get_partitions_by_names(got, db, table, chunk);
    }));
    for (hive::Partition& p : got) parts.push_back(std::move(p));
  }
  return SortByName(t, std::move(parts));
}

Result<std::vector<impala::TFunction>> HmsRemoteMetastore::GetFunctions(const std::string& db) {
  ICS_RETURN_IF_ERROR(GetDatabase(db).status());
  return ReadFunctions(caller_, db);
}

Result<std::vector<hive::ColumnStatisticsObj>> HmsRemoteMetastore::GetTableColumnStats(
    const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, FetchTable(db, table));
  hive::TableStatsRequest req;
  req.dbName = db;
  req.__set_engine(kHmsStatsEngine);
  req.tblName = table;
  req.colNames = StatsColumns(t);
  hive::TableStatsResult res;
  if (!req.colNames.empty()) {
    ICS_RETURN_IF_ERROR(caller_.Read(
        "get_table_statistics_req", [&](HmsStub& c) { c.get_table_statistics_req(res, req); }));
  }
  std::sort(res.tableStats.begin(), res.tableStats.end(), ByColumn);
  return std::move(res.tableStats);
}

Result<std::map<std::string, std::vector<hive::ColumnStatisticsObj>>>
HmsRemoteMetastore::GetPartitionsColumnStats(const std::string& db, const std::string& table,
                                             const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, FetchTable(db, table));
  hive::PartitionsStatsRequest req;
  req.dbName = db;
  req.__set_engine(kHmsStatsEngine);
  req.tblName = table;
  req.colNames = StatsColumns(t);
  std::map<std::string, std::vector<hive::ColumnStatisticsObj>> out;
  if (req.colNames.empty()) return out;
  for (size_t i = 0; i < names.size(); i += kNamesPerCall) {
    req.partNames.assign(names.begin() + i,
                         names.begin() + std::min(names.size(), i + kNamesPerCall));
    hive::PartitionsStatsResult res;
    ICS_RETURN_IF_ERROR(caller_.Read("get_partitions_statistics_req", [&](HmsStub& c) {
      c.get_partitions_statistics_req(res, req);
    }));
    for (auto& [name, stats] : res.partStats) {
      if (stats.empty()) continue;
      std::sort(stats.begin(), stats.end(), ByColumn);
      out[name] = std::move(stats);
    }
  }
  return out;
}

Result<std::vector<hive::ColumnStatisticsObj>> HmsRemoteMetastore::GetPartitionColumnStats(
    const std::string& db, const std::string& table, const std::string& partition_name) {
  // NOT_FOUND for an absent partition (the stats call would answer nothing).
  hive::Partition part;
  ICS_RETURN_IF_ERROR(caller_.Read("get_partition_by_name", [&](HmsStub& c) {
    c.get_partition_by_name(part, db, table, partition_name);
  }));
  ICS_ASSIGN_OR_RETURN(auto by_name, GetPartitionsColumnStats(db, table, {partition_name}));
  auto it = by_name.find(partition_name);
  if (it == by_name.end()) return std::vector<hive::ColumnStatisticsObj>{};
  return std::move(it->second);
}

Result<int64_t> HmsRemoteMetastore::Commit(const MetastoreTxn& txn) {
  RemoteTxnRunner runner(this);
  return runner.Commit(txn);
}

Result<std::vector<NotificationEvent>> HmsRemoteMetastore::GetNextNotifications(
    int64_t after_event_id, int max_events) {
  if (max_events <= 0) {
    return Status::InvalidArgument("max_events must be positive, got " +
                                   std::to_string(max_events));
  }
  hive::NotificationEventRequest req;
  req.lastEvent = after_event_id;
  req.__set_maxEvents(max_events);
  hive::NotificationEventResponse res;
  ICS_RETURN_IF_ERROR(caller_.Read("get_next_notification",
                                   [&](HmsStub& c) { c.get_next_notification(res, req); }));
  // Keep the interface's promise even if a server ignores the bounds.
  std::vector<NotificationEvent> events;
  for (NotificationEvent& e : res.events) {
    if (e.eventId > after_event_id) events.push_back(std::move(e));
  }
  std::sort(events.begin(), events.end(),
            [](const auto& a, const auto& b) { return a.eventId < b.eventId; });
  if (events.size() > static_cast<size_t>(max_events)) events.resize(max_events);
  return events;
}

Result<int64_t> HmsRemoteMetastore::CurrentNotificationEventId() {
  hive::CurrentNotificationEventId res;
  ICS_RETURN_IF_ERROR(caller_.Read("get_current_notificationEventId",
                                   [&](HmsStub& c) { c.get_current_notificationEventId(res); }));
  return res.eventId;
}

Result<std::unique_ptr<HmsRemoteMetastore>> OpenRemoteMetastore(
    const RemoteMetastoreOptions& options) {
  auto ms = std::make_unique<HmsRemoteMetastore>(options);
  Result<int64_t> probe = ms->CurrentNotificationEventId();
  if (!probe.ok()) {
    return probe.status().WithContext("cannot use the remote metastore thrift://" +
                                      options.Address());
  }
  return ms;
}

Result<std::unique_ptr<HmsRemoteMetastore>> OpenRemoteMetastore(
    const std::string& uri, std::shared_ptr<const TlsContext> tls) {
  ICS_ASSIGN_OR_RETURN(RemoteMetastoreOptions options, ParseThriftMetastoreUri(uri));
  if (options.ssl && tls == nullptr) {
    return Status::InvalidArgument("metastore URI " + uri +
                                   " asks for ssl=true, but TLS is not configured "
                                   "(--ssl_server_certificate, --ssl_private_key, "
                                   "--ssl_client_ca_certificate)");
  }
  options.tls = std::move(tls);
  return OpenRemoteMetastore(options);
}

Result<std::unique_ptr<Metastore>> OpenMetastoreFromUri(const std::string& uri,
                                                       std::shared_ptr<const TlsContext> tls) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (uri.compare(0, kSqlite.size(), kSqlite) == 0) {
    const std::string path = uri.substr(kSqlite.size());
    if (path.empty()) return Status::InvalidArgument("--metastore 'sqlite:' names no file");
    return OpenSqliteMetastore(path);
  }
  if (IsPostgresUri(uri)) return OpenPostgresMetastore(uri);
  if (IsThriftMetastoreUri(uri)) {
    ICS_ASSIGN_OR_RETURN(std::unique_ptr<HmsRemoteMetastore> remote, OpenRemoteMetastore(uri, std::move(tls)));
    return std::unique_ptr<Metastore>(std::move(remote));
  }
  return Status::InvalidArgument("unsupported --metastore '" + uri +
                                 "' (expected sqlite:<path>, postgresql://user@host:port/dbname or "
                                 "thrift://host:port)");
}

}  // namespace ics::catalog
