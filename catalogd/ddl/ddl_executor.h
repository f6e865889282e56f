// DdlExecutor: executes DDL (ExecDdl), post-INSERT catalog updates
// (UpdateCatalog) and metadata resets (ResetMetadata) against the metastore
// and the catalog.
//
// Every operation: validates its input (names, types, existence) and fails
// with a clear Status before changing anything; takes the table's DDL lock
// (catalog.TableLock) so operations on one table are serialized while
// different tables proceed in parallel; writes the metastore in ONE
// transaction; only then changes the warehouse directories and installs
// the new immutable states in the catalog under one new version. A failure
// at any step leaves the catalog unchanged (no partial state).
//
// A global INVALIDATE METADATA rebuilds the whole catalog: it runs alone
// (reset_mu_ exclusive) while every other operation holds reset_mu_ shared.
//
// Thread-safety: thread-safe; besides the context it only holds reset_mu_.
#pragma once

#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "catalogd/service/catalog_context.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

struct DdlOutcome {
  int64_t version = 0;  // the change's catalog version; current version for no-ops
  std::vector<impala::TCatalogObject> updated;  // full objects created/altered
  std::vector<impala::TCatalogObject> removed;  // minimal objects dropped
  std::string summary;                          // one line, e.g. "Table has been created."
  bool new_table_created = false;
  std::string table_location;
  bool is_invalidate = false;  // global INVALIDATE METADATA
};

class DdlExecutor {
 public:
  explicit DdlExecutor(CatalogContext* ctx) : ctx_(ctx) {}

  Result<DdlOutcome> ExecDdl(const impala::TDdlExecRequest& req);
  Result<DdlOutcome> UpdateCatalog(const impala::TUpdateCatalogRequest& req);
  Result<DdlOutcome> ResetMetadata(const impala::TResetMetadataRequest& req);

 private:
  CatalogContext* const ctx_;
  // Shared by every operation; exclusive for a global INVALIDATE METADATA.
  // Acquired before any database or table lock.
  SharedMutex reset_mu_;
};

}  // namespace ics::catalog
