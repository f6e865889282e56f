// PartitionCommands: the partition API every partition door reaches (our
// Thrift PartitionService, Glue's partition calls, BigQuery's
// MetastorePartitionService): batch create / update / delete of one
// table's partitions, filtered and paged listing, write streams and
// partition indexes, over catalogd's catalog. Requests and results are
// domain values (partition_requests.h); a failed Result is the Status
// vocabulary every door maps to its wire: INVALID_ARGUMENT, NOT_FOUND,
// ALREADY_EXISTS, LIMIT_EXCEEDED (a batch over kMaxPartitionsPerBatch, a
// staging cap, the index limit), RECOVERABLE_ERROR (an index still being
// built or deleted), CANCELLED (an expired write stream), and the command
// core's errors as they are.
//
// Writes are commands of the command core (CommandCore::ChangePartitions,
// which records them for `caller`): validated, ONE metastore transaction,
// directories, ONE catalog install (one version, published like any DDL),
// under the table's DDL lock. Requests are checked against the limits
// (partition_input.h) before anything else; a failed request changes
// nothing. Listing is PartitionLister; write streams are staged by
// WriteStreamManager and committed as one batch; partition indexes are
// PartitionIndexManager's.
//
// Memory: every partition a request or an open write stream holds is
// charged to one StagingBudget (max_staged_bytes_total): a stream's staged
// partitions until it is committed, aborted or expires; a batch request's
// partitions while it is applied. A write that would pass the cap fails
// with LIMIT_EXCEEDED and changes nothing. At most streams.max_streams
// streams are open at once.
//
// Ownership: owns the lister, the index manager, the budget and the stream
// manager; the context and the command core outlive it.
// Thread-safety: thread-safe. Shutdown() stops the index worker; idempotent.
#pragma once

#include <memory>

#include "catalogd/core/catalog_context.h"
#include "catalogd/ops/caller.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/ops/partition_index_manager.h"
#include "catalogd/ops/partition_lister.h"
#include "catalogd/ops/partition_requests.h"
#include "catalogd/ops/write_stream.h"

namespace ics::catalog::ops {

inline constexpr size_t kMaxPartitionsPerBatch = 900;

struct PartitionCommandsOptions {
  WriteStreamOptions streams;  // streams.budget is set by PartitionCommands
  // Cap on the bytes of partitions staged by all streams and batches
  // together (see above); <= 0: no cap.
  int64_t max_staged_bytes_total = 1ll << 30;
};

class PartitionCommands {
 public:
  // Every change is a command of `commands`, which records it.
  PartitionCommands(CatalogContext* ctx, CommandCore* commands, PartitionCommandsOptions options);
  ~PartitionCommands();
  PartitionCommands(const PartitionCommands&) = delete;
  PartitionCommands& operator=(const PartitionCommands&) = delete;

  void Shutdown();

  // Where a door records the calls that change the catalog (may be null).
  OperationLog* operations() const { return ctx_->operations; }
  // The command core the changes go through.
  CommandCore* commands() const { return commands_; }

  // ---- batch writes: all or nothing ----
  Result<ChangedPartitions> Create(const Caller& caller, const CreatePartitionsRequest& req);
  Result<ChangedPartitions> Update(const Caller& caller, const UpdatePartitionsRequest& req);
  // The catalog version of the change.
  Result<int64_t> Delete(const Caller& caller, const DeletePartitionsRequest& req);

  Result<PartitionPage> List(const Caller& caller, const ListPartitionsRequest& req);

  // ---- write streams: staged, then created as one batch at commit ----
  Result<OpenedWriteStream> OpenWriteStream(const Caller& caller,
                                            const OpenWriteStreamRequest& req);
  // The number of partitions staged so far.
  Result<int64_t> AppendWriteStream(const Caller& caller, const AppendWriteStreamRequest& req);
  // The stream ends with the commit, whatever its outcome.
  Result<CommittedWriteStream> CommitWriteStream(const Caller& caller,
                                                 const std::string& stream_id);
  [[nodiscard]] Status AbortWriteStream(const Caller& caller, const std::string& stream_id);

  // ---- partition indexes (definitions in the table's parameters) ----
  // The catalog version of the change.
  Result<int64_t> CreateIndex(const Caller& caller, const CreatePartitionIndexRequest& req);
  Result<PartitionIndexList> GetIndexes(const Caller& caller,
                                        const GetPartitionIndexesRequest& req);
  Result<int64_t> DeleteIndex(const Caller& caller, const DeletePartitionIndexRequest& req);

  PartitionIndexManager* indexes() { return &indexes_; }
  WriteStreamManager* streams() { return &streams_; }
  const StagingBudget& staging_budget() const { return budget_; }

 private:
  // Creates `partitions` (validated) as one batch.
  Result<PartitionBatchResult> CreateBatch(const Caller& caller, const std::string& db,
                                           const std::string& table,
                                           const std::vector<PartitionInput>& partitions,
                                           bool skip_existing);
  Result<PartitionBatchResult> Apply(const Caller& caller, const PartitionBatch& batch);

  CatalogContext* const ctx_;
  CommandCore* const commands_;
  PartitionIndexManager indexes_;
  PartitionLister lister_;
  StagingBudget budget_;  // before streams_: outlives their reservations
  WriteStreamManager streams_;
};

}  // namespace ics::catalog::ops
