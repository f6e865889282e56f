// Coordinator::RegisterMetrics: what a coordinator exports on /metrics.
//
//   coordinator_statement_duration_seconds   histogram, every statement
//   coordinator_statements_total{status}     counter, OK or the error code
//   coordinator_local_catalog_{hits,misses,evictions,invalidations,fetches}_total
//   coordinator_local_catalog_partition_list_patches_total
//   coordinator_local_catalog_cached_bytes / _objects     gauges
//   coordinator_catalog_version             local catalog version
//   coordinator_catalog_ready               1 once the first catalog update is applied
//   coordinator_topic_catalog_version       highest version seen on the topic
//   coordinator_topic_version               last catalog-update topic version
//   coordinator_min_subscriber_topic_version
#include "coordinator-sim/coordinator.h"

namespace ics::coord {

void Coordinator::RegisterMetrics() {
  metrics::MetricRegistry* m = metrics_.get();
  metrics::Histogram* duration = m->AddHistogram(
      "coordinator_statement_duration_seconds",
      "Time to run one statement on this coordinator (parse, analyze, execute, SYNC_DDL wait).",
      1e-6);
  statements_->SetFinishCallback([m, duration](const OperationRecord& r) {
    duration->Record(r.duration_us);
    m->AddCounter("coordinator_statements_total", "Statements run, by outcome.",
                  {{"status", r.status}})
        ->Increment();
  });

  LocalCatalog* cat = catalog_.get();
  auto counter = [m, cat](const char* name, const char* help, int64_t LocalCatalogStats::*field) {
    m->AddCallbackCounter(name, help,
                          [cat, field] { return static_cast<double>(cat->Stats().*field); });
  };
  counter("coordinator_local_catalog_hits_total",
          "Local catalog lookups answered from what the coordinator holds.",
          &LocalCatalogStats::hits);
  counter("coordinator_local_catalog_misses_total",
          "Local catalog lookups that had to fetch from catalogd (on demand) or found nothing.",
          &LocalCatalogStats::misses);
  counter("coordinator_local_catalog_evictions_total",
          "Cache entries evicted for space or expiry (on-demand mode).",
          &LocalCatalogStats::evictions);
  counter("coordinator_local_catalog_invalidations_total",
          "Cached objects dropped by topic invalidations or deletions.",
          &LocalCatalogStats::invalidations);
  counter("coordinator_local_catalog_fetches_total",
          "GetPartialCatalogObject calls made to catalogd (on-demand mode).",
          &LocalCatalogStats::fetches);
  counter("coordinator_local_catalog_partition_list_patches_total",
          "Cached tables whose partition list was patched from a DDL result instead of "
          "being fetched again (on-demand mode).",
          &LocalCatalogStats::partition_list_patches);
  m->AddCallbackGauge("coordinator_local_catalog_cached_bytes",
                      "Estimated bytes of metadata the local catalog holds.",
                      [cat] { return static_cast<double>(cat->Stats().cached_bytes); });
  m->AddCallbackGauge("coordinator_local_catalog_objects", "Objects the local catalog holds.",
                      [cat] { return static_cast<double>(cat->Stats().objects); });
  m->AddCallbackGauge("coordinator_catalog_version",
                      "Catalog version of the local catalog (topic or own DDL results).",
                      [cat] { return static_cast<double>(cat->catalog_version()); });
  m->AddCallbackGauge("coordinator_catalog_ready",
                      "1 once the first catalog topic update has been applied and statements "
                      "are served, 0 before.",
                      [this] { return catalog_ready() ? 1.0 : 0.0; });
  m->AddCallbackGauge("coordinator_topic_catalog_version",
                      "Highest catalog version seen on the catalog-update topic.",
                      [this] { return static_cast<double>(topic_catalog_version()); });
  m->AddCallbackGauge("coordinator_topic_version",
                      "Version of the last catalog-update topic delta received.",
                      [this] { return static_cast<double>(State().topic_version); });
  m->AddCallbackGauge(
      "coordinator_min_subscriber_topic_version",
      "Lowest catalog-update topic version every subscriber has processed (SYNC_DDL waits on it).",
      [this] { return static_cast<double>(State().min_subscriber_topic_version); });
}

}  // namespace ics::coord
