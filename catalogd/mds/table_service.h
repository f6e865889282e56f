// TableService core: the table API of TableService.thrift over catalogd's
// catalog and metastore (seed 004: table versions, GetTables, BatchDeleteTable,
// SearchTables, column statistics, name/field limits).
//
// Writes are commands of the command core (planned table changes):
// validated first, then under the table's DDL lock ONE metastore
// transaction and ONE catalog install (one version, published on the topic
// like any DDL). UpdateTable archives the replaced definition in the same
// transaction (metastore op kNewTableVersion) unless skip_archive.
// Reads of one table are queries of the core's read side
// (catalogd/ops/catalog_queries.h: current object and version id read
// together); listings and search read the catalog's table names and a cache
// of table objects keyed by each table's catalog version (TableDirectory),
// so they see every installed change.
//
// Methods take the Thrift requests and return the response payloads; a
// failed Result carries NOT_FOUND / INVALID_ARGUMENT / LIMIT_EXCEEDED /
// NOT_IMPLEMENTED, or RECOVERABLE_ERROR when UpdateTable's expected version
// is no longer current (FAILED_PRECONDITION on the wire); see
// service_status.h.
//
// Ownership: borrows the context and the core (both outlive it).
// Thread-safety: thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "TableService_types.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/mds/table_directory.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"

namespace ics::catalog::mds {

class TableService {
 public:
  // Every change is a command of `commands` (catalogd/ops), which records
  // it; every read of a stored object a query of `queries`.
  TableService(CatalogContext* ctx, ops::CommandCore* commands, ops::CatalogQueries* queries);

  // ---- one table and its versions (table_versions.cc) ----
  Result<thrift::TTableInfo> GetTable(const thrift::TGetTableRequest& req);
  Result<thrift::TUpdateTableResponse> UpdateTable(const thrift::TUpdateTableRequest& req);
  Result<thrift::TTableVersion> GetTableVersion(const thrift::TGetTableVersionRequest& req);
  Result<thrift::TGetTableVersionsResponse> GetTableVersions(
      const thrift::TGetTableVersionsRequest& req);
  [[nodiscard]] Status DeleteTableVersion(const thrift::TDeleteTableVersionRequest& req);
  Result<std::vector<thrift::TTableVersionError>> BatchDeleteTableVersion(
      const thrift::TBatchDeleteTableVersionRequest& req);

  // ---- listing (table_listing.cc) and search (table_search.cc) ----
  Result<thrift::TGetTablesResponse> GetTables(const thrift::TGetTablesRequest& req);
  Result<std::vector<thrift::TTableError>> BatchDeleteTable(
      const thrift::TBatchDeleteTableRequest& req);
  Result<thrift::TSearchTablesResponse> SearchTables(const thrift::TSearchTablesRequest& req);

  // ---- column statistics (table_stats.cc) ----
  Result<thrift::TGetColumnStatisticsResponse> GetColumnStatistics(
      const thrift::TGetColumnStatisticsRequest& req);
  Result<std::vector<thrift::TColumnError>> UpdateColumnStatistics(
      const thrift::TUpdateColumnStatisticsRequest& req);
  [[nodiscard]] Status DeleteColumnStatistics(const thrift::TDeleteColumnStatisticsRequest& req);

  TableDirectory* directory() { return &directory_; }
  // Where the handler records the calls that change the catalog (may be null).
  OperationLog* operations() const { return ctx_->operations; }
  // The command core this door's changes go through.
  ops::CommandCore* commands() const { return commands_; }

 private:
  // The caller of the TableService call being served.
  static ops::Caller Caller();

  CatalogContext* const ctx_;
  ops::CommandCore* const commands_;
  ops::CatalogQueries* const queries_;
  // A planned change of db.t through the command core (as TableService's caller).
  Result<DdlOutcome> Change(const char* what, const TableChange& change);
  TableDirectory directory_;
};

}  // namespace ics::catalog::mds
