#include "catalogd/metastore/request_recording_metastore.h"

#include <utility>

namespace ics::catalog {

namespace {
thread_local RequestScope* current_scope = nullptr;
}  // namespace

RequestScope::RequestScope(std::string id, std::string summary)
    : id_(std::move(id)), summary_(std::move(summary)), outer_(current_scope) {
  current_scope = this;
}

RequestScope::~RequestScope() { current_scope = outer_; }

RequestScope* RequestScope::Current() { return current_scope; }

Result<int64_t> RequestRecordingMetastore::Commit(const MetastoreTxn& txn) {
  RequestScope* scope = RequestScope::Current();
  if (scope == nullptr || scope->recorded_ || scope->id_.empty() || txn.ops.empty()) {
    return inner()->Commit(txn);
  }
  if (records_.load() == Records::kNo) {
    scope->recorded_ = true;  // nothing to record on this backend
    return inner()->Commit(txn);
  }
  MetastoreTxn with = txn;
  with.ops.push_back(MetastoreOp::RecordRequest(scope->id_, scope->summary_));
  Result<int64_t> r = inner()->Commit(with);
  if (r.ok()) {
    records_.store(Records::kYes);
    scope->recorded_ = true;
    return r;
  }
  if (r.status().Is(ErrorCode::kNotImplemented)) {
    // A backend without recorded requests: the change alone. (A failed
    // txn applied nothing, so committing it without the record is safe.)
    Result<std::optional<RecordedRequest>> probe = inner()->LookupRequest(scope->id_);
    if (!probe.ok() && probe.status().Is(ErrorCode::kNotImplemented)) {
      records_.store(Records::kNo);
      scope->recorded_ = true;  // nothing to record on this backend
      return inner()->Commit(txn);
    }
    return r;
  }
  if (r.status().Is(ErrorCode::kAlreadyExists)) {
    // Which op found something existing: ours, if the id is recorded now
    // (this txn applied nothing, so an earlier commit recorded it).
    Result<std::optional<RecordedRequest>> seen = inner()->LookupRequest(scope->id_);
    if (seen.ok() && seen->has_value()) {
      scope->repeated_ = true;
      return Status::AlreadyExists("request " + scope->id_ + " was carried out before (" +
                                   (*seen)->summary + "); nothing was applied again");
    }
  }
  return r;
}

}  // namespace ics::catalog
