// Cost of the metrics hot path and of exports, with a plain relaxed atomic
// increment as the baseline in the same run. Threads > 1 show contention on
// one shared histogram/counter.
// Run: build/bin/metrics_bench  (Google Benchmark flags apply).
#include <benchmark/benchmark.h>

#include <random>

#include "common/metrics/metrics.h"

namespace ics::metrics {
namespace {

std::atomic<int64_t> g_baseline{0};

void BM_AtomicIncrementBaseline(benchmark::State& state) {
  for (auto _ : state) g_baseline.fetch_add(1, std::memory_order_relaxed);
}
BENCHMARK(BM_AtomicIncrementBaseline)->Threads(1)->Threads(2);

Counter g_counter;
void BM_CounterIncrement(benchmark::State& state) {
  for (auto _ : state) g_counter.Increment();
}
BENCHMARK(BM_CounterIncrement)->Threads(1)->Threads(2);

Histogram g_hist;
void BM_HistogramRecord(benchmark::State& state) {
  std::mt19937_64 rng(state.thread_index());
  std::vector<int64_t> values(4096);
  std::lognormal_distribution<double> d(8, 2);
  for (auto& v : values) v = static_cast<int64_t>(d(rng));
  size_t i = 0;
  for (auto _ : state) g_hist.Record(values[i++ & 4095]);
}
BENCHMARK(BM_HistogramRecord)->Threads(1)->Threads(2);

void BM_HistogramSnapshotAndPercentiles(benchmark::State& state) {
  Histogram h;
  for (int i = 0; i < 100000; ++i) h.Record(i * 37 % 1000003);
  for (auto _ : state) {
    auto s = h.Snapshot();
    benchmark::DoNotOptimize(s.Percentile(0.99));
  }
}
BENCHMARK(BM_HistogramSnapshotAndPercentiles);

// A registry shaped like a daemon's: 40 counters/gauges, 6 histograms.
void BM_PrometheusExport(benchmark::State& state) {
  MetricRegistry reg;
  for (int i = 0; i < 40; ++i) {
    reg.AddCounter("c" + std::to_string(i) + "_total", "help", {{"k", std::to_string(i)}})->Increment(i);
  }
  for (int i = 0; i < 6; ++i) {
    Histogram* h = reg.AddHistogram("h" + std::to_string(i) + "_seconds", "help", 1e-6);
    for (int j = 0; j < 10000; ++j) h->Record(j);
  }
  size_t bytes = 0;
  for (auto _ : state) bytes += reg.ToPrometheusText().size();
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_PrometheusExport);

}  // namespace
}  // namespace ics::metrics

BENCHMARK_MAIN();
