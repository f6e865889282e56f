// TableDirectory: table objects for listings and search, read once per
// table state (a query of the core's read side) and cached by the table's
// catalog version.
//
// The catalog holds names-only states for tables not loaded yet, so a
// listing cannot take table objects from it. Every change to a table
// installs a new catalog state (new version), so an entry keyed by
// (db, table, version) is never stale for that state; entries of older
// versions are replaced on the next lookup, and entries of dropped tables
// are pruned by Prune().
//
// Thread-safety: thread-safe (mu_ is terminal; reads happen outside it).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/ops/catalog_queries.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

// A table's current object with its version id and since when it is
// current (the metastore's record).
using TableInfoPtr = std::shared_ptr<const TableVersionRecord>;

class TableDirectory {
 public:
  explicit TableDirectory(ops::CatalogQueries* queries) : queries_(queries) {}

  // The object of `state`'s table (state from the catalog), read for
  // `caller` when not cached. NOT_FOUND if the metastore no longer has it
  // (dropped since the snapshot).
  Result<TableInfoPtr> Get(const ops::Caller& caller, const TableState& state) EXCLUDES(mu_);

  // Drops entries of tables not in `live` ((db, table) pairs, sorted).
  void Prune(const std::vector<std::pair<std::string, std::string>>& live) EXCLUDES(mu_);
  size_t size() const EXCLUDES(mu_);

 private:
  struct Entry {
    int64_t catalog_version = 0;
    TableInfoPtr info;
  };
  ops::CatalogQueries* const queries_;
  mutable Mutex mu_;
  std::map<std::pair<std::string, std::string>, Entry> entries_ GUARDED_BY(mu_);
};

}  // namespace ics::catalog::ops
