// TableCommands: the table API every table door reaches (our Thrift
// TableService, Glue's table calls): table versions, GetTables,
// BatchDeleteTable, SearchTables, column statistics and the name/field
// limits (table_limits.h), over catalogd's catalog and metastore. Requests
// and results are domain values (table_requests.h).
//
// Writes are commands of the command core (planned table changes, recorded
// for `caller`): validated first, then under the table's DDL lock ONE
// metastore transaction and ONE catalog install (one version, published on
// the topic like any DDL). UpdateTable archives the replaced definition in
// the same transaction unless skip_archive.
// Reads of one table are queries of the core's read side
// (catalog_queries.h: current object and version id read together);
// listings and search read the catalog's table names and a cache of table
// objects keyed by each table's catalog version (TableDirectory), so they
// see every installed change.
//
// A failed Result carries NOT_FOUND / INVALID_ARGUMENT / LIMIT_EXCEEDED /
// NOT_IMPLEMENTED, or RECOVERABLE_ERROR when UpdateTable's expected
// version is no longer current; per-item failures of batch calls are
// values of an OK result.
//
// Ownership: borrows the context and the core's two sides (all outlive it).
// Thread-safety: thread-safe.
#pragma once

#include <string>
#include <vector>

#include "catalogd/core/catalog_context.h"
#include "catalogd/ops/caller.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/ops/table_directory.h"
#include "catalogd/ops/table_requests.h"

namespace ics::catalog::ops {

class TableCommands {
 public:
  // Every change is a command of `commands`, which records it; every read
  // of a stored object a query of `queries`.
  TableCommands(CatalogContext* ctx, CommandCore* commands, CatalogQueries* queries);

  // ---- one table and its versions (table_versions.cc) ----
  Result<TableVersionRecord> GetTable(const Caller& caller, const GetTableRequest& req);
  Result<UpdatedTable> UpdateTable(const Caller& caller, const UpdateTableRequest& req);
  Result<TableVersionRecord> GetTableVersion(const Caller& caller,
                                             const GetTableVersionRequest& req);
  Result<TableVersionPage> GetTableVersions(const Caller& caller,
                                            const ListTableVersionsRequest& req);
  // One version: its failure is the call's (NOT_FOUND, INVALID_ARGUMENT).
  [[nodiscard]] Status DeleteTableVersion(const Caller& caller, const std::string& db,
                                          const std::string& table, const std::string& version_id);
  Result<std::vector<TableVersionFailure>> BatchDeleteTableVersion(
      const Caller& caller, const DeleteTableVersionsRequest& req);

  // ---- listing (table_listing.cc) and search (table_search.cc) ----
  Result<TablePage> GetTables(const Caller& caller, const ListTablesRequest& req);
  Result<std::vector<TableFailure>> BatchDeleteTable(const Caller& caller,
                                                     const DeleteTablesRequest& req);
  Result<TablePage> SearchTables(const Caller& caller, const SearchTablesRequest& req);

  // ---- column statistics (table_stats.cc) ----
  Result<ColumnStatistics> GetColumnStatistics(const Caller& caller,
                                               const GetColumnStatisticsRequest& req);
  Result<std::vector<ColumnFailure>> UpdateColumnStatistics(
      const Caller& caller, const UpdateColumnStatisticsRequest& req);
  [[nodiscard]] Status DeleteColumnStatistics(const Caller& caller,
                                              const DeleteColumnStatisticsRequest& req);

  TableDirectory* directory() { return &directory_; }
  // Where a door records the calls that change the catalog (may be null).
  OperationLog* operations() const { return ctx_->operations; }
  // The command core the changes go through.
  CommandCore* commands() const { return commands_; }

 private:
  CatalogContext* const ctx_;
  CommandCore* const commands_;
  CatalogQueries* const queries_;
  TableDirectory directory_;
};

}  // namespace ics::catalog::ops
