// Histogram: a lock-free, log-linear (HDR-style) histogram of non-negative
// integer observations, with percentiles of bounded relative error.
//
// Layout. Values below 64 each have their own bucket (exact). Above that,
// every power-of-two range [2^e, 2^(e+1)) is split into 64 equal sub-buckets,
// so a bucket's width is at most 1/64 of its lower bound. Percentiles report
// the midpoint of the bucket holding the requested rank (clamped to the
// observed min/max), so the reported value is within 1/128 (< 0.8%) of the
// exact order statistic. The whole int64 range is covered (3712 buckets,
// ~29 KiB per histogram); negative observations count as 0.
//
// Hot path: Record() is a handful of relaxed atomic adds (plus a CAS only
// when a new min/max is seen); no lock, no allocation.
//
// Snapshot() reads the buckets without stopping writers, so a snapshot taken
// during concurrent Record() calls may miss observations that race with it,
// but it is always self-consistent (count == sum of its buckets; percentiles
// computed from the same buckets).
//
// Thread-safety: every method is thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace ics::metrics {

// Percentiles and totals of one histogram at one moment, in raw units.
struct HistogramSnapshot {
  uint64_t count = 0;
  double sum = 0;   // sum of recorded values (exact up to double precision)
  int64_t min = 0;  // 0 when count == 0
  int64_t max = 0;
  double mean() const { return count == 0 ? 0 : sum / static_cast<double>(count); }
  // The value at quantile q in [0, 1] (0 when empty). q is clamped.
  double Percentile(double q) const;

  // Non-empty buckets, ascending: (lower bound, upper bound inclusive, count).
  struct Bucket {
    int64_t lower = 0;
    int64_t upper = 0;
    uint64_t count = 0;
  };
  std::vector<Bucket> buckets;
};

class Histogram {
 public:
  static constexpr int kSubBucketBits = 6;
  static constexpr int kSubBuckets = 1 << kSubBucketBits;  // 64
  static constexpr int kNumBuckets = (63 - kSubBucketBits + 1) * kSubBuckets;

  Histogram() = default;
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void Record(int64_t value);
  // Records the elapsed time since `start` in microseconds.
  void RecordMicrosSince(std::chrono::steady_clock::time_point start);

  HistogramSnapshot Snapshot() const;
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }

  // Bucket arithmetic (exposed for tests).
  static int BucketIndex(int64_t value);
  static int64_t BucketLower(int index);
  static int64_t BucketUpper(int index);  // inclusive

 private:
  std::array<std::atomic<uint64_t>, kNumBuckets> buckets_{};
  std::atomic<uint64_t> count_{0};
  std::atomic<int64_t> sum_{0};  // wraps only after ~9.2e18 in total
  std::atomic<int64_t> min_{INT64_MAX};
  std::atomic<int64_t> max_{INT64_MIN};
};

// Records the lifetime of the scope, in microseconds, into a histogram.
class ScopedLatencyTimer {
 public:
  explicit ScopedLatencyTimer(Histogram* h) : h_(h), start_(std::chrono::steady_clock::now()) {}
  ~ScopedLatencyTimer() {
    if (h_ != nullptr) h_->RecordMicrosSince(start_);
  }
  ScopedLatencyTimer(const ScopedLatencyTimer&) = delete;
  ScopedLatencyTimer& operator=(const ScopedLatencyTimer&) = delete;

 private:
  Histogram* const h_;
  const std::chrono::steady_clock::time_point start_;
};

}  // namespace ics::metrics
