// TableLoadManager: turns names-only (incomplete) tables into loaded ones.
//
// Tables start unloaded; they are loaded on first need (GetLoaded), when a
// coordinator asks (Prioritize / PrioritizeLoad RPC), or in the background
// when configured. A load reads the metastore and lists the partition
// directories (TableLoader), then installs the result as a new catalog
// version, so subscribers learn the table is now loaded. Loads run under
// the table's DDL lock: concurrent requests for one table share a single
// load, and a DDL never races with a load of the same table.
//
// Invalidate(db, table) replaces a table with a names-only state (INVALIDATE
// METADATA t); the next need reloads it from the metastore.
//
// Exceptions: a load that throws (metastore, file system, allocation) is a
// load error like any other (INTERNAL "loading the table: unexpected
// exception: ..." recorded as the table's load_status); a background worker
// catches anything else its iteration throws, logs it, counts it
// (worker_exceptions) and keeps serving the queue.
//
// Thread-safety: thread-safe. Shutdown() stops the background workers.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "catalogd/loader/table_loader.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class TableLoadManager {
 public:
  // A load of at least this many partitions ends by returning the heap's
  // free pages to the kernel (ReleaseFreeHeap).
  static constexpr size_t kReleaseHeapAfterPartitions = 10000;

  TableLoadManager(Catalog* catalog, TableLoader* loader, int num_background_threads);
  ~TableLoadManager();

  // The table's loaded state, loading it first if needed. NOT_FOUND if the
  // table does not exist; the load error if loading fails (the table then
  // stays unloaded with that load_status).
  Result<TablePtr> GetLoaded(const std::string& db, const std::string& table);

  // Loads the table now, replacing whatever state it has (REFRESH of a
  // whole table). Caller must hold the table lock.
  Result<TablePtr> ReloadLocked(const std::string& db, const std::string& table);

  // Queues background loads; returns at once.
  void Prioritize(const std::vector<std::pair<std::string, std::string>>& tables) EXCLUDES(mu_);

  // Replaces the table with a names-only state. Returns the new version, or
  // NOT_FOUND.
  Result<int64_t> Invalidate(const std::string& db, const std::string& table);

  void Shutdown() EXCLUDES(mu_);

  // Exceptions the background workers caught outside a load (diagnostics).
  int64_t worker_exceptions() const { return worker_exceptions_.load(); }

 private:
  Result<TablePtr> LoadUnderLock(const std::string& db, const std::string& table, bool force);
  void Worker() EXCLUDES(mu_);

  Catalog* const catalog_;
  TableLoader* const loader_;

  Mutex mu_;
  CondVar cv_;
  std::deque<std::pair<std::string, std::string>> queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::atomic<int64_t> worker_exceptions_{0};
  std::vector<std::thread> workers_;
};

// A names-only table state, as installed at startup and by INVALIDATE.
std::shared_ptr<TableState> MakeUnloadedTable(const std::string& db, const std::string& table);

}  // namespace ics::catalog
