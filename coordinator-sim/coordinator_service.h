// The CoordinatorService Thrift handler (common/thrift/CoordinatorService.thrift):
// a thin adapter that runs a statement with the session state the shell
// sends and returns rows, messages and the updated session state. Errors
// are returned in the response status, never as exceptions.
//
// Thread-safety: stateless; called concurrently by RPC threads.
#pragma once

#include <memory>

#include <thrift/TProcessor.h>

namespace ics::coord {

class StatementExecutor;

std::shared_ptr<apache::thrift::TProcessor> MakeCoordinatorServiceProcessor(
    StatementExecutor* executor);

}  // namespace ics::coord
