// Metrics: histogram percentiles against a sorted-array reference, bucket
// arithmetic, concurrency, the registry, and the Prometheus/JSON exports
// (parsed back with the strict parser in prometheus_parser.h).
#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/metrics/metrics.h"
#include "tests/web/prometheus_parser.h"

namespace ics::metrics {
namespace {

using webtest::ParsePrometheusText;

// The exact order statistic the histogram approximates: the smallest value
// with at least ceil(q * n) values <= it.
double Reference(const std::vector<int64_t>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(q * n)));
  return static_cast<double>(sorted[rank - 1]);
}

void ExpectPercentilesClose(const std::vector<int64_t>& values, const std::string& what) {
  Histogram h;
  for (int64_t v : values) h.Record(v);
  std::vector<int64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const HistogramSnapshot s = h.Snapshot();
  ASSERT_EQ(s.count, values.size()) << what;
  EXPECT_EQ(s.min, sorted.front()) << what;
  EXPECT_EQ(s.max, sorted.back()) << what;
  double sum = 0;
  for (int64_t v : values) sum += static_cast<double>(v);
  EXPECT_DOUBLE_EQ(s.sum, sum) << what;
  for (double q : {0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0}) {
    const double ref = Reference(sorted, q);
    const double got = s.Percentile(q);
    // Bucket width <= lower/64, midpoint reported: error <= value/128.
    EXPECT_LE(std::fabs(got - ref), ref / 128 + 1e-9)
        << what << " q=" << q << " reference=" << ref << " histogram=" << got;
  }
}

TEST(HistogramTest, BucketsCoverEveryValueContiguously) {
  EXPECT_EQ(Histogram::BucketIndex(0), 0);
  EXPECT_EQ(Histogram::BucketIndex(63), 63);
  EXPECT_EQ(Histogram::BucketIndex(-5), 0);
  EXPECT_EQ(Histogram::BucketIndex(INT64_MAX), Histogram::kNumBuckets - 1);
  EXPECT_EQ(Histogram::BucketUpper(Histogram::kNumBuckets - 1), INT64_MAX);
  for (int i = 1; i < Histogram::kNumBuckets; ++i) {
    ASSERT_EQ(Histogram::BucketLower(i), Histogram::BucketUpper(i - 1) + 1) << "bucket " << i;
    ASSERT_EQ(Histogram::BucketIndex(Histogram::BucketLower(i)), i);
    ASSERT_EQ(Histogram::BucketIndex(Histogram::BucketUpper(i)), i);
    const double width = static_cast<double>(Histogram::BucketUpper(i) - Histogram::BucketLower(i)) + 1;
    ASSERT_LE(width, std::max(1.0, static_cast<double>(Histogram::BucketLower(i)) / 64)) << i;
  }
}

TEST(HistogramTest, PercentilesMatchSortedReference) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> uniform, lognormal, small, bimodal;
  std::uniform_int_distribution<int64_t> u(0, 10'000'000);
  std::lognormal_distribution<double> ln(8.0, 2.0);
  std::uniform_int_distribution<int64_t> tiny(0, 40);
  for (int i = 0; i < 100'000; ++i) {
    uniform.push_back(u(rng));
    lognormal.push_back(static_cast<int64_t>(ln(rng)));
    small.push_back(tiny(rng));
    bimodal.push_back(i % 10 == 0 ? 5'000'000 + u(rng) % 1000 : 100 + u(rng) % 50);
  }
  ExpectPercentilesClose(uniform, "uniform");
  ExpectPercentilesClose(lognormal, "lognormal");
  ExpectPercentilesClose(small, "small (exact buckets)");
  ExpectPercentilesClose(bimodal, "bimodal");
  ExpectPercentilesClose({7}, "single value");
  ExpectPercentilesClose({0, INT64_MAX / 4}, "extremes");
}

TEST(HistogramTest, SmallValuesAreExact) {
  Histogram h;
  for (int v = 0; v < 64; ++v) h.Record(v);
  const auto s = h.Snapshot();
  EXPECT_EQ(s.Percentile(0.5), 31);
  EXPECT_EQ(s.Percentile(1.0), 63);
  EXPECT_EQ(s.Percentile(0.0), 0);
}

TEST(HistogramTest, EmptyAndOutOfRangeQuantiles) {
  Histogram h;
  auto s = h.Snapshot();
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.Percentile(0.5), 0);
  EXPECT_EQ(s.mean(), 0);
  h.Record(100);
  s = h.Snapshot();
  EXPECT_EQ(s.Percentile(-1), 100);
  EXPECT_EQ(s.Percentile(2), 100);
  EXPECT_EQ(s.Percentile(NAN), 100);
}

TEST(HistogramTest, ConcurrentRecordsAreAllCounted) {
  Histogram h;
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50'000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&h, t] {
      for (int i = 0; i < kPerThread; ++i) h.Record(t * 1000 + i % 1000);
    });
  }
  // Snapshots taken while writers run stay self-consistent.
  for (int i = 0; i < 50; ++i) {
    const auto s = h.Snapshot();
    uint64_t in_buckets = 0;
    for (const auto& b : s.buckets) in_buckets += b.count;
    ASSERT_EQ(in_buckets, s.count);
    if (s.count > 0) ASSERT_LE(s.min, s.max);
  }
  for (auto& t : threads) t.join();
  const auto s = h.Snapshot();
  EXPECT_EQ(s.count, uint64_t{kThreads} * kPerThread);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, (kThreads - 1) * 1000 + 999);
  double sum = 0;
  for (int t = 0; t < kThreads; ++t) sum += kPerThread * (t * 1000.0) + kPerThread / 1000 * 499500.0;
  EXPECT_DOUBLE_EQ(s.sum, sum);
}

TEST(MetricRegistryTest, SameNameAndLabelsReturnSameMetric) {
  MetricRegistry reg;
  Counter* a = reg.AddCounter("x_total", "help");
  Counter* b = reg.AddCounter("x_total", "help");
  Counter* c = reg.AddCounter("x_total", "help", {{"k", "v"}});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  a->Increment();
  b->Increment(2);
  EXPECT_EQ(a->value(), 3);
  EXPECT_EQ(c->value(), 0);
  EXPECT_EQ(reg.AddHistogram("h", "h"), reg.AddHistogram("h", "h"));
}

TEST(MetricRegistryTest, NameValidation) {
  EXPECT_TRUE(IsValidMetricName("a_b:c9"));
  EXPECT_FALSE(IsValidMetricName("9a"));
  EXPECT_FALSE(IsValidMetricName("a-b"));
  EXPECT_FALSE(IsValidMetricName(""));
  EXPECT_TRUE(IsValidLabelName("topic"));
  EXPECT_FALSE(IsValidLabelName("__reserved"));
  EXPECT_FALSE(IsValidLabelName("a:b"));
}

TEST(MetricRegistryTest, ConcurrentCountersAndRegistration) {
  MetricRegistry reg;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&reg, t] {
      for (int i = 0; i < 10'000; ++i) {
        reg.AddCounter("shared_total", "h")->Increment();
        reg.AddGauge("g", "h", {{"t", std::to_string(t)}})->Set(i);
        if (i % 1000 == 0) {
          // Exports run concurrently with updates and registrations.
          EXPECT_TRUE(ParsePrometheusText(reg.ToPrometheusText()).ok());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(reg.AddCounter("shared_total", "h")->value(), 40'000);
}

TEST(PrometheusExportTest, ParsesBackWithTypesHelpAndValues) {
  MetricRegistry reg;
  reg.AddCounter("requests_total", "Requests served.")->Increment(5);
  reg.AddCounter("requests_total", "Requests served.", {{"code", "404"}})->Increment(2);
  reg.AddGauge("queue_depth", "Queued jobs.")->Set(-3);
  reg.AddCallbackGauge("ratio", "A computed ratio.", [] { return 0.25; });
  reg.AddCallbackCounter("bytes_total", "Bytes.", [] { return 1e12; });
  reg.AddCallbackFamily("topic_entries", "Entries per topic.", MetricType::kGauge, [] {
    return std::vector<Sample>{{{{"topic", "a"}}, 3}, {{{"topic", "b"}}, 4}};
  });
  Histogram* h = reg.AddHistogram("latency_seconds", "Latency.", 1e-6);
  for (int i = 1; i <= 1000; ++i) h->Record(i * 1000);  // 1 ms .. 1 s
  reg.AddHistogram("empty_seconds", "Never observed.", 1e-6);

  const std::string text = reg.ToPrometheusText();
  const auto r = ParsePrometheusText(text);
  ASSERT_TRUE(r.ok()) << r.error << "\n" << text;
  EXPECT_EQ(r.families.at("requests_total").type, "counter");
  EXPECT_EQ(r.families.at("requests_total").help, "Requests served.");
  EXPECT_EQ(r.Value("requests_total"), 5);
  EXPECT_EQ(r.Value("requests_total", {{"code", "404"}}), 2);
  EXPECT_EQ(r.families.at("queue_depth").type, "gauge");
  EXPECT_EQ(r.Value("queue_depth"), -3);
  EXPECT_EQ(r.Value("ratio"), 0.25);
  EXPECT_EQ(r.Value("bytes_total"), 1e12);
  EXPECT_EQ(r.Value("topic_entries", {{"topic", "b"}}), 4);
  EXPECT_EQ(r.families.at("latency_seconds").type, "summary");
  EXPECT_EQ(r.Value("latency_seconds_count"), 1000);
  EXPECT_NEAR(r.Value("latency_seconds_sum"), 500.5, 1e-9);
  EXPECT_NEAR(r.Value("latency_seconds", {{"quantile", "0.5"}}), 0.5, 0.5 / 100);
  EXPECT_NEAR(r.Value("latency_seconds", {{"quantile", "0.99"}}), 0.99, 0.99 / 100);
  EXPECT_NEAR(r.Value("latency_seconds", {{"quantile", "0.999"}}), 0.999, 0.999 / 100);
  EXPECT_TRUE(std::isnan(r.Value("empty_seconds", {{"quantile", "0.9"}})));
  EXPECT_EQ(r.Value("empty_seconds_count"), 0);
}

TEST(PrometheusExportTest, EscapesLabelValuesAndHelp) {
  MetricRegistry reg;
  const std::string nasty = "a\\b\"c\nd<script>&'";
  reg.AddGauge("g", "line one\nline two \\ backslash", {{"name", nasty}})->Set(1);
  const std::string text = reg.ToPrometheusText();
  EXPECT_NE(text.find("name=\"a\\\\b\\\"c\\nd<script>&'\""), std::string::npos) << text;
  EXPECT_NE(text.find("# HELP g line one\\nline two \\\\ backslash\n"), std::string::npos) << text;
  const auto r = ParsePrometheusText(text);
  ASSERT_TRUE(r.ok()) << r.error << "\n" << text;
  EXPECT_EQ(r.families.at("g").help, "line one\nline two \\ backslash");
  EXPECT_EQ(r.Value("g", {{"name", nasty}}), 1);
}

TEST(PrometheusExportTest, ValueFormatting) {
  EXPECT_EQ(FormatPrometheusValue(3), "3");
  EXPECT_EQ(FormatPrometheusValue(-0.5), "-0.5");
  EXPECT_EQ(FormatPrometheusValue(NAN), "NaN");
  EXPECT_EQ(FormatPrometheusValue(INFINITY), "+Inf");
  EXPECT_EQ(FormatPrometheusValue(-INFINITY), "-Inf");
  EXPECT_EQ(std::strtod(FormatPrometheusValue(0.1).c_str(), nullptr), 0.1);
  EXPECT_EQ(std::strtod(FormatPrometheusValue(1.0 / 3).c_str(), nullptr), 1.0 / 3);
}

TEST(PrometheusParserTest, RejectsMalformedExpositions) {
  // The parser itself must catch what it claims to check.
  EXPECT_FALSE(ParsePrometheusText("x 1").ok());                                   // no newline
  EXPECT_FALSE(ParsePrometheusText("x{a=\"1} 1\n").ok());                          // unterminated
  EXPECT_FALSE(ParsePrometheusText("x{a=\"\\q\"} 1\n").ok());                      // bad escape
  EXPECT_FALSE(ParsePrometheusText("x one\n").ok());                               // bad value
  EXPECT_FALSE(ParsePrometheusText("x 1\n# TYPE x gauge\n").ok());                 // late TYPE
  EXPECT_FALSE(ParsePrometheusText("# TYPE x gauge\n# TYPE x gauge\nx 1\n").ok()); // two TYPEs
  EXPECT_FALSE(ParsePrometheusText("x 1\ny 1\nx{a=\"b\"} 2\n").ok());              // split
  EXPECT_FALSE(ParsePrometheusText("x 1\nx 2\n").ok());                            // duplicate
  EXPECT_FALSE(ParsePrometheusText("# TYPE s summary\ns 1\n").ok());               // no quantile
  EXPECT_FALSE(ParsePrometheusText("# TYPE h histogram\nh_bucket{le=\"1\"} 1\n").ok());  // no +Inf
  EXPECT_TRUE(ParsePrometheusText("# HELP x h\n# TYPE x gauge\nx{a=\"\\\"\"} -Inf\n").ok());
}

TEST(MetricsJsonTest, HistogramAndValues) {
  MetricRegistry reg;
  reg.AddCounter("c_total", "c", {{"k", "<v>"}})->Increment(7);
  Histogram* h = reg.AddHistogram("d_seconds", "d", 1e-6);
  for (int i = 1; i <= 100; ++i) h->Record(i * 10);
  const auto j = reg.ToJson();
  ASSERT_TRUE(j.contains("metrics"));
  bool saw_c = false, saw_d = false;
  for (const auto& f : j["metrics"]) {
    if (f["name"] == "c_total") {
      saw_c = true;
      EXPECT_EQ(f["type"], "counter");
      EXPECT_EQ(f["series"][0]["labels"]["k"], "<v>");
      EXPECT_EQ(f["series"][0]["value"], 7);
    }
    if (f["name"] == "d_seconds") {
      saw_d = true;
      EXPECT_EQ(f["type"], "histogram");
      const auto& s = f["series"][0];
      EXPECT_EQ(s["count"], 100);
      EXPECT_NEAR(s["sum"].get<double>(), 0.0505, 1e-9);
      EXPECT_NEAR(s["min"].get<double>(), 10e-6, 1e-12);
      EXPECT_NEAR(s["max"].get<double>(), 1000e-6, 1e-12);
      EXPECT_NEAR(s["p50"].get<double>(), 500e-6, 500e-6 / 100);
      EXPECT_NEAR(s["p99"].get<double>(), 990e-6, 990e-6 / 100);
      EXPECT_TRUE(s.contains("p90"));
      EXPECT_TRUE(s.contains("p999"));
    }
  }
  EXPECT_TRUE(saw_c);
  EXPECT_TRUE(saw_d);
}

}  // namespace
}  // namespace ics::metrics
