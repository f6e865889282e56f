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
// The clocks are tests/perf/cpu_time.h's. A CpuWindow samples them when
// constructed and reads the difference in Report(). Thread-safety: one
// thread uses a window.
#pragma once

#include <sys/types.h>

#include <cstdio>

#include "tests/perf/cpu_time.h"

namespace ics::bench {

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
        self0_(perf::ProcessCpuSeconds()) {}

  // Prints the two figures for `rounds` rounds to `receivers` receivers; the
  // sender's is left out if it cannot be read.
  void Report(const char* bench, int receivers, int rounds) const {
    const double sender1 = SenderSeconds();
    const double self = perf::ProcessCpuSeconds() - self0_;
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
    return sender_pid_ > 0 ? perf::ThreadsCpuSeconds(sender_pid_) : perf::ThreadCpuSeconds();
  }

  const pid_t sender_pid_;
  const double sender0_;
  const double self0_;
};

}  // namespace ics::bench
