// The metastore services port (PartitionService and TableService behind a
// TMultiplexedProcessor, as catalogd/mds/metastore_service_server.cc
// registers them) fed raw request bytes. A message names its service as
// "PartitionService:Method" / "TableService:Method".
//
// Processors: the REAL ones (MakePartitionServiceProcessor,
// MakeTableServiceProcessor) over the partition and table commands on
// an in-process catalogd stack, so filters, batches, write streams, indexes,
// table versions and search all run. Write streams are bounded tighter than
// in the daemon (staging and stream count), so abandoned streams cannot
// accumulate; partition index builds run on the manager's own thread.
#include <memory>

#include <thrift/processor/TMultiplexedProcessor.h>

#include "catalogd/mds/partition_service_handler.h"
#include "catalogd/mds/table_service_handler.h"
#include "catalogd/ops/partition_commands.h"
#include "catalogd/ops/table_commands.h"
#include "tests/fuzz/fuzz_stacks.h"

namespace ics::fuzz {
namespace {

catalog::ops::PartitionCommandsOptions ServiceOptions() {
  catalog::ops::PartitionCommandsOptions o;
  o.streams.idle_timeout_ms = 60 * 1000;
  o.streams.max_staged_bytes = 16ll << 20;
  o.streams.max_append_bytes = 1ll << 20;
  o.streams.max_streams = 64;
  return o;
}

struct MetastoreServicesStack {
  CatalogdStack stack{"metastore_services"};
  std::shared_ptr<catalog::ops::PartitionCommands> partitions =
      std::make_shared<catalog::ops::PartitionCommands>(stack.ctx(), stack.core(),
                                                        ServiceOptions());
  std::shared_ptr<apache::thrift::TMultiplexedProcessor> processor = Make();

  std::shared_ptr<apache::thrift::TMultiplexedProcessor> Make() {
    auto mux = std::make_shared<apache::thrift::TMultiplexedProcessor>();
    mux->registerProcessor("PartitionService",
                           catalog::mds::MakePartitionServiceProcessor(partitions));
    mux->registerProcessor("TableService", catalog::mds::MakeTableServiceProcessor(
                                               std::make_shared<catalog::ops::TableCommands>(
                                                   stack.ctx(), stack.core(), stack.queries())));
    return mux;
  }
  ~MetastoreServicesStack() { partitions->Shutdown(); }
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::MetastoreServicesStack;
  static ics::fuzz::Recycled<MetastoreServicesStack> stacks(
      [] { return std::make_unique<MetastoreServicesStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
