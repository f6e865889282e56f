// Metrics: counters, gauges, callback metrics and histograms, kept in a
// MetricRegistry and exported as Prometheus text or JSON.
//
// Ownership: a MetricRegistry owns every metric it hands out; the returned
// pointers stay valid for the registry's lifetime. A daemon owns one registry
// (in-process tests create several daemons, so there is no global registry)
// and gives it to its WebServer for /metrics.
//
// Naming (Prometheus conventions): snake_case with a subsystem prefix,
// counters end in `_total`, durations are histograms in seconds recorded in
// microseconds with export_scale 1e-6 (e.g. `statestore_update_duration_seconds`).
// A family (one name) has one type and one help text; its series differ by
// labels. Registering the same name and labels again returns the existing
// metric. An invalid metric or label name, or re-registering a name with a
// different type, is a programming error and aborts with a clear message
// (names are constants in code; label VALUES may be anything and are escaped).
//
// Hot path: Counter/Gauge updates are single relaxed atomics; Histogram is
// lock-free (see histogram.h). Only registration and export take the
// registry lock.
//
// Callbacks (callback gauges/counters and callback families) run at export
// time on the exporting thread, without the registry lock held; they must be
// thread-safe and must not outlive what they capture: register them on a
// registry owned next to (and destroyed with) the captured object, and stop
// the web server before destroying either.
//
// Thread-safety: every method is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/metrics/histogram.h"
#include "common/util/mutex.h"

namespace ics::metrics {

// Label name/value pairs of one series, in the order given.
using Labels = std::vector<std::pair<std::string, std::string>>;

enum class MetricType { kCounter, kGauge, kHistogram };
const char* MetricTypeName(MetricType t);  // "counter", "gauge", "histogram"

class Counter {
 public:
  void Increment(int64_t n = 1) { v_.fetch_add(n, std::memory_order_relaxed); }
  int64_t value() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> v_{0};
};

class Gauge {
 public:
  void Set(int64_t v) { v_.store(v, std::memory_order_relaxed); }
  void Add(int64_t d) { v_.fetch_add(d, std::memory_order_relaxed); }
  int64_t value() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> v_{0};
};

// One computed series of a callback family.
struct Sample {
  Labels labels;
  double value = 0;
};

// The quantiles every histogram exports.
inline constexpr double kExportedQuantiles[] = {0.5, 0.9, 0.99, 0.999};

// True if `name` is a valid Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*).
bool IsValidMetricName(const std::string& name);
// True if `name` is a valid label name ([a-zA-Z_][a-zA-Z0-9_]*, not "__*").
bool IsValidLabelName(const std::string& name);

class MetricRegistry {
 public:
  MetricRegistry() = default;
  MetricRegistry(const MetricRegistry&) = delete;
  MetricRegistry& operator=(const MetricRegistry&) = delete;

  Counter* AddCounter(const std::string& name, const std::string& help, const Labels& labels = {})
      EXCLUDES(mu_);
  Gauge* AddGauge(const std::string& name, const std::string& help, const Labels& labels = {})
      EXCLUDES(mu_);
  // Exported quantiles, sum, min and max are raw values * export_scale
  // (1e-6 turns recorded microseconds into seconds). All series of a family
  // share the scale given when the family was first registered.
  Histogram* AddHistogram(const std::string& name, const std::string& help,
                          double export_scale = 1.0, const Labels& labels = {}) EXCLUDES(mu_);

  // A gauge or counter whose value is computed at export time (re-registering
  // the same name and labels replaces the callback).
  void AddCallbackGauge(const std::string& name, const std::string& help,
                        std::function<double()> fn, const Labels& labels = {}) EXCLUDES(mu_);
  void AddCallbackCounter(const std::string& name, const std::string& help,
                          std::function<double()> fn, const Labels& labels = {}) EXCLUDES(mu_);
  // A whole family computed at export time, for series that come and go
  // (e.g. one per topic). `type` is kCounter or kGauge.
  void AddCallbackFamily(const std::string& name, const std::string& help, MetricType type,
                         std::function<std::vector<Sample>()> fn) EXCLUDES(mu_);

  // Prometheus text exposition format 0.0.4 (serve with kPrometheusContentType).
  // Families sorted by name; histograms are exported as summaries:
  // name{quantile="0.5|0.9|0.99|0.999"}, name_sum, name_count.
  std::string ToPrometheusText() const EXCLUDES(mu_);
  // {"metrics":[{"name","help","type","series":[{"labels":{..},"value"} or
  //   {"labels","count","sum","min","max","mean","p50","p90","p99","p999"}]}]}
  nlohmann::ordered_json ToJson() const EXCLUDES(mu_);

 private:
  struct Series {
    Labels labels;
    std::unique_ptr<Counter> counter;
    std::unique_ptr<Gauge> gauge;
    std::unique_ptr<Histogram> histogram;
    std::function<double()> fn;  // callback gauge/counter
  };
  struct Family {
    std::string help;
    MetricType type = MetricType::kGauge;
    double scale = 1.0;
    std::function<std::vector<Sample>()> collect;  // callback family
    std::vector<std::shared_ptr<Series>> series;
  };
  // A consistent copy of one family taken under mu_, read after releasing it.
  struct FamilyView {
    std::string name;
    std::string help;
    MetricType type;
    double scale;
    std::function<std::vector<Sample>()> collect;
    std::vector<std::shared_ptr<Series>> series;
  };

  // The family's slot for `labels` (null if new; the caller fills it), or
  // nullptr for a callback family. Aborts on invalid names or type clashes.
  std::shared_ptr<Series>* FindOrAddLocked(const std::string& name, const std::string& help,
                                           MetricType type, const Labels& labels,
                                           bool callback_family, double scale) REQUIRES(mu_);
  void AddCallbackLocked(const std::string& name, const std::string& help, MetricType type,
                         std::function<double()> fn, const Labels& labels) REQUIRES(mu_);
  std::vector<FamilyView> Views() const EXCLUDES(mu_);

  mutable Mutex mu_;
  std::map<std::string, Family> families_ GUARDED_BY(mu_);
};

// Content-Type of the Prometheus text format.
inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

// Escaping rules of the text format, exposed for tests and other exporters.
std::string EscapePrometheusLabelValue(const std::string& v);  // \\, \", \n
std::string EscapePrometheusHelp(const std::string& v);        // \\, \n
std::string FormatPrometheusValue(double v);                   // NaN, +Inf, -Inf, shortest exact

}  // namespace ics::metrics
