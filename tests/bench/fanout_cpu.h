// CPU time per delivery in the fan-out benchmarks (statestore_bench,
// redis_fanout_bench, thrift_fanout_bench): where a fan-out's CPU goes, on
// the sending side (the broker: statestored, redis-server, or the bare
// sender thread) and on the receiving side (the process holding the N
// receivers, its publisher included), each divided by the deliveries
// (rounds x receivers).
//
// On a machine with two cores both sides share, a fan-out round is about
// as long as the CPU both sides spend on it divided by the cores, so these
// figures explain the latency ratios between the benches and vary much
// less from run to run than a p99 does. Output lines follow
// tests/perf/perf_util.h:
//   "<bench> n<N>_sender_cpu_us: <v> us" and "... n<N>_receiver_cpu_us: <v> us"
//
// A CpuWindow samples the CPU clocks when constructed and reads the
// difference in Report(). Thread-safety: one thread uses a window.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace ics::bench {

// CPU seconds of process `pid` so far: the sum over its threads of their
// time on a CPU from /proc/<pid>/task/*/schedstat (nanoseconds; threads
// that have exited are not counted, so this suits long-lived thread pools),
// or, where schedstat is missing, user + system time from /proc/<pid>/stat
// (clock ticks). Negative when neither can be read (the process is gone or
// on another machine).
inline double ProcessCpuSeconds(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::error_code ec;
  double ns = 0;
  bool any = false;
  for (const auto& task : std::filesystem::directory_iterator(dir + "/task", ec)) {
    std::ifstream in(task.path() / "schedstat");
    double on_cpu = 0;
    if (in >> on_cpu) {
      ns += on_cpu;
      any = true;
    }
  }
  if (any) return ns / 1e9;
  std::ifstream in(dir + "/stat");
  std::string line;
  if (!std::getline(in, line)) return -1;
  const size_t paren = line.rfind(')');
  if (paren == std::string::npos || paren + 2 > line.size()) return -1;
  // Fields after the command name (which is in parentheses): state is field
  // 3, utime 14, stime 15.
  std::istringstream rest(line.substr(paren + 2));
  std::string f;
  long utime = -1, stime = -1;
  for (int i = 3; i <= 15 && (rest >> f); ++i) {
    if (i == 14) utime = std::stol(f);
    if (i == 15) stime = std::stol(f);
  }
  if (utime < 0 || stime < 0) return -1;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// User + system CPU seconds of this process so far (every thread).
inline double SelfCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

// CPU seconds of the calling thread so far.
inline double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// The CPU of one fan-out measurement. The sender is another process
// (`sender_pid` > 0: statestored, redis-server), or the thread that builds
// the window and calls Report() (`sender_pid` == 0: the bare sender, whose
// CPU is then taken out of this process's to leave the receivers'), or
// unknown (`sender_pid` < 0: only the receivers' figure is printed). The
// receiving side is this process.
class CpuWindow {
 public:
  explicit CpuWindow(pid_t sender_pid)
      : sender_pid_(sender_pid),
        sender0_(SenderSeconds()),
        self0_(SelfCpuSeconds()) {}

  // Prints the two figures for `rounds` rounds to `receivers` receivers; the
  // sender's is left out if it cannot be read.
  void Report(const char* bench, int receivers, int rounds) const {
    const double sender1 = SenderSeconds();
    const double self = SelfCpuSeconds() - self0_;
    const double deliveries = static_cast<double>(receivers) * static_cast<double>(rounds);
    if (deliveries <= 0) return;
    const bool sender_known = sender0_ >= 0 && sender1 >= 0;
    const double sender = sender_known ? sender1 - sender0_ : 0;
    // In-process sender: the receivers' share is the process's CPU minus it.
    const double receivers_cpu = sender_pid_ == 0 ? self - sender : self;
    if (sender_known) {
      std::printf("%s n%d_sender_cpu_us: %.2f us\n", bench, receivers, sender * 1e6 / deliveries);
    }
    std::printf("%s n%d_receiver_cpu_us: %.2f us\n", bench, receivers,
                receivers_cpu * 1e6 / deliveries);
    std::fflush(stdout);
  }

 private:
  double SenderSeconds() const {
    if (sender_pid_ < 0) return -1;
    return sender_pid_ > 0 ? ProcessCpuSeconds(sender_pid_) : ThreadCpuSeconds();
  }

  const pid_t sender_pid_;
  const double sender0_;
  const double self0_;
};

}  // namespace ics::bench
