// JSON form of an OperationLog snapshot (operation_log.h), shared by the
// daemons' operation and statement pages:
//
//   {"running": N, "started": N, "finished": N, "failed": N, "kept": N,
//    "running_operations": [row...], "recent_operations": [row...]}
//   row: {"id", "kind", "target", "detail", "peer", "identity", "tls",
//         "start_time" (UTC, ms), "duration_ms", "status", "message",
//         "catalog_version"}
//
// Header-only; users link nlohmann_json. Thread-safety: stateless.
#pragma once

#include <cstdio>
#include <ctime>
#include <string>

#include <nlohmann/json.hpp>

#include "common/util/operation_log.h"

namespace ics {

// UTC with milliseconds: "2026-12-01 16:08:44.123", or in RFC 3339 form
// "2026-12-01T16:08:44.123Z" with rfc3339.
inline std::string FormatOperationTime(std::chrono::system_clock::time_point t,
                                       bool rfc3339 = false) {
  const int64_t ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[48];
  const size_t n =
      std::strftime(buf, sizeof(buf), rfc3339 ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof(buf) - n, rfc3339 ? ".%03dZ" : ".%03d",
                static_cast<int>(ms % 1000));
  return buf;
}

inline nlohmann::ordered_json OperationRecordJson(const OperationRecord& r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["kind"] = r.kind;
  j["target"] = r.target;
  j["detail"] = r.detail;
  j["peer"] = r.origin.peer;
  j["identity"] = r.origin.identity;
  j["tls"] = r.origin.tls;
  j["start_time"] = FormatOperationTime(r.start_time);
  j["duration_ms"] = static_cast<double>(r.duration_us) / 1000.0;
  j["status"] = r.status;
  j["message"] = r.message;
  j["catalog_version"] = r.catalog_version;
  return j;
}

// At most `limit` recent rows (newest first).
inline nlohmann::ordered_json OperationLogJson(const OperationLog::Snapshot& s, int limit,
                                               size_t capacity) {
  nlohmann::ordered_json d;
  d["running"] = static_cast<int64_t>(s.running.size());
  d["started"] = s.started;
  d["finished"] = s.finished;
  d["failed"] = s.failed;
  d["kept"] = static_cast<int64_t>(capacity);
  nlohmann::ordered_json running = nlohmann::ordered_json::array();
  for (const auto& r : s.running) running.push_back(OperationRecordJson(r));
  nlohmann::ordered_json recent = nlohmann::ordered_json::array();
  for (const auto& r : s.recent) {
    if (static_cast<int>(recent.size()) >= limit) break;
    recent.push_back(OperationRecordJson(r));
  }
  d["running_operations"] = std::move(running);
  d["recent_operations"] = std::move(recent);
  return d;
}

}  // namespace ics
