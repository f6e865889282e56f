// MetastoreOp's named constructors, and the defaults of the optional Metastore
// capabilities (metastore.h): a backend that does not keep table versions or
// prune its log answers NOT_IMPLEMENTED.
#include "catalogd/metastore/metastore.h"

#include <algorithm>

#include "common/util/ascii.h"

namespace ics::catalog {
namespace {

Status NoVersions(const std::string& db, const std::string& table) {
  return Status::NotImplemented("this metastore backend does not keep table versions (table " +
                                db + "." + table + ")");
}

class DecodedReader : public PartitionReader {
 public:
  explicit DecodedReader(std::vector<hive::Partition> parts) : parts_(std::move(parts)) {}
  size_t size() const override { return parts_.size(); }
  Result<hive::Partition> Take(size_t i) override { return std::move(parts_.at(i)); }

 private:
  std::vector<hive::Partition> parts_;
};

}  // namespace

std::unique_ptr<PartitionReader> ReaderOf(std::vector<hive::Partition> partitions) {
  return std::make_unique<DecodedReader>(std::move(partitions));
}

Result<std::vector<hive::Partition>> TakeAll(PartitionReader* reader) {
  std::vector<hive::Partition> parts;
  parts.reserve(reader->size());
  for (size_t i = 0; i < reader->size(); ++i) {
    ICS_ASSIGN_OR_RETURN(hive::Partition p, reader->Take(i));
    parts.push_back(std::move(p));
  }
  return parts;
}

Result<std::unique_ptr<PartitionReader>> Metastore::ReadPartitions(const std::string& db,
                                                                   const std::string& table) {
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts, GetPartitions(db, table));
  return ReaderOf(std::move(parts));
}

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

bool NotificationFilter::Matches(const NotificationEvent& e) const {
  if (std::find(skip_types.begin(), skip_types.end(), e.eventType) != skip_types.end()) {
    return false;
  }
  if (db.empty()) return true;
  if (!e.__isset.dbName || AsciiLower(e.dbName) != db) return false;
  if (tables.empty()) return true;
  return e.__isset.tableName &&
         std::find(tables.begin(), tables.end(), AsciiLower(e.tableName)) != tables.end();
}

Result<std::vector<NotificationEvent>> Metastore::GetMatchingNotifications(
    int64_t after_event_id, int max_events, const NotificationFilter& filter) {
  if (filter.empty()) return GetNextNotifications(after_event_id, max_events);
  if (max_events <= 0) {
    return Status::InvalidArgument("max_events must be positive, got " +
                                   std::to_string(max_events));
  }
  constexpr int kPage = 1000;
  std::vector<NotificationEvent> out;
  int64_t cursor = after_event_id;
  while (out.size() < static_cast<size_t>(max_events)) {
    ICS_ASSIGN_OR_RETURN(std::vector<NotificationEvent> page, GetNextNotifications(cursor, kPage));
    for (NotificationEvent& e : page) {
      if (out.size() < static_cast<size_t>(max_events) && filter.Matches(e)) {
        out.push_back(std::move(e));
      }
    }
    if (page.size() < static_cast<size_t>(kPage)) break;
    cursor = page.back().eventId;
  }
  return out;
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

Result<std::optional<RecordedRequest>> Metastore::LookupRequest(
    const std::string& /*request_id*/) {
  return Status::NotImplemented("this metastore backend does not record requests");
}

Result<WriterEpoch> Metastore::AcquireWriterEpoch(const WriterEpochClaim& /*claim*/) {
  return Status::NotImplemented(
      "this metastore backend has no writer epoch (catalogd HA needs "
      "the embedded SQLite or a PostgreSQL metastore)");
}

Result<WriterEpoch> Metastore::ReadWriterEpoch() {
  return Status::NotImplemented("this metastore backend has no writer epoch");
}

Result<int64_t> Metastore::CommitFenced(const MetastoreTxn& /*txn*/, int64_t /*epoch*/) {
  return Status::NotImplemented("this metastore backend cannot fence commits");
}

// ---- MetastoreOp ----

namespace {

MetastoreOp Op(MetastoreOp::Kind kind, std::string db, std::string table = "") {
  MetastoreOp op;
  op.kind = kind;
  op.db_name = std::move(db);
  op.table_name = std::move(table);
  return op;
}

}  // namespace

using Kind = MetastoreOp::Kind;

MetastoreOp MetastoreOp::CreateDatabase(std::string db, hive::Database database) {
  MetastoreOp op = Op(Kind::kCreateDatabase, std::move(db));
  op.database = std::move(database);
  return op;
}

MetastoreOp MetastoreOp::AlterDatabase(std::string db, hive::Database database) {
  MetastoreOp op = Op(Kind::kAlterDatabase, std::move(db));
  op.database = std::move(database);
  return op;
}

MetastoreOp MetastoreOp::DropDatabase(std::string db) {
  return Op(Kind::kDropDatabase, std::move(db));
}

MetastoreOp MetastoreOp::CreateTable(std::string db, std::string table, hive::Table object) {
  MetastoreOp op = Op(Kind::kCreateTable, std::move(db), std::move(table));
  op.table = std::move(object);
  return op;
}

MetastoreOp MetastoreOp::AlterTable(std::string db, std::string table, hive::Table object) {
  MetastoreOp op = Op(Kind::kAlterTable, std::move(db), std::move(table));
  op.table = std::move(object);
  return op;
}

MetastoreOp MetastoreOp::DropTable(std::string db, std::string table) {
  return Op(Kind::kDropTable, std::move(db), std::move(table));
}

MetastoreOp MetastoreOp::AddPartition(std::string db, std::string table,
                                      hive::Partition partition) {
  MetastoreOp op = Op(Kind::kAddPartition, std::move(db), std::move(table));
  op.partition = std::move(partition);
  return op;
}

MetastoreOp MetastoreOp::AlterPartition(std::string db, std::string table,
                                        hive::Partition partition) {
  MetastoreOp op = Op(Kind::kAlterPartition, std::move(db), std::move(table));
  op.partition = std::move(partition);
  return op;
}

MetastoreOp MetastoreOp::DropPartition(std::string db, std::string table,
                                       std::string partition_name) {
  MetastoreOp op = Op(Kind::kDropPartition, std::move(db), std::move(table));
  op.partition_name = std::move(partition_name);
  return op;
}

MetastoreOp MetastoreOp::CreateFunction(std::string db, std::string signature,
                                        impala::TFunction function) {
  MetastoreOp op = Op(Kind::kCreateFunction, std::move(db));
  op.function_signature = std::move(signature);
  op.function = std::move(function);
  return op;
}

MetastoreOp MetastoreOp::DropFunction(std::string db, std::string signature) {
  MetastoreOp op = Op(Kind::kDropFunction, std::move(db));
  op.function_signature = std::move(signature);
  return op;
}

MetastoreOp MetastoreOp::SetTableColumnStats(std::string db, std::string table,
                                             std::vector<hive::ColumnStatisticsObj> stats) {
  MetastoreOp op = Op(Kind::kSetTableColumnStats, std::move(db), std::move(table));
  op.column_stats = std::move(stats);
  return op;
}

MetastoreOp MetastoreOp::SetPartitionColumnStats(std::string db, std::string table,
                                                 std::string partition_name,
                                                 std::vector<hive::ColumnStatisticsObj> stats) {
  MetastoreOp op = Op(Kind::kSetPartitionColumnStats, std::move(db), std::move(table));
  op.partition_name = std::move(partition_name);
  op.column_stats = std::move(stats);
  return op;
}

MetastoreOp MetastoreOp::DeleteColumnStats(std::string db, std::string table) {
  return Op(Kind::kDeleteColumnStats, std::move(db), std::move(table));
}

MetastoreOp MetastoreOp::DeleteColumnStat(std::string db, std::string table,
                                          std::string partition_name, std::string column) {
  MetastoreOp op = Op(Kind::kDeleteColumnStat, std::move(db), std::move(table));
  op.partition_name = std::move(partition_name);
  op.column_name = std::move(column);
  return op;
}

MetastoreOp MetastoreOp::NewTableVersion(std::string db, std::string table, bool archive) {
  MetastoreOp op = Op(Kind::kNewTableVersion, std::move(db), std::move(table));
  op.archive = archive;
  return op;
}

MetastoreOp MetastoreOp::DeleteTableVersion(std::string db, std::string table, int64_t version_id) {
  MetastoreOp op = Op(Kind::kDeleteTableVersion, std::move(db), std::move(table));
  op.version_id = version_id;
  return op;
}

MetastoreOp MetastoreOp::RecordRequest(std::string request_id, std::string summary) {
  MetastoreOp op = Op(Kind::kRecordRequest, "", "");
  op.request_id = std::move(request_id);
  op.request_summary = std::move(summary);
  return op;
}

}  // namespace ics::catalog
