// Child processes for multi-process tests, and the small helpers around
// them: WaitFor (poll a condition with a deadline), RunCommand (run a
// command to completion and capture its output), TailOfFile (for failure
// reports).
//
// ExternalProcess owns one child: its output is appended to a log file, it
// runs in its own working directory and process group, and it gets
// PR_SET_PDEATHSIG(SIGKILL) so it dies with the test even when the test
// crashes. PDEATHSIG fires when the *thread* that forked exits: start
// processes from the test's main thread. The destructor kills and reaps it.
//
// Thread-safety: ExternalProcess is not thread-safe; the free functions are.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/util/status.h"

namespace ics::external {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

// Polls `condition` (every 20 ms, first immediately) until it holds or
// `timeout` passes; returns whether it held.
bool WaitFor(const std::function<bool()>& condition, Millis timeout);

// Seconds since `t`.
double SecondsSince(Clock::time_point t);

// The last `lines` lines of a text file, each indented.
std::string TailOfFile(const std::string& path, size_t lines);

// The non-empty lines of a text file (none if it does not exist).
std::vector<std::string> ReadLines(const std::string& path);

// Path of the iproute2 `ip` tool, or "" when it is not installed.
std::string IpTool();

// Runs `argv` (no shell), waits for it, and returns its exit status (or -1
// when it could not run / was killed) and combined stdout+stderr.
struct CommandResult {
  int exit_code = -1;
  std::string output;
  bool ok() const { return exit_code == 0; }
};
CommandResult RunCommand(const std::vector<std::string>& argv);

// One child process with its output in a log file. Not thread-safe.
class ExternalProcess {
 public:
  ExternalProcess(std::string name, std::string log_path, std::string work_dir);
  ~ExternalProcess();  // Kill()
  ExternalProcess(const ExternalProcess&) = delete;
  ExternalProcess& operator=(const ExternalProcess&) = delete;

  // Forks and execs argv[0] with argv (argv[0] must be a path). The child
  // gets PDEATHSIG, an empty signal mask, its own process group, cwd =
  // work_dir, stdin = /dev/null and stdout/stderr appended to the log.
  [[nodiscard]] Status Start(const std::vector<std::string>& argv);
  // SIGKILL (which also ends a SIGSTOPped process) and reap.
  void Kill();
  // SIGTERM; waits up to `timeout`, then SIGKILLs. Error when it had to be
  // killed or did not exit with status 0.
  [[nodiscard]] Status Stop(Millis timeout);
  // SIGSTOP / SIGCONT; Pause waits until /proc says the process is stopped.
  [[nodiscard]] Status Pause();
  void Resume();

  // True while the process has not exited (reaps it when it has).
  bool IsRunning();
  bool paused() const { return paused_; }
  pid_t pid() const { return pid_; }
  const std::string& name() const { return name_; }
  const std::string& log_path() const { return log_path_; }
  // How the last process exited ("exit status 1", "killed by signal 9"), or
  // "running" / "not started".
  std::string ExitDescription();

 private:
  const std::string name_;
  const std::string log_path_;
  const std::string work_dir_;
  pid_t pid_ = -1;
  int last_wait_status_ = -1;
  bool paused_ = false;
};

}  // namespace ics::external
