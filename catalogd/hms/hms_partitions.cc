// HmsPartitions: partitions (add, append, drop, alter, rename, reads, filters).
#include <algorithm>
#include <set>

#include "catalogd/hms/hms_filter.h"
#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/hms/hms_partitions.h"
#include "catalogd/ops/command_core.h"
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

// A batch of the command core on `t`, as this door sends them: partition
// values kept as the Hive client gave them.
PartitionBatch HmsBatch(const hive::Table& t) {
  PartitionBatch batch;
  batch.db = t.dbName;
  batch.table = t.tableName;
  batch.canonical_values = false;
  return batch;
}

// An add of `prepared` (PreparePartition) exactly as it is.
PartitionBatch::Add AddAsPrepared(hive::Partition prepared) {
  PartitionBatch::Add add;
  add.values = prepared.values;
  add.patch = [prepared = std::move(prepared)](hive::Partition* out) {
    *out = prepared;
    return Status::OK();
  };
  return add;
}

// Applies a PartitionQuery's value prefix or filter and its bounds to `names`
// (all partition names, sorted) and the partitions' values.
struct Selector {
  const HmsPartitions::PartitionQuery& q;
  const hive::Table& table;
  std::vector<std::string> keys;
  std::unique_ptr<HmsPartitionFilter> filter;

  Status Init() {
    keys = PartitionKeyNames(table);
    if (q.by_values && q.values.size() > keys.size()) {
      return Status::InvalidArgument(
          "Got " + std::to_string(q.values.size()) + " partition values; table " + table.dbName +
          "." + table.tableName + " has " + std::to_string(keys.size()) + " partition key(s)");
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

Result<std::vector<hive::Partition>> Select(ops::CatalogQueries* reads, const hive::Table& t,
                                            const HmsPartitions::PartitionQuery& q, int limit) {
  Selector sel{q, t, {}, nullptr};
  ICS_RETURN_IF_ERROR(sel.Init());
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> all,
                       reads->Partitions(HmsCaller(), t.dbName, t.tableName));
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

Result<std::string> HmsPartitions::PartitionNameOf(const std::string& db_arg,
                                                   const std::string& table,
                                                   const std::vector<std::string>& values) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  if (values.size() != t.partitionKeys.size()) {
    return Status::InvalidArgument(
        "Got " + std::to_string(values.size()) + " partition value(s); table " + t.dbName + "." +
        t.tableName + " has " + std::to_string(t.partitionKeys.size()) + " partition key(s)");
  }
  return MakePartitionName(PartitionKeyNames(t), values);
}

Result<std::vector<hive::Partition>> HmsPartitions::AddPartitions(
    const std::string& db_arg, const std::string& table, std::vector<hive::Partition> parts,
    bool if_not_exists) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(parts.size(), opts_.max_objects_per_request, "partitions"));
  for (const hive::Partition& p : parts) ICS_RETURN_IF_ERROR(CheckCatalog(p.catName));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  std::vector<std::string> names;
  for (hive::Partition& p : parts) {
    ICS_RETURN_IF_ERROR(PreparePartition(t, &p));
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(PartitionKeyNames(t), p.values));
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Status::InvalidArgument("Partition " + name + " appears twice in the request");
    }
    names.push_back(name);
  }
  // The core adds them (one transaction, directories, one catalog install);
  // each prepared object is the partition as the caller gave it.
  PartitionBatch batch = HmsBatch(t);
  batch.skip_existing = if_not_exists;
  for (hive::Partition& p : parts) batch.adds.push_back(AddAsPrepared(std::move(p)));
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult done, commands_->ChangePartitions(HmsCaller(), batch));
  return std::move(done.added);
}

Result<std::vector<hive::Partition>> HmsPartitions::AddPartitionObjects(
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

Result<hive::Partition> HmsPartitions::AppendPartition(const std::string& db_arg,
                                                       const std::string& table,
                                                       const std::vector<std::string>& values) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  hive::Partition p;
  p.values = values;
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> added,
                       AddPartitions(db, table, {std::move(p)}, false));
  return added.at(0);
}

Result<hive::Partition> HmsPartitions::AppendPartitionByName(const std::string& db_arg,
                                                             const std::string& table,
                                                             const std::string& name) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
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

Result<std::vector<hive::Partition>> HmsPartitions::DropPartitions(
    const std::string& db_arg, const std::string& table, const std::vector<std::string>& names,
    bool if_exists, bool delete_data) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_objects_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                       reads_->PartitionsByNames(HmsCaller(), t.dbName, t.tableName, names));
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
  if (found.empty()) return found;
  PartitionBatch batch = HmsBatch(t);
  batch.delete_data = delete_data;
  for (const hive::Partition& p : found) batch.drops.push_back(p.values);
  ICS_RETURN_IF_ERROR(commands_->ChangePartitions(HmsCaller(), batch).status());
  return found;
}

Status HmsPartitions::AlterPartitions(const std::string& db_arg, const std::string& table,
                                      std::vector<hive::Partition> parts) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(parts.size(), opts_.max_objects_per_request, "partitions"));
  for (const hive::Partition& p : parts) ICS_RETURN_IF_ERROR(CheckCatalog(p.catName));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  PartitionBatch batch = HmsBatch(t);
  for (hive::Partition& p : parts) {
    const bool keep_location = p.sd.location.empty();
    ICS_RETURN_IF_ERROR(PreparePartition(t, &p));
    PartitionBatch::Alter alter;
    alter.values = p.values;
    // The caller's object replaces the current one; without a location
    // the partition stays where it is.
    alter.patch = [keep_location, given = std::move(p)](hive::Partition* current) {
      const std::string location = current->sd.location;
      *current = given;
      if (keep_location) current->sd.location = location;
      return Status::OK();
    };
    batch.alters.push_back(std::move(alter));
  }
  if (batch.alters.empty()) return Status::OK();
  return commands_->ChangePartitions(HmsCaller(), batch).status();
}

Status HmsPartitions::RenamePartition(const std::string& db_arg, const std::string& table,
                                      const std::vector<std::string>& old_values,
                                      hive::Partition new_part) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  ICS_ASSIGN_OR_RETURN(std::string old_name, PartitionNameOf(db, table, old_values));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> cur,
                       reads_->PartitionsByNames(HmsCaller(), t.dbName, t.tableName, {old_name}));
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
                       reads_->PartitionColumnStats(HmsCaller(), t.dbName, t.tableName, old_name));
  // One change of the core: the old partition out (its data stays), the new
  // one in at the same place, its column statistics with it.
  PartitionBatch batch = HmsBatch(t);
  batch.delete_data = false;
  batch.drops.push_back(cur[0].values);
  batch.adds.push_back(AddAsPrepared(std::move(new_part)));
  if (!stats.empty()) {
    batch.set_stats.push_back({new_name, std::move(stats)});
  }
  return commands_->ChangePartitions(HmsCaller(), batch).status();
}

Result<hive::Partition> HmsPartitions::GetPartitionByName(const std::string& db_arg,
                                                          const std::string& table,
                                                          const std::string& name) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  ICS_RETURN_IF_ERROR(ParsePartitionName(name).status());
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> found,
                       reads_->PartitionsByNames(HmsCaller(), t.dbName, t.tableName, {name}));
  if (found.empty()) {
    return Status::NotFound("Partition " + name + " of " + t.dbName + "." + t.tableName +
                            " does not exist");
  }
  return found[0];
}

Result<std::vector<hive::Partition>> HmsPartitions::ListPartitions(const std::string& db_arg,
                                                                   const std::string& table,
                                                                   const PartitionQuery& query) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  return Select(reads_, t, query, opts_.max_partitions_per_request);
}

Result<std::vector<std::string>> HmsPartitions::ListPartitionNames(const std::string& db_arg,
                                                                   const std::string& table,
                                                                   const PartitionQuery& query) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts,
                       Select(reads_, t, query, opts_.max_partitions_per_request));
  std::vector<std::string> names;
  names.reserve(parts.size());
  for (const hive::Partition& p : parts) {
    ICS_ASSIGN_OR_RETURN(std::string n, MakePartitionName(PartitionKeyNames(t), p.values));
    names.push_back(std::move(n));
  }
  return names;
}

Result<std::vector<hive::Partition>> HmsPartitions::GetPartitionsByNames(
    const std::string& db_arg, const std::string& table, const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_partitions_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  return reads_->PartitionsByNames(HmsCaller(), t.dbName, t.tableName, names);
}

}  // namespace ics::catalog::hms
