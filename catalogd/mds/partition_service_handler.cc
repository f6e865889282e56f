#include "catalogd/mds/partition_service_handler.h"

#include <glog/logging.h>

#include "PartitionService.h"
#include "catalogd/mds/partition_service_door.h"
#include "catalogd/ops/command_core.h"
#include "common/rpc/peer.h"

namespace ics::catalog::mds {

namespace {

using thrift::TMetastoreServiceErrorCode;

class Handler : public thrift::PartitionServiceIf {
 public:
  explicit Handler(std::shared_ptr<ops::PartitionCommands> commands) : door_(std::move(commands)) {}

  void BatchCreatePartitions(thrift::TBatchCreatePartitionsResponse& out,
                             const thrift::TBatchCreatePartitionsRequest& req) override {
    Command(
        "BatchCreatePartitions", Target(req.table), &out, [&] { return door_.BatchCreate(req); },
        req.partitions.size());
  }
  void BatchUpdatePartitions(thrift::TBatchUpdatePartitionsResponse& out,
                             const thrift::TBatchUpdatePartitionsRequest& req) override {
    Command(
        "BatchUpdatePartitions", Target(req.table), &out, [&] { return door_.BatchUpdate(req); },
        req.updates.size());
  }
  void BatchDeletePartitions(thrift::TBatchDeletePartitionsResponse& out,
                             const thrift::TBatchDeletePartitionsRequest& req) override {
    Command(
        "BatchDeletePartitions", Target(req.table), &out, [&] { return door_.BatchDelete(req); },
        req.partition_values.size());
  }
  void ListPartitions(thrift::TListPartitionsResponse& out,
                      const thrift::TListPartitionsRequest& req) override {
    Read(&out, [&] { return door_.List(req); });
  }
  void OpenWriteStream(thrift::TOpenWriteStreamResponse& out,
                       const thrift::TOpenWriteStreamRequest& req) override {
    Read(&out, [&] { return door_.OpenWriteStream(req); });
  }
  void AppendWriteStream(thrift::TAppendWriteStreamResponse& out,
                         const thrift::TAppendWriteStreamRequest& req) override {
    Read(&out, [&] { return door_.AppendWriteStream(req); });
  }
  void CommitWriteStream(thrift::TCommitWriteStreamResponse& out,
                         const thrift::TCommitWriteStreamRequest& req) override {
    Command("CommitWriteStream", "stream " + req.stream_id, &out,
            [&] { return door_.CommitWriteStream(req); });
  }
  void AbortWriteStream(thrift::TAbortWriteStreamResponse& out,
                        const thrift::TAbortWriteStreamRequest& req) override {
    Read(&out, [&] { return door_.AbortWriteStream(req); });
  }
  void CreatePartitionIndex(thrift::TCreatePartitionIndexResponse& out,
                            const thrift::TCreatePartitionIndexRequest& req) override {
    Write("CreatePartitionIndex", Target(req.table) + " index " + req.index_name, &out,
          [&] { return door_.CreateIndex(req); });
  }
  void GetPartitionIndexes(thrift::TGetPartitionIndexesResponse& out,
                           const thrift::TGetPartitionIndexesRequest& req) override {
    Read(&out, [&] { return door_.GetIndexes(req); });
  }
  void DeletePartitionIndex(thrift::TDeletePartitionIndexResponse& out,
                            const thrift::TDeletePartitionIndexRequest& req) override {
    Write("DeletePartitionIndex", Target(req.table) + " index " + req.index_name, &out,
          [&] { return door_.DeleteIndex(req); });
  }

 private:
  // Runs the core call and fills `out`; `batch_items` (for batch calls)
  // lets an over-limit batch carry max_batch_size.
  static std::string Target(const thrift::TPartitionTableName& t) {
    return t.db_name + "." + t.table_name;
  }

  // Run() for a call that becomes commands of the command core
  // (catalogd/ops), which records them (operation log, audit line) as it
  // does from every door; a call refused here first is recorded as
  // "PartitionService.<rpc>" (ops::DoorCall).
  template <typename Resp, typename Fn>
  void Command(const char* rpc, std::string target, Resp* out, Fn&& fn, size_t batch_items = 0) {
    ops::DoorCall door(door_.commands()->commands(), ops::CallerOfCurrentRpc("PartitionService"),
                       {std::string("PartitionService.") + rpc, std::move(target)});
    const Status s = Run(out, std::forward<Fn>(fn), batch_items);
    if (!s.ok()) door.Failed(s);
  }

  // Run() for a call that changes what only this service keeps (partition
  // indexes): recorded in the operation log (and so the audit log) here,
  // with the peer, the outcome and the version.
  template <typename Resp, typename Fn>
  void Write(const char* rpc, std::string target, Resp* out, Fn&& fn, size_t batch_items = 0) {
    ScopedOperation op(door_.commands()->operations(), std::string("PartitionService.") + rpc,
                       std::move(target), "", CurrentOrigin());
    const Status s = Run(out, std::forward<Fn>(fn), batch_items);
    op.End(s, "", out->__isset.catalog_version ? out->catalog_version : 0);
  }

  // Run() for a call that only reads (or stages uncommitted data).
  template <typename Resp, typename Fn>
  void Read(Resp* out, Fn&& fn) {
    Status ignored = Run(out, std::forward<Fn>(fn));
    (void)ignored;
  }

  // Runs the core call and fills `out`; returns the call's status.
  template <typename Resp, typename Fn>
  Status Run(Resp* out, Fn&& fn, size_t batch_items = 0) {
    Result<Resp> r = [&]() -> Result<Resp> {
      try {
        return fn();
      } catch (const std::exception& e) {  // e.g. bad_alloc: answer, don't kill the connection
        LOG(ERROR) << "PartitionService call failed: " << e.what();
        return Status::Internal(std::string("unexpected error: ") + e.what());
      }
    }();
    if (r.ok()) {
      *out = std::move(r).value();
      out->status.code = TMetastoreServiceErrorCode::OK;
      return Status::OK();
    }
    *out = Resp();
    out->status = batch_items > ops::kMaxPartitionsPerBatch
                      ? ToServiceStatusWithBatchLimit(r.status(), ops::kMaxPartitionsPerBatch)
                      : ToServiceStatus(r.status());
    return r.status();
  }

  PartitionServiceDoor door_;
};

}  // namespace

std::shared_ptr<apache::thrift::TProcessor> MakePartitionServiceProcessor(
    std::shared_ptr<ops::PartitionCommands> commands) {
  return std::make_shared<thrift::PartitionServiceProcessor>(
      std::make_shared<Handler>(std::move(commands)));
}

}  // namespace ics::catalog::mds
