// Export of a MetricRegistry: Prometheus text format 0.0.4 and JSON.
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/metrics/metrics.h"

namespace ics::metrics {

namespace {

std::string QuantileLabel(double q) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", q);
  return buf;
}

std::string QuantileKey(double q) {  // 0.5 -> p50, 0.999 -> p999
  std::string s = QuantileLabel(q * 100);
  std::string out = "p";
  for (char c : s) {
    if (c != '.') out += c;
  }
  return out;
}

// {a="x",b="y"} from labels plus an optional extra pair; "" when none.
std::string LabelText(const Labels& labels, const std::string& extra_name = "",
                      const std::string& extra_value = "") {
  if (labels.empty() && extra_name.empty()) return "";
  std::string out = "{";
  bool first = true;
  auto add = [&](const std::string& k, const std::string& v) {
    if (!first) out += ',';
    first = false;
    out += k;
    out += "=\"";
    out += EscapePrometheusLabelValue(v);
    out += '"';
  };
  for (const auto& [k, v] : labels) add(k, v);
  if (!extra_name.empty()) add(extra_name, extra_value);
  out += '}';
  return out;
}

void Line(std::string* out, const std::string& name, const std::string& labels, double v) {
  *out += name;
  *out += labels;
  *out += ' ';
  *out += FormatPrometheusValue(v);
  *out += '\n';
}

nlohmann::ordered_json LabelsJson(const Labels& labels) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : labels) j[k] = v;
  return j;
}

// JSON numbers cannot be NaN or infinite; those become null.
nlohmann::ordered_json Number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

}  // namespace

std::string EscapePrometheusLabelValue(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapePrometheusHelp(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatPrometheusValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    // Prefer the shortest representation that round-trips.
    for (int prec = 6; prec < 17; ++prec) {
      char shorter[40];
      std::snprintf(shorter, sizeof(shorter), "%.*g", prec, v);
      if (std::strtod(shorter, nullptr) == v) {
        std::snprintf(buf, sizeof(buf), "%s", shorter);
        break;
      }
    }
  }
  return buf;
}

std::string MetricRegistry::ToPrometheusText() const {
  std::string out;
  for (const FamilyView& f : Views()) {
    const bool hist = f.type == MetricType::kHistogram;
    out += "# HELP " + f.name + " " + EscapePrometheusHelp(f.help) + "\n";
    out += "# TYPE " + f.name + " " + (hist ? "summary" : MetricTypeName(f.type)) + "\n";
    if (f.collect) {
      for (const Sample& s : f.collect()) Line(&out, f.name, LabelText(s.labels), s.value);
      continue;
    }
    for (const auto& s : f.series) {
      if (s->counter) {
        Line(&out, f.name, LabelText(s->labels), static_cast<double>(s->counter->value()));
      } else if (s->gauge) {
        Line(&out, f.name, LabelText(s->labels), static_cast<double>(s->gauge->value()));
      } else if (s->fn) {
        Line(&out, f.name, LabelText(s->labels), s->fn());
      } else if (s->histogram) {
        const HistogramSnapshot snap = s->histogram->Snapshot();
        for (double q : kExportedQuantiles) {
          const double v = snap.count == 0 ? NAN : snap.Percentile(q) * f.scale;
          Line(&out, f.name, LabelText(s->labels, "quantile", QuantileLabel(q)), v);
        }
        Line(&out, f.name + "_sum", LabelText(s->labels), snap.sum * f.scale);
        Line(&out, f.name + "_count", LabelText(s->labels), static_cast<double>(snap.count));
      }
    }
  }
  return out;
}

nlohmann::ordered_json MetricRegistry::ToJson() const {
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
  for (const FamilyView& f : Views()) {
    nlohmann::ordered_json fam;
    fam["name"] = f.name;
    fam["help"] = f.help;
    fam["type"] = MetricTypeName(f.type);
    nlohmann::ordered_json series = nlohmann::ordered_json::array();
    auto value = [&](const Labels& labels, double v) {
      series.push_back({{"labels", LabelsJson(labels)}, {"value", Number(v)}});
    };
    if (f.collect) {
      for (const Sample& s : f.collect()) value(s.labels, s.value);
    }
    for (const auto& s : f.series) {
      if (s->counter) {
        value(s->labels, static_cast<double>(s->counter->value()));
      } else if (s->gauge) {
        value(s->labels, static_cast<double>(s->gauge->value()));
      } else if (s->fn) {
        value(s->labels, s->fn());
      } else if (s->histogram) {
        const HistogramSnapshot snap = s->histogram->Snapshot();
        nlohmann::ordered_json h;
        h["labels"] = LabelsJson(s->labels);
        h["count"] = snap.count;
        h["sum"] = Number(snap.sum * f.scale);
        h["min"] = Number(static_cast<double>(snap.min) * f.scale);
        h["max"] = Number(static_cast<double>(snap.max) * f.scale);
        h["mean"] = Number(snap.mean() * f.scale);
        for (double q : kExportedQuantiles) h[QuantileKey(q)] = Number(snap.Percentile(q) * f.scale);
        series.push_back(std::move(h));
      }
    }
    fam["series"] = std::move(series);
    metrics.push_back(std::move(fam));
  }
  return nlohmann::ordered_json{{"metrics", std::move(metrics)}};
}

}  // namespace ics::metrics
