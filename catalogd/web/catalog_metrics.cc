#include "catalogd/web/catalog_metrics.h"

namespace ics::catalog {

CatalogMetrics::CatalogMetrics(metrics::MetricRegistry* registry)
    : registry_(registry),
      publication_duration_(registry->AddHistogram(
          "catalogd_topic_publication_duration_seconds",
          "Time to build one catalog-update topic publication that carried entries (collect "
          "the delta, serialize and compress the changed objects).",
          1e-6)),
      publication_bytes_(registry->AddHistogram(
          "catalogd_topic_publication_bytes",
          "Key and value bytes of one catalog-update publication that carried entries.")),
      publication_entries_(registry->AddHistogram(
          "catalogd_topic_publication_entries",
          "Topic entries of one catalog-update publication that carried entries.")) {}

void CatalogMetrics::RecordPublication(const std::vector<impala::TTopicDelta>& out, size_t first,
                                       std::chrono::steady_clock::time_point start) {
  int64_t bytes = 0;
  int64_t entries = 0;
  for (size_t i = first; i < out.size(); ++i) {
    for (const impala::TTopicItem& item : out[i].topic_entries) {
      bytes += static_cast<int64_t>(item.key.size() + item.value.size());
      ++entries;
    }
  }
  if (entries == 0) return;  // nothing changed: not a publication
  publication_duration_->RecordMicrosSince(start);
  publication_bytes_->Record(bytes);
  publication_entries_->Record(entries);
}

void CatalogMetrics::RecordOperation(const OperationRecord& op) {
  registry_
      ->AddHistogram("catalogd_ddl_duration_seconds",
                     "Duration of catalog operations (DDL, UpdateCatalog, REFRESH/INVALIDATE) "
                     "in catalogd, by kind.",
                     1e-6, {{"kind", op.kind}})
      ->Record(op.duration_us);
  registry_
      ->AddCounter("catalogd_ddl_operations_total",
                   "Finished catalog operations by outcome (OK or the error code).",
                   {{"status", op.status}})
      ->Increment();
}

void CatalogMetrics::AddAuditCounters(const AuditLog* audit) {
  if (audit == nullptr) return;
  registry_->AddCallbackCounter("catalogd_audit_log_lines_total",
                                "Lines written to the audit log (--audit_log_dir).",
                                [audit] { return static_cast<double>(audit->lines_written()); });
  registry_->AddCallbackCounter(
      "catalogd_audit_log_write_errors_total",
      "Audit records that could not be written (the operations themselves went on).",
      [audit] { return static_cast<double>(audit->write_errors()); });
}

TableCounts CountTables(const Catalog& catalog) {
  TableCounts c;
  for (const std::string& db : catalog.DatabaseNames()) {
    ++c.databases;
    for (const TablePtr& t : catalog.TablesOf(db)) {
      if (t->loaded) {
        ++c.loaded;
      } else if (!t->load_status.ok()) {
        ++c.failed;
      } else {
        ++c.unloaded;
      }
      if (t->is_view()) ++c.views;
    }
    c.functions += static_cast<int64_t>(catalog.FunctionsOf(db).size());
  }
  return c;
}

void CatalogMetrics::AddStateGauges(const Catalog* catalog, const CatalogTopicPublisher* publisher,
                                    const OperationLog* operations) {
  using metrics::MetricType;
  using metrics::Sample;
  if (catalog != nullptr) {
    registry_->AddCallbackGauge("catalogd_catalog_version", "Current global catalog version.",
                                [catalog] { return static_cast<double>(catalog->version()); });
    registry_->AddCallbackGauge(
        "catalogd_last_reset_version",
        "Catalog version at the last global reset (startup or INVALIDATE METADATA).",
        [catalog] { return static_cast<double>(catalog->last_reset_version()); });
    registry_->AddCallbackGauge(
        "catalogd_delete_log_entries",
        "Dropped objects kept for topic deltas until the statestore has them.",
        [catalog] { return static_cast<double>(catalog->delete_log_size()); });
    registry_->AddCallbackFamily(
        "catalogd_catalog_objects",
        "Objects in the catalog: databases, functions, and tables by load state.",
        MetricType::kGauge, [catalog] {
          const TableCounts c = CountTables(*catalog);
          return std::vector<Sample>{
              {{{"kind", "database"}}, static_cast<double>(c.databases)},
              {{{"kind", "function"}}, static_cast<double>(c.functions)},
              {{{"kind", "table"}, {"state", "loaded"}}, static_cast<double>(c.loaded)},
              {{{"kind", "table"}, {"state", "unloaded"}}, static_cast<double>(c.unloaded)},
              {{{"kind", "table"}, {"state", "failed"}}, static_cast<double>(c.failed)}};
        });
  }
  if (publisher != nullptr) {
    registry_->AddCallbackGauge(
        "catalogd_topic_last_published_version",
        "Highest catalog version handed to the statestore in a publication.",
        [publisher] { return static_cast<double>(publisher->last_published_version()); });
    registry_->AddCallbackCounter("catalogd_topic_publications_total",
                                  "catalog-update publications with entries.", [publisher] {
                                    return static_cast<double>(publisher->Stats().publications);
                                  });
    registry_->AddCallbackCounter(
        "catalogd_topic_full_publications_total",
        "Full catalog-update publications (clear_topic_entries).",
        [publisher] { return static_cast<double>(publisher->Stats().full_publications); });
    registry_->AddCallbackCounter(
        "catalogd_topic_pushed_publications_total",
        "catalog-update publications pushed to the statestore as the change was installed "
        "(the others went in UpdateState replies).",
        [publisher] { return static_cast<double>(publisher->Stats().pushed_publications); });
    registry_->AddCallbackCounter(
        "catalogd_topic_entries_published_total", "Topic entries published.",
        [publisher] { return static_cast<double>(publisher->Stats().entries_published); });
    registry_->AddCallbackCounter(
        "catalogd_topic_bytes_published_total", "Topic value bytes published.",
        [publisher] { return static_cast<double>(publisher->Stats().bytes_published); });
  }
  if (operations != nullptr) {
    registry_->AddCallbackGauge(
        "catalogd_ddl_operations_running", "Catalog operations in progress.",
        [operations] { return static_cast<double>(operations->Get().running.size()); });
  }
}

}  // namespace ics::catalog
