// CatalogMetrics: catalogd's metrics besides the metastore latencies
// (timed_metastore.h), all in the daemon's MetricRegistry:
//
//   catalogd_topic_publication_duration_seconds  histogram: building one
//       catalog-update publication (the publisher's topic callback; runs
//       that published nothing are not counted)
//   catalogd_topic_publication_bytes             histogram: key + value bytes
//       of one publication (publications with entries only)
//   catalogd_topic_publication_entries           histogram: entries of one
//   catalogd_ddl_duration_seconds{kind}          histogram: DDL operations
//   catalogd_ddl_operations_total{status}        counter: finished DDL by outcome
//   gauges computed at export time: catalog version, last reset version,
//       databases, tables by load state, functions, delete log entries,
//       last published version, running DDL operations; counters:
//       publications, full publications, entries and bytes published.
//
// Ownership: borrows the registry and, for the gauges, the catalog,
// publisher and operation log; all must outlive every export (stop the web
// server first). Thread-safety: thread-safe.
#pragma once

#include <chrono>
#include <vector>

#include "StatestoreService_types.h"
#include "catalogd/catalog/catalog.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/metrics/metrics.h"
#include "common/util/audit_log.h"
#include "common/util/operation_log.h"

namespace ics::catalog {

class CatalogMetrics {
 public:
  explicit CatalogMetrics(metrics::MetricRegistry* registry);

  // Records one run of the publisher's topic callback that appended
  // out[first..] and started at `start`.
  void RecordPublication(const std::vector<impala::TTopicDelta>& out, size_t first,
                         std::chrono::steady_clock::time_point start);
  // Records one finished DDL operation (the operation log's finish callback).
  void RecordOperation(const OperationRecord& op);

  // Registers the export-time gauges over these objects (any may be null).
  void AddStateGauges(const Catalog* catalog, const CatalogTopicPublisher* publisher,
                      const OperationLog* operations);

  // Registers the audit log's line and write-error counters (null: none).
  void AddAuditCounters(const AuditLog* audit);

  metrics::MetricRegistry* registry() const { return registry_; }

 private:
  metrics::MetricRegistry* const registry_;
  metrics::Histogram* const publication_duration_;
  metrics::Histogram* const publication_bytes_;
  metrics::Histogram* const publication_entries_;
};

// Table counts of a catalog by load state, as the gauges and /catalog show.
struct TableCounts {
  int64_t databases = 0;
  int64_t loaded = 0;
  int64_t unloaded = 0;
  int64_t failed = 0;  // a load was tried and failed
  int64_t views = 0;   // included in loaded/unloaded
  int64_t functions = 0;
};
TableCounts CountTables(const Catalog& catalog);

}  // namespace ics::catalog
