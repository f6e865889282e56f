// Impala's change requests (CatalogService ExecDdl, UpdateCatalog,
// ResetMetadata) as the command core's typed commands
// (catalogd/ddl/ddl_commands.h). This is the whole of the Impala door's
// part in a change: it maps Impala's request structs to commands, runs them
// through the core, and refuses, recorded as the core records commands,
// what has no command (a malformed request, a feature this catalog does not
// have: HDFS caching, Kudu range partitions, roles and privileges, ...).
//
// Thread-safety: stateless.
#pragma once

#include "CatalogService_types.h"
#include "catalogd/ops/caller.h"
#include "catalogd/ops/command_core.h"

namespace ics::catalog {

// An ExecDdl request through the command core, as the typed command its
// DDL type (and for ALTER TABLE its alter type) translates to. A request
// without the params its type needs is INVALID_ARGUMENT "<TYPE> request
// without <field>"; a type with no command is NOT_IMPLEMENTED.
Result<DdlOutcome> ExecImpalaDdl(ops::CommandCore* core, const ops::Caller& caller,
                                 const impala::TDdlExecRequest& req);

// UpdateCatalog (an INSERT's metadata step) as a typed command.
InsertCommand InsertCommandOf(const impala::TUpdateCatalogRequest& req);

// REFRESH / INVALIDATE METADATA as a typed command: a table (REFRESH, with
// the partitions of partition_spec_list and the older partition_spec), a
// database, everything, or the authorization metadata.
ResetCommand ResetCommandOf(const impala::TResetMetadataRequest& req);

}  // namespace ics::catalog
