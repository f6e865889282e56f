#include "common/metrics/metrics.h"

#include <glog/logging.h>

namespace ics::metrics {

namespace {

bool IsNameChar(char c, bool first, bool allow_colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  if (alpha || (allow_colon && c == ':')) return true;
  return !first && c >= '0' && c <= '9';
}

}  // namespace

const char* MetricTypeName(MetricType t) {
  switch (t) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

bool IsValidMetricName(const std::string& name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (!IsNameChar(name[i], i == 0, /*allow_colon=*/true)) return false;
  }
  return true;
}

bool IsValidLabelName(const std::string& name) {
  if (name.empty() || name.rfind("__", 0) == 0) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (!IsNameChar(name[i], i == 0, /*allow_colon=*/false)) return false;
  }
  return true;
}

std::shared_ptr<MetricRegistry::Series>* MetricRegistry::FindOrAddLocked(
    const std::string& name, const std::string& help, MetricType type, const Labels& labels,
    bool callback_family, double scale) {
  CHECK(IsValidMetricName(name)) << "invalid metric name '" << name << "'";
  for (const auto& [k, v] : labels) {
    CHECK(IsValidLabelName(k)) << "metric " << name << ": invalid label name '" << k << "'";
    CHECK(type != MetricType::kHistogram || k != "quantile")
        << "metric " << name << ": label 'quantile' is reserved for histograms";
  }
  auto [it, inserted] = families_.try_emplace(name);
  Family& f = it->second;
  if (inserted) {
    f.help = help;
    f.type = type;
    f.scale = scale;
  } else {
    CHECK(f.type == type) << "metric " << name << " registered as " << MetricTypeName(f.type)
                          << " and again as " << MetricTypeName(type);
    CHECK(!f.collect && (!callback_family || f.series.empty()))
        << "metric " << name << " mixes a callback family with other series";
  }
  if (callback_family) return nullptr;
  for (auto& s : f.series) {
    if (s->labels == labels) return &s;
  }
  f.series.push_back(nullptr);
  return &f.series.back();
}

// Series are immutable once published (exports read them without the lock):
// a new metric or a replaced callback gets a fresh Series object.
Counter* MetricRegistry::AddCounter(const std::string& name, const std::string& help,
                                    const Labels& labels) {
  MutexLock l(&mu_);
  auto* slot = FindOrAddLocked(name, help, MetricType::kCounter, labels, false, 1.0);
  if (*slot == nullptr) {
    auto s = std::make_shared<Series>();
    s->labels = labels;
    s->counter = std::make_unique<Counter>();
    *slot = std::move(s);
  }
  CHECK((*slot)->counter) << "metric " << name << " is already a callback counter";
  return (*slot)->counter.get();
}

Gauge* MetricRegistry::AddGauge(const std::string& name, const std::string& help,
                                const Labels& labels) {
  MutexLock l(&mu_);
  auto* slot = FindOrAddLocked(name, help, MetricType::kGauge, labels, false, 1.0);
  if (*slot == nullptr) {
    auto s = std::make_shared<Series>();
    s->labels = labels;
    s->gauge = std::make_unique<Gauge>();
    *slot = std::move(s);
  }
  CHECK((*slot)->gauge) << "metric " << name << " is already a callback gauge";
  return (*slot)->gauge.get();
}

Histogram* MetricRegistry::AddHistogram(const std::string& name, const std::string& help,
                                        double export_scale, const Labels& labels) {
  MutexLock l(&mu_);
  auto* slot = FindOrAddLocked(name, help, MetricType::kHistogram, labels, false, export_scale);
  if (*slot == nullptr) {
    auto s = std::make_shared<Series>();
    s->labels = labels;
    s->histogram = std::make_unique<Histogram>();
    *slot = std::move(s);
  }
  return (*slot)->histogram.get();
}

void MetricRegistry::AddCallbackLocked(const std::string& name, const std::string& help,
                                       MetricType type, std::function<double()> fn,
                                       const Labels& labels) {
  auto* slot = FindOrAddLocked(name, help, type, labels, false, 1.0);
  CHECK(*slot == nullptr || (*slot)->fn)
      << "metric " << name << " is already a plain " << MetricTypeName(type);
  auto s = std::make_shared<Series>();
  s->labels = labels;
  s->fn = std::move(fn);
  *slot = std::move(s);
}

void MetricRegistry::AddCallbackGauge(const std::string& name, const std::string& help,
                                      std::function<double()> fn, const Labels& labels) {
  MutexLock l(&mu_);
  AddCallbackLocked(name, help, MetricType::kGauge, std::move(fn), labels);
}

void MetricRegistry::AddCallbackCounter(const std::string& name, const std::string& help,
                                        std::function<double()> fn, const Labels& labels) {
  MutexLock l(&mu_);
  AddCallbackLocked(name, help, MetricType::kCounter, std::move(fn), labels);
}

void MetricRegistry::AddCallbackFamily(const std::string& name, const std::string& help,
                                       MetricType type, std::function<std::vector<Sample>()> fn) {
  CHECK(type != MetricType::kHistogram) << "metric " << name << ": callback families are "
                                        << "counters or gauges";
  MutexLock l(&mu_);
  auto it = families_.find(name);
  if (it != families_.end()) {
    CHECK(it->second.type == type && it->second.series.empty())
        << "metric " << name << " is already registered with other series or type";
  } else {
    FindOrAddLocked(name, help, type, {}, true, 1.0);
    it = families_.find(name);
  }
  it->second.collect = std::move(fn);
}

std::vector<MetricRegistry::FamilyView> MetricRegistry::Views() const {
  MutexLock l(&mu_);
  std::vector<FamilyView> out;
  out.reserve(families_.size());
  for (const auto& [name, f] : families_) {
    out.push_back(FamilyView{name, f.help, f.type, f.scale, f.collect, f.series});
  }
  return out;
}

}  // namespace ics::metrics
