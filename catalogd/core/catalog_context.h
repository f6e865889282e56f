// CatalogContext: the parts of catalogd that the operation layers (DDL
// executor, partial fetcher, RPC handlers) share. Owned by CatalogServer;
// everything here outlives the operations that use it.
//
// Thread-safety: the pointed-to objects are thread-safe; the struct is
// constant after construction.
#pragma once

#include <cstdint>
#include <string>

#include "catalogd/catalog/catalog.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/util/operation_log.h"

namespace ics::catalog {

struct CatalogContext {
  Catalog* catalog = nullptr;
  Metastore* metastore = nullptr;
  FileSystem* fs = nullptr;
  TableLoader* loader = nullptr;
  TableLoadManager* loads = nullptr;
  CatalogTopicPublisher* publisher = nullptr;  // may be null in unit tests
  OperationLog* operations = nullptr;          // DDL records itself here (may be null)
  std::string warehouse_dir;                   // managed tables: <warehouse>/<db>.db/<table>
  std::string default_owner = "ics";
};

}  // namespace ics::catalog
