// The TableService Thrift handler: each RPC delegates to the core
// (table_service.h) and maps its Status into the response's
// status (service_status.h; LIMIT_EXCEEDED also carries
// the RPC's list limit in batch_size_too_large). Nothing is thrown to Thrift.
//
// Thread-safety: thread-safe (the core is).
#pragma once

#include <memory>

#include "catalogd/mds/service_status.h"
#include "catalogd/mds/table_service.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::catalog::mds {

// A processor serving `core` (register it as "TableService").
std::shared_ptr<apache::thrift::TProcessor> MakeTableServiceProcessor(
    std::shared_ptr<TableService> core);

}  // namespace ics::catalog::mds
