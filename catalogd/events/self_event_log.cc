#include "catalogd/events/self_event_log.h"

namespace ics::catalog {

namespace {

// How many notification events a txn writes: one per op of the kinds that
// write one (metastore.h). Kinds not listed (bookkeeping ops that write no
// event, like the table version ops) count as none. Under-counting only makes an own event look
// external (it is applied again, which changes nothing), whereas
// over-counting could hide an external event, so unknown kinds count 0.
int64_t EventsWritten(const MetastoreTxn& txn) {
  int64_t n = 0;
  for (const MetastoreOp& op : txn.ops) {
    switch (op.kind) {
      case MetastoreOp::Kind::kCreateDatabase:
      case MetastoreOp::Kind::kAlterDatabase:
      case MetastoreOp::Kind::kDropDatabase:
      case MetastoreOp::Kind::kCreateTable:
      case MetastoreOp::Kind::kAlterTable:
      case MetastoreOp::Kind::kDropTable:
      case MetastoreOp::Kind::kAddPartition:
      case MetastoreOp::Kind::kAlterPartition:
      case MetastoreOp::Kind::kDropPartition:
      case MetastoreOp::Kind::kCreateFunction:
      case MetastoreOp::Kind::kDropFunction:
      case MetastoreOp::Kind::kSetTableColumnStats:
      case MetastoreOp::Kind::kSetPartitionColumnStats:
      case MetastoreOp::Kind::kDeleteColumnStats:
      case MetastoreOp::Kind::kDeleteColumnStat:
        ++n;
        break;
      default:
        break;
    }
  }
  return n;
}

}  // namespace

Result<int64_t> SelfEventLog::CommitAndRecord(Metastore* inner, const MetastoreTxn& txn) {
  int64_t ticket;
  {
    MutexLock l(&mu_);
    ticket = next_ticket_++;
    in_flight_.insert(ticket);
  }
  Result<int64_t> r = inner->Commit(txn);
  MutexLock l(&mu_);
  if (r.ok() && *r > 0 && recording_) {
    const int64_t n = EventsWritten(txn);
    const int64_t last = *r;
    if (n > 0) ranges_[last] = last - n + 1;
  }
  in_flight_.erase(ticket);
  cv_.Broadcast();
  return r;
}

bool SelfEventLog::IsSelf(int64_t event_id) const {
  MutexLock l(&mu_);
  auto it = ranges_.lower_bound(event_id);  // first range ending at or after the id
  return it != ranges_.end() && it->second <= event_id;
}

void SelfEventLog::Barrier() {
  MutexLock l(&mu_);
  const int64_t upto = next_ticket_;
  while (!in_flight_.empty() && *in_flight_.begin() < upto) cv_.Wait(&mu_);
}

void SelfEventLog::ForgetThrough(int64_t event_id) {
  MutexLock l(&mu_);
  ranges_.erase(ranges_.begin(), ranges_.upper_bound(event_id));
}

void SelfEventLog::SetRecording(bool on) {
  MutexLock l(&mu_);
  recording_ = on;
  if (!on) ranges_.clear();
}

size_t SelfEventLog::num_ranges() const {
  MutexLock l(&mu_);
  return ranges_.size();
}

}  // namespace ics::catalog
