// ALTER TABLE ADD / DROP / RECOVER PARTITIONS and the metadata step of an
// INSERT (InsertCommand; Impala's UpdateCatalog).
#include <glog/logging.h>

#include <map>
#include <set>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_locations_internal.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_partition_specs_internal.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

namespace {

// Commits new partitions, creates their directories (when asked) and
// installs a copy of `old` that has them. On a directory failure the
// partitions are removed from the metastore again.
Result<DdlOutcome> CommitNewPartitions(CatalogContext* ctx, const TableRef& t,
                                       const TableState& old,
                                       const std::vector<hive::Partition>& adds,
                                       const std::vector<std::string>& names, bool create_dirs,
                                       std::string summary) {
  MetastoreTxn txn;
  for (const hive::Partition& part : adds) txn.ops.push_back(AddPartitionOp(part));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  if (create_dirs) {
    for (const hive::Partition& part : adds) {
      Status dir = ctx->fs->CreateDirectories(part.sd.location);
      if (!dir.ok()) {
        Compensate(ctx, DropPartitionsTxn(t, names), "ADD PARTITION on " + t.full());
        return dir.WithContext("creating the partition directory " + part.sd.location);
      }
    }
  }
  DdlOutcome::PartitionDelta delta;
  delta.base_version = old.version;
  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    std::shared_ptr<TableState> next = CopyTable(old);
    for (const hive::Partition& part : adds) {
      ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                           ctx->loader->LoadPartition(*next, part));
      const int64_t id = p->id;
      delta.added.push_back(p);
      next->partitions.emplace(id, std::move(p));
    }
    return next;
  };
  DdlOutcome out = InstallAfterCommit(ctx, t, build(), std::move(summary));
  out.partition_delta = std::move(delta);  // not rendered if the rebuild failed (unloaded)
  return out;
}

}  // namespace

Result<DdlOutcome> AddPartitions(CatalogContext* ctx, const AddPartitionsCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  if (p.partitions.empty()) return Status::InvalidArgument("ADD PARTITION without partitions");
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, PartitionedTable(ctx, t));
  // New partitions take the storage descriptor and location of the table
  // as this catalog holds it (as Impala's catalogd does), not of a fresh
  // metastore read: nothing is overwritten or deleted on its word.
  const hive::Table& hms = old->hms;
  ICS_ASSIGN_OR_RETURN(std::string table_loc, TableLocation(hms, t));
  const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);
  std::vector<hive::Partition> adds;
  std::vector<std::string> names;
  std::set<std::string> in_request;
  for (const AddPartitionsCommand::Partition& def : p.partitions) {
    ICS_ASSIGN_OR_RETURN(std::vector<std::string> values, PartitionValues(*old, def.spec));
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, values));
    if (!in_request.insert(name).second) {
      return Status::InvalidArgument("Duplicate partition in ADD PARTITION: " + name);
    }
    if (old->partitions_by_name.Contains(name)) {
      if (p.if_not_exists) continue;
      return Status::AlreadyExists("Partition already exists: " + PartitionDisplayName(t, name));
    }
    std::string location = table_loc + "/" + name;
    if (!def.location.empty()) {
      ICS_ASSIGN_OR_RETURN(location, NormalizeLocation(def.location));
    }
    adds.push_back(NewPartition(hms, std::move(values), location));
    names.push_back(std::move(name));
  }
  if (adds.empty()) {
    return NoOp(ctx, p.partitions.size() == 1 ? "Partition already exists."
                                              : "No new partitions have been added to the table.");
  }
  return CommitNewPartitions(
      ctx, t, *old, adds, names, /*create_dirs=*/true,
      adds.size() == 1
          ? "New partition has been added to the table."
          : std::to_string(adds.size()) + " new partitions have been added to the table.");
}

Result<DdlOutcome> DropPartitions(CatalogContext* ctx, const DropPartitionsCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  if (p.partitions.empty()) return Status::InvalidArgument("DROP PARTITION without partitions");
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, PartitionedTable(ctx, t));
  ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> parts,
                       ResolvePartitionSet(*old, p.partitions, p.if_exists));
  if (parts.empty()) return NoOp(ctx, "Dropped 0 partition(s).");
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  std::vector<std::string> names;
  for (const PartitionPtr& part : parts) names.push_back(std::string(part->name()));
  ICS_RETURN_IF_ERROR(Commit(ctx, DropPartitionsTxn(t, names)));

  Status fs_status;
  std::string kept;
  if (IsManaged(hms)) fs_status = RemoveDroppedPartitionData(ctx, t, hms, *old, parts, {}, &kept);
  std::shared_ptr<TableState> next = CopyTable(*old);
  for (const PartitionPtr& part : parts) next->partitions.erase(part->id);
  DdlOutcome out = InstallTable(
      ctx, std::move(next), "Dropped " + std::to_string(parts.size()) + " partition(s)." + kept);
  out.partition_delta = DdlOutcome::PartitionDelta{old->version, {}, std::move(parts)};
  if (!fs_status.ok()) {
    return fs_status.WithContext("partitions of " + t.full() +
                                 " were dropped but removing their data failed");
  }
  return out;
}

Result<DdlOutcome> RecoverPartitions(CatalogContext* ctx, const RecoverPartitionsCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, PartitionedTable(ctx, t));
  const hive::Table& hms = old->hms;  // as in AddPartitions
  ICS_ASSIGN_OR_RETURN(std::string table_loc, TableLocation(hms, t));
  const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);

  // Walk k=v directories one partition key per level; names that do not
  // match the key or whose value does not fit its type are skipped.
  struct Found {
    std::string dir;
    std::vector<std::string> values;
  };
  std::vector<Found> level = {{table_loc, {}}};
  for (size_t i = 0; i < keys.size(); ++i) {
    std::vector<Found> next_level;
    for (const Found& f : level) {
      ICS_ASSIGN_OR_RETURN(std::vector<std::string> subdirs, ctx->fs->ListSubdirectories(f.dir));
      for (const std::string& sub : subdirs) {
        const size_t eq = sub.find('=');
        if (eq == std::string::npos) continue;
        Result<std::string> key = UnescapePathName(sub.substr(0, eq));
        Result<std::string> value = UnescapePathName(sub.substr(eq + 1));
        if (!key.ok() || !value.ok() || AsciiLower(*key) != keys[i]) continue;
        Result<std::string> canonical =
            CanonicalPartitionValue(old->clustering_columns[i].columnType, keys[i], *value);
        if (!canonical.ok()) continue;
        Found child{f.dir + "/" + sub, f.values};
        child.values.push_back(std::move(canonical).value());
        next_level.push_back(std::move(child));
      }
    }
    level = std::move(next_level);
  }
  std::vector<hive::Partition> adds;
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (Found& f : level) {
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, f.values));
    if (old->partitions_by_name.Contains(name) || !seen.insert(name).second) continue;
    adds.push_back(NewPartition(hms, std::move(f.values), f.dir));
    names.push_back(std::move(name));
  }
  if (adds.empty()) return NoOp(ctx, "Partitions have been recovered.");
  return CommitNewPartitions(ctx, t, *old, adds, names, /*create_dirs=*/false,
                             "Partitions have been recovered.");
}

namespace {

// The file names an INSERT reported for one partition: full paths or bare
// names (a "file:" scheme is ignored).
std::set<std::string> ReportedFiles(const std::vector<std::string>& files) {
  std::set<std::string> out;
  for (const std::string& f : files) {
    Result<std::string> path = NormalizeLocation(f);
    out.insert(path.ok() ? *path : f);
  }
  return out;
}

}  // namespace

Result<DdlOutcome> Insert(CatalogContext* ctx, const InsertCommand& c) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(c.db));
  ICS_ASSIGN_OR_RETURN(std::string table, NormalizeTableName(c.table));
  const TableRef t{db, table};
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  if (old->is_view()) return Status::InvalidArgument("Cannot insert into a view: " + t.full());
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  ICS_ASSIGN_OR_RETURN(std::string table_loc, TableLocation(hms, t));
  const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);

  struct Touched {
    PartitionPtr existing;  // null: new partition (see `part`)
    hive::Partition part;
    std::string dir;
    const std::vector<std::string>* files;
  };
  std::vector<Touched> touched;
  std::vector<hive::Partition> adds;
  std::vector<std::string> add_names;
  std::set<std::string> seen;
  for (const auto& [name, files] : c.files_by_partition) {
    Touched tp;
    tp.files = &files;
    if (name.empty()) {
      if (old->is_partitioned()) {
        return Status::InvalidArgument("Table " + t.full() +
                                       " is partitioned; \"\" (the table root) is not a partition");
      }
      tp.existing = old->partitions.empty() ? nullptr : old->partitions.begin()->second;
      if (tp.existing == nullptr)
        return Status::Internal("table " + t.full() + " has no root partition");
    } else {
      if (!old->is_partitioned())
        return Status::InvalidArgument("Table is not partitioned: " + t.full());
      ICS_ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionName(name));
      if (spec.size() != keys.size()) {
        return Status::InvalidArgument("Partition '" + name + "' does not match the " +
                                       std::to_string(keys.size()) + " partition key(s) of " +
                                       t.full());
      }
      std::vector<std::string> values;
      for (size_t i = 0; i < keys.size(); ++i) {
        if (AsciiLower(spec[i].first) != keys[i]) {
          return Status::InvalidArgument("Partition '" + name + "': key #" + std::to_string(i + 1) +
                                         " of " + t.full() + " is '" + keys[i] + "'");
        }
        ICS_ASSIGN_OR_RETURN(std::string v,
                             CanonicalPartitionValue(old->clustering_columns[i].columnType, keys[i],
                                                     spec[i].second));
        values.push_back(std::move(v));
      }
      ICS_ASSIGN_OR_RETURN(std::string canonical, MakePartitionName(keys, values));
      if (!seen.insert(canonical).second) {
        return Status::InvalidArgument("Partition '" + name + "' is listed more than once");
      }
      if (PartitionPtr existing = old->partitions_by_name.Get(canonical)) {
        tp.existing = std::move(existing);
      } else {
        tp.part = NewPartition(hms, std::move(values), table_loc + "/" + canonical);
        adds.push_back(tp.part);
        add_names.push_back(canonical);
      }
    }
    tp.dir = tp.existing != nullptr ? tp.existing->location() : tp.part.sd.location;
    touched.push_back(std::move(tp));
  }

  MetastoreTxn txn;
  for (const hive::Partition& part : adds) txn.ops.push_back(AddPartitionOp(part));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  for (const hive::Partition& part : adds) {
    Status dir = ctx->fs->CreateDirectories(part.sd.location);
    if (!dir.ok()) {
      Compensate(ctx, DropPartitionsTxn(t, add_names), "INSERT into " + t.full());
      return dir.WithContext("creating the partition directory " + part.sd.location);
    }
  }
  Status fs_status;
  if (c.overwrite) {
    // INSERT OVERWRITE: only the files this INSERT wrote stay.
    for (const Touched& tp : touched) {
      if (!ctx->fs->MayModify(tp.dir)) {
        if (fs_status.ok()) {
          fs_status = Status::InvalidArgument(
              "the location " + tp.dir +
              " is outside catalogd's data roots (--data_roots), so its old files were kept");
        }
        continue;
      }
      const std::set<std::string> keep = ReportedFiles(*tp.files);
      Result<std::vector<FileStatus>> files = ctx->fs->ListFiles(tp.dir);
      if (!files.ok()) {
        if (fs_status.ok()) fs_status = files.status();
        continue;
      }
      for (const FileStatus& f : *files) {
        const std::string path = tp.dir + "/" + f.name;
        if (keep.count(path) != 0 || keep.count(f.name) != 0) continue;
        Status s = ctx->fs->RemoveAll(path);
        if (!s.ok() && fs_status.ok()) fs_status = s;
      }
    }
  }

  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    std::shared_ptr<TableState> next = CopyTable(*old);
    for (const Touched& tp : touched) {
      if (tp.existing != nullptr) {
        ICS_ASSIGN_OR_RETURN(PartitionPtr fresh, ctx->loader->RefreshPartition(tp.existing));
        if (fresh != tp.existing) {
          next->partitions.erase(tp.existing->id);
          next->partitions.emplace(fresh->id, fresh);
        }
      } else {
        ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                             ctx->loader->LoadPartition(*next, tp.part));
        const int64_t id = p->id;
        next->partitions.emplace(id, std::move(p));
      }
    }
    return next;
  };
  DdlOutcome out = InstallAfterCommit(ctx, t, build(), "Updated table.");
  if (!fs_status.ok()) {
    return fs_status.WithContext("INSERT OVERWRITE into " + t.full() +
                                 " could not remove all old files");
  }
  return out;
}

}  // namespace ics::catalog::ddl
