// PartitionServiceDoor: PartitionService's wire calls translated onto the
// partition commands (catalogd/ops/partition_commands.h). Each method
// checks the protocol version, translates the Thrift request into the
// commands' domain request (partition_convert.h), runs it as the caller of
// the RPC being served ("PartitionService"), and translates the result
// back into the Thrift response, without its status: a failed Result is
// the commands' Status, which the handler (partition_service_handler.h)
// maps to the wire's (service_status.h). It decides nothing itself.
//
// Ownership: shares the commands with whoever shuts them down.
// Thread-safety: thread-safe (the commands are).
#pragma once

#include <memory>

#include "PartitionService_types.h"
#include "catalogd/ops/partition_commands.h"

namespace ics::catalog::mds {

class PartitionServiceDoor {
 public:
  explicit PartitionServiceDoor(std::shared_ptr<ops::PartitionCommands> commands)
      : commands_(std::move(commands)) {}

  ops::PartitionCommands* commands() const { return commands_.get(); }

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

 private:
  const std::shared_ptr<ops::PartitionCommands> commands_;
};

}  // namespace ics::catalog::mds
