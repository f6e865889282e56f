// catalogd's debug web pages, registered on the daemon's WebServer
// (common/web/web_server.h; every page is HTML and, with ?json, JSON):
//
//   /catalog                 catalog version, service id, table counts by
//                            load state, topic publication stats, the HMS
//                            event processor's status (when wired), every
//                            database and, nested in it, every table
//                            (?db=<name>: one database) with load state and
//                            version. Impala's JSON names and nesting:
//                            version, databases[{name, num_tables,
//                            tables[{fqtn, name, has_metrics}]}], beside
//                            this catalog's own fields
//   /catalog/table           ?db=&table=: a table's schema, load state,
//                            version, partitions (linked) and, when
//                            unpartitioned, its files
//   /catalog/partition       ?db=&table=&partition=<k=v/...>: one
//                            partition's files
//   /catalog_object          ?type=DATABASE|TABLE|VIEW|FUNCTION|CATALOG
//                            &name=... (Impala's object_type=/object_name=
//                            too): the object as catalogd serves it, Thrift
//                            text in "thrift_string"; 400 for a bad type or
//                            name, 404 for a missing object
//   /jsonmetrics             Impala's flat metrics document: one key per
//                            metric (Impala's catalog.* names for the
//                            catalog counts, then every registry series as
//                            name or name{labels}); ?metric=<key>: that one
//   /operations              running and recent catalog operations (DDL,
//                            UpdateCatalog, REFRESH/INVALIDATE) with
//                            requester, duration, outcome and version
//
// Pages read immutable snapshots (Catalog, TableState), never load a table
// or block DDL. Lists are capped (?limit=, default 1000 rows) so a huge
// catalog cannot produce an unbounded page.
//
// Ownership: borrows everything in CatalogPagesDeps; all must outlive the
// web server (stop it first). Thread-safety: handlers are thread-safe.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "catalogd/catalog/catalog.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/metrics/metrics.h"
#include "common/util/operation_log.h"
#include "common/web/web_server.h"

namespace ics::catalog {

struct CatalogPagesDeps {
  const Catalog* catalog = nullptr;                   // required
  const CatalogTopicPublisher* publisher = nullptr;   // optional
  const OperationLog* operations = nullptr;           // optional
  const metrics::MetricRegistry* metrics = nullptr;   // optional: for /jsonmetrics
  // Optional: the HMS event processor's status as a JSON object.
  std::function<nlohmann::ordered_json()> event_processor_status;
  // Optional: catalogd high availability (role, designation, writer epoch)
  // as a JSON object.
  std::function<nlohmann::ordered_json()> ha_status;
};

void RegisterCatalogPages(web::WebServer* server, const CatalogPagesDeps& deps);

// Default and largest accepted ?limit of the list pages.
inline constexpr int kDefaultPageRows = 1000;
inline constexpr int kMaxPageRows = 100000;

namespace web_internal {
// Shared by the page files: ?limit= parsed and checked (400 on a bad value).
Result<int> ParseLimit(const web::WebRequest& req);
// "2026-11-30T08:30:00.123Z"
std::string FormatUtcMillis(int64_t ms_since_epoch);
void RegisterCatalogObjectPage(web::WebServer* server, const CatalogPagesDeps& deps);
void RegisterOperationsPage(web::WebServer* server, const CatalogPagesDeps& deps);
void RegisterJsonMetricsPage(web::WebServer* server, const CatalogPagesDeps& deps);
}  // namespace web_internal

}  // namespace ics::catalog
