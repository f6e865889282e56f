// ResetMetadata: REFRESH of a table or partition, INVALIDATE METADATA of a
// table, a database or the whole catalog.
#include <glog/logging.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_partition_specs_internal.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

namespace {

std::shared_ptr<FunctionState> MakeFunctionState(const std::string& db, impala::TFunction fn) {
  auto f = std::make_shared<FunctionState>();
  f->db = db;
  f->signature = fn.signature;
  f->fn = std::move(fn);
  return f;
}

std::shared_ptr<DatabaseState> MakeDatabaseState(hive::Database hms) {
  auto d = std::make_shared<DatabaseState>();
  d->name = hms.name;
  d->hms = std::move(hms);
  return d;
}

}  // namespace

// The partitions a REFRESH names (empty specs left out). Empty: the whole
// table.
static std::vector<PartitionSpec> RequestedPartitions(const ResetCommand& c) {
  std::vector<PartitionSpec> specs;
  for (const PartitionSpec& spec : c.partitions) {
    if (!spec.empty()) specs.push_back(spec);
  }
  return specs;
}

Result<DdlOutcome> RefreshTable(CatalogContext* ctx, const ResetCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  if (ctx->catalog->GetDatabase(t.db) == nullptr) return DatabaseNotFound(t.db);
  TablePtr current = ctx->catalog->GetTable(t.db, t.table);
  if (current == nullptr) return TableNotFound(t);
  const std::vector<PartitionSpec> specs = RequestedPartitions(c);
  if (specs.empty() || !current->loaded) {
    // A whole-table refresh (an unloaded table is loaded completely anyway).
    ICS_ASSIGN_OR_RETURN(TablePtr fresh, ctx->loads->ReloadLocked(t.db, t.table));
    DdlOutcome out;
    out.version = fresh->version;
    out.tables.push_back(fresh);
    out.summary = "Table has been refreshed.";
    return out;
  }
  if (current->is_view())
    return Status::InvalidArgument("Cannot refresh a partition of view " + t.full());
  // Partition names, deduplicated, in the order they were named.
  std::vector<std::string> names;
  for (const auto& spec : specs) {
    ICS_ASSIGN_OR_RETURN(std::vector<std::string> values, PartitionValues(*current, spec));
    ICS_ASSIGN_OR_RETURN(std::string name,
                         MakePartitionName(PartitionKeyNames(current->clustering_columns), values));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> stored,
                       ctx->metastore->GetPartitionsByNames(t.db, t.table, names));
  std::map<std::string, const hive::Partition*> stored_by_name;
  for (const hive::Partition& p : stored) {
    Result<std::string> name =
        MakePartitionName(PartitionKeyNames(current->clustering_columns), p.values);
    if (name.ok()) stored_by_name[*name] = &p;
  }

  // Every named partition must exist in the catalog or the metastore; nothing
  // changes unless all of them do.
  std::shared_ptr<TableState> next = CopyTable(*current);
  for (const std::string& name : names) {
    const PartitionState* existing = current->partitions_by_name.Find(name);
    auto s = stored_by_name.find(name);
    const hive::Partition* in_metastore = s == stored_by_name.end() ? nullptr : s->second;
    if (in_metastore == nullptr && existing == nullptr) {
      return Status::NotFound("Partition does not exist: " + PartitionDisplayName(t, name));
    }
    if (in_metastore == nullptr) {
      // Dropped in the metastore behind the catalog's back.
      next->partitions.erase(existing->id);
    } else if (existing != nullptr) {
      ICS_RETURN_IF_ERROR(ReplacePartition(ctx, next.get(), *existing, *in_metastore));
    } else {
      // Added in the metastore behind the catalog's back.
      ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                           ctx->loader->LoadPartition(*next, *in_metastore));
      const int64_t id = p->id;
      next->partitions.emplace(id, std::move(p));
    }
  }
  return InstallTable(ctx, std::move(next),
                      names.size() == 1
                          ? "Partition has been refreshed."
                          : std::to_string(names.size()) + " partitions have been refreshed.");
}

Result<DdlOutcome> InvalidateTable(CatalogContext* ctx, const TableRef& t) {
  Result<hive::Table> stored = ctx->metastore->GetTable(t.db, t.table);
  if (!stored.ok() && !stored.status().Is(ErrorCode::kNotFound)) return stored.status();
  if (stored.ok() && ctx->catalog->GetTable(t.db, t.table) != nullptr) {
    // The common case: forget the loaded state; the next use reloads it.
    Result<int64_t> v = ctx->loads->Invalidate(t.db, t.table);
    if (v.ok()) {
      DdlOutcome out;
      out.version = *v;
      if (TablePtr now = ctx->catalog->GetTable(t.db, t.table)) {
        out.tables.push_back(now);
      }
      out.summary = "Table has been invalidated.";
      return out;
    }
    if (!v.status().Is(ErrorCode::kNotFound)) return v.status();
    // Dropped from the catalog meanwhile: fall through and add it again.
  }
  ScopedLocks locks(ctx->catalog, {{t.db, ""}, {t.db, t.table}});
  TablePtr current = ctx->catalog->GetTable(t.db, t.table);
  ChangeSet cs;
  DdlOutcome out;
  if (!stored.ok()) {
    if (current == nullptr) {
      if (ctx->catalog->GetDatabase(t.db) == nullptr) {
        Result<hive::Database> db = ctx->metastore->GetDatabase(t.db);
        if (!db.ok()) return DatabaseNotFound(t.db);
      }
      return TableNotFound(t);
    }
    // Gone from the metastore: drop it from the catalog too.
    cs.drop_tables.emplace_back(t.db, t.table);
    out.version = ctx->catalog->Install(std::move(cs));
    out.removed_tables.push_back(current);
    out.summary = "Table does not exist in the metastore; it has been removed from the catalog.";
    return out;
  }
  // Created outside this catalog service: add it (and its database) unloaded.
  std::shared_ptr<DatabaseState> new_db;
  if (ctx->catalog->GetDatabase(t.db) == nullptr) {
    Result<hive::Database> db = ctx->metastore->GetDatabase(t.db);
    if (!db.ok())
      return db.status().Is(ErrorCode::kNotFound) ? DatabaseNotFound(t.db) : db.status();
    new_db = MakeDatabaseState(std::move(db).value());
    cs.put_databases.push_back(new_db);
  }
  std::shared_ptr<TableState> table = MakeUnloadedTable(t.db, t.table);
  cs.put_tables.push_back(table);
  out.version = ctx->catalog->Install(std::move(cs));
  if (new_db != nullptr) out.databases.push_back(new_db);
  out.tables.push_back(table);
  out.summary = "Table has been invalidated.";
  return out;
}

Result<DdlOutcome> InvalidateDatabase(CatalogContext* ctx, const std::string& db_name) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(db_name));
  Result<hive::Database> stored_db = ctx->metastore->GetDatabase(db);
  if (!stored_db.ok() && !stored_db.status().Is(ErrorCode::kNotFound)) return stored_db.status();

  // Lock the database and the tables known before locking; tables that
  // appear in between are left for the next invalidation.
  std::vector<std::pair<std::string, std::string>> keys = {{db, ""}};
  for (const TablePtr& t : ctx->catalog->TablesOf(db)) keys.emplace_back(db, t->name);
  std::vector<std::string> stored_tables;
  std::vector<impala::TFunction> stored_fns;
  if (stored_db.ok()) {
    ICS_ASSIGN_OR_RETURN(stored_tables, ctx->metastore->GetAllTables(db));
    ICS_ASSIGN_OR_RETURN(stored_fns, ctx->metastore->GetFunctions(db));
    for (const std::string& t : stored_tables) keys.emplace_back(db, t);
  }
  ScopedLocks locks(ctx->catalog, keys);
  auto locked = [&](const std::string& t) {
    return std::find(keys.begin(), keys.end(), std::make_pair(db, t)) != keys.end();
  };
  DatabasePtr current = ctx->catalog->GetDatabase(db);
  ChangeSet cs;
  DdlOutcome out;
  if (!stored_db.ok()) {
    if (current == nullptr) return DatabaseNotFound(db);
    cs.drop_databases.push_back(db);
    out.version = ctx->catalog->Install(std::move(cs));
    out.removed_databases.push_back(db);
    out.summary = "Database does not exist in the metastore; it has been removed from the catalog.";
    return out;
  }
  std::vector<std::shared_ptr<TableState>> added_tables;
  std::vector<TablePtr> dropped_tables;
  std::vector<std::shared_ptr<FunctionState>> put_fns;
  std::vector<FunctionPtr> dropped_fns;
  std::shared_ptr<DatabaseState> db_state;
  if (current == nullptr || !(current->hms == *stored_db)) {
    db_state = MakeDatabaseState(*stored_db);
    cs.put_databases.push_back(db_state);
  }
  const std::set<std::string> stored_set(stored_tables.begin(), stored_tables.end());
  std::set<std::string> known;
  for (const TablePtr& t : ctx->catalog->TablesOf(db)) {
    known.insert(t->name);
    if (stored_set.count(t->name) == 0 && locked(t->name)) {
      cs.drop_tables.emplace_back(db, t->name);
      dropped_tables.push_back(t);
    }
  }
  for (const std::string& name : stored_tables) {
    if (known.count(name) != 0 || !locked(name)) continue;
    auto t = MakeUnloadedTable(db, name);
    cs.put_tables.push_back(t);
    added_tables.push_back(t);
  }
  std::map<std::string, const impala::TFunction*> fns_by_sig;
  for (const impala::TFunction& f : stored_fns) fns_by_sig[f.signature] = &f;
  for (const FunctionPtr& f : ctx->catalog->FunctionsOf(db)) {
    if (fns_by_sig.count(f->signature) == 0) {
      cs.drop_functions.emplace_back(db, f->signature);
      dropped_fns.push_back(f);
    }
  }
  for (const auto& [sig, fn] : fns_by_sig) {
    FunctionPtr f = ctx->catalog->GetFunction(db, sig);
    if (f != nullptr && f->fn == *fn) continue;
    auto state = MakeFunctionState(db, *fn);
    cs.put_functions.push_back(state);
    put_fns.push_back(state);
  }
  if (cs.empty()) return NoOp(ctx, "Database metadata is up to date.");
  out.version = ctx->catalog->Install(std::move(cs));
  if (db_state != nullptr) out.databases.push_back(db_state);
  for (const auto& t : added_tables) out.tables.push_back(t);
  for (const auto& f : put_fns) out.functions.push_back(f);
  for (const auto& t : dropped_tables) out.removed_tables.push_back(t);
  for (const auto& f : dropped_fns) out.removed_functions.push_back(f);
  out.summary = "Database metadata has been invalidated.";
  return out;
}

Result<DdlOutcome> InvalidateAll(CatalogContext* ctx) {
  const int64_t start = ctx->catalog->version();
  ChangeSet cs;
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> dbs, ctx->metastore->GetAllDatabases());
  for (const std::string& db : dbs) {
    ICS_ASSIGN_OR_RETURN(hive::Database hms, ctx->metastore->GetDatabase(db));
    cs.put_databases.push_back(MakeDatabaseState(std::move(hms)));
    ICS_ASSIGN_OR_RETURN(std::vector<std::string> tables, ctx->metastore->GetAllTables(db));
    for (const std::string& t : tables) cs.put_tables.push_back(MakeUnloadedTable(db, t));
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, ctx->metastore->GetFunctions(db));
    for (impala::TFunction& f : fns)
      cs.put_functions.push_back(MakeFunctionState(db, std::move(f)));
  }
  ctx->catalog->ResetAll(std::move(cs));
  if (ctx->publisher != nullptr) ctx->publisher->RequestFullResend();
  DdlOutcome out;
  out.version = start;
  out.is_invalidate = true;
  out.summary = "Metadata of all tables has been invalidated.";
  return out;
}

}  // namespace ics::catalog::ddl
