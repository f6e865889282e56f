// Helpers shared by the DDL operations (see ddl_internal.h).
#include <glog/logging.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_internal.h"
#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/metastore/data_ownership.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_params.h"
#include "common/types/column_type.h"

namespace ics::catalog::ddl {

namespace {

}  // namespace

// ---- names and messages ----

Result<TableRef> NormalizeTableRef(const impala::TTableName& name) {
  return NormalizeTableRef(name.db_name, name.table_name);
}

Result<TableRef> NormalizeTableRef(const std::string& db_name, const std::string& table_name) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(db_name));
  ICS_ASSIGN_OR_RETURN(std::string table, NormalizeTableName(table_name));
  return TableRef{std::move(db), std::move(table)};
}

Status DatabaseNotFound(const std::string& db) {
  return Status::NotFound("Database does not exist: " + db);
}

Status TableNotFound(const TableRef& t) {
  return Status::NotFound("Table does not exist: " + t.full());
}

std::string ObjectWord(bool is_view) { return is_view ? "View" : "Table"; }

// ---- catalog reads ----

Result<TablePtr> LoadedTableLocked(CatalogContext* ctx, const TableRef& t) {
  if (ctx->catalog->GetDatabase(t.db) == nullptr) return DatabaseNotFound(t.db);
  TablePtr current = ctx->catalog->GetTable(t.db, t.table);
  if (current == nullptr) return TableNotFound(t);
  if (current->loaded) return current;
  Result<TablePtr> loaded = ctx->loads->ReloadLocked(t.db, t.table);
  if (!loaded.ok()) return loaded.status();
  return std::move(loaded).value();
}

Result<hive::Table> MetastoreTable(CatalogContext* ctx, const TableRef& t) {
  Result<hive::Table> r = ctx->metastore->GetTable(t.db, t.table);
  if (!r.ok() && r.status().Is(ErrorCode::kNotFound)) return TableNotFound(t);
  return r;
}

// ---- metastore ----

Status Commit(CatalogContext* ctx, const MetastoreTxn& txn) {
  if (txn.ops.empty()) return Status::OK();
  Result<int64_t> r = ctx->metastore->Commit(txn);
  return r.ok() ? Status::OK() : r.status();
}

void Compensate(CatalogContext* ctx, const MetastoreTxn& undo, const std::string& what) {
  Status s = Commit(ctx, undo);
  if (!s.ok()) {
    LOG(ERROR) << "could not undo the metastore change of " << what
               << " after a filesystem failure: " << s.ToString();
  }
}

MetastoreOp AlterTableOp(const TableRef& old_name, hive::Table table) {
  return MetastoreOp::AlterTable(old_name.db, old_name.table, std::move(table));
}

Status CheckColumnStatsEdits(const hive::Table& table, std::vector<ColumnStatsEdit>* edits) {
  for (ColumnStatsEdit& edit : *edits) {
    for (hive::ColumnStatisticsObj& c : edit.columns) {
      ICS_ASSIGN_OR_RETURN(c, CheckColumnStats(table, !edit.partition.empty(), std::move(c)));
    }
  }
  return Status::OK();
}

MetastoreOp SetColumnStatsOp(const TableRef& t, ColumnStatsEdit stats) {
  if (stats.partition.empty()) {
    return MetastoreOp::SetTableColumnStats(t.db, t.table, std::move(stats.columns));
  }
  return MetastoreOp::SetPartitionColumnStats(t.db, t.table, std::move(stats.partition),
                                              std::move(stats.columns));
}

MetastoreOp AlterPartitionOp(hive::Partition partition) {
  std::string db = partition.dbName;
  std::string table = partition.tableName;
  return MetastoreOp::AlterPartition(std::move(db), std::move(table), std::move(partition));
}


// ---- tables ----

// ---- locations ----

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

// ---- columns ----

Result<hive::FieldSchema> ToFieldSchema(const impala::TColumn& col, bool scalar_only) {
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(col.columnName));
  Status valid = ValidateColumnType(col.columnType);
  if (!valid.ok()) {
    return Status::InvalidArgument("Invalid type of column '" + name + "': " + valid.message());
  }
  const std::string type = TypeToString(col.columnType);
  Result<impala::TColumnType> parsed = ParseHiveType(type);
  if (!parsed.ok()) {
    return Status::InvalidArgument("Invalid type of column '" + name +
                                   "': " + parsed.status().message());
  }
  if (scalar_only && !IsScalar(col.columnType)) {
    return Status::InvalidArgument("Partition column '" + name + "' must have a scalar type, not " +
                                   type);
  }
  hive::FieldSchema f;
  f.name = std::move(name);
  f.type = type;
  if (col.__isset.comment) f.comment = col.comment;
  return f;
}

Result<std::vector<hive::FieldSchema>> ToFieldSchemas(const std::vector<impala::TColumn>& cols,
                                                      bool scalar_only,
                                                      std::set<std::string>* seen) {
  std::vector<hive::FieldSchema> out;
  out.reserve(cols.size());
  for (const impala::TColumn& c : cols) {
    ICS_ASSIGN_OR_RETURN(hive::FieldSchema f, ToFieldSchema(c, scalar_only));
    if (!seen->insert(f.name).second) {
      return Status::InvalidArgument("Duplicate column name: " + f.name);
    }
    out.push_back(std::move(f));
  }
  return out;
}

Status ValidateColumns(std::vector<hive::FieldSchema>* cols,
                       std::vector<hive::FieldSchema>* partition_keys) {
  std::set<std::string> seen;
  for (std::vector<hive::FieldSchema>* list : {cols, partition_keys}) {
    const bool keys = list == partition_keys;
    for (hive::FieldSchema& f : *list) {
      ICS_ASSIGN_OR_RETURN(f.name, NormalizeColumnName(f.name));
      Result<impala::TColumnType> type = ParseHiveType(f.type);
      if (!type.ok()) {
        return Status::InvalidArgument("Invalid type of column '" + f.name +
                                       "': " + type.status().message());
      }
      if (keys && !IsScalar(*type)) {
        return Status::InvalidArgument("Partition column '" + f.name +
                                       "' must have a scalar type, not " + f.type);
      }
      if (!seen.insert(f.name).second) {
        return Status::InvalidArgument("Duplicate column name: " + f.name);
      }
    }
  }
  return Status::OK();
}

// ---- partitions ----

std::string PartitionDisplayName(const TableRef& t, const std::string& part_name) {
  return t.full() + " partition (" + part_name + ")";
}

Result<std::vector<std::string>> PartitionValues(
    const TableState& t, const std::vector<impala::TPartitionKeyValue>& spec) {
  const std::string table = t.db + "." + t.name;
  if (!t.is_partitioned()) return Status::InvalidArgument("Table is not partitioned: " + table);
  std::map<std::string, std::string> given;
  for (const impala::TPartitionKeyValue& kv : spec) {
    const std::string key = AsciiLower(kv.name);
    if (!given.emplace(key, kv.value).second) {
      return Status::InvalidArgument("Partition key '" + key + "' is given more than once");
    }
  }
  std::vector<std::string> values;
  values.reserve(t.clustering_columns.size());
  for (const impala::TColumn& c : t.clustering_columns) {
    auto it = given.find(c.columnName);
    if (it == given.end()) {
      return Status::InvalidArgument("Missing value for partition key '" + c.columnName +
                                     "' of table " + table);
    }
    ICS_ASSIGN_OR_RETURN(std::string v,
                         CanonicalPartitionValue(c.columnType, c.columnName, it->second));
    values.push_back(std::move(v));
    given.erase(it);
  }
  if (!given.empty()) {
    return Status::InvalidArgument("'" + given.begin()->first +
                                   "' is not a partition key of table " + table);
  }
  return values;
}

Result<std::vector<PartitionPtr>> ResolvePartitionSet(
    const TableState& t, const std::vector<std::vector<impala::TPartitionKeyValue>>& set,
    bool if_exists) {
  const std::string table = t.db + "." + t.name;
  if (!t.is_partitioned()) return Status::InvalidArgument("Table is not partitioned: " + table);
  std::map<int64_t, PartitionPtr> found;
  for (const auto& spec : set) {
    if (spec.empty()) return Status::InvalidArgument("Empty partition spec for table " + table);
    // Key position -> canonical value.
    std::map<size_t, std::string> want;
    std::string text;
    for (const impala::TPartitionKeyValue& kv : spec) {
      const std::string key = AsciiLower(kv.name);
      size_t pos = t.clustering_columns.size();
      for (size_t i = 0; i < t.clustering_columns.size(); ++i) {
        if (t.clustering_columns[i].columnName == key) pos = i;
      }
      if (pos == t.clustering_columns.size()) {
        return Status::InvalidArgument("'" + key + "' is not a partition key of table " + table);
      }
      ICS_ASSIGN_OR_RETURN(std::string v, CanonicalPartitionValue(
                                              t.clustering_columns[pos].columnType, key, kv.value));
      if (!want.emplace(pos, v).second) {
        return Status::InvalidArgument("Partition key '" + key + "' is given more than once");
      }
      if (!text.empty()) text += ",";
      text += key + "=" + kv.value;
    }
    bool any = false;
    for (const auto& [id, p] : t.partitions) {
      const std::vector<std::string> values = p->values();
      bool match = values.size() == t.clustering_columns.size();
      for (auto it = want.begin(); match && it != want.end(); ++it) {
        match = values[it->first] == it->second;
      }
      if (match) {
        found.emplace(id, p);
        any = true;
      }
    }
    if (!any && !if_exists) {
      return Status::NotFound("Partition does not exist: " + table + " (" + text + ")");
    }
  }
  std::vector<PartitionPtr> out;
  out.reserve(found.size());
  for (auto& [id, p] : found) out.push_back(std::move(p));
  return out;
}

PartitionPtr PartitionWithValues(const TableState& t, const std::vector<std::string>& values) {
  Result<std::string> name = MakePartitionName(PartitionKeyNames(t.clustering_columns), values);
  if (!name.ok()) return nullptr;
  PartitionPtr p = t.partitions_by_name.Get(*name);
  return p != nullptr && p->values() == values ? p : nullptr;
}

Result<std::vector<hive::Partition>> MetastorePartitions(CatalogContext* ctx, const TableRef& t,
                                                         const std::vector<PartitionPtr>& parts) {
  std::vector<std::string> names;
  names.reserve(parts.size());
  for (const PartitionPtr& p : parts) names.push_back(std::string(p->name()));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> got,
                       ctx->metastore->GetPartitionsByNames(t.db, t.table, names));
  std::map<std::vector<std::string>, hive::Partition*> by_values;
  for (hive::Partition& p : got) by_values[p.values] = &p;
  std::vector<hive::Partition> out;
  out.reserve(parts.size());
  for (const PartitionPtr& p : parts) {
    auto it = by_values.find(p->values());
    if (it == by_values.end()) {
      return Status::Internal("partition " + std::string(p->name()) + " of " + t.full() +
                              " is in the catalog but not in the metastore; run REFRESH or "
                              "INVALIDATE METADATA on the table");
    }
    out.push_back(*it->second);
  }
  return out;
}

// ---- new states ----

DdlOutcome InstallTable(CatalogContext* ctx, std::shared_ptr<TableState> t, std::string summary) {
  DdlOutcome out;
  out.version = InstallTableState(ctx, t);
  out.tables.push_back(t);
  out.summary = std::move(summary);
  return out;
}

DdlOutcome InstallAfterCommit(CatalogContext* ctx, const TableRef& t,
                              Result<std::shared_ptr<TableState>> next, std::string summary) {
  if (next.ok()) return InstallTable(ctx, std::move(next).value(), std::move(summary));
  LOG(WARNING) << "metadata of " << t.full() << " could not be rebuilt after a DDL; "
               << "it will be reloaded on next use: " << next.status().ToString();
  auto unloaded = MakeUnloadedTable(t.db, t.table);
  unloaded->load_status = next.status().WithContext("loading " + t.full());
  return InstallTable(ctx, std::move(unloaded), std::move(summary));
}

DdlOutcome NoOp(CatalogContext* ctx, std::string summary) {
  DdlOutcome out;
  out.version = ctx->catalog->version();
  out.summary = std::move(summary);
  return out;
}

}  // namespace ics::catalog::ddl
