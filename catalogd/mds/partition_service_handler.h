// The PartitionService Thrift handler: each RPC runs through the door
// (partition_service_door.h: wire -> the partition commands -> wire), is
// recorded (calls that become commands through ops::DoorCall, index
// changes in the operation log), and its Status is mapped into the
// response's status (service_status.h; an over-limit batch also carries
// max_batch_size). An exception from the call is answered as INTERNAL.
// Nothing is thrown to Thrift.
//
// Thread-safety: thread-safe (the commands are).
#pragma once

#include <memory>

#include "catalogd/mds/service_status.h"
#include "catalogd/ops/partition_commands.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::catalog::mds {

// A processor serving `commands` (shared with whoever shuts them down).
std::shared_ptr<apache::thrift::TProcessor> MakePartitionServiceProcessor(
    std::shared_ptr<ops::PartitionCommands> commands);

}  // namespace ics::catalog::mds
