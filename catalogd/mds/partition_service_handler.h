// The PartitionService Thrift handler: each RPC delegates to the core
// (partition_service.h) and maps its Status into the response's
// status (service_status.h). Nothing is thrown to Thrift.
//
// Thread-safety: thread-safe (the core is).
#pragma once

#include <memory>

#include "PartitionService_types.h"
#include "catalogd/mds/partition_service.h"
#include "catalogd/mds/service_status.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::catalog::mds {

// A processor serving `core` (shared with whoever shuts it down).
std::shared_ptr<apache::thrift::TProcessor> MakePartitionServiceProcessor(
    std::shared_ptr<PartitionService> core);

}  // namespace ics::catalog::mds
