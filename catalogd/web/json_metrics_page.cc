// /jsonmetrics: catalogd's metrics as one flat JSON object, the shape of
// Impala's /jsonmetrics (key -> value, no groups). First the catalog counts
// under the keys Impala's catalogd uses for them, then every series of the
// metric registry keyed "name" or "name{label=\"value\",...}": counters and
// gauges as numbers, histograms as {count, sum, min, max, mean, p50, ...}.
// ?metric=<key> answers only that key ({} when there is no such metric, as
// Impala does).
#include <string>

#include "catalogd/web/catalog_metrics.h"
#include "catalogd/web/catalog_pages.h"

namespace ics::catalog {

namespace {

using Json = nlohmann::ordered_json;

std::string SeriesKey(const std::string& name, const Json& labels) {
  if (!labels.is_object() || labels.empty()) return name;
  std::string key = name + "{";
  bool first = true;
  for (const auto& [k, v] : labels.items()) {
    if (!first) key += ",";
    first = false;
    key += k + "=\"" + (v.is_string() ? v.get<std::string>() : v.dump()) + "\"";
  }
  return key + "}";
}

Json FlatMetrics(const CatalogPagesDeps& deps) {
  Json out = Json::object();
  const TableCounts c = CountTables(*deps.catalog);
  out["catalog.num-databases"] = c.databases;
  out["catalog.num-tables"] = c.loaded + c.unloaded + c.failed;
  out["catalog.num-functions"] = c.functions;
  out["catalog.num-loaded-tables"] = c.loaded;
  if (deps.metrics == nullptr) return out;
  const Json all = deps.metrics->ToJson();
  for (const Json& family : all["metrics"]) {
    const std::string name = family["name"].get<std::string>();
    for (const Json& series : family["series"]) {
      const std::string key = SeriesKey(name, series.value("labels", Json::object()));
      if (series.contains("value")) {
        out[key] = series["value"];
      } else {
        Json h = series;
        h.erase("labels");
        out[key] = std::move(h);
      }
    }
  }
  return out;
}

Status JsonMetricsPage(const CatalogPagesDeps& deps, const web::WebRequest& req, Json* doc) {
  Json all = FlatMetrics(deps);
  if (req.Has("metric")) {
    Json one = Json::object();
    const std::string key = req.Param("metric");
    auto it = all.find(key);
    if (it != all.end()) one[key] = *it;
    *doc = std::move(one);
    return Status::OK();
  }
  *doc = std::move(all);
  return Status::OK();
}

}  // namespace

namespace web_internal {

void RegisterJsonMetricsPage(web::WebServer* server, const CatalogPagesDeps& deps) {
  web::PageOptions opts;
  opts.params = {"metric"};
  opts.in_menu = false;
  server->RegisterPage(
      "/jsonmetrics", "Metrics (flat JSON)",
      [deps](const web::WebRequest& req, Json* doc) { return JsonMetricsPage(deps, req, doc); },
      std::move(opts));
}

}  // namespace web_internal

}  // namespace ics::catalog
