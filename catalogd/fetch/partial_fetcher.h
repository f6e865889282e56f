// PartialFetcher: answers the read RPCs of CatalogService from immutable
// catalog snapshots: GetPartialCatalogObject (catalog, database, table and
// function selectors), GetCatalogObject, GetPartitionStats, GetFunctions.
//
// Every answer is built from shared_ptr<const> states taken from the
// Catalog, so a fetch never sees half a change and, unless it has to load
// the table (which takes the table's DDL lock), never waits for DDL. Names
// of databases, tables and functions in requests are matched
// case-insensitively (catalog names are lower-case); signatures exactly.
//
// GetPartialCatalogObject, by object_desc.type:
//   CATALOG   catalog_info_selector (required): want_db_names.
//   DATABASE  db_info_selector (required): hms_database, brief meta of every
//             table (loaded or not; unloaded tables whose HMS type is unknown
//             carry only their name), distinct function names.
//   TABLE/VIEW  table_info_selector (required); the table is loaded on
//             demand (ctx->loads). See table_fetch.h for the selector rules
//             (partition_ids unset/empty/listed, metadata, files, stats,
//             column stats) and the file-descriptor cap.
//   FUNCTION  object_desc.fn.name.{db_name,function_name}: every overload.
//   anything else: NOT_IMPLEMENTED error status.
// Response rules:
//   - catalog_service_id is always set.
//   - protocol_version < V2: status CATALOG_INCOMPATIBLE_PROTOCOL, nothing else.
//   - A missing selector for the requested type is a malformed request:
//     GENERAL error status naming the missing field.
//   - Lookup problems travel in lookup_status with an OK status (the
//     coordinator invalidates its cache entry and retries): DB_NOT_FOUND,
//     TABLE_NOT_FOUND, FUNCTION_NOT_FOUND, PARTITION_NOT_FOUND, and
//     TABLE_NOT_LOADED when the table is not loaded and no load manager is
//     configured.
//   - A table whose load FAILS gets lookup_status TABLE_NOT_LOADED *and* an
//     error status carrying the load error (as Impala, which surfaces the
//     load exception): the coordinator fails the query with the real reason
//     instead of retrying a load that will fail again.
//   - object_version_number: the current catalog version of the object
//     (table state version, database version; for FUNCTION the highest
//     version of the returned overloads; for CATALOG the catalog version).
//
// File-descriptor cap: when file descriptors are requested and the selected
// partitions carry more than max_file_descs_per_response descriptors in
// total, only a prefix of the selected partitions is returned (always at
// least one, so a single huge partition still makes progress), in selection
// order: request order for listed partition_ids, ascending id when
// partition_ids is unset. The caller continues by asking again with
// partition_ids = the selected ids it did not get back (the ids are known:
// from the request, or from a want_partition_names fetch, which is not
// capped). Partitions in a capped response are complete; nothing is split.
//
// GetCatalogObject / GetPartitionStats / GetFunctions return NOT_FOUND
// (Status) for unknown objects and load errors as the loader reported them.
//
// Concurrency: every public call holds one of max_concurrent_fetches slots
// while it builds its answer, including any on-demand table load (values
// <= 0 mean unbounded); extra callers wait and are woken when a slot frees.
// The caller serializes the answer after the slot is released. Public calls never call each other,
// so a caller holds at most one slot.
//
// Thread-safety: thread-safe. Lock order: mu_ is terminal (nothing is
// called while holding it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "catalogd/core/catalog_context.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

struct PartialFetchOptions {
  int64_t max_file_descs_per_response = 1000000;
  int max_concurrent_fetches = 16;
  // Test seam: called by every public call right after it got its slot,
  // before any work. Empty in production.
  std::function<void()> on_admitted_for_testing;
};

// GetPartialCatalogObject's answer for the RPC server, whose table partitions
// are left for WritePartialObjectResponse (partial_response_writer.h) to
// render while it serializes them.
struct PartialFetchAnswer {
  impala::TGetPartialCatalogObjectResponse resp;
  // Set: resp.table_info.partitions is to be written from these partitions
  // of `table` (which keeps them alive), in this order.
  bool deferred = false;
  TablePtr table;
  std::vector<const PartitionState*> partitions;
};

class PartialFetcher {
 public:
  // `ctx` must outlive the fetcher; ctx->catalog must be set. ctx->loads may
  // be null (then unloaded tables answer TABLE_NOT_LOADED / an error).
  PartialFetcher(CatalogContext* ctx, PartialFetchOptions options);
  PartialFetcher(const PartialFetcher&) = delete;
  PartialFetcher& operator=(const PartialFetcher&) = delete;

  // An empty answer: OK status and lookup, this catalog's service id (what a
  // refused request is answered with before its status is set).
  impala::TGetPartialCatalogObjectResponse NewResponse() const;

  impala::TGetPartialCatalogObjectResponse GetPartialCatalogObject(
      const impala::TGetPartialCatalogObjectRequest& req) EXCLUDES(mu_);
  // The same answer, with a table's partitions deferred (PartialFetchAnswer).
  PartialFetchAnswer GetPartialCatalogObjectDeferred(
      const impala::TGetPartialCatalogObjectRequest& req) EXCLUDES(mu_);
  // DATABASE, TABLE/VIEW (loaded on demand, full form with files), FUNCTION
  // (by fn.signature; without a signature the name must be unambiguous),
  // HDFS_PARTITION (by db, table and partition_name), CATALOG.
  Result<impala::TCatalogObject> GetCatalogObject(const impala::TCatalogObject& desc) EXCLUDES(mu_);
  // Partition name -> compressed TPartitionStats, for partitions that have them.
  Result<std::map<std::string, std::string>> GetPartitionStats(const impala::TTableName& table)
      EXCLUDES(mu_);
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) EXCLUDES(mu_);

  // Gate figures, for metrics and tests.
  int in_flight() const EXCLUDES(mu_);
  int waiting() const EXCLUDES(mu_);
  int peak_in_flight() const EXCLUDES(mu_);

 private:
  class Slot;  // RAII holder of one concurrency slot

  void Acquire() EXCLUDES(mu_);
  void Release() EXCLUDES(mu_);

  // The answer; a table's selected partitions go to *deferred.
  impala::TGetPartialCatalogObjectResponse FetchAdmitted(
      const impala::TGetPartialCatalogObjectRequest& req, PartialFetchAnswer* deferred);
  impala::TGetPartialCatalogObjectResponse FetchCatalog(
      const impala::TGetPartialCatalogObjectRequest& req);
  impala::TGetPartialCatalogObjectResponse FetchDatabase(
      const impala::TGetPartialCatalogObjectRequest& req);
  impala::TGetPartialCatalogObjectResponse FetchTable(
      const impala::TGetPartialCatalogObjectRequest& req, PartialFetchAnswer* deferred);
  impala::TGetPartialCatalogObjectResponse FetchFunction(
      const impala::TGetPartialCatalogObjectRequest& req);

  // The loaded state of db.table (loading it if needed), or why not.
  struct TableLookup {
    impala::CatalogLookupStatus::type lookup = impala::CatalogLookupStatus::OK;
    Status error;    // load failure (lookup is TABLE_NOT_LOADED)
    TablePtr table;  // set iff lookup is OK
  };
  TableLookup LookupLoadedTable(const std::string& db, const std::string& table);
  Result<TablePtr> LoadedTableOrStatus(const std::string& db, const std::string& table);

  // Constant after construction.
  CatalogContext* const ctx_;
  const PartialFetchOptions opts_;

  mutable Mutex mu_;  // terminal
  CondVar cv_;        // signalled when a slot frees
  int in_flight_ GUARDED_BY(mu_) = 0;
  int waiting_ GUARDED_BY(mu_) = 0;
  int peak_in_flight_ GUARDED_BY(mu_) = 0;
};

}  // namespace ics::catalog
