// Exactly-once writes: the request a thread is carrying out (RequestScope)
// and the Metastore decorator that records it in the first transaction the
// thread commits inside the scope (MetastoreOp::kRecordRequest), so that a
// request and its change commit together or not at all (metastore.h,
// "recorded requests").
//
// A writer whose reply was lost (catalogd killed or replaced mid-call) sends
// the request again with the same id; the executor looks the id up first
// (Metastore::LookupRequest) and answers a recorded one without carrying it
// out again. A repeat that races the original (both past the lookup) is
// caught at commit: the record's insert finds the id, nothing of the repeat
// applies, and the scope says repeated(). A request whose change needs no
// commit (IF NOT EXISTS of an existing object) is not recorded: carried out
// again, it again changes nothing. Only the first commit of a scope carries
// the record; a request that commits twice is recorded with its first part.
// On a backend that records no requests (NOT_IMPLEMENTED: the remote Hive
// backend) commits go through unrecorded.
//
// Thread-safety: RequestScope is per thread (scopes nest, the inner one
// counts); the decorator is as thread-safe as the inner metastore.
#pragma once

#include <atomic>
#include <string>

#include "catalogd/metastore/forwarding_metastore.h"

namespace ics::catalog {

class RequestScope {
 public:
  // Carries out request `id` (non-empty) on this thread until destroyed.
  RequestScope(std::string id, std::string summary);
  ~RequestScope();
  RequestScope(const RequestScope&) = delete;
  RequestScope& operator=(const RequestScope&) = delete;

  // The innermost scope of this thread, or nullptr.
  static RequestScope* Current();

  const std::string& id() const { return id_; }
  const std::string& summary() const { return summary_; }
  // A commit recorded the request.
  bool recorded() const { return recorded_; }
  // A commit found the request recorded before (and applied nothing).
  bool repeated() const { return repeated_; }

 private:
  friend class RequestRecordingMetastore;
  const std::string id_;
  const std::string summary_;
  RequestScope* const outer_;
  bool recorded_ = false;
  bool repeated_ = false;
};

class RequestRecordingMetastore final : public ForwardingMetastore {
 public:
  explicit RequestRecordingMetastore(Metastore* inner) : ForwardingMetastore(inner) {}

  // With a scope that has not recorded yet: commits `txn` plus the record.
  // ALREADY_EXISTS "... carried out before" when the request was recorded by
  // an earlier commit (the scope is then repeated()). Otherwise as inner.
  Result<int64_t> Commit(const MetastoreTxn& txn) override;

 private:
  // Whether the inner backend records requests: learnt from the first
  // commit that tries, so a backend without them (the remote Hive one) is
  // asked once, not on every commit.
  enum class Records { kUnknown, kYes, kNo };
  std::atomic<Records> records_{Records::kUnknown};
};

}  // namespace ics::catalog
