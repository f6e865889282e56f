// FullReplicaCatalog: the "1:" (full-replica) mode of LocalCatalog.
//
// State: databases, tables (a LocalTable snapshot plus the partitions that
// arrived for it), functions, each with the catalog version it was applied
// at, and the memory of objects this coordinator's DDL dropped
// (name -> drop version). Everything is behind one mutex; LocalTable and
// LocalPartition snapshots are immutable once published and shared with
// readers, so a reader never sees half an update.
//
// Application rules (topic entries and DDL results alike):
//  * an object replaces the local copy only if its version is newer; a
//    placeholder (from a minimal DDL result) also yields to the same version;
//  * an object at or below the version at which our own DDL dropped it (or
//    its database/table) is ignored; that memory is forgotten once a topic
//    update at or beyond the drop version was applied;
//  * a deletion removes the local copy only if it is not newer than the
//    deletion;
//  * TABLE keeps the partitions it still lists; HDFS_PARTITION attaches to
//    its table only if the table lists its id;
//  * a full topic update replaces the contents; a changed catalog service id
//    clears everything (drop memory included) and, for a delta, asks the
//    statestore for a full topic (from_version 0).
#include <glog/logging.h>

#include <algorithm>

#include "common/util/mutex.h"
#include "coordinator-sim/catalog/catalog_util.h"
#include "coordinator-sim/catalog/local_catalog.h"

namespace ics::coord {

namespace {

using impala::TCatalogObject;
using impala::TCatalogObjectType;

struct PartRec {
  std::shared_ptr<const LocalPartition> part;
  int64_t version = 0;
};

struct TableRec {
  std::shared_ptr<const LocalTable> table;
  bool placeholder = false;  // from a minimal DDL result
  std::vector<std::string> partition_prefixes;
  std::map<int64_t, PartRec> partitions;  // by id
};

struct DbRec {
  hive::Database hms;
  int64_t version = 0;
  bool placeholder = false;
};

struct FnRec {
  impala::TFunction fn;
  int64_t version = 0;
};

using NameKey = std::pair<std::string, std::string>;  // (db, table) or (db, signature)

bool Accepts(int64_t local_version, bool placeholder, int64_t incoming) {
  return placeholder ? incoming >= local_version : incoming > local_version;
}

class FullReplicaCatalog final : public LocalCatalog {
 public:
  explicit FullReplicaCatalog(CatalogTopicFormat topic_format) : topic_format_(topic_format) {}

  TopicProgress OnTopicUpdate(const impala::TTopicDelta& delta,
                              std::vector<impala::TTopicDelta>* publications) override
      EXCLUDES(mu_);
  std::string topic_prefix() const override { return kFullObjectPrefix; }
  void ApplyUpdateResult(const impala::TCatalogUpdateResult& result) override EXCLUDES(mu_);

  Result<std::vector<std::string>> DatabaseNames() override EXCLUDES(mu_);
  Result<hive::Database> GetDatabase(const std::string& db) override EXCLUDES(mu_);
  Result<std::vector<std::string>> TableNames(const std::string& db) override EXCLUDES(mu_);
  Result<std::shared_ptr<const LocalTable>> GetTable(const std::string& db,
                                                     const std::string& table) override
      EXCLUDES(mu_);
  Result<std::vector<std::shared_ptr<const LocalPartition>>> GetPartitions(
      const LocalTable& table, const std::vector<int64_t>& ids, bool want_files,
      bool want_stats) override EXCLUDES(mu_);
  Result<std::vector<impala::TFunction>> Functions(const std::string& db) override EXCLUDES(mu_);

  int64_t catalog_version() const override EXCLUDES(mu_);
  std::optional<impala::TUniqueId> service_id() const override EXCLUDES(mu_);
  [[nodiscard]] Status WaitForCatalogVersion(int64_t v, int timeout_ms) override EXCLUDES(mu_);
  LocalCatalogStats Stats() const override EXCLUDES(mu_);
  LocalCatalogContents Contents() const override EXCLUDES(mu_);

 private:
  void ApplyObjectLocked(const TCatalogObject& obj) REQUIRES(mu_);
  void ApplyDatabaseLocked(const TCatalogObject& obj) REQUIRES(mu_);
  void ApplyTableLocked(const TCatalogObject& obj) REQUIRES(mu_);
  void ApplyPartitionLocked(const TCatalogObject& obj) REQUIRES(mu_);
  void ApplyFunctionLocked(const TCatalogObject& obj) REQUIRES(mu_);
  void ApplyDeletionLocked(const TCatalogObject& obj) REQUIRES(mu_);
  // True if our own DDL dropped `name` (or the db/table holding it) at a
  // version >= `version`.
  bool DroppedLocked(const std::string& name, int64_t version) const REQUIRES(mu_);
  bool DroppedTableLocked(const std::string& db, const std::string& tbl, int64_t version) const
      REQUIRES(mu_);
  void ClearContentsLocked() REQUIRES(mu_);
  Status DbMissing(const std::string& db) const {
    return Status::NotFound("database " + db + " does not exist");
  }

  const CatalogTopicFormat topic_format_;
  mutable Mutex mu_;  // terminal
  CondVar version_cv_;
  std::optional<impala::TUniqueId> service_id_ GUARDED_BY(mu_);
  int64_t catalog_version_ GUARDED_BY(mu_) = 0;
  int64_t last_reset_version_ GUARDED_BY(mu_) = 0;
  int64_t service_changes_ GUARDED_BY(mu_) = 0;
  std::map<std::string, DbRec> dbs_ GUARDED_BY(mu_);
  std::map<NameKey, TableRec> tables_ GUARDED_BY(mu_);
  std::map<NameKey, FnRec> functions_ GUARDED_BY(mu_);
  std::map<std::string, int64_t> dropped_ GUARDED_BY(mu_);  // ObjectName -> drop version
  mutable int64_t hits_ GUARDED_BY(mu_) = 0;
  mutable int64_t misses_ GUARDED_BY(mu_) = 0;
  int64_t deletions_applied_ GUARDED_BY(mu_) = 0;
};

// ---------------------------------------------------------------------------
// Topic and DDL results

TopicProgress FullReplicaCatalog::OnTopicUpdate(const impala::TTopicDelta& delta,
                                                std::vector<impala::TTopicDelta>* publications) {
  // Decode outside the lock: it is the expensive part.
  const std::vector<DecodedTopicEntry> entries =
      DecodeTopicEntries(delta, kFullObjectPrefix, topic_format_);
  const TCatalogObject* catalog = nullptr;
  for (const DecodedTopicEntry& e : entries) {
    if (!e.deleted && e.obj.type == TCatalogObjectType::CATALOG && e.obj.__isset.catalog) {
      catalog = &e.obj;
    }
  }
  TopicProgress progress;
  if (catalog != nullptr) {
    progress.has_catalog = true;
    progress.service_id = catalog->catalog.catalog_service_id;
    progress.catalog_version = catalog->catalog_version;
  }

  MutexLock l(&mu_);
  if (catalog != nullptr) {
    const impala::TUniqueId& id = catalog->catalog.catalog_service_id;
    if (service_id_.has_value() && !(*service_id_ == id)) {
      LOG(INFO) << "catalog service id changed; dropping the local catalog";
      ClearContentsLocked();
      dropped_.clear();
      service_id_ = id;
      catalog_version_ = 0;
      ++service_changes_;
      version_cv_.Broadcast();
      if (delta.is_delta) {
        // The delta is relative to a topic we never saw whole: start over.
        impala::TTopicDelta req;
        req.topic_name = kCatalogTopic;
        req.is_delta = false;
        req.__set_from_version(0);
        publications->push_back(std::move(req));
        return progress;
      }
    }
    service_id_ = id;
  }
  if (!delta.is_delta) ClearContentsLocked();
  for (const DecodedTopicEntry& e : entries) {
    if (e.obj.type == TCatalogObjectType::CATALOG) continue;
    if (e.deleted) {
      ApplyDeletionLocked(e.obj);
    } else {
      ApplyObjectLocked(e.obj);
    }
  }
  if (catalog != nullptr) {
    catalog_version_ = std::max(catalog_version_, catalog->catalog_version);
    last_reset_version_ = catalog->catalog.last_reset_catalog_version;
    // The topic now covers every drop up to its version: older entries can
    // no longer arrive, so their drop memory is not needed.
    for (auto it = dropped_.begin(); it != dropped_.end();) {
      it = it->second <= catalog->catalog_version ? dropped_.erase(it) : std::next(it);
    }
  }
  version_cv_.Broadcast();
  return progress;
}

void FullReplicaCatalog::ApplyUpdateResult(const impala::TCatalogUpdateResult& result) {
  MutexLock l(&mu_);
  if (service_id_.has_value() && !(*service_id_ == result.catalog_service_id)) {
    LOG(WARNING) << "ignoring a catalog update result from another catalog service";
    return;
  }
  service_id_ = result.catalog_service_id;
  for (const TCatalogObject& obj : result.updated_catalog_objects) {
    ApplyObjectLocked(obj);
  }
  for (const TCatalogObject& obj : result.removed_catalog_objects) {
    ApplyDeletionLocked(obj);
    // Partitions are deleted by id; a replacement keeps the name (with a
    // new id), so remembering the name would block the replacement.
    if (obj.type == TCatalogObjectType::HDFS_PARTITION) continue;
    int64_t& v = dropped_[ObjectName(obj)];
    v = std::max(v, obj.catalog_version);
  }
  catalog_version_ = std::max(catalog_version_, result.version);
  version_cv_.Broadcast();
}

void FullReplicaCatalog::ApplyObjectLocked(const TCatalogObject& obj) {
  switch (obj.type) {
    case TCatalogObjectType::DATABASE:
      ApplyDatabaseLocked(obj);
      break;
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW:
      ApplyTableLocked(obj);
      break;
    case TCatalogObjectType::HDFS_PARTITION:
      ApplyPartitionLocked(obj);
      break;
    case TCatalogObjectType::FUNCTION:
      ApplyFunctionLocked(obj);
      break;
    default:
      break;  // principals, data sources, cache pools: not kept
  }
}

void FullReplicaCatalog::ApplyDatabaseLocked(const TCatalogObject& obj) {
  const std::string& name = obj.db.db_name;
  const int64_t v = obj.catalog_version;
  if (DroppedLocked(ObjectName(obj), v)) return;
  auto it = dbs_.find(name);
  if (it != dbs_.end() && !Accepts(it->second.version, it->second.placeholder, v)) return;
  DbRec rec;
  rec.version = v;
  if (obj.db.__isset.metastore_db) {
    rec.hms = obj.db.metastore_db;
  } else {
    // An invalidation (minimal DDL result): the name is all we know.
    rec.hms.name = name;
    rec.placeholder = true;
  }
  dbs_[name] = std::move(rec);
}

void FullReplicaCatalog::ApplyTableLocked(const TCatalogObject& obj) {
  const impala::TTable& tt = obj.table;
  const int64_t v = obj.catalog_version;
  if (DroppedTableLocked(tt.db_name, tt.tbl_name, v)) return;
  const NameKey key(tt.db_name, tt.tbl_name);
  auto it = tables_.find(key);
  if (it != tables_.end() && !Accepts(it->second.table->version, it->second.placeholder, v)) return;

  TableRec rec;
  const bool minimal = !tt.__isset.metastore_table && !tt.__isset.table_type;
  if (minimal) {
    auto t = std::make_shared<LocalTable>();
    t->db = tt.db_name;
    t->name = tt.tbl_name;
    t->version = v;
    t->loaded = false;
    rec.table = std::move(t);
    rec.placeholder = true;
  } else {
    std::shared_ptr<LocalTable> t = TableFromThrift(tt, v);
    if (tt.__isset.hdfs_table) rec.partition_prefixes = tt.hdfs_table.partition_prefixes;
    if (it != tables_.end()) {
      for (auto& [id, part] : it->second.partitions) {
        if (t->partition_names.count(id) > 0) rec.partitions.emplace(id, std::move(part));
      }
    }
    if (tt.__isset.hdfs_table && tt.hdfs_table.has_full_partitions) {
      for (const auto& [id, p] : tt.hdfs_table.partitions) {
        auto lp = std::make_shared<LocalPartition>(PartitionFromThrift(p, rec.partition_prefixes));
        rec.partitions[id] = PartRec{std::move(lp), v};
      }
    }
    rec.table = std::move(t);
  }
  tables_[key] = std::move(rec);
}

void FullReplicaCatalog::ApplyPartitionLocked(const TCatalogObject& obj) {
  const impala::THdfsPartition& hp = obj.hdfs_partition;
  const int64_t v = obj.catalog_version;
  if (DroppedTableLocked(hp.db_name, hp.tbl_name, v) || DroppedLocked(ObjectName(obj), v)) return;
  auto it = tables_.find(NameKey(hp.db_name, hp.tbl_name));
  if (it == tables_.end()) {
    VLOG(1) << "partition " << hp.partition_name << " of unknown table " << hp.db_name << "."
            << hp.tbl_name << " ignored";
    return;
  }
  TableRec& rec = it->second;
  if (rec.table->partition_names.count(hp.id) == 0) return;  // not in this table version
  auto pit = rec.partitions.find(hp.id);
  if (pit != rec.partitions.end() && pit->second.version >= v) return;
  auto lp = std::make_shared<LocalPartition>(PartitionFromThrift(hp, rec.partition_prefixes));
  rec.partitions[hp.id] = PartRec{std::move(lp), v};
}

void FullReplicaCatalog::ApplyFunctionLocked(const TCatalogObject& obj) {
  const impala::TFunction& fn = obj.fn;
  const int64_t v = obj.catalog_version;
  // An invalidation (name and signature only): the topic brings the function.
  if (!fn.__isset.ret_type && !fn.__isset.binary_type && !fn.__isset.arg_types) return;
  if (DroppedLocked(ObjectName(obj), v) || DroppedLocked("DATABASE:" + fn.name.db_name, v)) return;
  const NameKey key(fn.name.db_name, fn.signature);
  auto it = functions_.find(key);
  if (it != functions_.end() && it->second.version >= v) return;
  functions_[key] = FnRec{fn, v};
}

void FullReplicaCatalog::ApplyDeletionLocked(const TCatalogObject& obj) {
  const int64_t v = obj.catalog_version;
  switch (obj.type) {
    case TCatalogObjectType::DATABASE: {
      const std::string& db = obj.db.db_name;
      auto it = dbs_.find(db);
      if (it != dbs_.end() && it->second.version <= v) {
        dbs_.erase(it);
        ++deletions_applied_;
      }
      // What the database held goes with it (unless re-created later).
      for (auto t = tables_.lower_bound(NameKey(db, ""));
           t != tables_.end() && t->first.first == db;) {
        t = t->second.table->version <= v ? tables_.erase(t) : std::next(t);
      }
      for (auto f = functions_.lower_bound(NameKey(db, ""));
           f != functions_.end() && f->first.first == db;) {
        f = f->second.version <= v ? functions_.erase(f) : std::next(f);
      }
      break;
    }
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW: {
      auto it = tables_.find(NameKey(obj.table.db_name, obj.table.tbl_name));
      if (it != tables_.end() && it->second.table->version <= v) {
        tables_.erase(it);
        ++deletions_applied_;
      }
      break;
    }
    case TCatalogObjectType::HDFS_PARTITION: {
      const impala::THdfsPartition& hp = obj.hdfs_partition;
      auto it = tables_.find(NameKey(hp.db_name, hp.tbl_name));
      if (it == tables_.end()) break;
      auto pit = it->second.partitions.find(hp.id);
      if (pit != it->second.partitions.end() && pit->second.version <= v) {
        it->second.partitions.erase(pit);
        ++deletions_applied_;
      }
      break;
    }
    case TCatalogObjectType::FUNCTION: {
      auto it = functions_.find(NameKey(obj.fn.name.db_name, obj.fn.signature));
      if (it != functions_.end() && it->second.version <= v) {
        functions_.erase(it);
        ++deletions_applied_;
      }
      break;
    }
    default:
      break;
  }
}

bool FullReplicaCatalog::DroppedLocked(const std::string& name, int64_t version) const {
  auto it = dropped_.find(name);
  return it != dropped_.end() && it->second >= version;
}

bool FullReplicaCatalog::DroppedTableLocked(const std::string& db, const std::string& tbl,
                                            int64_t version) const {
  return DroppedLocked("TABLE:" + db + "." + tbl, version) ||
         DroppedLocked("DATABASE:" + db, version);
}

void FullReplicaCatalog::ClearContentsLocked() {
  dbs_.clear();
  tables_.clear();
  functions_.clear();
}

// ---------------------------------------------------------------------------
// Lookups

Result<std::vector<std::string>> FullReplicaCatalog::DatabaseNames() {
  MutexLock l(&mu_);
  std::vector<std::string> names;
  names.reserve(dbs_.size());
  for (const auto& [name, rec] : dbs_) names.push_back(name);
  ++hits_;
  return names;
}

Result<hive::Database> FullReplicaCatalog::GetDatabase(const std::string& db_in) {
  const std::string db = AsciiLower(db_in);
  MutexLock l(&mu_);
  auto it = dbs_.find(db);
  if (it == dbs_.end()) {
    ++misses_;
    return DbMissing(db);
  }
  ++hits_;
  return it->second.hms;
}

Result<std::vector<std::string>> FullReplicaCatalog::TableNames(const std::string& db_in) {
  const std::string db = AsciiLower(db_in);
  MutexLock l(&mu_);
  if (dbs_.count(db) == 0) {
    ++misses_;
    return DbMissing(db);
  }
  ++hits_;
  std::vector<std::string> names;
  for (auto it = tables_.lower_bound(NameKey(db, "")); it != tables_.end() && it->first.first == db;
       ++it) {
    names.push_back(it->first.second);
  }
  return names;
}

Result<std::shared_ptr<const LocalTable>> FullReplicaCatalog::GetTable(const std::string& db_in,
                                                                       const std::string& tbl_in) {
  const std::string db = AsciiLower(db_in);
  const std::string tbl = AsciiLower(tbl_in);
  MutexLock l(&mu_);
  auto it = tables_.find(NameKey(db, tbl));
  if (it == tables_.end()) {
    ++misses_;
    if (dbs_.count(db) == 0) return DbMissing(db);
    return Status::NotFound("table " + db + "." + tbl + " does not exist");
  }
  ++hits_;
  return it->second.table;
}

Result<std::vector<std::shared_ptr<const LocalPartition>>> FullReplicaCatalog::GetPartitions(
    const LocalTable& table, const std::vector<int64_t>& ids, bool want_files, bool want_stats) {
  // Partitions are held whole: files and stats cost nothing extra here.
  (void)want_files;
  (void)want_stats;
  const std::string name = table.db + "." + table.name;
  MutexLock l(&mu_);
  auto it = tables_.find(NameKey(AsciiLower(table.db), AsciiLower(table.name)));
  if (it == tables_.end()) {
    ++misses_;
    return Status::NotFound("table " + name + " does not exist");
  }
  const TableRec& rec = it->second;
  std::vector<std::shared_ptr<const LocalPartition>> out;
  if (ids.empty()) {
    out.reserve(rec.partitions.size());
    for (const auto& [id, p] : rec.partitions) out.push_back(p.part);
    ++hits_;
    return out;
  }
  out.reserve(ids.size());
  for (int64_t id : ids) {
    auto pit = rec.partitions.find(id);
    if (pit != rec.partitions.end()) {
      out.push_back(pit->second.part);
      continue;
    }
    ++misses_;
    if (table.partition_names.count(id) == 0) {
      return Status::NotFound("partition id " + std::to_string(id) + " is not a partition of " +
                              name);
    }
    if (rec.table->version != table.version) {
      return Status(ErrorCode::kRecoverableError,
                    "table " + name + " changed (version " + std::to_string(table.version) +
                        " -> " + std::to_string(rec.table->version) + "); partition id " +
                        std::to_string(id) + " no longer exists");
    }
    return Status::NotFound("partition id " + std::to_string(id) + " of " + name +
                            " has not arrived from the catalog topic");
  }
  ++hits_;
  return out;
}

Result<std::vector<impala::TFunction>> FullReplicaCatalog::Functions(const std::string& db_in) {
  const std::string db = AsciiLower(db_in);
  MutexLock l(&mu_);
  if (dbs_.count(db) == 0) {
    ++misses_;
    return DbMissing(db);
  }
  ++hits_;
  std::vector<impala::TFunction> fns;
  for (auto it = functions_.lower_bound(NameKey(db, ""));
       it != functions_.end() && it->first.first == db; ++it) {
    fns.push_back(it->second.fn);
  }
  return fns;
}

// ---------------------------------------------------------------------------
// Versions and figures

int64_t FullReplicaCatalog::catalog_version() const {
  MutexLock l(&mu_);
  return catalog_version_;
}

std::optional<impala::TUniqueId> FullReplicaCatalog::service_id() const {
  MutexLock l(&mu_);
  return service_id_;
}

Status FullReplicaCatalog::WaitForCatalogVersion(int64_t v, int timeout_ms) {
  MutexLock l(&mu_);
  return WaitForVersionLocked(&mu_, &version_cv_, &catalog_version_, &service_changes_, v,
                              timeout_ms);
}

LocalCatalogContents FullReplicaCatalog::Contents() const {
  LocalCatalogContents out;
  MutexLock l(&mu_);
  for (const auto& [name, db] : dbs_) out.databases.push_back(name);
  for (const auto& [key, rec] : tables_) {
    LocalCatalogContents::Table t;
    t.db = key.first;
    t.name = key.second;
    if (rec.table != nullptr) {
      t.version = rec.table->version;
      t.loaded = rec.table->loaded;
      t.partitions = rec.table->loaded ? static_cast<int64_t>(rec.table->partition_names.size()) : -1;
    }
    t.local_partitions = static_cast<int64_t>(rec.partitions.size());
    out.tables.push_back(std::move(t));
  }
  return out;
}

LocalCatalogStats FullReplicaCatalog::Stats() const {
  MutexLock l(&mu_);
  LocalCatalogStats s;
  s.hits = hits_;
  s.misses = misses_;
  s.invalidations = deletions_applied_;
  s.catalog_version = catalog_version_;
  int64_t bytes = 0;
  int64_t objects = 0;
  for (const auto& [name, db] : dbs_) {
    bytes += EstimateBytes(db.hms);
    ++objects;
  }
  for (const auto& [key, rec] : tables_) {
    bytes += EstimateBytes(*rec.table);
    ++objects;
    for (const auto& [id, p] : rec.partitions) {
      bytes += EstimateBytes(*p.part);
      ++objects;
    }
  }
  for (const auto& [key, fn] : functions_) {
    bytes += EstimateBytes(fn.fn);
    ++objects;
  }
  s.cached_bytes = bytes;
  s.objects = objects;
  return s;
}

}  // namespace

std::unique_ptr<LocalCatalog> MakeFullReplicaCatalog(CatalogTopicFormat topic_format) {
  return std::make_unique<FullReplicaCatalog>(topic_format);
}

}  // namespace ics::coord
