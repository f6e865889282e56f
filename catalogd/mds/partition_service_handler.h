// The PartitionService Thrift handler: each RPC delegates to the core
// (partition_service.h) and maps its Status into the response's
// TPartitionServiceStatus (ToServiceStatus). Nothing is thrown to Thrift.
//
// Thread-safety: thread-safe (the core is).
#pragma once

#include <memory>

#include "PartitionService_types.h"
#include "catalogd/mds/partition_service.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::catalog::mds {

// Status -> wire status. INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS map to
// themselves; LIMIT_EXCEEDED -> RESOURCE_EXHAUSTED; RECOVERABLE_ERROR (an
// index still being built) -> FAILED_PRECONDITION; CANCELLED (an expired
// stream) -> ABORTED; SHUTDOWN -> UNAVAILABLE; NOT_IMPLEMENTED; the rest ->
// INTERNAL. The message is kept.
thrift::TPartitionServiceStatus ToServiceStatus(const Status& s);

// A processor serving `core` (shared with whoever shuts it down).
std::shared_ptr<apache::thrift::TProcessor> MakePartitionServiceProcessor(
    std::shared_ptr<PartitionService> core);

}  // namespace ics::catalog::mds
