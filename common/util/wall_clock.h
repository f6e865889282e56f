// The wall clock as the metastore records it: whole seconds (Hive's
// createTime, transient_lastDdlTime) or milliseconds (Impala's
// last_modified_time, file modification times) since the Unix epoch.
// One place for both, so every writer stamps objects alike.
//
// Thread-safety: stateless.
#pragma once

#include <chrono>
#include <cstdint>

namespace ics {

inline int32_t NowSeconds() {
  return static_cast<int32_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count());
}

inline int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace ics
