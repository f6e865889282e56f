// What Impala's door (the CatalogService handler) tells the command core
// (catalogd/ops/command_core.h) about a request: the Caller its header
// names, the label of a command it asks for in Impala's shape, and the
// typed command where one exists. The label's kind is the DDL type's name
// (CREATE_TABLE, ...), the word the core uses for the same command from
// every door.
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

// An ExecDdl request, through the command core: the DDL types that have a
// typed command (CREATE / DROP / ALTER DATABASE, DROP TABLE / VIEW,
// TRUNCATE TABLE, CREATE FUNCTION) translated here and run as that command; every other type as
// the executor's Impala-shaped ExecDdl in the core's steps (DdlLabel).
Result<DdlOutcome> ExecImpalaDdl(ops::CommandCore* core, const ops::Caller& caller,
                                 const impala::TDdlExecRequest& req);

// UpdateCatalog (an INSERT's metadata step) as a typed command.
InsertCommand InsertCommandOf(const impala::TUpdateCatalogRequest& req);

// REFRESH / INVALIDATE METADATA as a typed command: a table (REFRESH, with
// the partitions of partition_spec_list and the older partition_spec), a
// database, everything, or the authorization metadata.
ResetCommand ResetCommandOf(const impala::TResetMetadataRequest& req);

}  // namespace ics::catalog
