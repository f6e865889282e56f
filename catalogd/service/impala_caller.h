// Who calls through Impala's door (the CatalogService handler): the Caller
// a request's header names, and the label under which a refused ExecDdl is
// recorded (kind = the DDL type's name, CREATE_TABLE, ..., the word the core
// uses for the same command from every door). The requests themselves
// become commands in impala_commands.h.
//
// Thread-safety: stateless.
#pragma once

#include <string>

#include "CatalogService_types.h"
#include "catalogd/ops/caller.h"
#include "catalogd/ops/command_core.h"

namespace ics::catalog {

// The caller of the RPC being served: its connection (common/rpc/peer.h)
// and what the request header says (the requesting user, the client's
// address, the coordinator, the statement, the request id).
ops::Caller ImpalaCaller(bool header_isset, const impala::TCatalogServiceRequestHeader& header);
template <typename Req>
ops::Caller ImpalaCaller(const Req& req) {
  return ImpalaCaller(req.__isset.header, req.header);
}

ops::CommandLabel DdlLabel(const impala::TDdlExecRequest& req);

}  // namespace ics::catalog
