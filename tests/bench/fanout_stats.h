// Fan-out latency bookkeeping shared by the propagation benchmarks, so ours
// (statestore_bench, propagation_bench) and the Redis baseline
// (redis_fanout_bench) use the same clock, the same percentile rule and the
// same output lines.
//
// A FanoutRecorder holds, per round, the time each of N receivers first saw
// that round's message. Receivers call Seen() from any thread; the driver
// starts a round with Begin(), waits with WaitAll(), and finally prints the
// figures with Report(). Output lines follow tests/perf/perf_util.h:
//   "<bench> n<N>_<figure>: <value> ms"
// Figures: per-receiver p50/p99/max (every receiver of every round) and
// all-received p50/p99/max (per round, the slowest receiver), the
// first-received p50 (per round, the fastest receiver: what comes before the
// fan-out), plus the number of incomplete rounds.
//
// Thread-safety: thread-safe.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <charconv>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/util/mutex.h"

namespace ics::bench {

using FanoutClock = std::chrono::steady_clock;

// Nearest-rank percentile of `v` (p in [0, 1]); 0 for an empty vector.
inline double FanoutPercentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t idx = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[idx];
}

// The receiver counts of a --sizes flag ("10,100,500"; none for ""); nullopt,
// after printing which one to stderr, when one of them is not a positive
// number.
inline std::optional<std::vector<int>> ParseFanoutSizes(const std::string& flag) {
  std::vector<int> sizes;
  std::istringstream in(flag);
  for (std::string tok; std::getline(in, tok, ',');) {
    int n = 0;
    const char* end = tok.data() + tok.size();
    const auto [ptr, ec] = std::from_chars(tok.data(), end, n);
    if (ec != std::errc() || ptr != end || n < 1) {
      std::fprintf(stderr, "bad size '%s'\n", tok.c_str());
      return std::nullopt;
    }
    sizes.push_back(n);
  }
  return sizes;
}

class FanoutRecorder {
 public:
  FanoutRecorder(int rounds, int receivers)
      : rounds_(rounds),
        receivers_(receivers),
        seen_(static_cast<size_t>(rounds), std::vector<FanoutClock::time_point>(
                                               static_cast<size_t>(receivers))),
        count_(static_cast<size_t>(rounds), 0),
        start_(static_cast<size_t>(rounds)) {}

  int rounds() const { return rounds_; }

  // Marks the start of `round` (call right before sending).
  void Begin(int round) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    if (Valid(round)) start_[static_cast<size_t>(round)] = FanoutClock::now();
  }

  // Receiver `receiver` got `round` at `when` (first report counts).
  void Seen(int round, int receiver, FanoutClock::time_point when) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    if (!Valid(round) || receiver < 0 || receiver >= receivers_) return;
    auto& t = seen_[static_cast<size_t>(round)][static_cast<size_t>(receiver)];
    if (t != FanoutClock::time_point()) return;
    t = when;
    if (++count_[static_cast<size_t>(round)] == receivers_) cv_.Broadcast();
  }

  // Waits until every receiver saw `round` or `timeout` passed; true if all did.
  bool WaitAll(int round, std::chrono::milliseconds timeout) EXCLUDES(mu_) {
    const auto deadline = FanoutClock::now() + timeout;
    MutexLock l(&mu_);
    if (!Valid(round)) return false;
    while (count_[static_cast<size_t>(round)] < receivers_ && FanoutClock::now() < deadline) {
      cv_.WaitUntil(&mu_, deadline);
    }
    return count_[static_cast<size_t>(round)] == receivers_;
  }

  // How many receivers saw `round` so far.
  int Count(int round) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return Valid(round) ? count_[static_cast<size_t>(round)] : 0;
  }

  // Latency (ms) until every receiver had round r, for the complete rounds
  // of [first_round, rounds()).
  std::vector<double> AllReceivedMs(int first_round = 0) EXCLUDES(mu_) {
    std::vector<double> per, all, first;
    int incomplete = 0;
    Collect(first_round, &per, &all, &first, &incomplete);
    return all;
  }

  // Prints the figures of the rounds [first_round, rounds()).
  void Report(const char* bench, int first_round = 0) EXCLUDES(mu_) {
    std::vector<double> per, all, first;
    int incomplete = 0;
    Collect(first_round, &per, &all, &first, &incomplete);
    const std::string n = "n" + std::to_string(receivers_) + "_";
    auto line = [&](const std::string& name, double v, const char* unit) {
      std::printf("%s %s%s: %.3f%s%s\n", bench, n.c_str(), name.c_str(), v, unit[0] ? " " : "",
                  unit);
    };
    line("rounds", static_cast<double>(all.size()), "");
    line("per_receiver_p50", FanoutPercentile(per, 0.5), "ms");
    line("per_receiver_p99", FanoutPercentile(per, 0.99), "ms");
    line("per_receiver_max", FanoutPercentile(per, 1.0), "ms");
    line("all_received_p50", FanoutPercentile(all, 0.5), "ms");
    line("all_received_p99", FanoutPercentile(all, 0.99), "ms");
    line("all_received_max", FanoutPercentile(all, 1.0), "ms");
    line("first_received_p50", FanoutPercentile(first, 0.5), "ms");
    line("incomplete_rounds", static_cast<double>(incomplete), "");
    line("spacing_us", SpacingMicros(first_round), "us");
    std::fflush(stdout);
  }

 private:
  bool Valid(int round) const { return round >= 0 && round < rounds_; }

  // Over the complete rounds: (mean time of the last arrival - mean time of
  // the first) / (receivers - 1), i.e. how far apart deliveries land, in
  // microseconds: the fan-out's cost per receiver, without the fixed part
  // (the first arrival). 0 with fewer than two receivers.
  double SpacingMicros(int first_round) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    if (receivers_ < 2) return 0;
    double first_sum = 0, last_sum = 0;
    int rounds = 0;
    for (size_t r = static_cast<size_t>(std::max(0, first_round)); r < count_.size(); ++r) {
      if (count_[r] < receivers_) continue;
      const auto [lo, hi] = std::minmax_element(seen_[r].begin(), seen_[r].end());
      first_sum += std::chrono::duration<double, std::micro>(*lo - start_[r]).count();
      last_sum += std::chrono::duration<double, std::micro>(*hi - start_[r]).count();
      ++rounds;
    }
    if (rounds == 0) return 0;
    return (last_sum - first_sum) / rounds / (receivers_ - 1);
  }

  // Per-receiver latencies, per-round worst latencies (complete rounds),
  // per-round best latencies and the number of incomplete rounds, from
  // first_round on.
  void Collect(int first_round, std::vector<double>* per, std::vector<double>* all,
               std::vector<double>* first, int* incomplete) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    for (size_t r = static_cast<size_t>(std::max(0, first_round)); r < count_.size(); ++r) {
      if (count_[r] < receivers_) ++*incomplete;
      double worst = 0;
      double best = -1;
      for (const auto& t : seen_[r]) {
        if (t == FanoutClock::time_point()) continue;
        const double ms = std::chrono::duration<double, std::milli>(t - start_[r]).count();
        per->push_back(ms);
        worst = std::max(worst, ms);
        best = best < 0 ? ms : std::min(best, ms);
      }
      if (count_[r] == receivers_) all->push_back(worst);
      if (best >= 0) first->push_back(best);
    }
  }

  const int rounds_;
  const int receivers_;
  Mutex mu_;
  CondVar cv_;
  std::vector<std::vector<FanoutClock::time_point>> seen_ GUARDED_BY(mu_);
  std::vector<int> count_ GUARDED_BY(mu_);
  std::vector<FanoutClock::time_point> start_ GUARDED_BY(mu_);
};

}  // namespace ics::bench
