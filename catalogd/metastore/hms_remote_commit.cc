#include "catalogd/metastore/hms_remote_commit.h"

#include <algorithm>
#include <set>
#include <utility>

#include <glog/logging.h>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/notification_message.h"
#include "catalogd/metastore/txn_applier.h"
#include "common/hive/function_map.h"
#include "common/hive/partition_name.h"

namespace ics::catalog {
namespace {

using Kind = MetastoreOp::Kind;
using StatsList = std::vector<hive::ColumnStatisticsObj>;

// As the embedded store: names are keys, present and lower-case.
Status CheckName(const char* what, const std::string& name) {
  if (name.empty()) return Status::InvalidArgument(std::string(what) + " name is empty");
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      return Status::InvalidArgument(std::string(what) + " name '" + name + "' is not lower-case");
    }
  }
  return Status::OK();
}

hive::ColumnStatistics StatsObject(const std::string& db, const std::string& table,
                                   const std::string& partition, StatsList cols) {
  hive::ColumnStatistics s;
  s.statsDesc.isTblLevel = partition.empty();
  s.statsDesc.dbName = db;
  s.statsDesc.tableName = table;
  if (!partition.empty()) s.statsDesc.__set_partName(partition);
  s.statsObj = std::move(cols);
  return s;
}

std::string Range(size_t first, size_t last) {  // 1-based, inclusive
  if (first > last) return "none";
  if (first == last) return "op " + std::to_string(first);
  return "ops " + std::to_string(first) + ".." + std::to_string(last);
}

}  // namespace

RemoteTxnRunner::RemoteTxnRunner(HmsRemoteMetastore* ms) : ms_(ms), w_(&ms->caller()) {}

Status RemoteTxnRunner::Write(const Status& s) {
  if (s.ok()) ++writes_;
  return s;
}

void RemoteTxnRunner::PushUndo(std::string what, std::function<Status()> run) {
  undo_.push_back(UndoStep{std::move(what), std::move(run)});
}

Status RemoteTxnRunner::Precheck(const MetastoreOp& op) {
  switch (op.kind) {
    case Kind::kNewTableVersion:
    case Kind::kDeleteTableVersion:
      return Status::NotImplemented(
          "the remote Hive Metastore backend does not keep table versions");
    case Kind::kRecordRequest:
      return Status::NotImplemented("the remote Hive Metastore backend does not record requests");
    case Kind::kCreateDatabase:
    case Kind::kAlterDatabase:
      ICS_RETURN_IF_ERROR(CheckName("database", op.database.name));
      if (op.kind == Kind::kAlterDatabase && !op.db_name.empty() &&
          op.db_name != op.database.name) {
        return Status::InvalidArgument("databases cannot be renamed (" + op.db_name + " to " +
                                       op.database.name + ")");
      }
      return Status::OK();
    case Kind::kCreateTable:
      ICS_RETURN_IF_ERROR(CheckName("database", op.table.dbName));
      return CheckName("table", op.table.tableName);
    case Kind::kAlterTable:
      ICS_RETURN_IF_ERROR(CheckName("new database", op.table.dbName));
      ICS_RETURN_IF_ERROR(CheckName("new table", op.table.tableName));
      [[fallthrough]];
    case Kind::kDropTable:
    case Kind::kDropPartition:
    case Kind::kSetTableColumnStats:
    case Kind::kSetPartitionColumnStats:
    case Kind::kDeleteColumnStats:
    case Kind::kDeleteColumnStat:
      ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
      ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
      for (const hive::ColumnStatisticsObj& c : op.column_stats) {
        ICS_RETURN_IF_ERROR(CheckName("column", c.colName));
      }
      if (op.kind == Kind::kDeleteColumnStat) return CheckName("column", op.column_name);
      return Status::OK();
    case Kind::kAddPartition:
    case Kind::kAlterPartition:
      ICS_RETURN_IF_ERROR(CheckName("database", op.partition.dbName));
      return CheckName("table", op.partition.tableName);
    case Kind::kDropDatabase:
      return CheckName("database", op.db_name);
    case Kind::kCreateFunction:
      ICS_RETURN_IF_ERROR(CheckName("function database", op.function.name.db_name));
      if (op.function.signature.empty()) {
        return Status::InvalidArgument("function " + op.function.name.db_name + "." +
                                       op.function.name.function_name + " has no signature");
      }
      return Status::OK();
    case Kind::kDropFunction:
      return CheckName("database", op.db_name);
  }
  return Status::InvalidArgument("unknown metastore op kind " +
                                 std::to_string(static_cast<int>(op.kind)));
}

Result<int64_t> RemoteTxnRunner::Commit(const MetastoreTxn& txn) {
  const size_t n = txn.ops.size();
  if (n == 0) return int64_t{0};
  auto context = [&](size_t i) {
    return "metastore txn op " + std::to_string(i + 1) + " of " + std::to_string(n) + " (" +
           std::string(EventTypeOf(txn.ops[i].kind)) + ")";
  };
  for (size_t i = 0; i < n; ++i) {
    Status s = Precheck(txn.ops[i]);
    if (!s.ok()) return s.WithContext(context(i) + ", nothing applied");
  }
  // The log position before our first write: if exactly our events follow
  // it, their ids are known (see the return value in the header).
  Result<int64_t> before = ms_->CurrentNotificationEventId();
  if (!before.ok()) return before.status().WithContext("metastore txn: nothing applied");

  for (size_t i = 0; i < n; ++i) {
    Status s = Apply(txn.ops[i], /*capture=*/i + 1 < n);
    if (s.ok()) continue;
    const std::string ctx = context(i);
    if (s.Is(ErrorCode::kIoError)) {
      // The outcome of op i is unknown: undoing ops before it could leave
      // things worse than either outcome, so nothing is undone.
      return Status::IoError(ctx + ": " + s.message() + " [" + Range(1, i) +
                             " applied; op " + std::to_string(i + 1) + " outcome unknown; " +
                             Range(i + 2, n) + " not attempted; nothing undone]");
    }
    Status undone = RunUndo();
    if (!undone.ok()) {
      return Status::IoError(ctx + ": " + s.ToString() + "; undoing the applied " +
                             Range(1, i) + " failed, so some of them may remain: " +
                             undone.ToString());
    }
    const std::string note =
        i == 0 ? "" : " (" + Range(1, i) + " had been applied and were undone)";
    return Status(s.code(), ctx + ": " + s.message() + note);
  }

  Result<int64_t> after = ms_->CurrentNotificationEventId();
  if (!after.ok()) {
    LOG(WARNING) << "metastore txn of " << n << " op(s) committed, but reading the event id "
                 << "after it failed: " << after.status().ToString();
    return int64_t{0};
  }
  if (exact_events_ && *after - *before == writes_ && writes_ == static_cast<int64_t>(n)) {
    return *after;
  }
  // Other writers' events interleaved with ours (or an op wrote no event):
  // the ids of ours are not known, so none are claimed.
  return int64_t{0};
}

Status RemoteTxnRunner::RunUndo() {
  Status first;
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    Status s = it->run();
    if (!s.ok()) {
      LOG(ERROR) << "metastore txn compensation failed: " << it->what << ": " << s.ToString();
      if (first.ok()) first = s.WithContext(it->what);
    }
  }
  undo_.clear();
  return first;
}

Status RemoteTxnRunner::Apply(const MetastoreOp& op, bool capture) {
  switch (op.kind) {
    case Kind::kCreateDatabase: {
      ICS_RETURN_IF_ERROR(Write(w_.CreateDatabase(op.database)));
      const std::string name = op.database.name;
      if (capture) PushUndo("drop database " + name, [this, name] { return w_.DropDatabase(name); });
      return Status::OK();
    }
    case Kind::kAlterDatabase: return AlterDatabase(op, capture);
    case Kind::kDropDatabase: return DropDatabase(op, capture);
    case Kind::kCreateTable: {
      ICS_RETURN_IF_ERROR(Write(w_.CreateTable(op.table)));
      const std::string db = op.table.dbName, name = op.table.tableName;
      if (capture) {
        PushUndo("drop table " + db + "." + name, [this, db, name] { return w_.DropTable(db, name); });
      }
      return Status::OK();
    }
    case Kind::kAlterTable: return AlterTable(op, capture);
    case Kind::kDropTable: return DropTable(op, capture);
    case Kind::kAddPartition: return AddPartition(op, capture);
    case Kind::kAlterPartition: return AlterPartition(op, capture);
    case Kind::kDropPartition: return DropPartition(op, capture);
    case Kind::kCreateFunction: return CreateFunction(op, capture);
    case Kind::kDropFunction: return DropFunction(op, capture);
    case Kind::kSetTableColumnStats: return SetColumnStats(op, false, capture);
    case Kind::kSetPartitionColumnStats: return SetColumnStats(op, true, capture);
    case Kind::kDeleteColumnStats: return DeleteAllColumnStats(op);
    case Kind::kDeleteColumnStat: return DeleteOneColumnStat(op, capture);
    case Kind::kNewTableVersion:
    case Kind::kDeleteTableVersion:
    case Kind::kRecordRequest: return Precheck(op);
  }
  return Precheck(op);
}

Status RemoteTxnRunner::AlterDatabase(const MetastoreOp& op, bool capture) {
  const std::string name = op.database.name;
  if (capture) {
    ICS_ASSIGN_OR_RETURN(hive::Database old, ms_->GetDatabase(name));
    ICS_RETURN_IF_ERROR(Write(w_.AlterDatabase(name, op.database)));
    PushUndo("restore database " + name,
             [this, name, old] { return w_.AlterDatabase(name, old); });
    return Status::OK();
  }
  return Write(w_.AlterDatabase(name, op.database));
}

Status RemoteTxnRunner::DropDatabase(const MetastoreOp& op, bool capture) {
  if (capture) {
    ICS_ASSIGN_OR_RETURN(hive::Database old, ms_->GetDatabase(op.db_name));
    ICS_RETURN_IF_ERROR(Write(w_.DropDatabase(op.db_name)));
    PushUndo("re-create database " + op.db_name, [this, old] { return w_.CreateDatabase(old); });
    return Status::OK();
  }
  return Write(w_.DropDatabase(op.db_name));
}

Status RemoteTxnRunner::AlterTable(const MetastoreOp& op, bool capture) {
  if (capture) {
    ICS_ASSIGN_OR_RETURN(hive::Table old, ms_->GetTable(op.db_name, op.table_name));
    ICS_RETURN_IF_ERROR(Write(w_.AlterTable(op.db_name, op.table_name, op.table)));
    const std::string db = op.table.dbName, name = op.table.tableName;
    PushUndo("restore table " + op.db_name + "." + op.table_name,
             [this, db, name, old] { return w_.AlterTable(db, name, old); });
    return Status::OK();
  }
  return Write(w_.AlterTable(op.db_name, op.table_name, op.table));
}

Status RemoteTxnRunner::DropTable(const MetastoreOp& op, bool capture) {
  if (!capture) return Write(w_.DropTable(op.db_name, op.table_name));
  // Everything drop_table removes: the table, its partitions, their stats.
  ICS_ASSIGN_OR_RETURN(hive::Table old, ms_->GetTable(op.db_name, op.table_name));
  std::vector<hive::Partition> parts;
  std::vector<std::string> names;
  if (!old.partitionKeys.empty()) {
    ICS_ASSIGN_OR_RETURN(parts, ms_->GetPartitions(op.db_name, op.table_name));
    std::vector<std::string> keys;
    for (const hive::FieldSchema& f : old.partitionKeys) keys.push_back(f.name);
    for (const hive::Partition& p : parts) {
      ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, p.values));
      names.push_back(std::move(name));
    }
  }
  ICS_ASSIGN_OR_RETURN(StatsList table_stats,
                       ms_->GetTableColumnStats(op.db_name, op.table_name));
  ICS_ASSIGN_OR_RETURN(auto part_stats,
                       ms_->GetPartitionsColumnStats(op.db_name, op.table_name, names));
  ICS_RETURN_IF_ERROR(Write(w_.DropTable(op.db_name, op.table_name)));
  const std::string db = op.db_name, table = op.table_name;
  PushUndo("re-create table " + db + "." + table,
           [this, db, table, old, parts, table_stats, part_stats]() -> Status {
             ICS_RETURN_IF_ERROR(w_.CreateTable(old));
             for (const hive::Partition& p : parts) ICS_RETURN_IF_ERROR(w_.AddPartition(p));
             if (!table_stats.empty()) {
               ICS_RETURN_IF_ERROR(w_.UpdateColumnStats(StatsObject(db, table, "", table_stats)));
             }
             for (const auto& [name, stats] : part_stats) {
               ICS_RETURN_IF_ERROR(w_.UpdateColumnStats(StatsObject(db, table, name, stats)));
             }
             return Status::OK();
           });
  return Status::OK();
}

Status RemoteTxnRunner::AddPartition(const MetastoreOp& op, bool capture) {
  const hive::Partition& part = op.partition;
  if (!op.partition_name.empty()) {  // the embedded store checks this too
    ICS_ASSIGN_OR_RETURN(hive::Table t, ms_->GetTable(part.dbName, part.tableName));
    std::vector<std::string> keys;
    for (const hive::FieldSchema& f : t.partitionKeys) keys.push_back(f.name);
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, part.values));
    if (name != op.partition_name) {
      return Status::InvalidArgument("partition_name '" + op.partition_name +
                                     "' does not match the partition's values ('" + name + "')");
    }
  }
  ICS_RETURN_IF_ERROR(Write(w_.AddPartition(part)));
  if (capture) {
    const std::string db = part.dbName, table = part.tableName;
    const std::vector<std::string> values = part.values;
    PushUndo("drop the added partition of " + db + "." + table, [this, db, table, values] {
      return w_.DropPartitionByValues(db, table, values);
    });
  }
  return Status::OK();
}

Status RemoteTxnRunner::AlterPartition(const MetastoreOp& op, bool capture) {
  const hive::Partition& part = op.partition;
  if (!capture) return Write(w_.AlterPartition(part));
  hive::Partition old;
  ICS_RETURN_IF_ERROR(ms_->caller().Read("get_partition", [&](HmsStub& c) {
    c.get_partition(old, part.dbName, part.tableName, part.values);
  }));
  old.dbName = part.dbName;
  old.tableName = part.tableName;
  ICS_RETURN_IF_ERROR(Write(w_.AlterPartition(part)));
  PushUndo("restore a partition of " + part.dbName + "." + part.tableName,
           [this, old] { return w_.AlterPartition(old); });
  return Status::OK();
}

Status RemoteTxnRunner::DropPartition(const MetastoreOp& op, bool capture) {
  if (!capture) return Write(w_.DropPartitionByName(op.db_name, op.table_name, op.partition_name));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                       ms_->GetPartitionsByNames(op.db_name, op.table_name, {op.partition_name}));
  if (found.empty()) {
    return Status::NotFound("partition " + op.partition_name + " of " + op.db_name + "." +
                            op.table_name + " does not exist");
  }
  ICS_ASSIGN_OR_RETURN(auto stats, ms_->GetPartitionsColumnStats(op.db_name, op.table_name,
                                                                 {op.partition_name}));
  ICS_RETURN_IF_ERROR(Write(w_.DropPartitionByName(op.db_name, op.table_name, op.partition_name)));
  const std::string db = op.db_name, table = op.table_name, name = op.partition_name;
  hive::Partition old = found.front();
  PushUndo("re-add partition " + name + " of " + db + "." + table,
           [this, db, table, name, old, stats]() -> Status {
             ICS_RETURN_IF_ERROR(w_.AddPartition(old));
             for (const auto& [pname, cols] : stats) {
               ICS_RETURN_IF_ERROR(w_.UpdateColumnStats(StatsObject(db, table, pname, cols)));
             }
             return Status::OK();
           });
  return Status::OK();
}

Status RemoteTxnRunner::CreateFunction(const MetastoreOp& op, bool capture) {
  ICS_ASSIGN_OR_RETURN(hive::Function fn, ics::ToHmsFunction(op.function));
  ICS_RETURN_IF_ERROR(Write(w_.CreateFunction(fn)));
  if (capture) {
    PushUndo("drop function " + fn.dbName + "." + fn.functionName,
             [this, fn] { return w_.DropFunction(fn.dbName, fn.functionName); });
  }
  return Status::OK();
}

Status RemoteTxnRunner::DropFunction(const MetastoreOp& op, bool capture) {
  // The HMS endpoint names a catalog function by its signature.
  const std::string& name = op.function_signature;
  if (!capture) return Write(w_.DropFunction(op.db_name, name));
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, ms_->GetFunctions(op.db_name));
  auto it = std::find_if(fns.begin(), fns.end(), [&](const impala::TFunction& f) {
    return f.signature == op.function_signature;
  });
  if (it == fns.end()) {
    return Status::NotFound("function " + op.function_signature + " does not exist in database " +
                            op.db_name);
  }
  ICS_ASSIGN_OR_RETURN(hive::Function old, ics::ToHmsFunction(*it));
  ICS_RETURN_IF_ERROR(Write(w_.DropFunction(op.db_name, name)));
  PushUndo("re-create function " + op.function_signature,
           [this, old] { return w_.CreateFunction(old); });
  return Status::OK();
}

Status RemoteTxnRunner::SetColumnStats(const MetastoreOp& op, bool partition_level,
                                       bool capture) {
  const std::string part = partition_level ? op.partition_name : "";
  if (partition_level && part.empty()) {
    return Status::InvalidArgument("partition column stats of " + op.db_name + "." +
                                   op.table_name + " need a partition name");
  }
  hive::ColumnStatistics stats = StatsObject(op.db_name, op.table_name, part, op.column_stats);
  if (!capture) return Write(w_.UpdateColumnStats(stats));
  ICS_ASSIGN_OR_RETURN(StatsList old, partition_level
                                          ? ms_->GetPartitionColumnStats(op.db_name, op.table_name,
                                                                         part)
                                          : ms_->GetTableColumnStats(op.db_name, op.table_name));
  ICS_RETURN_IF_ERROR(Write(w_.UpdateColumnStats(stats)));
  // Undo: write back the old stats of the columns we touched and delete the
  // ones that had none.
  StatsList restore;
  std::vector<std::string> remove;
  for (const hive::ColumnStatisticsObj& c : op.column_stats) {
    auto it = std::find_if(old.begin(), old.end(),
                           [&](const hive::ColumnStatisticsObj& o) { return o.colName == c.colName; });
    if (it != old.end()) {
      restore.push_back(*it);
    } else {
      remove.push_back(c.colName);
    }
  }
  const std::string db = op.db_name, table = op.table_name;
  PushUndo("restore column stats of " + db + "." + table + (part.empty() ? "" : " " + part),
           [this, db, table, part, restore, remove]() -> Status {
             if (!restore.empty()) {
               ICS_RETURN_IF_ERROR(w_.UpdateColumnStats(StatsObject(db, table, part, restore)));
             }
             for (const std::string& col : remove) {
               ICS_RETURN_IF_ERROR(w_.DeleteColumnStats(db, table, part, col));
             }
             return Status::OK();
           });
  return Status::OK();
}

Status RemoteTxnRunner::DeleteAllColumnStats(const MetastoreOp& op) {
  // Hive deletes stats per table or partition: read what exists, then
  // delete each level that has some (column "" = every column), pushing an
  // undo step per delete (the reads are needed anyway).
  const std::string db = op.db_name, table = op.table_name;
  ICS_ASSIGN_OR_RETURN(hive::Table t, ms_->GetTable(db, table));
  ICS_ASSIGN_OR_RETURN(StatsList table_stats, ms_->GetTableColumnStats(db, table));
  std::map<std::string, StatsList> levels;  // "" = table level
  if (!t.partitionKeys.empty()) {
    std::vector<std::string> names;
    ICS_RETURN_IF_ERROR(ms_->caller().Read("get_partition_names", [&](HmsStub& c) {
      c.get_partition_names(names, db, table, -1);
    }));
    ICS_ASSIGN_OR_RETURN(levels, ms_->GetPartitionsColumnStats(db, table, names));
  }
  if (!table_stats.empty()) levels.emplace("", std::move(table_stats));
  for (const auto& [part, cols] : levels) {
    ICS_RETURN_IF_ERROR(w_.DeleteColumnStats(db, table, part, ""));
    PushUndo("restore column stats of " + db + "." + table + (part.empty() ? "" : " " + part),
             [this, db, table, part = part, cols = cols] {
               return w_.UpdateColumnStats(StatsObject(db, table, part, cols));
             });
  }
  // The op promises one event; this wrote one per level with stats, so
  // this commit's event ids are not claimed.
  exact_events_ = false;
  return Status::OK();
}

Status RemoteTxnRunner::DeleteOneColumnStat(const MetastoreOp& op, bool capture) {
  const std::string db = op.db_name, table = op.table_name, part = op.partition_name;
  const std::string col = op.column_name;
  if (!capture) return Write(w_.DeleteColumnStats(db, table, part, col));
  ICS_ASSIGN_OR_RETURN(StatsList old, part.empty()
                                          ? ms_->GetTableColumnStats(db, table)
                                          : ms_->GetPartitionColumnStats(db, table, part));
  auto it = std::find_if(old.begin(), old.end(),
                         [&](const hive::ColumnStatisticsObj& o) { return o.colName == col; });
  if (it == old.end()) {
    return Status::NotFound("no column stats for " + col + " of " + db + "." + table +
                            (part.empty() ? "" : " partition " + part));
  }
  hive::ColumnStatisticsObj saved = *it;
  ICS_RETURN_IF_ERROR(Write(w_.DeleteColumnStats(db, table, part, col)));
  PushUndo("restore column stats of " + db + "." + table + "." + col,
           [this, db, table, part, saved] {
             return w_.UpdateColumnStats(StatsObject(db, table, part, {saved}));
           });
  return Status::OK();
}

}  // namespace ics::catalog
