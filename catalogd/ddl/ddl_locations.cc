// Locations and data removal (ddl_locations_internal.h).
#include "catalogd/ddl/ddl_locations_internal.h"

#include <glog/logging.h>

#include "catalogd/metastore/data_ownership.h"
#include "common/util/path_join.h"

namespace ics::catalog::ddl {

Result<std::string> NormalizeLocation(const std::string& location) {
  std::string path = location;
  if (path.rfind("file://", 0) == 0) {
    path = path.substr(7);
  } else if (path.rfind("file:", 0) == 0) {
    path = path.substr(5);
  }
  if (path.empty() || path[0] != '/') {
    return Status::InvalidArgument("Invalid location '" + location +
                                   "': only absolute local paths (/path or file:/path) are "
                                   "supported");
  }
  for (char c : path) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return Status::InvalidArgument("Invalid location '" + location +
                                     "': control characters are not allowed");
    }
  }
  return ComparableLocation(path);  // the one normalization (metastore/data_ownership.h)
}

std::string DefaultDatabaseLocation(const CatalogContext& ctx, const std::string& db) {
  std::string wh = ctx.warehouse_dir;
  while (wh.size() > 1 && wh.back() == '/') wh.pop_back();
  return wh + "/" + db + ".db";
}

std::string DefaultTableLocation(const CatalogContext& ctx, const std::string& db,
                                 const std::string& table) {
  std::string base = DefaultDatabaseLocation(ctx, db);
  DatabasePtr d = ctx.catalog->GetDatabase(db);
  if (d != nullptr && !d->hms.locationUri.empty()) {
    Result<std::string> loc = NormalizeLocation(d->hms.locationUri);
    if (loc.ok()) base = *loc;
  }
  return base + "/" + table;
}

bool IsUnder(const std::string& path, const std::string& dir) { return PathWithin(path, dir); }

std::string ParentDir(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status RemoveTableData(CatalogContext* ctx, const hive::Table& table,
                       const std::vector<hive::Partition>& partitions) {
  Result<std::string> table_loc = table.sd.location.empty() ? Result<std::string>(std::string())
                                                            : NormalizeLocation(table.sd.location);
  std::vector<std::string> candidates;
  for (const hive::Partition& p : partitions) {
    if (p.sd.location.empty()) continue;
    Result<std::string> loc = NormalizeLocation(p.sd.location);
    if (!loc.ok()) continue;
    if (table_loc.ok() && !table_loc->empty() && IsUnder(*loc, *table_loc)) continue;
    candidates.push_back(*loc);
  }
  if (table_loc.ok() && !table_loc->empty()) candidates.push_back(*table_loc);
  if (candidates.empty()) return Status::OK();
  ICS_ASSIGN_OR_RETURN(DataRemovalPlan plan, PlanTableDataRemoval(ctx->metastore, candidates));
  if (!plan.kept.empty()) {
    LOG(INFO) << "dropped table " << table.dbName << "." << table.tableName << ":"
              << KeptDataNote(plan);
  }
  for (const std::string& dir : plan.deletable) ICS_RETURN_IF_ERROR(ctx->fs->RemoveAll(dir));
  return Status::OK();
}

Status RemoveDroppedPartitionData(CatalogContext* ctx, const TableRef& t, const hive::Table& hms,
                                  const TableState& old, const std::vector<PartitionPtr>& dropped,
                                  const std::vector<std::string>& also_remaining,
                                  std::string* note) {
  std::set<int64_t> dropped_ids;
  std::vector<std::string> candidates;
  for (const PartitionPtr& p : dropped) {
    dropped_ids.insert(p->id);
    candidates.push_back(p->location());
  }
  std::vector<std::string> remaining = also_remaining;
  for (const auto& [id, p] : old.partitions) {
    if (dropped_ids.count(id) == 0) remaining.push_back(p->location());
  }
  ICS_ASSIGN_OR_RETURN(DataRemovalPlan plan,
                       PlanPartitionDataRemoval(ctx->metastore, t.db, t.table, hms.sd.location,
                                                candidates, remaining));
  *note += KeptDataNote(plan);
  Status first;
  for (const std::string& dir : plan.deletable) {
    Status s = ctx->fs->RemoveAll(dir);
    if (!s.ok() && first.ok()) first = s;
  }
  return first;
}

Result<std::string> TableLocation(const hive::Table& hms, const TableRef& t) {
  if (hms.sd.location.empty())
    return Status::InvalidArgument("Table " + t.full() + " has no location");
  return NormalizeLocation(hms.sd.location);
}

}  // namespace ics::catalog::ddl
