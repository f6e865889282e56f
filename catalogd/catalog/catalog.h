// Catalog: the versioned registry of databases, tables and functions that
// catalogd serves and publishes.
//
// Holds shared_ptr<const> states (table_state.h) and swaps them on change.
// Every change is a ChangeSet installed atomically under the next global
// catalog version (strictly increasing); every object it touches carries
// that version. Removed objects go to a delete log (version -> minimal
// TCatalogObject) that topic deltas read and that is garbage-collected once
// published; partitions that disappear from a replaced table are logged as
// HDFS_PARTITION deletions.
//
// CollectDelta(from) returns every live object with version in
// (from, current] and every deletion in that range, consistently: version
// allocation and installation happen under one lock, so a delta never
// misses an object whose version it covers.
//
// Per-table DDL serialization is offered by LockTable(); the catalog itself
// only guards its maps. Lock order: table lock -> catalog mu_ (terminal).
//
// Thread-safety: thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "CatalogObjects_types.h"
#include "catalogd/catalog/table_state.h"
#include "common/util/mutex.h"

namespace ics::catalog {

// Changes installed together under one new catalog version. States must be
// freshly built and not yet shared: Install stamps their version (and the
// added_version of partitions that carry 0).
struct ChangeSet {
  std::vector<std::shared_ptr<DatabaseState>> put_databases;
  std::vector<std::string> drop_databases;  // also drops their tables and functions
  std::vector<std::shared_ptr<TableState>> put_tables;  // replaces by (db, name)
  std::vector<std::pair<std::string, std::string>> drop_tables;
  std::vector<std::shared_ptr<FunctionState>> put_functions;
  std::vector<std::pair<std::string, std::string>> drop_functions;  // (db, signature)
  bool empty() const {
    return put_databases.empty() && drop_databases.empty() && put_tables.empty() &&
           drop_tables.empty() && put_functions.empty() && drop_functions.empty();
  }
};

// A partition removed from a table, as the delete log keeps it.
struct DeletedPartition {
  std::string db;
  std::string table;
  std::string name;
  int64_t id = 0;
  int64_t prev_id = -1;
};

// A removed object as logged for topic deltas. Partitions, the bulk of any
// log (a reload that replaces every partition logs them all), are kept as
// names and ids; databases, tables and functions as their minimal wire
// form. A TCatalogObject is several kilobytes even when minimal, so it is
// only rendered when a delta is published.
struct Deletion {
  int64_t version = 0;
  std::variant<std::shared_ptr<const impala::TCatalogObject>, DeletedPartition> what;

  // The minimal wire form (type, names, ids), catalog_version = version.
  impala::TCatalogObject Object() const;
};

// Objects changed in (from, to].
struct CatalogDelta {
  int64_t from = 0;
  int64_t to = 0;
  std::vector<DatabasePtr> databases;
  std::vector<TablePtr> tables;
  std::vector<FunctionPtr> functions;
  std::vector<Deletion> deletions;  // in version order
};

class Catalog {
 public:
  Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  const impala::TUniqueId& service_id() const { return service_id_; }
  int64_t version() const EXCLUDES(mu_);
  int64_t last_reset_version() const EXCLUDES(mu_);

  // Reads: snapshots, never blocked by DDL in progress. nullptr if absent.
  std::vector<std::string> DatabaseNames() const EXCLUDES(mu_);
  DatabasePtr GetDatabase(const std::string& db) const EXCLUDES(mu_);
  std::vector<TablePtr> TablesOf(const std::string& db) const EXCLUDES(mu_);
  TablePtr GetTable(const std::string& db, const std::string& table) const EXCLUDES(mu_);
  std::vector<FunctionPtr> FunctionsOf(const std::string& db) const EXCLUDES(mu_);
  FunctionPtr GetFunction(const std::string& db, const std::string& signature) const
      EXCLUDES(mu_);

  // Installs `changes` under a new version and returns it. Preconditions
  // (existence) are the caller's: the DDL layer checks them under the
  // relevant table lock before writing the metastore.
  int64_t Install(ChangeSet changes) EXCLUDES(mu_);

  // Replaces the whole contents (global INVALIDATE METADATA / startup):
  // everything in `changes` is installed, every object not in it is
  // deleted, and last_reset_version becomes the new version's start.
  // Returns the new version.
  int64_t ResetAll(ChangeSet changes) EXCLUDES(mu_);

  CatalogDelta CollectDelta(int64_t from) const EXCLUDES(mu_);

  // Forgets deletions with version <= `up_to` (already published widely).
  void TrimDeleteLog(int64_t up_to) EXCLUDES(mu_);
  size_t delete_log_size() const EXCLUDES(mu_);

  // Serializes DDL on one table (or, with table == "", on a database's list
  // of tables). The returned mutex lives as long as the catalog.
  Mutex* TableLock(const std::string& db, const std::string& table) EXCLUDES(locks_mu_);

  // Called (outside the catalog's locks) with the new version after every
  // Install/ResetAll; catalogd uses it to have the change published at once.
  void SetChangeListener(std::function<void(int64_t)> listener) EXCLUDES(listener_mu_);

  // Allocator of partition ids (never reused within the process).
  std::atomic<int64_t>* partition_id_allocator() { return &next_partition_id_; }

 private:
  enum class Kind { kDatabase, kTable, kFunction };
  struct IndexKey {
    Kind kind;
    std::string db;
    std::string name;
  };
  struct DbEntry {
    DatabasePtr state;
    std::map<std::string, TablePtr> tables;
    std::map<std::string, FunctionPtr> functions;
  };

  int64_t InstallLocked(ChangeSet changes) REQUIRES(mu_);
  int64_t ResetAllLocked(ChangeSet changes) REQUIRES(mu_);
  void IndexLocked(Kind kind, const std::string& db, const std::string& name, int64_t old_version,
                   int64_t new_version) REQUIRES(mu_);
  void DropTableLocked(DbEntry& db, const std::string& name, int64_t v) REQUIRES(mu_);
  void DropDatabaseLocked(const std::string& name, int64_t v) REQUIRES(mu_);
  void DropFunctionLocked(DbEntry& db, const std::string& sig, int64_t v) REQUIRES(mu_);
  void PutTableLocked(std::shared_ptr<TableState> t, int64_t v) REQUIRES(mu_);
  void LogDeletion(impala::TCatalogObject obj, int64_t v) REQUIRES(mu_);
  void LogPartitionDeletion(const TableState& t, const PartitionState& p, int64_t v) REQUIRES(mu_);

  const impala::TUniqueId service_id_;
  std::atomic<int64_t> next_partition_id_{1};

  mutable Mutex mu_;
  int64_t version_ GUARDED_BY(mu_) = 0;
  int64_t last_reset_version_ GUARDED_BY(mu_) = 0;
  std::map<std::string, DbEntry> dbs_ GUARDED_BY(mu_);
  std::multimap<int64_t, IndexKey> by_version_ GUARDED_BY(mu_);  // live objects
  std::multimap<int64_t, Deletion> delete_log_ GUARDED_BY(mu_);

  void NotifyChange(int64_t version) EXCLUDES(listener_mu_);

  Mutex listener_mu_;
  std::function<void(int64_t)> listener_ GUARDED_BY(listener_mu_);

  Mutex locks_mu_;
  std::map<std::string, std::unique_ptr<Mutex>> table_locks_ GUARDED_BY(locks_mu_);
};

}  // namespace ics::catalog
