// OperationLog: a small bounded in-memory log of operations (catalogd's DDL,
// a coordinator's statements) for the debug web pages: what is running now,
// and the most recent finished ones with their duration and outcome.
//
//   int64_t id = log.Begin("CREATE_TABLE", "db.t", "user@host", origin);
//   ... run it ...
//   log.End(id, status, "Table has been created.", version);
//
// or with ScopedOperation, which ends the operation when it goes out of
// scope (as failed, "abandoned", unless End was called).
//
// Bounds: at most `capacity` finished records are kept (oldest dropped
// first); running operations are kept until they end. Text fields are cut
// to kMaxFieldBytes so a huge statement cannot bloat the log.
//
// Origin: who asked (the RPC peer's address and verified identity, see
// common/rpc/peer.h); empty for operations catalogd starts itself.
//
// An optional finish callback (set before the log is shared) sees every
// record as it ends, e.g. to feed a latency histogram or the audit log
// (audit_log.h); it runs on the ending thread without the log's lock held,
// before End returns (so before the operation's reply is sent).
//
// Thread-safety: thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/util/mutex.h"
#include "common/util/status.h"

namespace ics {

// Who asked for an operation.
struct OperationOrigin {
  std::string peer;      // "host:port" of the client connection; empty in-process
  std::string identity;  // verified client-certificate subject; empty without mTLS
  bool tls = false;      // the request came over an encrypted connection
};

struct OperationRecord {
  int64_t id = 0;
  std::string kind;    // e.g. "CREATE_TABLE", "SELECT"
  std::string target;  // e.g. "db.table" or the statement text
  std::string detail;  // e.g. requesting user / client / session database
  OperationOrigin origin;
  std::chrono::system_clock::time_point start_time;
  int64_t duration_us = 0;  // so far, while running
  bool running = true;
  std::string status = "RUNNING";  // then "OK" or the error code name
  std::string message;             // result summary or error message
  int64_t catalog_version = 0;     // 0 when not applicable
};

class OperationLog {
 public:
  static constexpr size_t kMaxFieldBytes = 1024;

  explicit OperationLog(size_t capacity = 200) : capacity_(capacity == 0 ? 1 : capacity) {}
  OperationLog(const OperationLog&) = delete;
  OperationLog& operator=(const OperationLog&) = delete;

  // Records the start of an operation; returns its id (> 0).
  int64_t Begin(std::string kind, std::string target, std::string detail = "",
                OperationOrigin origin = {}) EXCLUDES(mu_) {
    Running r;
    r.rec.origin.peer = Cut(std::move(origin.peer));
    r.rec.origin.identity = Cut(std::move(origin.identity));
    r.rec.origin.tls = origin.tls;
    r.rec.kind = Cut(std::move(kind));
    r.rec.target = Cut(std::move(target));
    r.rec.detail = Cut(std::move(detail));
    r.rec.start_time = std::chrono::system_clock::now();
    r.start = std::chrono::steady_clock::now();
    MutexLock l(&mu_);
    r.rec.id = ++next_id_;
    const int64_t id = r.rec.id;
    running_.emplace(id, std::move(r));
    return id;
  }

  // Ends operation `id` (unknown or already ended ids are ignored).
  void End(int64_t id, const Status& status, std::string message = "",
           int64_t catalog_version = 0) EXCLUDES(mu_) {
    OperationRecord done;
    std::function<void(const OperationRecord&)> cb;
    {
      MutexLock l(&mu_);
      auto it = running_.find(id);
      if (it == running_.end()) return;
      done = std::move(it->second.rec);
      done.duration_us = MicrosSince(it->second.start);
      running_.erase(it);
      done.running = false;
      done.status = status.ok() ? "OK" : std::string(ErrorCodeName(status.code()));
      done.message = Cut(status.ok() ? std::move(message) : status.message());
      done.catalog_version = catalog_version;
      ++finished_;
      if (!status.ok()) ++failed_;
      recent_.push_front(done);
      while (recent_.size() > capacity_) recent_.pop_back();
      cb = on_finish_;
    }
    if (cb) cb(done);
  }

  // Called with every finished record (see the file comment).
  void SetFinishCallback(std::function<void(const OperationRecord&)> cb) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    on_finish_ = std::move(cb);
  }

  struct Snapshot {
    std::vector<OperationRecord> running;  // oldest first, durations so far
    std::vector<OperationRecord> recent;   // newest first
    int64_t started = 0;
    int64_t finished = 0;
    int64_t failed = 0;
  };
  Snapshot Get() const EXCLUDES(mu_) {
    Snapshot s;
    MutexLock l(&mu_);
    for (const auto& [id, r] : running_) {
      s.running.push_back(r.rec);
      s.running.back().duration_us = MicrosSince(r.start);
    }
    s.recent.assign(recent_.begin(), recent_.end());
    s.started = next_id_;
    s.finished = finished_;
    s.failed = failed_;
    return s;
  }

  size_t capacity() const { return capacity_; }

 private:
  struct Running {
    OperationRecord rec;
    std::chrono::steady_clock::time_point start;
  };

  static int64_t MicrosSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now() - start)
        .count();
  }
  static std::string Cut(std::string s) {
    if (s.size() > kMaxFieldBytes) {
      s.resize(kMaxFieldBytes);
      s += "...";
    }
    return s;
  }

  const size_t capacity_;
  mutable Mutex mu_;
  int64_t next_id_ GUARDED_BY(mu_) = 0;
  int64_t finished_ GUARDED_BY(mu_) = 0;
  int64_t failed_ GUARDED_BY(mu_) = 0;
  std::map<int64_t, Running> running_ GUARDED_BY(mu_);
  std::deque<OperationRecord> recent_ GUARDED_BY(mu_);
  std::function<void(const OperationRecord&)> on_finish_ GUARDED_BY(mu_);
};

// Begins an operation on construction and ends it on destruction: with the
// status given to End(), or as failed ("abandoned") if End was never called.
// A null log makes it a no-op.
class ScopedOperation {
 public:
  ScopedOperation(OperationLog* log, std::string kind, std::string target,
                  std::string detail = "", OperationOrigin origin = {})
      : log_(log),
        id_(log == nullptr ? 0
                           : log->Begin(std::move(kind), std::move(target), std::move(detail),
                                        std::move(origin))) {}
  ~ScopedOperation() {
    if (log_ != nullptr && !ended_) log_->End(id_, Status::Internal("operation abandoned"));
  }
  ScopedOperation(const ScopedOperation&) = delete;
  ScopedOperation& operator=(const ScopedOperation&) = delete;

  void End(const Status& status, std::string message = "", int64_t catalog_version = 0) {
    if (log_ == nullptr || ended_) return;
    ended_ = true;
    log_->End(id_, status, std::move(message), catalog_version);
  }

 private:
  OperationLog* const log_;
  const int64_t id_;
  bool ended_ = false;
};

}  // namespace ics
