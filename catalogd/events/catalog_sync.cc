// Catalog synchronization steps of the HMS event processor (catalog_sync.h).
#include "catalogd/events/catalog_sync.h"

#include <glog/logging.h>

#include <map>
#include <utility>
#include <vector>

#include "catalogd/loader/partition_stats_params.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::events {

namespace {

using LockKeys = std::vector<std::pair<std::string, std::string>>;

std::string Full(const std::string& db, const std::string& table) { return db + "." + table; }

// The metastore table as the catalog keeps it (stats chunks removed).
hive::Table Stripped(hive::Table hms) {
  RemoveStatsParams(&hms.parameters);
  return hms;
}

std::shared_ptr<TableState> Unloaded(const std::string& db, const std::string& table,
                                     hive::Table hms) {
  auto t = MakeUnloadedTable(db, table);
  t->hms = Stripped(std::move(hms));
  return t;
}

SyncEffect Installed(CatalogContext* ctx, ChangeSet cs) {
  SyncEffect e;
  if (!cs.empty()) e.version = ctx->catalog->Install(std::move(cs));
  return e;
}

SyncEffect Failed(Status why) {
  SyncEffect e;
  e.error = std::move(why);
  return e;
}

// Adds the database to `cs` when the catalog lacks it (an event of a table
// in a database whose creation event was not applied). False if the
// metastore does not have it either (a later event drops it).
Result<bool> EnsureDatabase(CatalogContext* ctx, const std::string& db, ChangeSet* cs) {
  if (ctx->catalog->GetDatabase(db) != nullptr) return true;
  Result<hive::Database> stored = ctx->metastore->GetDatabase(db);
  if (!stored.ok()) {
    if (stored.status().Is(ErrorCode::kNotFound)) return false;
    return stored.status();
  }
  auto d = std::make_shared<DatabaseState>();
  d->name = db;
  d->hms = std::move(stored).value();
  cs->put_databases.push_back(std::move(d));
  return true;
}

// Replaces the table by a names-only state carrying `why` (caller holds
// its locks). Keeps the last known metastore object.
SyncEffect InvalidateLocked(CatalogContext* ctx, const std::string& db, const std::string& table,
                            Status why) {
  TablePtr cur = ctx->catalog->GetTable(db, table);
  if (cur == nullptr) return Failed(std::move(why));
  auto t = MakeUnloadedTable(db, table);
  t->hms = cur->hms;
  t->load_status = why;
  ChangeSet cs;
  cs.put_tables.push_back(std::move(t));
  SyncEffect e = Installed(ctx, std::move(cs));
  e.invalidated = true;
  e.error = std::move(why);
  return e;
}

// Column statistics of the columns `t` has.
Status ReadColumnStats(CatalogContext* ctx, TableState* t) {
  ICS_ASSIGN_OR_RETURN(std::vector<hive::ColumnStatisticsObj> stats,
                       ctx->metastore->GetTableColumnStats(t->db, t->name));
  std::set<std::string> names;
  for (const auto& c : t->clustering_columns) names.insert(c.columnName);
  for (const auto& c : t->columns) names.insert(c.columnName);
  t->column_stats.clear();
  for (hive::ColumnStatisticsObj& s : stats) {
    if (names.count(s.colName) == 0) continue;
    std::string name = s.colName;
    t->column_stats.emplace(std::move(name), std::move(s));
  }
  return Status::OK();
}

// Adds, replaces or removes the partitions named in `names` so that `next`
// matches the metastore.
Status SyncPartitions(CatalogContext* ctx, const std::set<std::string>& names, TableState* next) {
  const std::vector<std::string> wanted(names.begin(), names.end());
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> stored,
                       ctx->metastore->GetPartitionsByNames(next->db, next->name, wanted));
  const std::vector<std::string> keys = PartitionKeyNames(next->clustering_columns);
  std::map<std::string, const hive::Partition*> by_name;
  for (const hive::Partition& p : stored) {
    ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, p.values));
    by_name[name] = &p;
  }
  for (const std::string& name : wanted) {
    const PartitionState* known = next->partitions_by_name.Find(name);
    const int64_t existing_id = known != nullptr ? known->id : -1;
    auto found = by_name.find(name);
    if (found == by_name.end()) {
      if (existing_id >= 0) {
        next->partitions_by_name.Erase(name);
        next->partitions.erase(existing_id);
      }
      continue;
    }
    // A new partition, or a replacement (new id, prev_id = the old one)
    // whose directory is listed again.
    ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                         ctx->loader->LoadPartition(*next, *found->second, existing_id));
    if (existing_id >= 0) next->partitions.erase(existing_id);
    const int64_t id = p->id;
    next->partitions_by_name.Put(p);
    next->partitions.emplace(id, std::move(p));
  }
  return Status::OK();
}

// The next state of a loaded table, or nullptr if it is already current.
Result<std::shared_ptr<TableState>> NextLoadedState(CatalogContext* ctx, const TableState& cur,
                                                    const hive::Table& stored,
                                                    const TableWork& work) {
  std::shared_ptr<TableState> next;
  if (!(cur.hms == Stripped(stored))) {
    ICS_ASSIGN_OR_RETURN(next, DeriveTable(ctx, cur, stored));
  }
  if (work.column_stats_changed && !cur.is_view()) {
    std::shared_ptr<TableState> candidate = next ? next : CopyTable(cur);
    ICS_RETURN_IF_ERROR(ReadColumnStats(ctx, candidate.get()));
    if (next != nullptr || candidate->column_stats != cur.column_stats) next = candidate;
  }
  if (!work.partitions.empty() && cur.is_partitioned()) {
    if (next == nullptr) next = CopyTable(cur);
    ICS_RETURN_IF_ERROR(SyncPartitions(ctx, work.partitions, next.get()));
  }
  if (next != nullptr) ctx->loader->FinishTableState(next.get(), &cur);
  return next;
}

}  // namespace

SyncEffect SyncDatabase(CatalogContext* ctx, const std::string& db) {
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  Result<hive::Database> stored = ctx->metastore->GetDatabase(db);
  if (!stored.ok()) {
    if (stored.status().Is(ErrorCode::kNotFound)) return {};
    return Failed(stored.status().WithContext("reading database " + db));
  }
  DatabasePtr cur = ctx->catalog->GetDatabase(db);
  if (cur != nullptr && cur->hms == *stored) return {};
  auto d = std::make_shared<DatabaseState>();
  d->name = db;
  d->hms = std::move(stored).value();
  ChangeSet cs;
  cs.put_databases.push_back(std::move(d));
  return Installed(ctx, std::move(cs));
}

SyncEffect DropDatabase(CatalogContext* ctx, const std::string& db) {
  LockKeys keys = {{db, ""}};
  for (const TablePtr& t : ctx->catalog->TablesOf(db)) keys.emplace_back(db, t->name);
  ScopedLocks locks(ctx->catalog, keys);
  if (ctx->catalog->GetDatabase(db) == nullptr) return {};
  ChangeSet cs;
  cs.drop_databases.push_back(db);
  return Installed(ctx, std::move(cs));
}

SyncEffect CreateTable(CatalogContext* ctx, const std::string& db, const std::string& table) {
  ScopedLocks locks(ctx->catalog, {{db, ""}, {db, table}});
  Result<hive::Table> stored = ctx->metastore->GetTable(db, table);
  if (!stored.ok()) {
    if (stored.status().Is(ErrorCode::kNotFound)) return {};
    return InvalidateLocked(ctx, db, table,
                            stored.status().WithContext("reading table " + Full(db, table)));
  }
  TablePtr cur = ctx->catalog->GetTable(db, table);
  if (cur != nullptr && cur->hms == Stripped(*stored)) return {};
  ChangeSet cs;
  Result<bool> has_db = EnsureDatabase(ctx, db, &cs);
  if (!has_db.ok()) return Failed(has_db.status());
  if (!*has_db) return {};
  cs.put_tables.push_back(Unloaded(db, table, std::move(stored).value()));
  return Installed(ctx, std::move(cs));
}

SyncEffect DropTable(CatalogContext* ctx, const std::string& db, const std::string& table) {
  ScopedLocks locks(ctx->catalog, {{db, ""}, {db, table}});
  if (ctx->catalog->GetTable(db, table) == nullptr) return {};
  ChangeSet cs;
  cs.drop_tables.emplace_back(db, table);
  return Installed(ctx, std::move(cs));
}

SyncEffect RenameTable(CatalogContext* ctx, const std::string& old_db,
                       const std::string& old_table, const std::string& db,
                       const std::string& table) {
  ScopedLocks locks(ctx->catalog, {{old_db, ""}, {old_db, old_table}, {db, ""}, {db, table}});
  ChangeSet cs;
  if (ctx->catalog->GetTable(old_db, old_table) != nullptr) {
    cs.drop_tables.emplace_back(old_db, old_table);
  }
  Result<hive::Table> stored = ctx->metastore->GetTable(db, table);
  Status error;
  if (stored.ok()) {
    // The renamed table is loaded again on first use, under its new name.
    Result<bool> has_db = EnsureDatabase(ctx, db, &cs);
    if (!has_db.ok()) {
      error = has_db.status();
    } else if (*has_db) {
      cs.put_tables.push_back(Unloaded(db, table, std::move(stored).value()));
    }
  } else if (!stored.status().Is(ErrorCode::kNotFound)) {
    error = stored.status().WithContext("reading table " + Full(db, table));
  }
  SyncEffect e = Installed(ctx, std::move(cs));
  e.error = std::move(error);
  return e;
}

SyncEffect SyncTableContent(CatalogContext* ctx, const TableWork& work) {
  const std::string& db = work.db;
  const std::string& table = work.table;
  ScopedLocks locks(ctx->catalog, {{db, ""}, {db, table}});
  Result<hive::Table> stored = ctx->metastore->GetTable(db, table);
  if (!stored.ok()) {
    if (stored.status().Is(ErrorCode::kNotFound)) return {};
    return InvalidateLocked(ctx, db, table,
                            stored.status().WithContext("reading table " + Full(db, table)));
  }
  TablePtr cur = ctx->catalog->GetTable(db, table);
  ChangeSet cs;
  if (cur == nullptr || !cur->loaded) {
    // Nothing loaded to update: refresh the names-only state if its
    // metastore object changed (or it recorded a load failure).
    if (cur != nullptr && cur->hms == Stripped(*stored) && cur->load_status.ok()) return {};
    Result<bool> has_db = EnsureDatabase(ctx, db, &cs);
    if (!has_db.ok()) return Failed(has_db.status());
    if (!*has_db) return {};
    cs.put_tables.push_back(Unloaded(db, table, std::move(stored).value()));
    return Installed(ctx, std::move(cs));
  }
  Result<std::shared_ptr<TableState>> next = NextLoadedState(ctx, *cur, *stored, work);
  if (!next.ok()) {
    return InvalidateLocked(ctx, db, table,
                            next.status().WithContext("applying events to " + Full(db, table)));
  }
  if (*next == nullptr) return {};
  cs.put_tables.push_back(std::move(next).value());
  return Installed(ctx, std::move(cs));
}

SyncEffect InvalidateTable(CatalogContext* ctx, const std::string& db, const std::string& table,
                           const Status& why) {
  ScopedLocks locks(ctx->catalog, {{db, ""}, {db, table}});
  return InvalidateLocked(ctx, db, table, why);
}

SyncEffect SyncFunction(CatalogContext* ctx, const std::string& db,
                        const std::string& signature) {
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  Result<std::vector<impala::TFunction>> stored = ctx->metastore->GetFunctions(db);
  if (!stored.ok()) {
    if (stored.status().Is(ErrorCode::kNotFound)) return {};
    return Failed(stored.status().WithContext("reading functions of " + db));
  }
  for (impala::TFunction& fn : *stored) {
    if (fn.signature != signature) continue;
    FunctionPtr cur = ctx->catalog->GetFunction(db, signature);
    if (cur != nullptr && cur->fn == fn) return {};
    ChangeSet cs;
    Result<bool> has_db = EnsureDatabase(ctx, db, &cs);
    if (!has_db.ok()) return Failed(has_db.status());
    auto f = std::make_shared<FunctionState>();
    f->db = db;
    f->signature = signature;
    f->fn = std::move(fn);
    cs.put_functions.push_back(std::move(f));
    return Installed(ctx, std::move(cs));
  }
  return {};  // dropped since: the DROP_FUNCTION event follows
}

SyncEffect DropFunction(CatalogContext* ctx, const std::string& db,
                        const std::string& signature) {
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  if (ctx->catalog->GetFunction(db, signature) == nullptr) return {};
  ChangeSet cs;
  cs.drop_functions.emplace_back(db, signature);
  return Installed(ctx, std::move(cs));
}

}  // namespace ics::catalog::events
