// The catalog writer: the one way catalogd changes its catalog, shared by
// the DDL executor, the HMS event processor and the metastore services.
//
// Every change has the same shape: take the table locks (ScopedLocks),
// read the current immutable states, derive the next ones (DeriveTable,
// ReplacePartition, CopyTable: new objects that share what did not
// change), and install them (InstallTableState, or Catalog::Install with a
// ChangeSet for several objects) under one new catalog version. Readers
// never block and never see half a change.
//
// Lock order: database locks (Catalog::TableLock(db, "")) before table
// locks, each sorted by name, then the catalog's internals. ScopedLocks
// takes a whole set in that order, so two writers never deadlock. The load
// manager's GetLoaded/Invalidate take a table lock themselves, so they are
// only called while holding none.
//
// Thread-safety: ScopedLocks is owned by one thread; the functions are
// safe from any thread holding the locks of the tables they touch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/core/catalog_context.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog {

// Holds Catalog::TableLock for a set of (db, table) keys; table "" is the
// database's lock. Acquired in the canonical order (see above), released
// in reverse. Duplicate keys are taken once.
class ScopedLocks {
 public:
  ScopedLocks(Catalog* catalog, std::vector<std::pair<std::string, std::string>> keys);
  ~ScopedLocks();
  ScopedLocks(const ScopedLocks&) = delete;
  ScopedLocks& operator=(const ScopedLocks&) = delete;

 private:
  std::vector<Mutex*> held_;
};

// A fresh (unversioned) copy of a table state, sharing its partitions.
std::shared_ptr<TableState> CopyTable(const TableState& old);

// A copy of `old` with `hms` (as committed; stats chunk parameters are
// dropped from the copy) as its metastore object: columns rebuilt, row
// count re-read, column stats of vanished columns dropped, and the single
// partition of an unpartitioned table rebuilt from the new table.
// Partitions of a partitioned table are shared with `old`.
Result<std::shared_ptr<TableState>> DeriveTable(CatalogContext* ctx, const TableState& old,
                                                const hive::Table& hms);

// Replaces partition `old` of `t` by one built from `hms` (new id,
// prev_id = old id, directory re-listed).
[[nodiscard]] Status ReplacePartition(CatalogContext* ctx, TableState* t, const PartitionState& old,
                                      const hive::Partition& hms);

// Loads a table that was just created, renamed or altered; if loading
// fails the table is returned names-only with the load error (the change
// itself took effect in the metastore). Partitions the change left as they
// were keep their states and ids (TableLoader::Load with the current state).
std::shared_ptr<TableState> LoadOrUnloaded(CatalogContext* ctx, const std::string& db,
                                           const std::string& table, const hive::Table& hms);

// Finishes `t` (if loaded; incrementally from the current state of its
// name) and installs it as one change; returns the new catalog version.
int64_t InstallTableState(CatalogContext* ctx, const std::shared_ptr<TableState>& t);

}  // namespace ics::catalog
