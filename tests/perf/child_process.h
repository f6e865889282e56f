// ChildProcess: a daemon binary (statestored, catalogd, coordinator-sim)
// started by a benchmark as a separate process on loopback, with its output
// in a log file and its bound ports read back from its --port_file.
//
// A thin layer over external::ExternalProcess (tests/external), the one
// child-process launcher of the tests, adding the port-file wait.
// Ownership: the object owns the process; Stop() (idempotent; also the
// destructor) sends SIGTERM, waits up to 10 s, then SIGKILLs.
// Thread-safety: not thread-safe; use from one thread.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/external/external_process.h"
#include "tests/perf/cpu_time.h"

namespace ics::perf {

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess() { Stop(); }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts args[0] with `args` as an external::ExternalProcess (the tests'
  // one launcher): output appended to `log`, working directory the log's
  // directory. False (with the reason on stderr) if it could not start.
  bool Start(std::vector<std::string> args, const std::string& log) {
    if (args.empty()) return false;
    const std::filesystem::path log_path(log);
    proc_ = std::make_unique<external::ExternalProcess>(
        std::filesystem::path(args[0]).filename().string(), log,
        log_path.has_parent_path() ? log_path.parent_path().string() : ".");
    Status s = proc_->Start(args);
    if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return s.ok();
  }

  // The whitespace-separated tokens of the first line of `port_file`, once
  // the process wrote it; empty if it exited or `timeout` passed first.
  std::vector<std::string> WaitForPortFile(const std::string& port_file,
                                           std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline && Running()) {
      std::ifstream in(port_file);
      std::string line;
      if (std::getline(in, line) && !line.empty()) {
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        return tokens;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return {};
  }

  bool Running() { return proc_ != nullptr && proc_->IsRunning(); }

  // SIGTERM, up to 10 s for it to exit, then SIGKILL. Idempotent.
  void Stop() {
    if (proc_ == nullptr) return;
    Status ignored = proc_->Stop(std::chrono::seconds(10));
    (void)ignored;  // a benchmark reports its figures either way
    proc_.reset();
  }

  pid_t pid() const { return proc_ != nullptr ? proc_->pid() : -1; }

 private:
  std::unique_ptr<external::ExternalProcess> proc_;
};

}  // namespace ics::perf
