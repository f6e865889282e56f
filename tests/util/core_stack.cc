#include "tests/util/core_stack.h"

#include <utility>

#include "catalogd/core/catalog_names.h"

namespace ics::catalog::testing {

Result<std::unique_ptr<CoreStack>> CoreStack::Open(Metastore* metastore, FileSystem* fs,
                                                   std::string warehouse_dir) {
  std::unique_ptr<CoreStack> s(new CoreStack());
  s->catalog_ = std::make_unique<Catalog>();
  LoaderOptions lo;
  lo.num_threads = 2;
  s->loader_ = std::make_unique<TableLoader>(metastore, fs, lo,
                                             s->catalog_->partition_id_allocator());
  s->loads_ = std::make_unique<TableLoadManager>(s->catalog_.get(), s->loader_.get(), 0);
  s->ctx_.catalog = s->catalog_.get();
  s->ctx_.metastore = metastore;
  s->ctx_.fs = fs;
  s->ctx_.loader = s->loader_.get();
  s->ctx_.loads = s->loads_.get();
  s->ctx_.operations = &s->operations_;
  s->ctx_.warehouse_dir = std::move(warehouse_dir);
  s->ddl_ = std::make_unique<DdlExecutor>(&s->ctx_);
  s->core_ = std::make_unique<ops::CommandCore>(&s->ctx_, s->ddl_.get());
  s->queries_ = std::make_unique<ops::CatalogQueries>(metastore);
  ICS_ASSIGN_OR_RETURN(ChangeSet names, CatalogNamesOf(metastore));
  if (!names.empty()) s->catalog_->ResetAll(std::move(names));
  return s;
}

CoreStack::~CoreStack() {
  if (loads_) loads_->Shutdown();
}

}  // namespace ics::catalog::testing
