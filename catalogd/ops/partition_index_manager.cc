#include "catalogd/ops/partition_index_manager.h"

#include <glog/logging.h>

#include "common/types/column_type.h"
#include "common/util/exception_barrier.h"

namespace ics::catalog::ops {

namespace {

std::vector<std::string> SplitKeys(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    const size_t end = comma == std::string::npos ? s.size() : comma;
    out.push_back(s.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::string_view IndexStateName(IndexState s) {
  switch (s) {
    case IndexState::kCreating:
      return "CREATING";
    case IndexState::kActive:
      return "ACTIVE";
    case IndexState::kFailed:
      return "FAILED";
    case IndexState::kDeleting:
      return "DELETING";
  }
  return "?";
}

std::map<std::string, IndexDefinition> IndexDefinitions(const hive::Table& t) {
  std::map<std::string, IndexDefinition> out;
  const std::string prefix = kIndexParamPrefix;
  for (auto it = t.parameters.lower_bound(prefix);
       it != t.parameters.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    IndexDefinition d;
    d.name = it->first.substr(prefix.size());
    d.keys = SplitKeys(it->second);
    out.emplace(d.name, std::move(d));
  }
  return out;
}

std::string IndexParamValue(const IndexDefinition& d) {
  std::string out;
  for (const std::string& k : d.keys) out += (out.empty() ? "" : ",") + k;
  return out;
}

Status ValidateIndexName(const std::string& name) {
  if (name.empty() || name.size() > kMaxIndexNameBytes) {
    return Status::InvalidArgument("index name must be 1.." + std::to_string(kMaxIndexNameBytes) +
                                   " bytes long");
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) {
      return Status::InvalidArgument("index name '" + name +
                                     "' may only contain letters, digits, '_' and '-'");
    }
  }
  return Status::OK();
}

PartitionIndexManager::PartitionIndexManager() : worker_([this] { Worker(); }) {}

PartitionIndexManager::~PartitionIndexManager() { Shutdown(); }

void PartitionIndexManager::Shutdown() {
  {
    MutexLock l(&mu_);
    if (shutdown_) return;
    shutdown_ = true;
    jobs_.clear();
    cv_.Broadcast();
  }
  if (worker_.joinable()) worker_.join();
}

void PartitionIndexManager::SyncTable(const TablePtr& t) {
  if (t == nullptr || !t->loaded) return;
  const std::map<std::string, IndexDefinition> defs = IndexDefinitions(t->hms);
  const std::string key = TableKey(t->db, t->name);
  MutexLock l(&mu_);
  if (defs.empty() && tables_.count(key) == 0) return;
  int64_t& synced = synced_versions_[key];
  if (t->version < synced) return;
  synced = t->version;
  auto& indexes = tables_[key];
  for (auto it = indexes.begin(); it != indexes.end();) {
    auto d = defs.find(it->first);
    bool same = d != defs.end() && d->second.keys.size() == it->second->info.keys.size();
    for (size_t i = 0; same && i < d->second.keys.size(); ++i) {
      same = d->second.keys[i] == it->second->info.keys[i].name;
    }
    it = same ? std::next(it) : indexes.erase(it);
  }
  std::vector<PartitionKeyInfo> table_keys;
  std::string key_error;
  for (const impala::TColumn& c : t->clustering_columns) {
    Result<KeyKind> kind = KeyKindOf(c.columnType);
    if (!kind.ok() && key_error.empty())
      key_error = "key '" + c.columnName + "': " + kind.status().message();
    table_keys.push_back(PartitionKeyInfo{c.columnName, kind.ok() ? *kind : KeyKind::kString});
  }
  for (const auto& [name, def] : defs) {
    if (indexes.count(name) != 0) continue;
    auto entry = std::make_shared<Entry>();
    entry->info.name = name;
    std::string failure = key_error;
    for (const std::string& k : def.keys) {
      size_t pos = table_keys.size();
      for (size_t i = 0; i < table_keys.size(); ++i) {
        if (table_keys[i].name == k) pos = i;
      }
      if (pos == table_keys.size()) {
        if (failure.empty()) failure = "'" + k + "' is not a partition key of the table";
        entry->info.keys.push_back(PartitionKeyInfo{k, KeyKind::kString});
        entry->info.key_types.push_back("unknown");
        continue;
      }
      entry->positions.push_back(pos);
      entry->info.keys.push_back(table_keys[pos]);
      entry->info.key_types.push_back(TypeToString(t->clustering_columns[pos].columnType));
    }
    if (!failure.empty()) {
      entry->info.state = IndexState::kFailed;
      entry->info.failure = failure;
    } else {
      entry->info.state = IndexState::kCreating;
      jobs_.push_back(Job{key, name, entry, t});
      cv_.Signal();
    }
    indexes.emplace(name, std::move(entry));
  }
  if (indexes.empty()) tables_.erase(key);
}

void PartitionIndexManager::Changed(const TablePtr& t) {
  if (t == nullptr || !t->loaded) return;
  MutexLock l(&mu_);
  if (shutdown_ || tables_.count(TableKey(t->db, t->name)) == 0) return;
  jobs_.push_back(Job{TableKey(t->db, t->name), "", nullptr, t});
  cv_.Signal();
}

void PartitionIndexManager::ForgetTable(const std::string& db, const std::string& table) {
  MutexLock l(&mu_);
  tables_.erase(TableKey(db, table));
  synced_versions_.erase(TableKey(db, table));
}

std::vector<IndexInfo> PartitionIndexManager::List(const std::string& db,
                                                   const std::string& table) const {
  MutexLock l(&mu_);
  std::vector<IndexInfo> out;
  auto it = tables_.find(TableKey(db, table));
  if (it == tables_.end()) return out;
  for (const auto& [name, e] : it->second) out.push_back(e->info);
  return out;
}

std::optional<IndexInfo> PartitionIndexManager::Get(const std::string& db, const std::string& table,
                                                    const std::string& name) const {
  MutexLock l(&mu_);
  auto it = tables_.find(TableKey(db, table));
  if (it == tables_.end()) return std::nullopt;
  auto e = it->second.find(name);
  if (e == it->second.end()) return std::nullopt;
  return e->second->info;
}

void PartitionIndexManager::MarkDeleting(const std::string& db, const std::string& table,
                                         const std::string& name) {
  MutexLock l(&mu_);
  auto it = tables_.find(TableKey(db, table));
  if (it == tables_.end()) return;
  auto e = it->second.find(name);
  if (e != it->second.end()) e->second->info.state = IndexState::kDeleting;
}

void PartitionIndexManager::UnmarkDeleting(const std::string& db, const std::string& table,
                                           const std::string& name) {
  MutexLock l(&mu_);
  auto it = tables_.find(TableKey(db, table));
  if (it == tables_.end()) return;
  auto e = it->second.find(name);
  if (e == it->second.end() || e->second->info.state != IndexState::kDeleting) return;
  e->second->info.state = e->second->index != nullptr ? IndexState::kActive : IndexState::kFailed;
}

std::optional<PartitionIndexManager::Candidates> PartitionIndexManager::Find(
    const TablePtr& t, const std::map<size_t, KeyConstraint>& constraints) const {
  if (constraints.empty()) return std::nullopt;
  struct Active {
    std::string name;
    std::shared_ptr<Entry> entry;
    std::shared_ptr<PartitionIndex> index;  // copied under mu_ (FailJob may reset entry->index)
  };
  std::vector<Active> active;
  {
    MutexLock l(&mu_);
    auto it = tables_.find(TableKey(t->db, t->name));
    if (it == tables_.end()) return std::nullopt;
    for (const auto& [name, e] : it->second) {
      if (e->info.state == IndexState::kActive && e->index != nullptr) {
        active.push_back(Active{name, e, e->index});
      }
    }
  }
  // Prefer the index whose leading keys the filter pins most.
  const Active* best = nullptr;
  size_t best_score = 0;
  for (const auto& candidate : active) {
    size_t score = 0;
    for (size_t pos : candidate.entry->positions) {
      auto c = constraints.find(pos);
      if (c == constraints.end()) break;
      if (c->second.impossible || c->second.points) {
        score += 2;
        continue;
      }
      if (c->second.lo || c->second.hi) score += 1;
      break;
    }
    if (score > best_score) {
      best = &candidate;
      best_score = score;
    }
  }
  if (best == nullptr) return std::nullopt;
  std::optional<std::vector<int64_t>> ids = best->index->Lookup(*t, constraints);
  if (!ids) return std::nullopt;
  return Candidates{best->name, std::move(*ids)};
}

int64_t PartitionIndexManager::job_exceptions() const {
  MutexLock l(&mu_);
  return job_exceptions_;
}

void PartitionIndexManager::SetJobHookForTesting(std::function<void(const std::string&)> hook) {
  MutexLock l(&mu_);
  job_hook_ = std::move(hook);
}

void PartitionIndexManager::Worker() {
  while (true) {
    Job job;
    std::function<void(const std::string&)> hook;
    {
      MutexLock l(&mu_);
      while (!shutdown_ && jobs_.empty()) cv_.Wait(&mu_);
      if (shutdown_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      hook = job_hook_;
    }
    try {
      if (hook) hook(job.table_key);
      RunJob(job);
    } catch (...) {
      const std::string why = DescribeCurrentException();
      LOG(ERROR) << "partition index job for " << job.table_key
                 << " threw (its indexes are marked FAILED): " << why;
      try {
        FailJob(job, why);
      } catch (...) {
        LOG(ERROR) << "partition index job for " << job.table_key << ": cannot record the failure";
      }
    }
  }
}

void PartitionIndexManager::FailJob(const Job& job, const std::string& why) {
  MutexLock l(&mu_);
  ++job_exceptions_;
  auto it = tables_.find(job.table_key);
  if (it == tables_.end()) return;
  const std::string failure =
      (job.name.empty() ? "syncing the index threw: " : "building the index threw: ") + why;
  for (auto& [name, e] : it->second) {
    const bool hit = job.name.empty() ? e->index != nullptr : e == job.entry;
    if (!hit) continue;
    e->index = nullptr;  // possibly half-synced: never used again
    if (e->info.state != IndexState::kDeleting) e->info.state = IndexState::kFailed;
    e->info.failure = failure;
  }
}

void PartitionIndexManager::RunJob(const Job& job) {
  if (job.name.empty()) {  // sync the table's built indexes to a new state
    std::vector<std::shared_ptr<PartitionIndex>> indexes;
    {
      MutexLock l(&mu_);
      auto it = tables_.find(job.table_key);
      if (it == tables_.end()) return;
      for (const auto& [name, e] : it->second) {
        if (e->index != nullptr) indexes.push_back(e->index);
      }
    }
    for (const auto& index : indexes) index->Sync(*job.table);
    return;
  }
  auto index = std::make_shared<PartitionIndex>(job.entry->positions, [&] {
    std::vector<PartitionKeyInfo> keys;
    for (const impala::TColumn& c : job.table->clustering_columns) {
      Result<KeyKind> kind = KeyKindOf(c.columnType);
      keys.push_back(PartitionKeyInfo{c.columnName, kind.ok() ? *kind : KeyKind::kString});
    }
    return keys;
  }());
  std::vector<BackfillError> errors = index->Build(*job.table);
  const size_t size = index->size();
  MutexLock l(&mu_);
  auto it = tables_.find(job.table_key);
  if (it == tables_.end()) return;
  auto e = it->second.find(job.name);
  if (e == it->second.end() || e->second != job.entry) return;  // deleted meanwhile
  if (!errors.empty()) {
    e->second->info.state = IndexState::kFailed;
    e->second->info.backfill_errors = std::move(errors);
    e->second->info.failure = "some partitions could not be indexed";
    return;
  }
  e->second->index = std::move(index);
  if (e->second->info.state == IndexState::kCreating) e->second->info.state = IndexState::kActive;
  LOG(INFO) << "partition index " << job.name << " of " << job.table_key << " is active (" << size
            << " partitions)";
}

}  // namespace ics::catalog::ops
