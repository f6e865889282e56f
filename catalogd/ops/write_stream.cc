#include "catalogd/ops/write_stream.h"

#include <chrono>

#include "catalogd/ops/partition_input.h"
#include "common/util/unique_id.h"

namespace ics::catalog::ops {

namespace {

// Expired ids are remembered this many at most, to say "expired" rather
// than "not found".
constexpr size_t kMaxRememberedExpired = 10000;

}  // namespace

WriteStreamManager::WriteStreamManager(WriteStreamOptions options) : options_(std::move(options)) {}

int64_t WriteStreamManager::Now() const {
  if (options_.now_ms) return options_.now_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void WriteStreamManager::SweepLocked(int64_t now) {
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (now - it->second->last_used_ms > options_.idle_timeout_ms) {
      if (expired_.size() >= kMaxRememberedExpired) expired_.erase(expired_.begin());
      expired_[it->first] = now;
      it = streams_.erase(it);
    } else {
      ++it;
    }
  }
}

Result<WriteStream*> WriteStreamManager::FindLocked(const std::string& id, int64_t now) {
  SweepLocked(now);
  auto it = streams_.find(id);
  if (it != streams_.end()) {
    it->second->last_used_ms = now;
    return it->second.get();
  }
  if (expired_.count(id) != 0) {
    return Status(ErrorCode::kCancelled, "write stream " + id + " expired after " +
                                             std::to_string(options_.idle_timeout_ms) +
                                             " ms idle; nothing was written");
  }
  return Status::NotFound("no open write stream " + id);
}

Result<std::string> WriteStreamManager::Open(const std::string& db, const std::string& table,
                                             bool skip_existing) {
  const int64_t now = Now();
  MutexLock l(&mu_);
  SweepLocked(now);
  if (streams_.size() >= options_.max_streams) {
    return Status::LimitExceeded("too many open write streams (" +
                                 std::to_string(options_.max_streams) + ")");
  }
  auto s = std::make_unique<WriteStream>();
  s->id = PrintId(GenerateUniqueId());
  s->db = db;
  s->table = table;
  s->skip_existing = skip_existing;
  s->last_used_ms = now;
  const std::string id = s->id;
  streams_.emplace(id, std::move(s));
  return id;
}

Result<int64_t> WriteStreamManager::Append(const std::string& id,
                                           std::vector<PartitionInput> partitions,
                                           bool skip_existing) {
  int64_t bytes = 0;
  for (const auto& p : partitions) bytes += ApproxBytes(p);
  if (bytes > options_.max_append_bytes) {
    return Status::InvalidArgument(
        "one append may carry at most " + std::to_string(options_.max_append_bytes) +
        " bytes of partitions; this one has about " + std::to_string(bytes));
  }
  const int64_t now = Now();
  MutexLock l(&mu_);
  ICS_ASSIGN_OR_RETURN(WriteStream * s, FindLocked(id, now));
  if (skip_existing != s->skip_existing) {
    return Status::InvalidArgument(
        "skip_existing_partitions must be the same in every request of a write stream (opened "
        "with " +
        std::string(s->skip_existing ? "true" : "false") + ")");
  }
  if (s->staged_bytes + bytes > options_.max_staged_bytes) {
    return Status::LimitExceeded("write stream " + id + " would stage more than " +
                                 std::to_string(options_.max_staged_bytes) +
                                 " bytes; commit it and start another");
  }
  ICS_RETURN_IF_ERROR(s->reservation.Grow(options_.budget, bytes, "write stream " + id));
  s->staged_bytes += bytes;
  for (auto& p : partitions) s->staged.push_back(std::move(p));
  return static_cast<int64_t>(s->staged.size());
}

Result<std::unique_ptr<WriteStream>> WriteStreamManager::Take(const std::string& id) {
  const int64_t now = Now();
  MutexLock l(&mu_);
  ICS_RETURN_IF_ERROR(FindLocked(id, now).status());
  auto it = streams_.find(id);
  std::unique_ptr<WriteStream> s = std::move(it->second);
  streams_.erase(it);
  return s;
}

Status WriteStreamManager::Abort(const std::string& id) {
  const int64_t now = Now();
  MutexLock l(&mu_);
  ICS_RETURN_IF_ERROR(FindLocked(id, now).status());
  streams_.erase(id);
  return Status::OK();
}

size_t WriteStreamManager::SweepExpired() {
  const int64_t now = Now();
  MutexLock l(&mu_);
  const size_t before = streams_.size();
  SweepLocked(now);
  return before - streams_.size();
}

size_t WriteStreamManager::open_streams() const {
  MutexLock l(&mu_);
  return streams_.size();
}

}  // namespace ics::catalog::ops
