// HmsCore: partitions (add, append, drop, alter, rename, reads, filters).
#include <algorithm>
#include <set>

#include "catalogd/hms/hms_core.h"
#include "catalogd/hms/hms_core_internal.h"
#include "catalogd/hms/hms_filter.h"
#include "hive_metastore_constants.h"

namespace ics::catalog::hms {

namespace {

// Checks a partition against its table, fills db/table names and defaults.
Status PreparePartition(const hive::Table& t, hive::Partition* p) {
  const std::string full = t.dbName + "." + t.tableName;
  if (t.partitionKeys.empty()) {
    return Status::InvalidArgument("Table " + full + " is not partitioned");
  }
  if (!p->dbName.empty() && AsciiLower(p->dbName) != t.dbName) {
    return Status::InvalidArgument("Partition names database '" + p->dbName + "', expected '" +
                                   t.dbName + "'");
  }
  if (!p->tableName.empty() && AsciiLower(p->tableName) != t.tableName) {
    return Status::InvalidArgument("Partition names table '" + p->tableName + "', expected '" +
                                   t.tableName + "'");
  }
  if (p->values.size() != t.partitionKeys.size()) {
    return Status::InvalidArgument("Partition of " + full + " has " +
                                   std::to_string(p->values.size()) + " value(s); the table has " +
                                   std::to_string(t.partitionKeys.size()) + " partition key(s)");
  }
  ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(PartitionKeyNames(t), p->values));
  p->dbName = t.dbName;
  p->tableName = t.tableName;
  if (p->sd.cols.empty() && p->sd.inputFormat.empty() && p->sd.location.empty()) {
    // No storage descriptor given (append_partition, minimal clients): the table's.
    p->sd = t.sd;
    p->sd.location.clear();
  }
  if (p->sd.location.empty()) p->sd.location = JoinPath(t.sd.location, name);
  if (p->createTime == 0) p->createTime = NowSeconds();
  p->parameters[hive::g_hive_metastore_constants.DDL_TIME] = std::to_string(NowSeconds());
  return Status::OK();
}

// Applies a PartitionQuery's value prefix or filter and its bounds to `names`
// (all partition names, sorted) and the partitions' values.
struct Selector {
  const HmsCore::PartitionQuery& q;
  const hive::Table& table;
  std::vector<std::string> keys;
  std::unique_ptr<HmsPartitionFilter> filter;

  Status Init() {
    keys = PartitionKeyNames(table);
    if (q.by_values && q.values.size() > keys.size()) {
      return Status::InvalidArgument("Got " + std::to_string(q.values.size()) +
                                     " partition values; table " + table.dbName + "." +
                                     table.tableName + " has " + std::to_string(keys.size()) +
                                     " partition key(s)");
    }
    if (q.by_filter) {
      ICS_ASSIGN_OR_RETURN(HmsPartitionFilter f,
                           HmsPartitionFilter::Parse(q.filter, table.partitionKeys));
      filter = std::make_unique<HmsPartitionFilter>(std::move(f));
    }
    return Status::OK();
  }

  bool Matches(const std::vector<std::string>& values) const {
    if (q.by_values) {
      for (size_t i = 0; i < q.values.size() && i < values.size(); ++i) {
        if (!q.values[i].empty() && q.values[i] != values[i]) return false;
      }
    }
    return filter == nullptr || filter->Matches(values);
  }
};

Result<std::vector<hive::Partition>> Select(Metastore* ms, const hive::Table& t,
                                            const HmsCore::PartitionQuery& q, int limit) {
  Selector sel{q, t, {}, nullptr};
  ICS_RETURN_IF_ERROR(sel.Init());
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> all, ms->GetPartitions(t.dbName, t.tableName));
  std::vector<hive::Partition> out;
  for (hive::Partition& p : all) {
    if (q.max_parts >= 0 && out.size() >= static_cast<size_t>(q.max_parts)) break;
    if (!sel.Matches(p.values)) continue;
    out.push_back(std::move(p));
    if (q.max_parts < 0 && out.size() > static_cast<size_t>(std::max(limit, 0))) {
      return Status::LimitExceeded("Table " + t.dbName + "." + t.tableName + " has more than " +
                                   std::to_string(limit) +
                                   " matching partitions (the per-request limit); pass max_parts "
                                   "or a narrower filter");
    }
  }
  return out;
}

}  // namespace

Result<std::string> HmsCore::PartitionNameOf(const std::string& db, const std::string& table,
                                             const std::vector<std::string>& values) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  if (values.size() != t.partitionKeys.size()) {
    return Status::InvalidArgument("Got " + std::to_string(values.size()) +
                                   " partition value(s); table " + t.dbName + "." + t.tableName +
                                   " has " + std::to_string(t.partitionKeys.size()) +
                                   " partition key(s)");
  }
  return MakePartitionName(PartitionKeyNames(t), values);
}

Result<std::vector<hive::Partition>> HmsCore::AddPartitions(const std::string& db,
                                                            const std::string& table,
                                                            std::vector<hive::Partition> parts,
                                                            bool if_not_exists) {
  ICS_RETURN_IF_ERROR(CheckCount(parts.size(), opts_.max_objects_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  std::vector<std::string> names;
  for (hive::Partition& p : parts) {
    ICS_RETURN_IF_ERROR(PreparePartition(t, &p));
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(PartitionKeyNames(t), p.values));
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Status::InvalidArgument("Partition " + name + " appears twice in the request");
    }
    names.push_back(name);
  }
  std::set<std::string> existing;
  if (if_not_exists && !names.empty()) {
    ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                         ms_->GetPartitionsByNames(t.dbName, t.tableName, names));
    for (const hive::Partition& p : found) {
      ICS_ASSIGN_OR_RETURN(std::string n, MakePartitionName(PartitionKeyNames(t), p.values));
      existing.insert(n);
    }
  }
  MetastoreTxn txn;
  std::vector<hive::Partition> added;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (existing.count(names[i]) > 0) continue;
    txn.ops.push_back(MetastoreOp::AddPartition(t.dbName, t.tableName, parts[i]));
    added.push_back(parts[i]);
  }
  if (txn.ops.empty()) return added;
  ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  if (fs_ != nullptr) {
    for (size_t i = 0; i < added.size(); ++i) {
      Status dir = fs_->CreateDirectories(added[i].sd.location);
      if (dir.ok()) continue;
      MetastoreTxn undo;
      for (const hive::Partition& p : added) {
        MetastoreOp drop = MetastoreOp::DropPartition(t.dbName, t.tableName, "");
        Result<std::string> n = MakePartitionName(PartitionKeyNames(t), p.values);
        drop.partition_name = n.ok() ? *n : "";
        undo.ops.push_back(std::move(drop));
      }
      Status u = CommitTxn(ms_, undo);
      return dir.WithContext("creating partition directory " + added[i].sd.location +
                             (u.ok() ? "" : " (and undoing the add failed: " + u.message() + ")"));
    }
  }
  return added;
}

Result<std::vector<hive::Partition>> HmsCore::AddPartitionObjects(
    std::vector<hive::Partition> parts) {
  if (parts.empty()) return parts;
  const std::string db = parts[0].dbName;
  const std::string table = parts[0].tableName;
  for (const hive::Partition& p : parts) {
    if (AsciiLower(p.dbName) != AsciiLower(db) || AsciiLower(p.tableName) != AsciiLower(table)) {
      return Status::InvalidArgument("All partitions must belong to one table (" + db + "." +
                                     table + " and " + p.dbName + "." + p.tableName + ")");
    }
  }
  return AddPartitions(db, table, std::move(parts), /*if_not_exists=*/false);
}

Result<hive::Partition> HmsCore::AppendPartition(const std::string& db, const std::string& table,
                                                 const std::vector<std::string>& values) {
  hive::Partition p;
  p.values = values;
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> added,
                       AddPartitions(db, table, {std::move(p)}, false));
  return added.at(0);
}

Result<hive::Partition> HmsCore::AppendPartitionByName(const std::string& db,
                                                       const std::string& table,
                                                       const std::string& name) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  ICS_ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionName(name));
  const std::vector<std::string> keys = PartitionKeyNames(t);
  if (spec.size() != keys.size()) {
    return Status::InvalidArgument("Partition name '" + name + "' has " +
                                   std::to_string(spec.size()) + " component(s); table " +
                                   t.dbName + "." + t.tableName + " has " +
                                   std::to_string(keys.size()) + " partition key(s)");
  }
  std::vector<std::string> values;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (AsciiLower(spec[i].first) != keys[i]) {
      return Status::InvalidArgument("Partition name '" + name + "': key '" + spec[i].first +
                                     "' where '" + keys[i] + "' was expected");
    }
    values.push_back(spec[i].second == kDefaultPartitionName ? "" : spec[i].second);
  }
  return AppendPartition(db, table, values);
}

Result<std::vector<hive::Partition>> HmsCore::DropPartitions(const std::string& db,
                                                             const std::string& table,
                                                             const std::vector<std::string>& names,
                                                             bool if_exists, bool delete_data) {
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_objects_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                       ms_->GetPartitionsByNames(t.dbName, t.tableName, names));
  std::set<std::string> present;
  for (const hive::Partition& p : found) {
    ICS_ASSIGN_OR_RETURN(std::string n, MakePartitionName(PartitionKeyNames(t), p.values));
    present.insert(n);
  }
  if (!if_exists) {
    for (const std::string& n : names) {
      if (present.count(n) == 0) {
        return Status::NotFound("Partition " + n + " of " + t.dbName + "." + t.tableName +
                                " does not exist");
      }
    }
  }
  MetastoreTxn txn;
  for (const std::string& n : present) {
    txn.ops.push_back(MetastoreOp::DropPartition(t.dbName, t.tableName, n));
  }
  if (!txn.ops.empty()) ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  if (delete_data && IsManaged(t) && !found.empty()) {
    std::vector<std::string> dropped;
    for (const hive::Partition& p : found) dropped.push_back(p.sd.location);
    std::vector<std::string> remaining;
    Result<std::vector<hive::Partition>> left = ms_->GetPartitions(t.dbName, t.tableName);
    Result<DataRemovalPlan> plan = left.status();
    if (left.ok()) {
      for (const hive::Partition& p : *left) remaining.push_back(p.sd.location);
      plan = PlanPartitionDataRemoval(ms_, t.dbName, t.tableName, t.sd.location, dropped,
                                      remaining);
    }
    RemovePlannedData(fs_, opts_.warehouse_dir, plan,
                      "drop partitions of " + t.dbName + "." + t.tableName);
  }
  return found;
}

Status HmsCore::AlterPartitions(const std::string& db, const std::string& table,
                                std::vector<hive::Partition> parts) {
  ICS_RETURN_IF_ERROR(CheckCount(parts.size(), opts_.max_objects_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  MetastoreTxn txn;
  for (hive::Partition& p : parts) {
    const bool keep_location = p.sd.location.empty();
    ICS_RETURN_IF_ERROR(PreparePartition(t, &p));
    if (keep_location) {
      // An alter without a location keeps the partition where it is.
      ICS_ASSIGN_OR_RETURN(std::string n, MakePartitionName(PartitionKeyNames(t), p.values));
      ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> cur,
                           ms_->GetPartitionsByNames(t.dbName, t.tableName, {n}));
      if (!cur.empty()) p.sd.location = cur[0].sd.location;
    }
    txn.ops.push_back(MetastoreOp::AlterPartition(t.dbName, t.tableName, std::move(p)));
  }
  if (txn.ops.empty()) return Status::OK();
  return CommitTxn(ms_, txn);
}

Status HmsCore::RenamePartition(const std::string& db, const std::string& table,
                                const std::vector<std::string>& old_values,
                                hive::Partition new_part) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  ICS_ASSIGN_OR_RETURN(std::string old_name, PartitionNameOf(db, table, old_values));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> cur,
                       ms_->GetPartitionsByNames(t.dbName, t.tableName, {old_name}));
  if (cur.empty()) {
    return Status::NotFound("Partition " + old_name + " of " + t.dbName + "." + t.tableName +
                            " does not exist");
  }
  if (new_part.sd.location.empty()) new_part.sd = cur[0].sd;  // renames move no data
  ICS_RETURN_IF_ERROR(PreparePartition(t, &new_part));
  ICS_ASSIGN_OR_RETURN(std::string new_name,
                       MakePartitionName(PartitionKeyNames(t), new_part.values));
  if (new_name == old_name) {
    return Status::InvalidArgument("Partition " + old_name + " is renamed to itself");
  }
  ICS_ASSIGN_OR_RETURN(std::vector<hive::ColumnStatisticsObj> stats,
                       ms_->GetPartitionColumnStats(t.dbName, t.tableName, old_name));
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::DropPartition(t.dbName, t.tableName, old_name));
  txn.ops.push_back(MetastoreOp::AddPartition(t.dbName, t.tableName, std::move(new_part)));
  if (!stats.empty()) {
    txn.ops.push_back(
        MetastoreOp::SetPartitionColumnStats(t.dbName, t.tableName, new_name, std::move(stats)));
  }
  return CommitTxn(ms_, txn);
}

Result<hive::Partition> HmsCore::GetPartitionByName(const std::string& db,
                                                    const std::string& table,
                                                    const std::string& name) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  ICS_RETURN_IF_ERROR(ParsePartitionName(name).status());
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                       ms_->GetPartitionsByNames(t.dbName, t.tableName, {name}));
  if (found.empty()) {
    return Status::NotFound("Partition " + name + " of " + t.dbName + "." + t.tableName +
                            " does not exist");
  }
  return found[0];
}

Result<std::vector<hive::Partition>> HmsCore::ListPartitions(const std::string& db,
                                                             const std::string& table,
                                                             const PartitionQuery& query) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  return Select(ms_, t, query, opts_.max_partitions_per_request);
}

Result<std::vector<std::string>> HmsCore::ListPartitionNames(const std::string& db,
                                                             const std::string& table,
                                                             const PartitionQuery& query) {
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts,
                       Select(ms_, t, query, opts_.max_partitions_per_request));
  std::vector<std::string> names;
  names.reserve(parts.size());
  for (const hive::Partition& p : parts) {
    ICS_ASSIGN_OR_RETURN(std::string n, MakePartitionName(PartitionKeyNames(t), p.values));
    names.push_back(std::move(n));
  }
  return names;
}

Result<std::vector<hive::Partition>> HmsCore::GetPartitionsByNames(
    const std::string& db, const std::string& table, const std::vector<std::string>& names) {
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_partitions_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(ms_, db, table));
  return ms_->GetPartitionsByNames(t.dbName, t.tableName, names);
}

}  // namespace ics::catalog::hms
