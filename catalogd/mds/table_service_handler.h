// The TableService Thrift handler: each RPC checks the protocol version,
// runs through the door (table_service_door.h: wire -> the table commands
// -> wire), is recorded when it changes the catalog (ops::DoorCall), and
// maps its Status into the response's status (service_status.h;
// LIMIT_EXCEEDED also carries the RPC's list limit in
// batch_size_too_large). Nothing is thrown to Thrift.
//
// Thread-safety: thread-safe (the commands are).
#pragma once

#include <memory>

#include "catalogd/mds/service_status.h"
#include "catalogd/ops/table_commands.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::catalog::mds {

// A processor serving `commands` (register it as "TableService").
std::shared_ptr<apache::thrift::TProcessor> MakeTableServiceProcessor(
    std::shared_ptr<ops::TableCommands> commands);

}  // namespace ics::catalog::mds
