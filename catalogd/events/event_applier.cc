// EventApplier: decoding, validation, per-table batching and dispatch of
// notification events to the catalog_sync.h steps.
#include "catalogd/events/event_applier.h"

#include <glog/logging.h>

#include <map>
#include <optional>
#include <utility>

#include "catalogd/events/catalog_sync.h"
#include "catalogd/metastore/notification_message.h"
#include "common/codec/thrift_serde.h"

namespace ics::catalog {

namespace {

using events::SyncEffect;
using events::TableWork;

enum class Kind {
  kCreateDatabase,
  kAlterDatabase,
  kDropDatabase,
  kCreateTable,
  kAlterTable,  // a rename when old_db/old_table are set
  kDropTable,
  kPartition,    // ADD / ALTER / DROP_PARTITION
  kTableStats,   // UPDATE / DELETE_TABLE_COLUMN_STAT
  kPartitionStats,
  kCreateFunction,
  kDropFunction,
  kUnknown,
};

struct EventSpec {
  std::string_view type;
  Kind kind;
  bool needs_table;
};

constexpr EventSpec kSpecs[] = {
    {kEventCreateDatabase, Kind::kCreateDatabase, false},
    {kEventAlterDatabase, Kind::kAlterDatabase, false},
    {kEventDropDatabase, Kind::kDropDatabase, false},
    {kEventCreateTable, Kind::kCreateTable, true},
    {kEventAlterTable, Kind::kAlterTable, true},
    {kEventDropTable, Kind::kDropTable, true},
    {kEventAddPartition, Kind::kPartition, true},
    {kEventAlterPartition, Kind::kPartition, true},
    {kEventDropPartition, Kind::kPartition, true},
    {kEventUpdateTableColumnStat, Kind::kTableStats, true},
    {kEventDeleteTableColumnStat, Kind::kTableStats, true},
    {kEventUpdatePartitionColumnStat, Kind::kPartitionStats, true},
    {kEventDeletePartitionColumnStat, Kind::kPartitionStats, true},
    {kEventCreateFunction, Kind::kCreateFunction, false},
    {kEventDropFunction, Kind::kDropFunction, false},
};

struct ParsedEvent {
  int64_t id = 0;
  Kind kind = Kind::kUnknown;
  std::string type;
  NotificationMessage msg;
  bool is_rename() const { return msg.old_db.has_value() || msg.old_table.has_value(); }
};

template <typename T>
Status CheckObject(const std::string& bytes, const char* what) {
  T obj;
  Status s = DeserializeThrift(bytes, &obj, ThriftProtocol::kCompact);
  if (!s.ok()) return Status::Corruption(std::string("its ") + what + " does not decode: " + s.message());
  return Status::OK();
}

// Validates the message against its event type.
Result<ParsedEvent> Parse(const NotificationEvent& ev) {
  ParsedEvent p;
  p.id = ev.eventId;
  p.type = ev.eventType;
  ICS_ASSIGN_OR_RETURN(p.msg, DecodeNotificationMessage(ev.message));
  bool needs_table = false;
  for (const EventSpec& s : kSpecs) {
    if (s.type == ev.eventType) {
      p.kind = s.kind;
      needs_table = s.needs_table;
    }
  }
  if (p.msg.db.empty()) return Status::Corruption("the message names no database");
  if (needs_table && p.msg.table.empty()) return Status::Corruption("the message names no table");
  switch (p.kind) {
    case Kind::kPartition:
      if (!p.msg.partition.has_value() || p.msg.partition->empty()) {
        return Status::Corruption("the message names no partition");
      }
      break;
    case Kind::kCreateFunction:
    case Kind::kDropFunction:
      if (!p.msg.function.has_value() || p.msg.function->empty()) {
        return Status::Corruption("the message names no function");
      }
      break;
    case Kind::kAlterTable:
      if (p.is_rename() && (!p.msg.old_db.has_value() || !p.msg.old_table.has_value() ||
                            p.msg.old_db->empty() || p.msg.old_table->empty())) {
        return Status::Corruption("a rename message without both old names");
      }
      break;
    default:
      break;
  }
  if (p.msg.object.has_value()) {
    const std::string& o = *p.msg.object;
    switch (p.kind) {
      case Kind::kCreateDatabase:
      case Kind::kAlterDatabase:
        ICS_RETURN_IF_ERROR(CheckObject<hive::Database>(o, "database"));
        break;
      case Kind::kCreateTable:
      case Kind::kAlterTable:
        ICS_RETURN_IF_ERROR(CheckObject<hive::Table>(o, "table"));
        break;
      case Kind::kPartition:
        ICS_RETURN_IF_ERROR(CheckObject<hive::Partition>(o, "partition"));
        break;
      case Kind::kCreateFunction:
        ICS_RETURN_IF_ERROR(CheckObject<impala::TFunction>(o, "function"));
        break;
      case Kind::kTableStats:
      case Kind::kPartitionStats:
        ICS_RETURN_IF_ERROR(CheckObject<hive::ColumnStatistics>(o, "column statistics"));
        break;
      default:
        break;
    }
  }
  return p;
}

class BatchRun {
 public:
  explicit BatchRun(CatalogContext* ctx) : ctx_(ctx) {}

  void Add(const NotificationEvent& ev) {
    Result<ParsedEvent> parsed = Parse(ev);
    if (!parsed.ok()) {
      Error(ev.eventId, ev.eventType,
            parsed.status().WithContext("skipping a corrupt event"), 1);
      return;
    }
    ParsedEvent& p = *parsed;
    const NotificationMessage& m = p.msg;
    switch (p.kind) {
      case Kind::kAlterTable:
        if (!p.is_rename()) {
          Work(p).table_changed = true;
          return;
        }
        break;
      case Kind::kPartition:
        Work(p).partitions.insert(*m.partition);
        return;
      case Kind::kTableStats:
        Work(p).column_stats_changed = true;
        return;
      case Kind::kPartitionStats:
        // The catalog keeps no per-partition column statistics (partition
        // stats live in the partition's parameters, which an ALTER_PARTITION
        // brings): nothing to apply.
        ++stats_.applied;
        return;
      default:
        break;
    }
    Flush();
    SyncEffect e;
    switch (p.kind) {
      case Kind::kCreateDatabase:
      case Kind::kAlterDatabase:
        e = events::SyncDatabase(ctx_, m.db);
        break;
      case Kind::kDropDatabase:
        e = events::DropDatabase(ctx_, m.db);
        break;
      case Kind::kCreateTable:
        e = events::CreateTable(ctx_, m.db, m.table);
        break;
      case Kind::kAlterTable:
        e = events::RenameTable(ctx_, *m.old_db, *m.old_table, m.db, m.table);
        break;
      case Kind::kDropTable:
        e = events::DropTable(ctx_, m.db, m.table);
        break;
      case Kind::kCreateFunction:
        e = events::SyncFunction(ctx_, m.db, *m.function);
        break;
      case Kind::kDropFunction:
        e = events::DropFunction(ctx_, m.db, *m.function);
        break;
      default:
        if (m.table.empty()) {
          Error(p.id, p.type, Status::NotImplemented("unknown event type with no table"), 1);
          return;
        }
        e = events::InvalidateTable(
            ctx_, m.db, m.table,
            Status::NotImplemented("event " + std::to_string(p.id) + " of unknown type " + p.type +
                                   " changed the table; it is reloaded on next use"));
        // Invalidating is how such an event is applied: not an error.
        if (e.invalidated) e.error = Status::OK();
        Count(e, p.id, p.type, 1, true);
        return;
    }
    Count(e, p.id, p.type, 1, true);
  }

  // Applies the gathered per-table work.
  void Flush() {
    for (auto& [key, w] : work_) {
      SyncEffect e = events::SyncTableContent(ctx_, w.work);
      Count(e, w.last_id, "events of " + key.first + "." + key.second, w.work.num_events, true);
    }
    work_.clear();
  }

  const ApplyStats& stats() const { return stats_; }

 private:
  struct Pending {
    TableWork work;
    int64_t last_id = 0;
  };

  TableWork& Work(const ParsedEvent& p) {
    Pending& pending = work_[{p.msg.db, p.msg.table}];
    pending.work.db = p.msg.db;
    pending.work.table = p.msg.table;
    ++pending.work.num_events;
    pending.last_id = p.id;
    return pending.work;
  }

  void Count(const SyncEffect& e, int64_t id, const std::string& what, int num_events,
             bool count_invalidation) {
    if (e.version > 0) ++stats_.versions;
    if (e.invalidated && count_invalidation) ++stats_.invalidations;
    if (!e.error.ok()) {
      Error(id, what, e.error, num_events);
    } else {
      stats_.applied += num_events;
    }
  }

  void Error(int64_t id, const std::string& what, const Status& s, int num_events) {
    stats_.errors += num_events;
    stats_.last_error = "event " + std::to_string(id) + " (" + what + "): " + s.ToString();
    LOG(WARNING) << "HMS event processor: " << stats_.last_error;
  }

  CatalogContext* const ctx_;
  std::map<std::pair<std::string, std::string>, Pending> work_;
  ApplyStats stats_;
};

}  // namespace

void ApplyStats::Add(const ApplyStats& o) {
  applied += o.applied;
  invalidations += o.invalidations;
  errors += o.errors;
  versions += o.versions;
  if (!o.last_error.empty()) last_error = o.last_error;
}

ApplyStats EventApplier::Apply(const std::vector<NotificationEvent>& events) {
  BatchRun run(ctx_);
  for (const NotificationEvent& ev : events) run.Add(ev);
  run.Flush();
  return run.stats();
}

}  // namespace ics::catalog
