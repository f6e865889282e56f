// CPU clocks for the benchmarks, in one place: a process's own CPU, one
// thread's, and another process's (the daemons a benchmark starts), in
// seconds of user + system time.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace ics::perf {

// User + system CPU seconds used by this process so far (every thread,
// exited ones included).
inline double ProcessCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// CPU seconds of the calling thread so far.
inline double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// User + system CPU seconds of process `pid` so far (/proc/<pid>/stat, in
// clock ticks; exited threads included); 0 if unreadable.
inline double ChildCpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  const size_t paren = line.rfind(')');
  if (paren == std::string::npos || paren + 2 > line.size()) return 0;
  std::istringstream rest(line.substr(paren + 2));
  std::string f;
  long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && (rest >> f); ++i) {
    if (i == 14) utime = std::stol(f);
    if (i == 15) stime = std::stol(f);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// CPU seconds of process `pid` so far at nanosecond resolution: the sum
// over its live threads of their time on a CPU (/proc/<pid>/task/*/schedstat;
// threads that have exited are not counted, so this suits long-lived thread
// pools), or ChildCpuSeconds where schedstat is missing. Negative when the
// process cannot be seen (gone, or on another machine).
inline double ThreadsCpuSeconds(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return -1;
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
  return any ? ns / 1e9 : ChildCpuSeconds(pid);
}

}  // namespace ics::perf
