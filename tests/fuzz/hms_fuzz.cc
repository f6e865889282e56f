// ThriftHiveMetastore (catalogd's HMS endpoint) fed raw request bytes.
//
// Processor: hive::ThriftHiveMetastoreProcessor over the REAL HmsHandler and
// HmsCore, on an in-process catalogd stack: its command core (database and
// table changes), its undecorated SQLite metastore (reads and the other
// writes, as catalogd hands it to its HMS server) and its
// SandboxFileSystem, so the endpoint's name checks, filters, limits and
// writes all run. Request bounds are smaller than the daemon's so
// one input stays cheap.
#include <memory>

#include "ThriftHiveMetastore.h"
#include "catalogd/hms/hms_core.h"
#include "catalogd/hms/hms_handler.h"
#include "tests/fuzz/fuzz_stacks.h"

namespace ics::fuzz {
namespace {

catalog::hms::HmsCoreOptions CoreOptions(const CatalogdStack& stack) {
  catalog::hms::HmsCoreOptions o;
  o.warehouse_dir = stack.warehouse();
  o.max_partitions_per_request = 1000;
  o.max_objects_per_request = 100;
  o.max_notification_events = 100;
  return o;
}

struct HmsStack {
  CatalogdStack stack{"hms"};
  catalog::hms::HmsCore core{stack.queries(), stack.core(), CoreOptions(stack)};
  std::shared_ptr<apache::thrift::TProcessor> processor =
      std::make_shared<hive::ThriftHiveMetastoreProcessor>(
          std::make_shared<catalog::hms::HmsHandler>(&core));
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::HmsStack;
  static ics::fuzz::Recycled<HmsStack> stacks([] { return std::make_unique<HmsStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
