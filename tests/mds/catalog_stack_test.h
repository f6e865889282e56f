// CatalogStackTest: a gtest fixture base that owns the catalogd layers the
// metastore service tests run against (SQLite metastore in a temp dir,
// catalog, table loader, load manager, CatalogContext, DDL executor and
// both sides of the command core),
// built the way catalogd builds them at startup. Fixtures derive from it, add
// their service on top, and call CloseCatalogStack() before the file system
// they passed in goes away. Not thread-safe; one test thread.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/core/catalog_names.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::testing {

class CatalogStackTest : public ::testing::Test {
 protected:
  // Makes root_ a new directory under $TMPDIR (or /tmp) named <prefix>.XXXXXX.
  void MakeRoot(const std::string& prefix) {
    root_dir_ = std::make_unique<::ics::testing::TempDir>(prefix);
    root_ = root_dir_->path();
    ASSERT_FALSE(root_.empty());
  }

  void RemoveRoot() { root_dir_.reset(); }

  // (Re)opens <root>/metastore.db and builds every layer above it over `fs`;
  // the catalog starts with the names of every database and table (tables
  // unloaded), as catalogd's startup does.
  void OpenCatalogStack(FileSystem* fs) {
    auto ms = OpenSqliteMetastore(root_ + "/metastore.db");
    ASSERT_TRUE(ms.ok()) << ms.status().ToString();
    metastore_ = std::move(ms).value();
    catalog_ = std::make_unique<Catalog>();
    LoaderOptions lo;
    lo.num_threads = 2;
    loader_ = std::make_unique<TableLoader>(metastore_.get(), fs, lo,
                                            catalog_->partition_id_allocator());
    loads_ = std::make_unique<TableLoadManager>(catalog_.get(), loader_.get(), 0);
    ctx_ = CatalogContext();
    ctx_.catalog = catalog_.get();
    ctx_.metastore = metastore_.get();
    ctx_.fs = fs;
    ctx_.loader = loader_.get();
    ctx_.loads = loads_.get();
    ctx_.warehouse_dir = root_ + "/warehouse";
    ddl_ = std::make_unique<DdlExecutor>(&ctx_);
    core_ = std::make_unique<ops::CommandCore>(&ctx_, ddl_.get());
    queries_ = std::make_unique<ops::CatalogQueries>(metastore_.get());
    auto names = CatalogNamesOf(metastore_.get());
    ASSERT_TRUE(names.ok()) << names.status().ToString();
    if (!names->empty()) catalog_->ResetAll(std::move(names).value());
  }

  // Tears the layers down, top first. Idempotent.
  void CloseCatalogStack() {
    if (loads_) loads_->Shutdown();
    queries_.reset();
    core_.reset();
    ddl_.reset();
    loads_.reset();
    loader_.reset();
    catalog_.reset();
    metastore_.reset();
  }

  std::unique_ptr<::ics::testing::TempDir> root_dir_;
  std::string root_;
  std::unique_ptr<Metastore> metastore_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<TableLoader> loader_;
  std::unique_ptr<TableLoadManager> loads_;
  CatalogContext ctx_;
  std::unique_ptr<DdlExecutor> ddl_;
  std::unique_ptr<ops::CommandCore> core_;
  std::unique_ptr<ops::CatalogQueries> queries_;
};

}  // namespace ics::catalog::testing
