// Process plumbing shared by every daemon's main(): flag parsing (gflags),
// logging (glog, to stderr unless --log_dir is given), shutdown signals and
// reporting bound ports.
//
// Usage in main():
//   InitDaemon(&argc, &argv, "usage text");   // before any thread starts
//   ... start services ...
//   WaitForShutdownSignal();                  // SIGINT or SIGTERM
//   ... stop services ...
//
// Thread-safety: InitDaemon must run first, on the main thread.
#pragma once

#include <string>

#include "common/util/status.h"

namespace ics {

// Parses flags, sets up logging, and blocks SIGINT/SIGTERM/SIGPIPE in this
// thread (and so in every thread it later starts) so WaitForShutdownSignal
// can receive them synchronously.
void InitDaemon(int* argc, char*** argv, const char* usage);

// Blocks until SIGINT or SIGTERM arrives; returns the signal number.
int WaitForShutdownSignal();

// Atomically writes `content` to `path` (write to a temp file, then rename),
// so a reader polling for the file never sees a partial write.
[[nodiscard]] Status WriteFileAtomically(const std::string& path, const std::string& content);

}  // namespace ics
