// CatalogService (catalogd's RPC endpoint) fed raw request bytes.
//
// Processor: impala::CatalogServiceProcessor over the REAL handler
// (MakeCatalogServiceHandler) and catalogd's real DDL executor, partial
// fetcher and load manager on an in-process SQLite metastore (CatalogdStack),
// so decoding, protocol checks and every handler's validation run.
// Bounded by construction: no topic publisher (SYNC_DDL does not wait), no
// event processor (SetEventProcessorStatus/WaitForHmsEvent answer
// "disabled" instead of waiting), file operations confined to the scratch
// directory (SandboxFileSystem).
#include <memory>

#include "CatalogService.h"
#include "catalogd/service/catalog_service_handler.h"
#include "tests/fuzz/fuzz_stacks.h"

namespace ics::fuzz {
namespace {

struct CatalogServiceStack {
  CatalogdStack stack{"catalog_service"};
  std::shared_ptr<apache::thrift::TProcessor> processor =
      catalog::MakeCatalogServiceProcessor(
          catalog::HandlerDeps{stack.ctx(), stack.core(), stack.fetcher(),
                               /*sync_ddl_timeout_ms=*/0, /*events=*/nullptr});
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::CatalogServiceStack;
  static ics::fuzz::Recycled<CatalogServiceStack> stacks(
      [] { return std::make_unique<CatalogServiceStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
