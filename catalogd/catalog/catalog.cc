#include "catalogd/catalog/catalog.h"

#include <set>

#include "catalogd/catalog/catalog_objects.h"
#include "common/util/unique_id.h"

namespace ics::catalog {

Catalog::Catalog() : service_id_(GenerateUniqueId()) {}

int64_t Catalog::version() const {
  MutexLock l(&mu_);
  return version_;
}

int64_t Catalog::last_reset_version() const {
  MutexLock l(&mu_);
  return last_reset_version_;
}

std::vector<std::string> Catalog::DatabaseNames() const {
  MutexLock l(&mu_);
  std::vector<std::string> out;
  out.reserve(dbs_.size());
  for (const auto& [name, e] : dbs_) out.push_back(name);
  return out;
}

DatabasePtr Catalog::GetDatabase(const std::string& db) const {
  MutexLock l(&mu_);
  auto it = dbs_.find(db);
  return it == dbs_.end() ? nullptr : it->second.state;
}

std::vector<TablePtr> Catalog::TablesOf(const std::string& db) const {
  MutexLock l(&mu_);
  std::vector<TablePtr> out;
  auto it = dbs_.find(db);
  if (it == dbs_.end()) return out;
  for (const auto& [name, t] : it->second.tables) out.push_back(t);
  return out;
}

TablePtr Catalog::GetTable(const std::string& db, const std::string& table) const {
  MutexLock l(&mu_);
  auto it = dbs_.find(db);
  if (it == dbs_.end()) return nullptr;
  auto t = it->second.tables.find(table);
  return t == it->second.tables.end() ? nullptr : t->second;
}

std::vector<FunctionPtr> Catalog::FunctionsOf(const std::string& db) const {
  MutexLock l(&mu_);
  std::vector<FunctionPtr> out;
  auto it = dbs_.find(db);
  if (it == dbs_.end()) return out;
  for (const auto& [sig, f] : it->second.functions) out.push_back(f);
  return out;
}

FunctionPtr Catalog::GetFunction(const std::string& db, const std::string& signature) const {
  MutexLock l(&mu_);
  auto it = dbs_.find(db);
  if (it == dbs_.end()) return nullptr;
  auto f = it->second.functions.find(signature);
  return f == it->second.functions.end() ? nullptr : f->second;
}

void Catalog::IndexLocked(Kind kind, const std::string& db, const std::string& name,
                          int64_t old_version, int64_t new_version) {
  if (old_version > 0) {
    auto range = by_version_.equal_range(old_version);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second.kind == kind && it->second.db == db && it->second.name == name) {
        by_version_.erase(it);
        break;
      }
    }
  }
  if (new_version > 0) by_version_.emplace(new_version, IndexKey{kind, db, name});
}

impala::TCatalogObject Deletion::Object() const {
  if (const auto* p = std::get_if<DeletedPartition>(&what)) {
    return PartitionInvalidation(p->db, p->table, p->name, p->id, p->prev_id, version);
  }
  impala::TCatalogObject obj = *std::get<std::shared_ptr<const impala::TCatalogObject>>(what);
  obj.catalog_version = version;
  return obj;
}

void Catalog::LogDeletion(impala::TCatalogObject obj, int64_t v) {
  obj.catalog_version = v;
  delete_log_.emplace(v,
                      Deletion{v, std::make_shared<const impala::TCatalogObject>(std::move(obj))});
}

void Catalog::LogPartitionDeletion(const TableState& t, const PartitionState& p, int64_t v) {
  delete_log_.emplace(v, Deletion{v, DeletedPartition{t.db, t.name, std::string(p.name()), p.id, p.prev_id}});
}

void Catalog::DropTableLocked(DbEntry& db, const std::string& name, int64_t v) {
  auto it = db.tables.find(name);
  if (it == db.tables.end()) return;
  IndexLocked(Kind::kTable, db.state->name, name, it->second->version, 0);
  LogDeletion(TableInvalidation(*it->second, v), v);
  db.tables.erase(it);
}

void Catalog::DropFunctionLocked(DbEntry& db, const std::string& sig, int64_t v) {
  auto it = db.functions.find(sig);
  if (it == db.functions.end()) return;
  IndexLocked(Kind::kFunction, db.state->name, sig, it->second->version, 0);
  LogDeletion(FunctionInvalidation(*it->second, v), v);
  db.functions.erase(it);
}

void Catalog::DropDatabaseLocked(const std::string& name, int64_t v) {
  auto it = dbs_.find(name);
  if (it == dbs_.end()) return;
  DbEntry& db = it->second;
  while (!db.tables.empty()) DropTableLocked(db, db.tables.begin()->first, v);
  while (!db.functions.empty()) DropFunctionLocked(db, db.functions.begin()->first, v);
  IndexLocked(Kind::kDatabase, name, "", db.state->version, 0);
  LogDeletion(DatabaseInvalidation(name, v), v);
  dbs_.erase(it);
}

void Catalog::PutTableLocked(std::shared_ptr<TableState> t, int64_t v) {
  t->version = v;
  // Safe: partitions with added_version 0 were built for this change and
  // are referenced by no published state yet.
  auto stamp = [v](const PartitionPtr& p) {
    if (p->added_version == 0) const_cast<PartitionState&>(*p).added_version = v;
  };
  DbEntry& db = dbs_.at(t->db);
  auto it = db.tables.find(t->name);
  if (it != db.tables.end()) {
    const TableState& old = *it->second;
    IndexLocked(Kind::kTable, t->db, t->name, old.version, 0);
    // Only what differs from the old state: new partitions are stamped,
    // those that left the table must be deleted on subscribers. Shared
    // chunks of the two partition maps are skipped.
    std::vector<const PartitionState*> removed;
    PersistentMap<int64_t, PartitionPtr>::ForEachDifference(
        old.partitions, t->partitions,
        [&](int64_t /*id*/, const PartitionPtr* before, const PartitionPtr* after) {
          if (after != nullptr) {
            stamp(*after);
          } else {
            removed.push_back(before->get());
          }
        });
    for (const PartitionState* p : removed) LogPartitionDeletion(old, *p, v);
  } else {
    for (const auto& [id, p] : t->partitions) stamp(p);
  }
  IndexLocked(Kind::kTable, t->db, t->name, 0, v);
  db.tables[t->name] = std::move(t);
}

int64_t Catalog::Install(ChangeSet cs) {
  int64_t v;
  {
    MutexLock l(&mu_);
    v = InstallLocked(std::move(cs));
  }
  NotifyChange(v);
  return v;
}

void Catalog::SetChangeListener(std::function<void(int64_t)> listener) {
  MutexLock l(&listener_mu_);
  listener_ = std::move(listener);
}

void Catalog::NotifyChange(int64_t version) {
  std::function<void(int64_t)> listener;
  {
    MutexLock l(&listener_mu_);
    listener = listener_;
  }
  if (listener) listener(version);
}

int64_t Catalog::InstallLocked(ChangeSet cs) {
  const int64_t v = ++version_;
  for (const auto& name : cs.drop_databases) DropDatabaseLocked(name, v);
  for (auto& d : cs.put_databases) {
    d->version = v;
    DbEntry& e = dbs_[d->name];
    if (e.state != nullptr) IndexLocked(Kind::kDatabase, d->name, "", e.state->version, 0);
    IndexLocked(Kind::kDatabase, d->name, "", 0, v);
    e.state = std::move(d);
  }
  for (const auto& [db, name] : cs.drop_tables) {
    auto it = dbs_.find(db);
    if (it != dbs_.end()) DropTableLocked(it->second, name, v);
  }
  for (auto& t : cs.put_tables) {
    if (dbs_.count(t->db) == 0) continue;  // the DDL layer checked; never create dbs implicitly
    PutTableLocked(std::move(t), v);
  }
  for (const auto& [db, sig] : cs.drop_functions) {
    auto it = dbs_.find(db);
    if (it != dbs_.end()) DropFunctionLocked(it->second, sig, v);
  }
  for (auto& f : cs.put_functions) {
    auto it = dbs_.find(f->db);
    if (it == dbs_.end()) continue;
    f->version = v;
    auto old = it->second.functions.find(f->signature);
    if (old != it->second.functions.end()) {
      IndexLocked(Kind::kFunction, f->db, f->signature, old->second->version, 0);
    }
    IndexLocked(Kind::kFunction, f->db, f->signature, 0, v);
    it->second.functions[f->signature] = std::move(f);
  }
  return v;
}

int64_t Catalog::ResetAll(ChangeSet cs) {
  int64_t v;
  {
    MutexLock l(&mu_);
    v = ResetAllLocked(std::move(cs));
  }
  NotifyChange(v);
  return v;
}

int64_t Catalog::ResetAllLocked(ChangeSet cs) {
  // Drop everything not re-put, then install the new contents, in one version.
  std::set<std::string> kept;
  for (const auto& d : cs.put_databases) kept.insert(d->name);
  for (const auto& [name, e] : dbs_) {
    if (kept.count(name) == 0) cs.drop_databases.push_back(name);
  }
  // Tables/functions of kept databases that are not re-put disappear too.
  std::set<std::pair<std::string, std::string>> new_tables;
  std::set<std::pair<std::string, std::string>> new_fns;
  for (const auto& t : cs.put_tables) new_tables.emplace(t->db, t->name);
  for (const auto& f : cs.put_functions) new_fns.emplace(f->db, f->signature);
  for (const auto& [name, e] : dbs_) {
    if (kept.count(name) == 0) continue;
    for (const auto& [tname, t] : e.tables) {
      if (new_tables.count({name, tname}) == 0) cs.drop_tables.emplace_back(name, tname);
    }
    for (const auto& [sig, f] : e.functions) {
      if (new_fns.count({name, sig}) == 0) cs.drop_functions.emplace_back(name, sig);
    }
  }
  last_reset_version_ = version_;
  return InstallLocked(std::move(cs));
}

CatalogDelta Catalog::CollectDelta(int64_t from) const {
  MutexLock l(&mu_);
  CatalogDelta d;
  d.from = from;
  d.to = version_;
  for (auto it = by_version_.upper_bound(from); it != by_version_.end(); ++it) {
    const IndexKey& k = it->second;
    auto db = dbs_.find(k.db);
    if (db == dbs_.end()) continue;
    switch (k.kind) {
      case Kind::kDatabase:
        d.databases.push_back(db->second.state);
        break;
      case Kind::kTable: {
        auto t = db->second.tables.find(k.name);
        if (t != db->second.tables.end()) d.tables.push_back(t->second);
        break;
      }
      case Kind::kFunction: {
        auto f = db->second.functions.find(k.name);
        if (f != db->second.functions.end()) d.functions.push_back(f->second);
        break;
      }
    }
  }
  for (auto it = delete_log_.upper_bound(from); it != delete_log_.end(); ++it) {
    d.deletions.push_back(it->second);
  }
  return d;
}

void Catalog::TrimDeleteLog(int64_t up_to) {
  MutexLock l(&mu_);
  delete_log_.erase(delete_log_.begin(), delete_log_.upper_bound(up_to));
}

size_t Catalog::delete_log_size() const {
  MutexLock l(&mu_);
  return delete_log_.size();
}

Mutex* Catalog::TableLock(const std::string& db, const std::string& table) {
  MutexLock l(&locks_mu_);
  auto& slot = table_locks_[db + '\0' + table];
  if (slot == nullptr) slot = std::make_unique<Mutex>();
  return slot.get();
}

}  // namespace ics::catalog
