// Coordinator: one simulated query coordinator — a statestore subscriber
// with its own local catalog (full replica or on demand), a connection to
// catalogd for catalog operations, SYNC_DDL waiting, and the
// CoordinatorService endpoint the shell talks to.
//
// Many coordinators can live in one process (coordinator-sim
// --num_coordinators); each has its own subscriber id, ports and catalog.
//
// Observability: each coordinator owns a MetricRegistry (statement
// latency, local catalog cache counters, catalog and topic versions; see
// coordinator_metrics.cc) and a bounded log of recent statements; its web
// pages (coordinator-sim/web) read them and State().
//
// Lifecycle: construct, Start(), Stop() (idempotent; also the destructor).
// Thread-safety: thread-safe.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "common/codec/catalog_topic.h"
#include "common/metrics/metrics.h"
#include "common/rpc/endpoint_options.h"
#include "common/rpc/tls.h"
#include "common/util/mutex.h"
#include "common/util/operation_log.h"
#include "coordinator-sim/exec/backend.h"
#include "statestore/subscriber_pair.h"

namespace ics {
class ThriftServer;
template <typename T>
class ThriftClient;
}  // namespace ics
namespace impala {
class CatalogServiceClient;
}

namespace ics::coord {

class StatementExecutor;

// A coordinator's catalog and statestore position, for its debug pages.
struct CoordinatorState {
  std::string id;
  bool on_demand = true;           // local catalog mode
  int64_t local_catalog_version = 0;
  std::string catalog_service_id;  // "" before the first update
  bool catalog_ready = false;         // first catalog topic update applied
  int64_t topic_catalog_version = 0;  // highest catalog version seen on the topic
  int64_t topic_version = 0;          // last catalog-update topic version received
  int64_t min_subscriber_topic_version = 0;
  bool registered = false;
  int64_t registrations = 0;
  std::string registration_id;
};

// The endpoint is the CoordinatorService's (port 21000 by default, 64
// connections); its address and TLS are also the subscriber callback
// port's, and its TLS that of every outgoing connection.
struct CoordinatorOptions : EndpointOptions {
  CoordinatorOptions() {
    port = 21000;
    max_connections = 64;
  }
  std::string id = "coordinator-0";
  std::string hostname = "127.0.0.1";
  int subscriber_port = 23000;  // 0 = free port
  std::string statestore_host = "127.0.0.1";
  int statestore_port = 24000;
  int statestore_subscriber_timeout_ms = 30000;
  // StatestoreSubscriberOptions::statestore_probe_after_ms (0: no probes).
  int statestore_subscriber_probe_ms = 0;
  // statestored HA: the second statestore (registered with too; its
  // subscriber takes a free port). <= 0: none.
  std::string statestore2_host = "127.0.0.1";
  int statestore2_port = 0;
  std::string catalogd_host = "127.0.0.1";
  int catalogd_port = 26000;
  bool use_local_catalog = true;  // on-demand mode (peer default); false = full replica
  int64_t local_catalog_cache_bytes = 256ll << 20;
  int sync_ddl_timeout_ms = 60000;
  // How long a statement waits for the first catalog topic update before it is
  // refused with "Catalog not ready" (0: refuse at once while not ready).
  int wait_for_catalog_timeout_ms = 30000;
  int catalog_rpc_timeout_ms = 120000;
  // catalogd HA: follow the active catalogd the statestore designates
  // (UpdateCatalogd; catalogd_host/port is only the first guess), and repeat
  // a catalogd call refused by a standby or not sent for up to this long
  // (coordinator-sim/catalog/catalogd_client.h).
  bool enable_catalogd_ha = false;
  int catalogd_ha_failover_wait_ms = 30000;
  CatalogTopicFormat topic_format;  // --compact_catalog_topic (must match catalogd's)
  // Called on the statestore callback thread after a catalog topic update
  // advanced the topic's catalog version, with the new version: how a
  // benchmark timestamps "applied" where it happens. Empty by default.
  std::function<void(int64_t catalog_version)> on_topic_catalog_version;
};

class Coordinator : public CoordinatorBackend {
 public:
  explicit Coordinator(CoordinatorOptions options);
  ~Coordinator() override;

  [[nodiscard]] Status Start();
  void Stop();

  int port() const;
  int subscriber_port() const;
  StatementExecutor* executor() { return executor_.get(); }
  const CoordinatorOptions& options() const { return opts_; }
  // The coordinator's metrics (served on its /metrics); exist from construction.
  metrics::MetricRegistry* metrics() { return metrics_.get(); }
  // Recent statements (bounded), as run by executor().
  const OperationLog* statements() const { return statements_.get(); }
  CoordinatorState State() const EXCLUDES(mu_);

  // CoordinatorBackend
  LocalCatalog* catalog() override { return catalog_.get(); }
  const std::string& coordinator_id() const override { return opts_.id; }
  Result<impala::TDdlExecResponse> ExecDdl(impala::TDdlExecRequest req, bool sync_ddl) override;
  Result<impala::TCatalogUpdateResult> UpdateCatalog(impala::TUpdateCatalogRequest req,
                                                     bool sync_ddl) override;
  Result<impala::TCatalogUpdateResult> ResetMetadata(impala::TResetMetadataRequest req,
                                                     bool sync_ddl) override;

  // Ready once the first catalog topic update (one carrying catalogd's CATALOG
  // object) has been applied to the local catalog; waits up to
  // options().wait_for_catalog_timeout_ms, then RECOVERABLE_ERROR
  // "Catalog not ready: ...". Also fails at once after Stop().
  [[nodiscard]] Status WaitForCatalogReady() override EXCLUDES(mu_);
  // Whether the first catalog topic update has been applied (no waiting).
  bool catalog_ready() const EXCLUDES(mu_);

  // Waits (SYNC_DDL) until catalog version `v` of the catalogd with service
  // id `service_id` (the one that answered) was seen on the topic and every
  // subscriber processed the topic version that carried it. If another
  // catalogd publishes meanwhile (a failover), any version of its catalog
  // holds the change (it caught up with the metastore after the change
  // committed): the wait is then for its first version seen.
  [[nodiscard]] Status WaitForSyncDdl(int64_t v, const impala::TUniqueId& service_id)
      EXCLUDES(mu_);

  // Highest catalog version seen on the topic (not counting own results).
  int64_t topic_catalog_version() const EXCLUDES(mu_);

 private:
  // `source`: which statestore's subscriber delivered it (0 or 1).
  void OnTopicUpdate(int source, const impala::TTopicDelta& delta,
                     std::vector<impala::TTopicDelta>* publications) EXCLUDES(mu_);
  statestore::StatestoreSubscriber* Subscriber(int source) const {
    return subscribers_->at(source);
  }
  // Applies a catalogd result and, with SYNC_DDL, waits until every
  // coordinator has it. A wait that times out does not fail the statement
  // (catalogd committed the change): `*warning` then says so.
  Result<impala::TCatalogUpdateResult> Finish(impala::TCatalogUpdateResult result, bool sync_ddl,
                                              std::string* warning);
  // Before a SYNC_DDL statement goes to catalogd: the statestore is told a
  // wait for the catalog topic's minimum is coming (ExpectMinWait).
  void ExpectSyncDdl(bool sync_ddl) EXCLUDES(mu_);
  // Registers the metrics (coordinator_metrics.cc); from the constructor.
  void RegisterMetrics();

  const CoordinatorOptions opts_;
  // Before everything its callbacks read, so it is destroyed after them.
  std::unique_ptr<metrics::MetricRegistry> metrics_;
  std::unique_ptr<OperationLog> statements_;
  std::unique_ptr<LocalCatalog> catalog_;
  std::unique_ptr<statestore::SubscriberPair> subscribers_;  // two with statestored HA
  std::unique_ptr<StatementExecutor> executor_;
  std::unique_ptr<ThriftServer> rpc_;

  // Shared with the on-demand catalog: one pool of connections to catalogd.
  std::shared_ptr<CatalogdClient> catalogd_;

  mutable Mutex mu_;
  CondVar topic_cv_;
  int64_t topic_catalog_version_ GUARDED_BY(mu_) = 0;
  // Set by the first applied catalog topic update; never cleared (a new
  // catalogd's first update replaces the catalog, it does not unready it).
  bool catalog_ready_ GUARDED_BY(mu_) = false;
  impala::TUniqueId topic_service_id_ GUARDED_BY(mu_);  // of the last CATALOG entry seen
  // (catalog version, topic version of the delta that first carried it),
  // ascending in both (an entry is added only for a newer catalog version,
  // and the list is cleared when the numbering changes), the last
  // kMaxTopicVersions of them; topic versions as numbered by the statestore
  // that sent the last update (`topic_source_`: they are per statestore).
  // Appending at the end touches one cache line, where a tree of thousands
  // of entries per coordinator cost a walk of cold nodes on every update.
  static constexpr size_t kMaxTopicVersions = 4096;
  std::deque<std::pair<int64_t, int64_t>> topic_version_of_ GUARDED_BY(mu_);
  int topic_source_ GUARDED_BY(mu_) = 0;
  // The statestore process behind topic_source_ (a restarted statestore
  // numbers its topic versions afresh, behind the same subscriber).
  std::optional<impala::TUniqueId> topic_source_statestore_ GUARDED_BY(mu_);
  std::atomic<bool> stopped_{false};
};

}  // namespace ics::coord
