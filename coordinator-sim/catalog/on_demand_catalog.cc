// OnDemandCatalog: topic invalidations, DDL results, cache bookkeeping,
// versions and figures. Fetching lives in on_demand_fetch.cc.
#include "coordinator-sim/catalog/on_demand_catalog.h"

#include <glog/logging.h>

#include <algorithm>
#include <optional>
#include <set>
#include <variant>

#include "common/util/unique_id.h"
#include "coordinator-sim/catalog/catalog_util.h"

namespace ics::coord {

using impala::TCatalogObject;
using impala::TCatalogObjectType;

std::string DbListKey() { return "dbs"; }
std::string DbKey(const std::string& db) { return "db:" + db; }
std::string TableListKey(const std::string& db) { return "tables:" + db; }
std::string FunctionsKey(const std::string& db) { return "fns:" + db; }
std::string TableScope(const std::string& db, const std::string& tbl) { return db + "." + tbl; }
std::string TableKey(const std::string& db, const std::string& tbl) {
  return "t:" + TableScope(db, tbl);
}
std::string PartitionPrefix(const std::string& db, const std::string& tbl) {
  return "p:" + TableScope(db, tbl) + ":";
}
std::string PartitionKey(const std::string& db, const std::string& tbl, int64_t id) {
  return PartitionPrefix(db, tbl) + std::to_string(id);
}

namespace {

// The TableScope of a TableKey or PartitionKey; "" for other keys (lists,
// databases, functions).
std::string TableScopeOfKey(const std::string& key) {
  if (key.compare(0, 2, "t:") == 0) return key.substr(2);
  if (key.compare(0, 2, "p:") == 0) return key.substr(2, key.rfind(':') - 2);
  return std::string();
}

bool ListContains(const CacheValue* v, const std::string& name) {
  const auto* names = v == nullptr ? nullptr : std::get_if<std::vector<std::string>>(v);
  return names != nullptr && std::find(names->begin(), names->end(), name) != names->end();
}

}  // namespace

std::unique_ptr<LocalCatalog> MakeOnDemandCatalog(OnDemandOptions options) {
  return std::make_unique<OnDemandCatalog>(std::move(options));
}

OnDemandCatalog::OnDemandCatalog(OnDemandOptions options)
    : opts_(std::move(options)),
      catalogd_(opts_.catalogd != nullptr
                    ? opts_.catalogd
                    : std::make_shared<CatalogdClient>(
                          opts_.catalogd_host, opts_.catalogd_port,
                          CatalogdClientOptions(opts_.rpc_timeout_ms, opts_.tls),
                          opts_.max_idle_connections)),
      cache_(opts_.cache_bytes, std::chrono::seconds(opts_.cache_expiry_s)) {}

OnDemandCatalog::Clock::time_point OnDemandCatalog::Now() const {
  return opts_.clock ? opts_.clock() : Clock::now();
}

// ---------------------------------------------------------------------------
// Topic and DDL results

TopicProgress OnDemandCatalog::OnTopicUpdate(const impala::TTopicDelta& delta,
                                             std::vector<impala::TTopicDelta>* publications) {
  (void)publications;  // on-demand coordinators never publish
  // The CATALOG object (last in the delta) first: a reset makes every
  // other invalidation moot. Entries are decoded one at a time: after a
  // REFRESH the delta holds one invalidation per partition of the table.
  // Only its version and TCatalog are kept (copying the whole object cost
  // more than decoding it).
  struct CatalogEntry {
    int64_t catalog_version = 0;
    impala::TCatalog catalog;
  };
  std::optional<CatalogEntry> catalog;
  ForEachTopicEntry(delta, kInvalidationPrefix, opts_.topic_format, TopicEntries::kCatalogService,
                    [&](const TCatalogObject& obj, bool deleted) {
                      if (!deleted && obj.type == TCatalogObjectType::CATALOG &&
                          obj.__isset.catalog) {
                        catalog = CatalogEntry{obj.catalog_version, obj.catalog};
                      }
                    });

  {
    MutexLock l(&mu_);
    if (catalog.has_value()) {
      const bool changed = ObserveServiceIdLocked(catalog->catalog.catalog_service_id);
      const int64_t reset = catalog->catalog.last_reset_catalog_version;
      if (!changed && last_reset_version_.has_value() && *last_reset_version_ != reset) {
        ClearCacheLocked("last_reset_catalog_version changed (global INVALIDATE METADATA)");
      }
      last_reset_version_ = reset;
      if (changed) catalog_version_ = 0;  // versions of the new catalogd start afresh
    }
  }
  // The lock is taken per entry, not across the decoding of them all, so
  // that statements looking up the cache are not held up by a big delta.
  // Each invalidation stands alone (versions and generations guard the
  // fetches that run meanwhile, as between two deltas).
  ForEachTopicEntry(delta, kInvalidationPrefix, opts_.topic_format,
                    TopicEntries::kAllButCatalogService,
                    [&](const TCatalogObject& obj, bool deleted) {
                      if (obj.type == TCatalogObjectType::CATALOG) return;
                      MutexLock l(&mu_);
                      InvalidateObjectLocked(obj, deleted);
                    });
  MutexLock l(&mu_);
  PruneSupersededLocked(Now());  // every update (at least the fallback cadence) bounds their age
  TopicProgress progress;
  if (catalog.has_value()) {
    catalog_version_ = std::max(catalog_version_, catalog->catalog_version);
    progress.has_catalog = true;
    progress.service_id = catalog->catalog.catalog_service_id;
    progress.catalog_version = catalog->catalog_version;
  }
  version_cv_.Broadcast();
  return progress;
}

void OnDemandCatalog::ApplyUpdateResult(const impala::TCatalogUpdateResult& result) {
  MutexLock l(&mu_);
  const bool changed = ObserveServiceIdLocked(result.catalog_service_id);
  if (changed) catalog_version_ = 0;
  if (result.is_invalidate && !changed) ClearCacheLocked("global INVALIDATE METADATA");
  if (!changed && !result.is_invalidate) PatchPartitionListsLocked(result);
  for (const TCatalogObject& obj : result.updated_catalog_objects) {
    InvalidateObjectLocked(obj, /*deleted=*/false);
  }
  for (const TCatalogObject& obj : result.removed_catalog_objects) {
    InvalidateObjectLocked(obj, /*deleted=*/true);
  }
  catalog_version_ = std::max(catalog_version_, result.version);
  version_cv_.Broadcast();
}

void OnDemandCatalog::PatchPartitionListsLocked(const impala::TCatalogUpdateResult& result) {
  for (const TCatalogObject& obj : result.updated_catalog_objects) {
    if (obj.type != TCatalogObjectType::TABLE || !obj.__isset.base_catalog_version) continue;
    const std::string& db = obj.table.db_name;
    const std::string& tbl = obj.table.tbl_name;
    const std::string key = TableKey(db, tbl);
    int64_t cached_version = 0;
    const CacheValue* v = cache_.Peek(key, &cached_version);
    const auto* cached = v == nullptr ? nullptr : std::get_if<std::shared_ptr<const LocalTable>>(v);
    std::shared_ptr<const LocalTable> base;
    if (cached != nullptr && cached_version == obj.base_catalog_version) {
      base = *cached;
    } else if (cached == nullptr) {
      // The topic's news of this very change may have come first and
      // evicted the table; patch the evicted copy unless something newer
      // than this result was announced since.
      std::shared_ptr<const LocalTable> kept = TakeSupersededLocked(key, obj.base_catalog_version);
      auto inv = table_invalidated_.find(TableScope(db, tbl));
      const bool newer_news =
          inv != table_invalidated_.end() && inv->second.max_version > obj.catalog_version;
      if (!newer_news) base = std::move(kept);
    }
    if (base == nullptr) continue;
    auto next = std::make_shared<LocalTable>(*base);
    next->version = obj.catalog_version;
    auto of_table = [&](const TCatalogObject& o) {
      return o.type == TCatalogObjectType::HDFS_PARTITION && o.hdfs_partition.__isset.id &&
             o.catalog_version == obj.catalog_version && o.hdfs_partition.db_name == db &&
             o.hdfs_partition.tbl_name == tbl;
    };
    for (const TCatalogObject& o : result.removed_catalog_objects) {
      if (of_table(o)) next->partition_names.Erase(o.hdfs_partition.id);
    }
    for (const TCatalogObject& o : result.updated_catalog_objects) {
      if (of_table(o))
        next->partition_names.Add(o.hdfs_partition.id, o.hdfs_partition.partition_name);
    }
    const std::string scope = TableScope(db, tbl);
    // A fetch of an older version in flight must not be cached over it.
    BumpGenerationLocked(scope, obj.catalog_version);
    const int64_t bytes = EstimateBytes(*next);
    cache_.Put(key, std::shared_ptr<const LocalTable>(std::move(next)), bytes, obj.catalog_version,
               Now());
    ++patched_tables_;
  }
}

bool OnDemandCatalog::ObserveServiceIdLocked(const impala::TUniqueId& id) {
  if (service_id_.has_value() && *service_id_ == id) return false;
  const bool changed = service_id_.has_value();
  if (changed) {
    LOG(INFO) << "catalog service id changed from " << PrintId(*service_id_) << " to "
              << PrintId(id) << "; dropping the metadata cache";
    ClearCacheLocked("catalog service id changed");
    ++service_changes_;
  }
  service_id_ = id;
  return changed;
}

void OnDemandCatalog::InvalidateObjectLocked(const TCatalogObject& obj, bool deleted) {
  const int64_t v = obj.catalog_version;
  switch (obj.type) {
    case TCatalogObjectType::DATABASE:
      InvalidateDbLocked(obj.db.db_name, v, deleted);
      break;
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW:
      InvalidateTableLocked(obj.table.db_name, obj.table.tbl_name, v, deleted);
      break;
    case TCatalogObjectType::HDFS_PARTITION: {
      const impala::THdfsPartition& hp = obj.hdfs_partition;
      // InvalidateTableLocked (below) counts this as an invalidation of the table.
      if (hp.__isset.prev_id && hp.prev_id >= 0) {
        EraseLocked(PartitionKey(hp.db_name, hp.tbl_name, hp.prev_id));
      }
      if (deleted && hp.__isset.id) EraseLocked(PartitionKey(hp.db_name, hp.tbl_name, hp.id));
      // The table's partition list names the old id.
      InvalidateTableLocked(hp.db_name, hp.tbl_name, v, /*deleted=*/false);
      break;
    }
    case TCatalogObjectType::FUNCTION:
      ++generation_;
      EraseLocked(FunctionsKey(obj.fn.name.db_name));
      break;
    default:
      break;  // principals, data sources, cache pools: not cached here
  }
}

void OnDemandCatalog::InvalidateTableLocked(const std::string& db, const std::string& tbl,
                                            int64_t version, bool deleted) {
  const std::string scope = TableScope(db, tbl);
  BumpGenerationLocked(scope, version);
  const std::string key = TableKey(db, tbl);
  int64_t cached_version = 0;
  const CacheValue* value = cache_.Peek(key, &cached_version);
  const bool cached = value != nullptr;
  if (cached && cached_version > version) return;               // ours is newer than the news
  if (cached && cached_version == version && !deleted) return;  // already this version
  if (deleted) {
    superseded_.erase(key);
  } else if (const auto* t = std::get_if<std::shared_ptr<const LocalTable>>(value)) {
    KeepSupersededLocked(key, cached_version, *t);
  }
  EraseLocked(key);
  const std::string list_key = TableListKey(db);
  if (deleted || (cache_.Peek(list_key) != nullptr && !ListContains(cache_.Peek(list_key), tbl))) {
    EraseLocked(list_key);
  }
  if (deleted) invalidations_ += cache_.ErasePrefix(PartitionPrefix(db, tbl));
}

void OnDemandCatalog::InvalidateDbLocked(const std::string& db, int64_t version, bool deleted) {
  BumpAllGenerationsLocked();  // may drop every table of the db
  int64_t cached_version = 0;
  const bool cached = cache_.Peek(DbKey(db), &cached_version) != nullptr;
  if (!(cached && !deleted && cached_version >= version)) EraseLocked(DbKey(db));
  EraseLocked(DbListKey());
  if (deleted) {
    EraseLocked(TableListKey(db));
    EraseLocked(FunctionsKey(db));
    invalidations_ += cache_.ErasePrefix("t:" + db + ".");
    invalidations_ += cache_.ErasePrefix("p:" + db + ".");
  }
}

void OnDemandCatalog::EraseLocked(const std::string& key) { invalidations_ += cache_.Erase(key); }

void OnDemandCatalog::ClearCacheLocked(const char* why) {
  VLOG(1) << "clearing the catalog cache: " << why;
  BumpAllGenerationsLocked();
  invalidations_ += cache_.Clear();
  superseded_.clear();
}

void OnDemandCatalog::KeepSupersededLocked(const std::string& key, int64_t version,
                                           std::shared_ptr<const LocalTable> table) {
  const auto now = Now();
  PruneSupersededLocked(now);
  if (superseded_.size() >= kMaxSuperseded) {
    superseded_.erase(std::min_element(
        superseded_.begin(), superseded_.end(),
        [](const auto& a, const auto& b) { return a.second.since < b.second.since; }));
  }
  superseded_[key] = Superseded{version, std::move(table), now, all_invalidated_};
}

void OnDemandCatalog::PruneSupersededLocked(Clock::time_point now) {
  for (auto it = superseded_.begin(); it != superseded_.end();) {
    it = now - it->second.since > kSupersededFor ? superseded_.erase(it) : std::next(it);
  }
}

std::shared_ptr<const LocalTable> OnDemandCatalog::TakeSupersededLocked(const std::string& key,
                                                                        int64_t base_version) {
  auto it = superseded_.find(key);
  if (it == superseded_.end()) return nullptr;
  std::shared_ptr<const LocalTable> t;
  // Kept across an invalidation of everything, it could miss a newer
  // change of the table that table_invalidated_ no longer shows.
  if (it->second.version == base_version && it->second.all_invalidated == all_invalidated_ &&
      Now() - it->second.since <= kSupersededFor) {
    t = std::move(it->second.table);
  }
  superseded_.erase(it);
  return t;
}

int64_t OnDemandCatalog::Generation() const {
  MutexLock l(&mu_);
  return generation_;
}

void OnDemandCatalog::BumpGenerationLocked(const std::string& table, int64_t version) {
  if (table_invalidated_.size() >= kMaxTrackedTables) {
    BumpAllGenerationsLocked();
    return;
  }
  ++generation_;
  TableInvalidation& t = table_invalidated_[table];
  t.generation = generation_;
  t.max_version = std::max(t.max_version, version);
}

void OnDemandCatalog::BumpAllGenerationsLocked() {
  ++generation_;
  all_invalidated_ = generation_;
  table_invalidated_.clear();
}

void OnDemandCatalog::Store(const std::string& key, CacheValue value, int64_t bytes,
                            int64_t version, int64_t gen) {
  MutexLock l(&mu_);
  const std::string table = TableScopeOfKey(key);
  bool raced = all_invalidated_ > gen;  // an invalidation raced with the fetch
  if (table.empty()) {
    raced = raced || generation_ > gen;
  } else {
    auto it = table_invalidated_.find(table);
    raced = raced || (it != table_invalidated_.end() && it->second.generation > gen &&
                      it->second.max_version > version);
  }
  if (raced) return;
  cache_.Put(key, std::move(value), bytes, version, Now());
}

// ---------------------------------------------------------------------------
// Versions and figures

int64_t OnDemandCatalog::catalog_version() const {
  MutexLock l(&mu_);
  return catalog_version_;
}

std::optional<impala::TUniqueId> OnDemandCatalog::service_id() const {
  MutexLock l(&mu_);
  return service_id_;
}

Status OnDemandCatalog::WaitForCatalogVersion(int64_t v, int timeout_ms) {
  MutexLock l(&mu_);
  return WaitForVersionLocked(&mu_, &version_cv_, &catalog_version_, &service_changes_, v,
                              timeout_ms);
}

LocalCatalogContents OnDemandCatalog::Contents() const {
  LocalCatalogContents out;
  out.complete = false;
  std::set<std::string> dbs;
  std::map<std::pair<std::string, std::string>, LocalCatalogContents::Table> tables;
  auto table = [&](const std::string& db, const std::string& name) -> LocalCatalogContents::Table& {
    LocalCatalogContents::Table& t = tables[{db, name}];
    t.db = db;
    t.name = name;
    return t;
  };
  MutexLock l(&mu_);
  cache_.ForEach([&](const std::string& key, const CacheValue& v, int64_t, int64_t version) {
    if (key == DbListKey()) {
      if (auto* names = std::get_if<std::vector<std::string>>(&v)) dbs.insert(names->begin(), names->end());
    } else if (key.rfind("db:", 0) == 0) {
      dbs.insert(key.substr(3));
    } else if (key.rfind("tables:", 0) == 0) {
      const std::string db = key.substr(7);
      dbs.insert(db);
      if (auto* names = std::get_if<std::vector<std::string>>(&v)) {
        for (const std::string& n : *names) table(db, n);
      }
    } else if (key.rfind("t:", 0) == 0) {
      if (auto* t = std::get_if<std::shared_ptr<const LocalTable>>(&v); t != nullptr && *t) {
        LocalCatalogContents::Table& row = table((*t)->db, (*t)->name);
        row.loaded = true;
        row.version = version != 0 ? version : (*t)->version;
        row.partitions = static_cast<int64_t>((*t)->partition_names.size());
        dbs.insert((*t)->db);
      }
    } else if (key.rfind("p:", 0) == 0) {
      // "p:<db>.<table>:<id>" (names contain neither '.' nor ':').
      const size_t dot = key.find('.', 2);
      const size_t colon = key.rfind(':');
      if (dot != std::string::npos && colon != std::string::npos && colon > dot) {
        ++table(key.substr(2, dot - 2), key.substr(dot + 1, colon - dot - 1)).local_partitions;
      }
    }
  });
  out.databases.assign(dbs.begin(), dbs.end());
  for (auto& [k, t] : tables) out.tables.push_back(std::move(t));
  return out;
}

LocalCatalogStats OnDemandCatalog::Stats() const {
  MutexLock l(&mu_);
  LocalCatalogStats s;
  s.hits = hits_;
  s.misses = misses_;
  s.evictions = cache_.evictions();
  s.invalidations = invalidations_;
  s.fetches = fetches_;
  s.partition_list_patches = patched_tables_;
  s.cached_bytes = cache_.bytes();
  s.catalog_version = catalog_version_;
  s.objects = cache_.size();
  return s;
}

}  // namespace ics::coord
