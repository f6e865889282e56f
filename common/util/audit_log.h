// AuditLog: an append-only record of every operation that changed (or tried
// to change) the catalog, for operators and security reviews: one JSON
// object per line in rotating files under one directory.
//
// A line (keys in this order; values from the finished OperationRecord):
//   {"time": "2026-12-01T16:08:44.123Z"   start of the operation, UTC
//    "daemon": "catalogd", "id": 17,       the operation log's id
//    "peer": "127.0.0.1:50412",            client connection ("" in-process)
//    "identity": "CN=ics-client",          verified certificate subject or ""
//    "tls": true,
//    "operation": "CREATE_TABLE",          OperationRecord::kind
//    "target": "db.t", "detail": "user@host: CREATE TABLE ...",
//    "outcome": "OK" or the error code name, "message": "...",
//    "catalog_version": 1234 (0 when not applicable), "duration_ms": 1.5}
// Text fields are already bounded by the operation log (kMaxFieldBytes) and
// JSON-escaped here (invalid UTF-8 is replaced, never rejected).
//
// Files: <dir>/<daemon>-audit-<YYYYMMDD-HHMMSS>-<seq>-<pid>.jsonl, created
// with mode 0600 (statements can be sensitive), never through a symlink.
// Names sort by creation time. A new file is started at Open and whenever
// the next line would make the current one exceed max_file_bytes; then the
// oldest files of this daemon's pattern beyond max_files are removed (0 =
// keep all). Nothing else in the directory is ever touched.
//
// Durability: each line is one write(2) on an O_APPEND descriptor before
// Record returns, so it survives a crash of the process (not necessarily of
// the machine: there is no fsync per line).
//
// Errors: Open fails when the directory cannot be created or the first file
// cannot be opened. A later write error (disk full, directory removed) does
// not fail the operation being recorded: it is counted (write_errors()),
// logged (the first, then every 1000th), and the next Record starts a new
// file.
//
// Thread-safety: thread-safe; lines from concurrent Record calls never
// interleave.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "common/util/mutex.h"
#include "common/util/operation_log.h"
#include "common/util/result.h"

namespace ics {

struct AuditLogOptions {
  std::string dir;                         // required; created (0700) if missing
  std::string daemon = "catalogd";         // file name prefix and "daemon" field
  int64_t max_file_bytes = 64ll << 20;     // rotation threshold (>= 1)
  int max_files = 20;                      // files kept, current included; 0 = all
};

class AuditLog {
 public:
  [[nodiscard]] static Result<std::unique_ptr<AuditLog>> Open(AuditLogOptions options);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Appends the line of a finished operation. Never throws.
  void Record(const OperationRecord& record) EXCLUDES(mu_);

  // The line for `record` (no trailing newline).
  static std::string Line(const OperationRecord& record, const std::string& daemon);

  int64_t lines_written() const { return lines_.load(std::memory_order_relaxed); }
  int64_t write_errors() const { return errors_.load(std::memory_order_relaxed); }
  // Path of the file being written ("" after a write error until the next
  // Record opens a new one).
  std::string current_file() const EXCLUDES(mu_);
  const AuditLogOptions& options() const { return opts_; }

 private:
  explicit AuditLog(AuditLogOptions options) : opts_(std::move(options)) {}

  // Closes the current file and opens the next; prunes old files.
  [[nodiscard]] Status RotateLocked() REQUIRES(mu_);
  void PruneLocked() REQUIRES(mu_);
  void CloseLocked() REQUIRES(mu_);
  void CountError(const std::string& what) REQUIRES(mu_);

  const AuditLogOptions opts_;
  mutable Mutex mu_;
  int fd_ GUARDED_BY(mu_) = -1;
  std::string path_ GUARDED_BY(mu_);
  int64_t bytes_ GUARDED_BY(mu_) = 0;  // in the current file
  int64_t seq_ GUARDED_BY(mu_) = 0;    // files opened by this process
  std::atomic<int64_t> lines_{0};
  std::atomic<int64_t> errors_{0};
};

}  // namespace ics
