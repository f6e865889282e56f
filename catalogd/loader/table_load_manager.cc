#include "catalogd/loader/table_load_manager.h"

#include <glog/logging.h>

#include "common/util/exception_barrier.h"
#include "common/util/heap_release.h"

namespace ics::catalog {

std::shared_ptr<TableState> MakeUnloadedTable(const std::string& db, const std::string& table) {
  auto t = std::make_shared<TableState>();
  t->db = db;
  t->name = table;
  t->hms.dbName = db;
  t->hms.tableName = table;
  return t;
}

TableLoadManager::TableLoadManager(Catalog* catalog, TableLoader* loader,
                                   int num_background_threads)
    : catalog_(catalog), loader_(loader) {
  for (int i = 0; i < num_background_threads; ++i) workers_.emplace_back([this] { Worker(); });
}

TableLoadManager::~TableLoadManager() { Shutdown(); }

void TableLoadManager::Shutdown() {
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    cv_.Broadcast();
  }
  for (auto& w : workers_) w.join();
  workers_.clear();
}

Result<TablePtr> TableLoadManager::LoadUnderLock(const std::string& db, const std::string& table,
                                                 bool force) {
  TablePtr current = catalog_->GetTable(db, table);
  if (current == nullptr) return Status::NotFound("table " + db + "." + table + " does not exist");
  if (current->loaded && !force) return current;
  // Exception barrier: a throwing metastore or loader fails this load (the
  // error is recorded like any load error), never the calling thread.
  Result<std::shared_ptr<TableState>> loaded = [&]() -> Result<std::shared_ptr<TableState>> {
    try {
      return loader_->Load(db, table, current.get());
    } catch (...) {
      return StatusFromCurrentException("loading the table");
    }
  }();
  if (!loaded.ok()) {
    // Record why, so coordinators see the error instead of retrying blindly.
    auto failed = MakeUnloadedTable(db, table);
    failed->hms = current->hms;
    failed->load_status = loaded.status();
    ChangeSet cs;
    cs.put_tables.push_back(std::move(failed));
    catalog_->Install(std::move(cs));
    return loaded.status().WithContext("loading " + db + "." + table);
  }
  ChangeSet cs;
  std::shared_ptr<TableState> state = std::move(loaded).value();
  cs.put_tables.push_back(state);
  catalog_->Install(std::move(cs));
  // The load's transient memory (decoded rows, listings, the replaced
  // partitions) is free now; after a large load give its pages back.
  current.reset();
  if (state->partitions.size() >= kReleaseHeapAfterPartitions) ReleaseFreeHeap();
  return TablePtr(state);
}

Result<TablePtr> TableLoadManager::GetLoaded(const std::string& db, const std::string& table) {
  TablePtr current = catalog_->GetTable(db, table);
  if (current == nullptr) return Status::NotFound("table " + db + "." + table + " does not exist");
  if (current->loaded) return current;
  Mutex* lock = catalog_->TableLock(db, table);
  MutexLock l(lock);
  return LoadUnderLock(db, table, /*force=*/false);
}

Result<TablePtr> TableLoadManager::ReloadLocked(const std::string& db, const std::string& table) {
  return LoadUnderLock(db, table, /*force=*/true);
}

void TableLoadManager::Prioritize(const std::vector<std::pair<std::string, std::string>>& tables) {
  MutexLock l(&mu_);
  for (const auto& t : tables) queue_.push_back(t);
  cv_.Broadcast();
}

Result<int64_t> TableLoadManager::Invalidate(const std::string& db, const std::string& table) {
  Mutex* lock = catalog_->TableLock(db, table);
  MutexLock l(lock);
  TablePtr current = catalog_->GetTable(db, table);
  if (current == nullptr) return Status::NotFound("table " + db + "." + table + " does not exist");
  auto fresh = MakeUnloadedTable(db, table);
  ChangeSet cs;
  cs.put_tables.push_back(std::move(fresh));
  return catalog_->Install(std::move(cs));
}

void TableLoadManager::Worker() {
  while (true) {
    std::pair<std::string, std::string> next;
    {
      MutexLock l(&mu_);
      while (queue_.empty() && !stopping_) cv_.Wait(&mu_);
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    // Last line of defence: nothing a load throws ends the worker.
    try {
      auto r = GetLoaded(next.first, next.second);
      if (!r.ok() && !r.status().Is(ErrorCode::kNotFound)) {
        LOG(WARNING) << "background load of " << next.first << "." << next.second
                     << " failed: " << r.status().ToString();
      }
    } catch (...) {
      worker_exceptions_.fetch_add(1);
      const std::string what = DescribeCurrentException();
      LOG(ERROR) << "background load of " << next.first << "." << next.second
                 << " threw (worker keeps running): " << what;
    }
  }
}

}  // namespace ics::catalog
