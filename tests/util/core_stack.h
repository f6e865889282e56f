// CoreStack: catalogd's command core over a given metastore and file
// system, in process: a catalog holding the metastore's names (tables
// loaded on first use, synchronously), the loader, the load manager, the
// context, the DDL executor and the command core, built as catalogd builds
// them, minus servers, the publisher and the event processor. For tests
// whose subject sits on the core (a door, a remote backend's peer).
//
// Thread-safety: the parts are as thread-safe as in catalogd; build and
// destroy from one thread.
#pragma once

#include <memory>
#include <string>

#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"
#include "common/util/operation_log.h"

namespace ics::catalog::testing {

class CoreStack {
 public:
  // `metastore` and `fs` outlive the stack. Fails if the names cannot be read.
  static Result<std::unique_ptr<CoreStack>> Open(Metastore* metastore, FileSystem* fs,
                                                 std::string warehouse_dir);
  ~CoreStack();
  CoreStack(const CoreStack&) = delete;
  CoreStack& operator=(const CoreStack&) = delete;

  Catalog* catalog() { return catalog_.get(); }
  CatalogContext* ctx() { return &ctx_; }
  DdlExecutor* ddl() { return ddl_.get(); }
  ops::CommandCore* core() { return core_.get(); }
  ops::CatalogQueries* queries() { return queries_.get(); }
  OperationLog* operations() { return &operations_; }

 private:
  CoreStack() = default;

  OperationLog operations_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<TableLoader> loader_;
  std::unique_ptr<TableLoadManager> loads_;
  CatalogContext ctx_;
  std::unique_ptr<DdlExecutor> ddl_;
  std::unique_ptr<ops::CommandCore> core_;
  std::unique_ptr<ops::CatalogQueries> queries_;
};

}  // namespace ics::catalog::testing
