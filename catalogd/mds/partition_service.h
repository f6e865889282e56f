// PartitionService (core): the operations of the PartitionService Thrift
// API (common/thrift/PartitionService.thrift) over catalogd's catalog.
//
// Writes go through DdlExecutor::ApplyPartitionBatch: validated, ONE
// metastore transaction, directories, ONE catalog install (one version,
// published like any DDL), under the table's DDL lock. Requests are
// checked against the limits (partition_convert.h) before anything else;
// a failed request changes nothing. Listing is PartitionLister; write
// streams are staged by WriteStreamManager and committed as one batch;
// partition indexes are PartitionIndexManager's.
//
// Memory: every partition a request or an open write stream holds is
// charged to one StagingBudget per service (max_staged_bytes_total): a
// stream's staged partitions until it is committed, aborted or expires; a
// batch request's partitions while it is applied. A write that would pass
// the cap fails with LIMIT_EXCEEDED (RESOURCE_EXHAUSTED on the wire) and
// changes nothing. At most streams.max_streams streams are open at once.
//
// Methods return the response without its status (the RPC handler sets
// it from the Result). Ownership: owns the lister, the index manager and
// the stream manager; the context and the DDL executor outlive it.
//
// Thread-safety: thread-safe. Shutdown() stops the index worker; idempotent.
#pragma once

#include <memory>

#include "PartitionService_types.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/mds/partition_index_manager.h"
#include "catalogd/mds/partition_lister.h"
#include "catalogd/mds/write_stream.h"

namespace ics::catalog::mds {

inline constexpr size_t kMaxPartitionsPerBatch = 900;

struct PartitionServiceOptions {
  WriteStreamOptions streams;  // streams.budget is set by the service
  // Cap on the bytes of partitions staged by all streams and batches
  // together (see above); <= 0: no cap.
  int64_t max_staged_bytes_total = 1ll << 30;
};

class PartitionService {
 public:
  // Every change is a command of `commands` (catalogd/ops), which records it.
  PartitionService(CatalogContext* ctx, ops::CommandCore* commands,
                   PartitionServiceOptions options);
  ~PartitionService();
  PartitionService(const PartitionService&) = delete;
  PartitionService& operator=(const PartitionService&) = delete;

  void Shutdown();

  // Where the handler records the calls that change the catalog (may be null).
  OperationLog* operations() const { return ctx_->operations; }
  // The command core this door's changes go through.
  ops::CommandCore* commands() const { return commands_; }

  Result<thrift::TBatchCreatePartitionsResponse> BatchCreate(
      const thrift::TBatchCreatePartitionsRequest& req);
  Result<thrift::TBatchUpdatePartitionsResponse> BatchUpdate(
      const thrift::TBatchUpdatePartitionsRequest& req);
  Result<thrift::TBatchDeletePartitionsResponse> BatchDelete(
      const thrift::TBatchDeletePartitionsRequest& req);
  Result<thrift::TListPartitionsResponse> List(const thrift::TListPartitionsRequest& req);

  Result<thrift::TOpenWriteStreamResponse> OpenWriteStream(
      const thrift::TOpenWriteStreamRequest& req);
  Result<thrift::TAppendWriteStreamResponse> AppendWriteStream(
      const thrift::TAppendWriteStreamRequest& req);
  Result<thrift::TCommitWriteStreamResponse> CommitWriteStream(
      const thrift::TCommitWriteStreamRequest& req);
  Result<thrift::TAbortWriteStreamResponse> AbortWriteStream(
      const thrift::TAbortWriteStreamRequest& req);

  Result<thrift::TCreatePartitionIndexResponse> CreateIndex(
      const thrift::TCreatePartitionIndexRequest& req);
  Result<thrift::TGetPartitionIndexesResponse> GetIndexes(
      const thrift::TGetPartitionIndexesRequest& req);
  Result<thrift::TDeletePartitionIndexResponse> DeleteIndex(
      const thrift::TDeletePartitionIndexRequest& req);

  PartitionIndexManager* indexes() { return &indexes_; }
  WriteStreamManager* streams() { return &streams_; }
  const StagingBudget& staging_budget() const { return budget_; }

 private:
  // Creates `partitions` (validated) as one batch.
  Result<PartitionBatchResult> Create(const std::string& db, const std::string& table,
                                      const std::vector<thrift::TMetastorePartition>& partitions,
                                      bool skip_existing);
  Result<PartitionBatchResult> Apply(const PartitionBatch& batch);

  CatalogContext* const ctx_;
  ops::CommandCore* const commands_;
  PartitionIndexManager indexes_;
  PartitionLister lister_;
  StagingBudget budget_;  // before streams_: outlives their reservations
  WriteStreamManager streams_;
};

}  // namespace ics::catalog::mds
