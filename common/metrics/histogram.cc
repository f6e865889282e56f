#include "common/metrics/histogram.h"

#include <algorithm>
#include <cmath>

namespace ics::metrics {

int Histogram::BucketIndex(int64_t value) {
  if (value < kSubBuckets) return value < 0 ? 0 : static_cast<int>(value);
  const auto v = static_cast<uint64_t>(value);
  const int e = 63 - __builtin_clzll(v);               // 2^e <= v < 2^(e+1), e >= 6
  const int group = e - kSubBucketBits + 1;             // 1 .. 57
  const auto top = static_cast<int>(v >> (e - kSubBucketBits));  // 64 .. 127
  return group * kSubBuckets + (top - kSubBuckets);
}

int64_t Histogram::BucketLower(int index) {
  if (index < kSubBuckets) return index;
  const int group = index / kSubBuckets;
  const uint64_t top = static_cast<uint64_t>(index % kSubBuckets + kSubBuckets);
  return static_cast<int64_t>(top << (group - 1));
}

int64_t Histogram::BucketUpper(int index) {
  if (index < kSubBuckets) return index;
  const int group = index / kSubBuckets;
  const uint64_t width = uint64_t{1} << (group - 1);
  return static_cast<int64_t>(static_cast<uint64_t>(BucketLower(index)) + (width - 1));
}

void Histogram::Record(int64_t value) {
  if (value < 0) value = 0;
  buckets_[static_cast<size_t>(BucketIndex(value))].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
  int64_t cur = min_.load(std::memory_order_relaxed);
  while (value < cur && !min_.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
  }
  cur = max_.load(std::memory_order_relaxed);
  while (value > cur && !max_.compare_exchange_weak(cur, value, std::memory_order_relaxed)) {
  }
}

void Histogram::RecordMicrosSince(std::chrono::steady_clock::time_point start) {
  Record(std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - start)
             .count());
}

HistogramSnapshot Histogram::Snapshot() const {
  HistogramSnapshot s;
  for (int i = 0; i < kNumBuckets; ++i) {
    const uint64_t n = buckets_[static_cast<size_t>(i)].load(std::memory_order_relaxed);
    if (n == 0) continue;
    s.buckets.push_back({BucketLower(i), BucketUpper(i), n});
    s.count += n;
  }
  if (s.count == 0) return s;
  s.sum = static_cast<double>(sum_.load(std::memory_order_relaxed));
  // min/max may lag the buckets by a racing Record(); bound them by the
  // buckets so the snapshot stays consistent.
  s.min = std::max(min_.load(std::memory_order_relaxed), s.buckets.front().lower);
  s.max = std::min(max_.load(std::memory_order_relaxed), s.buckets.back().upper);
  if (s.min > s.max) {
    s.min = s.buckets.front().lower;
    s.max = s.buckets.back().upper;
  }
  return s;
}

double HistogramSnapshot::Percentile(double q) const {
  if (count == 0) return 0;
  if (!(q >= 0)) q = 0;  // also NaN
  if (q > 1) q = 1;
  const auto rank = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count))));
  uint64_t seen = 0;
  for (const Bucket& b : buckets) {
    seen += b.count;
    if (seen >= rank) {
      const double mid = (static_cast<double>(b.lower) + static_cast<double>(b.upper)) / 2;
      return std::clamp(mid, static_cast<double>(min), static_cast<double>(max));
    }
  }
  return static_cast<double>(max);
}

}  // namespace ics::metrics
