// DdlExecutor::ApplyPartitionBatch: a batch of partition adds, alters and
// drops (plus, optionally, a change of the table's parameters) as one DDL —
// one metastore transaction, one catalog version.
#include <glog/logging.h>

#include <map>
#include <set>

#include "catalogd/ddl/ddl_locations_internal.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_partition_specs_internal.h"
#include "catalogd/ddl/ddl_schema_internal.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

namespace {

// Canonical values of `values` for the keys of `t` (as given unless `canonical`).
Result<std::vector<std::string>> CanonicalValues(const TableState& t, const TableRef& ref,
                                                 const std::vector<std::string>& values,
                                                 bool canonical) {
  if (values.size() != t.clustering_columns.size()) {
    return Status::InvalidArgument("Partition of " + ref.full() + " needs " +
                                   std::to_string(t.clustering_columns.size()) +
                                   " value(s) (one per partition key), got " +
                                   std::to_string(values.size()));
  }
  if (!canonical) return values;
  std::vector<std::string> out;
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const impala::TColumn& c = t.clustering_columns[i];
    ICS_ASSIGN_OR_RETURN(std::string v,
                         CanonicalPartitionValue(c.columnType, c.columnName, values[i]));
    out.push_back(std::move(v));
  }
  return out;
}

// Resolves `values` to a partition name, rejecting a partition named twice
// anywhere in the batch.
Result<std::string> BatchName(const TableState& t, const TableRef& ref, const PartitionBatch& b,
                              const std::vector<std::string>& keys,
                              const std::vector<std::string>& values, std::set<std::string>* seen,
                              std::vector<std::string>* canonical) {
  ICS_ASSIGN_OR_RETURN(*canonical, CanonicalValues(t, ref, values, b.canonical_values));
  ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, *canonical));
  if (!seen->insert(name).second) {
    return Status::InvalidArgument("Partition " + PartitionDisplayName(ref, name) +
                                   " appears more than once in the batch");
  }
  return name;
}

Status Missing(const TableRef& ref, const std::string& name) {
  return Status::NotFound("Partition does not exist: " + PartitionDisplayName(ref, name));
}

}  // namespace

Result<PartitionBatchResult> ApplyPartitionBatch(CatalogContext* ctx, const PartitionBatch& b) {
  const TableRef t{b.db, b.table};
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, PartitionedTable(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  ICS_ASSIGN_OR_RETURN(std::string table_loc, TableLocation(hms, t));
  const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);
  std::set<std::string> seen;

  // ---- validate and build every object before writing anything ----
  std::vector<hive::Partition> adds;
  std::vector<std::string> add_names;
  for (const PartitionBatch::Add& a : b.adds) {
    std::vector<std::string> values;
    ICS_ASSIGN_OR_RETURN(std::string name, BatchName(*old, t, b, keys, a.values, &seen, &values));
    if (old->partitions_by_name.Contains(name)) {
      if (b.skip_existing) continue;
      return Status::AlreadyExists("Partition already exists: " + PartitionDisplayName(t, name));
    }
    hive::Partition part = NewPartition(hms, values, table_loc + "/" + name);
    if (a.patch) ICS_RETURN_IF_ERROR(a.patch(&part));
    part.values = std::move(values);
    part.dbName = t.db;
    part.tableName = t.table;
    ICS_ASSIGN_OR_RETURN(part.sd.location, NormalizeLocation(part.sd.location));
    adds.push_back(std::move(part));
    add_names.push_back(std::move(name));
  }
  std::vector<PartitionPtr> alter_olds;
  for (const PartitionBatch::Alter& a : b.alters) {
    std::vector<std::string> values;
    ICS_ASSIGN_OR_RETURN(std::string name, BatchName(*old, t, b, keys, a.values, &seen, &values));
    PartitionPtr found = old->partitions_by_name.Get(name);
    if (found == nullptr) return Missing(t, name);
    alter_olds.push_back(std::move(found));
  }
  std::vector<PartitionPtr> drops;
  for (const std::vector<std::string>& v : b.drops) {
    std::vector<std::string> values;
    ICS_ASSIGN_OR_RETURN(std::string name, BatchName(*old, t, b, keys, v, &seen, &values));
    PartitionPtr found = old->partitions_by_name.Get(name);
    if (found == nullptr) return Missing(t, name);
    drops.push_back(std::move(found));
  }
  std::vector<hive::Partition> alter_originals;
  if (!alter_olds.empty()) {
    ICS_ASSIGN_OR_RETURN(alter_originals, MetastorePartitions(ctx, t, alter_olds));
  }
  std::vector<hive::Partition> alters;
  for (size_t i = 0; i < alter_originals.size(); ++i) {
    hive::Partition part = alter_originals[i];
    if (b.alters[i].patch) ICS_RETURN_IF_ERROR(b.alters[i].patch(&part));
    part.values = alter_originals[i].values;
    part.dbName = t.db;
    part.tableName = t.table;
    ICS_ASSIGN_OR_RETURN(part.sd.location, NormalizeLocation(part.sd.location));
    alters.push_back(std::move(part));
  }
  std::vector<hive::Partition> drop_originals;
  if (!drops.empty()) {
    ICS_ASSIGN_OR_RETURN(drop_originals, MetastorePartitions(ctx, t, drops));
  }
  hive::Table new_hms = hms;
  bool table_changed = false;
  if (b.table_params_patch) {
    ICS_RETURN_IF_ERROR(b.table_params_patch(&new_hms.parameters));
    table_changed = new_hms.parameters != hms.parameters;
  }

  std::vector<ColumnStatsEdit> set_stats = b.set_stats;
  ICS_RETURN_IF_ERROR(CheckColumnStatsEdits(new_hms, &set_stats));
  PartitionBatchResult result;
  if (adds.empty() && alters.empty() && drops.empty() && !table_changed && b.set_stats.empty()) {
    result.version = ctx->catalog->version();
    result.table = old;
    return result;
  }

  // ---- one metastore transaction ----
  MetastoreTxn txn;
  MetastoreTxn undo;
  if (table_changed) {
    txn.ops.push_back(AlterTableOp(t, new_hms));
    undo.ops.push_back(AlterTableOp(t, hms));
  }
  for (const hive::Partition& p : adds) txn.ops.push_back(AddPartitionOp(p));
  for (const hive::Partition& p : alters) txn.ops.push_back(AlterPartitionOp(p));
  std::vector<std::string> drop_names;
  for (const PartitionPtr& p : drops) drop_names.push_back(std::string(p->name()));
  for (MetastoreOp& op : DropPartitionsTxn(t, drop_names).ops) txn.ops.push_back(std::move(op));
  for (ColumnStatsEdit& stats : set_stats) txn.ops.push_back(SetColumnStatsOp(t, std::move(stats)));
  for (MetastoreOp& op : DropPartitionsTxn(t, add_names).ops) undo.ops.push_back(std::move(op));
  for (const hive::Partition& p : alter_originals) undo.ops.push_back(AlterPartitionOp(p));
  for (const hive::Partition& p : drop_originals) undo.ops.push_back(AddPartitionOp(p));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  // ---- directories: new and moved partitions need theirs ----
  std::vector<const hive::Partition*> need_dirs;
  for (const hive::Partition& p : adds) need_dirs.push_back(&p);
  for (size_t i = 0; i < alters.size(); ++i) {
    if (alters[i].sd.location != alter_olds[i]->location()) need_dirs.push_back(&alters[i]);
  }
  for (const hive::Partition* p : need_dirs) {
    Status dir = ctx->fs->CreateDirectories(p->sd.location);
    if (!dir.ok()) {
      Compensate(ctx, undo, "a partition batch on " + t.full());
      return dir.WithContext("creating the partition directory " + p->sd.location);
    }
  }
  Status fs_status;
  if (b.delete_data && IsManaged(hms) && !drops.empty()) {
    std::vector<std::string> also_remaining;  // this batch's adds and moves
    for (const hive::Partition* p : need_dirs) also_remaining.push_back(p->sd.location);
    for (const hive::Partition& p : alters) also_remaining.push_back(p.sd.location);
    std::string kept;
    fs_status = RemoveDroppedPartitionData(ctx, t, hms, *old, drops, also_remaining, &kept);
    if (!kept.empty()) LOG(INFO) << "partition batch on " << t.full() << ":" << kept;
  }

  // ---- one catalog install ----
  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    std::shared_ptr<TableState> next;
    if (table_changed) {
      ICS_ASSIGN_OR_RETURN(next, DeriveTable(ctx, *old, new_hms));
    } else {
      next = CopyTable(*old);
    }
    for (const PartitionPtr& p : drops) next->partitions.erase(p->id);
    for (size_t i = 0; i < alters.size(); ++i) {
      ICS_RETURN_IF_ERROR(ReplacePartition(ctx, next.get(), *alter_olds[i], alters[i]));
    }
    for (const hive::Partition& part : adds) {
      ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                           ctx->loader->LoadPartition(*next, part));
      const int64_t id = p->id;
      next->partitions.emplace(id, std::move(p));
    }
    return next;
  };
  // Installed directly rather than through InstallTable: the batch's
  // answer carries no table object, and building the full one would cost a
  // pass over every partition of a large table per batch.
  Result<std::shared_ptr<TableState>> next = build();
  if (next.ok()) {
    ctx->loader->FinishTableState(next->get(), old.get());
    ChangeSet cs;
    cs.put_tables.push_back(*next);
    result.version = ctx->catalog->Install(std::move(cs));
  } else {
    const size_t changes = adds.size() + alters.size() + drops.size();
    result.version = InstallAfterCommit(ctx, t, std::move(next),
                                        "Changed " + std::to_string(changes) +
                                            " partition(s) of " + t.full())
                         .version;
  }
  result.changed = true;
  result.added = std::move(adds);
  result.altered = std::move(alters);
  result.dropped = drops.size();
  result.removed = std::move(drop_originals);
  result.table = ctx->catalog->GetTable(t.db, t.table);
  if (!fs_status.ok()) {
    return fs_status.WithContext("partitions of " + t.full() +
                                 " were dropped but removing their data failed");
  }
  return result;
}

}  // namespace ics::catalog::ddl
