// RemoteTxnRunner: HmsRemoteMetastore::Commit — applies a MetastoreTxn to a
// remote Hive Metastore op by op and undoes the applied ops with
// compensating calls when a later op fails. The guarantees are documented
// in hms_remote_metastore.h. Private to the remote backend.
//
// Thread-safety: one runner per Commit call (not shared); it only reads
// and writes through the metastore's thread-safe caller.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "catalogd/metastore/hms_remote_writes.h"
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

class HmsRemoteMetastore;

class RemoteTxnRunner {
 public:
  explicit RemoteTxnRunner(HmsRemoteMetastore* ms);

  Result<int64_t> Commit(const MetastoreTxn& txn);

 private:
  struct UndoStep {
    std::string what;
    std::function<Status()> run;
  };

  // Checks made before anything is applied (names, unsupported ops).
  static Status Precheck(const MetastoreOp& op);
  // Applies one op. With `capture`, first reads what the op changes and
  // pushes the steps that undo it onto undo_ (ops made of several calls
  // push a step per call as they go, captured or not).
  Status Apply(const MetastoreOp& op, bool capture);
  // Runs undo_ in reverse; returns the first failure (and keeps going).
  Status RunUndo();

  Status AlterDatabase(const MetastoreOp& op, bool capture);
  Status DropDatabase(const MetastoreOp& op, bool capture);
  Status AlterTable(const MetastoreOp& op, bool capture);
  Status DropTable(const MetastoreOp& op, bool capture);
  Status AddPartition(const MetastoreOp& op, bool capture);
  Status AlterPartition(const MetastoreOp& op, bool capture);
  Status DropPartition(const MetastoreOp& op, bool capture);
  Status CreateFunction(const MetastoreOp& op, bool capture);
  Status DropFunction(const MetastoreOp& op, bool capture);
  Status SetColumnStats(const MetastoreOp& op, bool partition_level, bool capture);
  Status DeleteAllColumnStats(const MetastoreOp& op);
  Status DeleteOneColumnStat(const MetastoreOp& op, bool capture);

  // A write call that counts toward the events this commit wrote.
  Status Write(const Status& s);
  void PushUndo(std::string what, std::function<Status()> run);

  HmsRemoteMetastore* const ms_;
  const HmsWriter w_;
  std::vector<UndoStep> undo_;
  int64_t writes_ = 0;  // successful write calls (one notification event each)
  bool exact_events_ = true;  // false once an op wrote other than one event
};

}  // namespace ics::catalog
