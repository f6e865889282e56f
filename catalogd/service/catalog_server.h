// CatalogServer: catalogd assembled — the metastore, the catalog, loading,
// DDL, partial fetch, topic publishing through the statestore, and the
// CatalogService Thrift endpoint. This is what the catalogd binary runs and
// what in-process cluster tests create (ports may be 0).
//
// Start(): opens the metastore (embedded SQLite under data_dir by default),
// loads database/table/function names (tables stay unloaded until needed,
// or are loaded in the background), starts the RPC server, then subscribes
// to the catalog-update topic (a statestore that is not up yet is retried
// in the background), and starts the metastore retention worker. Stop() is
// idempotent and also run by the destructor.
//
// Thread-safety: Start/Stop from one thread; accessors from any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/metastore/metastore_retention.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "catalogd/topic/topic_pusher.h"
#include "common/metrics/metrics.h"
#include "common/rpc/endpoint_options.h"
#include "common/rpc/tls.h"
#include "common/util/audit_log.h"
#include "common/util/operation_log.h"
#include "common/util/status.h"

namespace ics::statestore {
class SubscriberPair;
}
namespace ics {
class ThriftServer;
}

namespace ics::catalog {

namespace ops {
class CatalogQueries;
class CommandCore;
}
namespace hms {
class HmsServer;
}
class CatalogMetrics;
class CatalogdRole;
class FencedMetastore;
class DdlExecutor;
class EventProcessor;
class SelfEventLog;
class MetastoreServiceServer;
class TableLoader;
class TableLoadManager;
class FileSystem;
class Metastore;
struct CatalogContext;

// The endpoint is the CatalogService's (port 26000 by default, 1 GiB
// messages); the HMS endpoint and the metastore services listen as it does
// on their own ports, the subscriber on its address with its TLS, and its
// TLS is that of every outgoing connection.
struct CatalogServerOptions : EndpointOptions {
  CatalogServerOptions() {
    port = 26000;
    max_message_bytes = 1ll << 30;
  }
  std::string hostname = "127.0.0.1";  // advertised to the statestore
  std::string data_dir = "./catalogd-data";
  std::string warehouse_dir;           // default: <data_dir>/warehouse
  // Where catalogd may create, delete and move data (loader/confined_file_system.h);
  // empty: the warehouse only.
  std::vector<std::string> data_roots;
  std::string metastore;               // default: sqlite:<data_dir>/metastore.db
  bool synthetic_files = false;        // list files from a synthetic source (benchmarks)
  // Statestore (disabled when statestore_port < 0).
  std::string statestore_host = "127.0.0.1";
  int statestore_port = 24000;
  int subscriber_port = 23020;
  // statestored HA: the second statestore (its subscriber gets a free
  // port); <= 0: none.
  std::string statestore2_host = "127.0.0.1";
  int statestore2_port = 0;
  int statestore_subscriber_timeout_ms = 30000;
  // StatestoreSubscriberOptions::statestore_probe_after_ms (0: no probes).
  int statestore_subscriber_probe_ms = 0;
  PublisherOptions publisher;
  // Push each change to the statestore as it is installed (this project's
  // statestore; catalogd/topic/topic_pusher.h) instead of only asking it to
  // collect the change in its next update's reply (a statestore that does
  // not take pushes, as Impala's, costs one failed call per backoff; see
  // topic_pusher.h). On by default since updates go oneway: the reply path
  // then takes a call more (docs/ARCHITECTURE.md).
  bool push_topic_updates = true;
  bool load_in_background = false;
  int num_loading_threads = 0;  // 0: one per CPU core
  int sync_ddl_timeout_ms = 60000;
  PartialFetchOptions fetch;
  // HMS event processor (catalogd/events): how often the notification log
  // is polled for external changes; <= 0 disables it.
  int hms_event_polling_interval_ms = 1000;
  int hms_event_batch_size = 1000;
  // The Hive Metastore endpoint (catalogd/hms) on its own port, a door of
  // the command core. < 0 disables it, 0 picks a free port.
  int hms_port = 0;
  // The catalog the HMS endpoint serves ("@<catalog>#<db>", catName).
  std::string hms_catalog_name = "hive";
  // The metastore-style services (PartitionService, ...) on their own port
  // (catalogd/mds/metastore_service_server.h); < 0 disables, 0 = free port.
  int metastore_service_port = 0;
  // Their memory bounds: bytes staged by all write streams and partition
  // batches together (<= 0: no cap), and open write streams at once.
  int64_t metastore_write_streams_max_staged_bytes = 1ll << 30;
  int64_t metastore_write_streams_max_open = 1000;
  // Retention of the metastore's notification log and archived table
  // versions (catalogd/metastore/metastore_retention.h), run in the
  // background; events the event processor has not applied are kept.
  // protected_event_id is set by the server.
  MetastoreRetentionOptions retention;
  // The audit log (common/util/audit_log.h) of every write operation:
  // DDL, UpdateCatalog, ResetMetadata, metastore-service writes and HMS
  // endpoint writes. Off when audit.dir is empty; Start fails when the
  // directory cannot be written.
  AuditLogOptions audit;
  // catalogd high availability (catalogd/service/catalogd_role.h): register
  // as an HA candidate; serve and write only while the statestore designates
  // this catalogd active. Needs a statestore, the event processor and a
  // metastore with writer epochs (SQLite or PostgreSQL) shared with the peer.
  bool enable_catalogd_ha = false;
  bool force_catalogd_active = false;
  // How long a takeover may spend applying the notification log.
  int catalogd_ha_catchup_timeout_ms = 30000;
};

class CatalogServer {
 public:
  explicit CatalogServer(CatalogServerOptions options);
  ~CatalogServer();

  [[nodiscard]] Status Start();
  void Stop();

  int port() const;
  // The HMS endpoint port; 0 when it is disabled.
  int hms_port() const;
  int subscriber_port() const;
  // The metastore service port; 0 when it is disabled.
  int metastore_service_port() const;
  Catalog* catalog() { return catalog_.get(); }
  // The daemon's metrics (served on /metrics); exists from construction.
  metrics::MetricRegistry* metrics() { return metrics_.get(); }
  // Running and recent catalog operations (the /operations page).
  const OperationLog* operations() const { return operations_.get(); }
  CatalogTopicPublisher* publisher() { return publisher_.get(); }
  EventProcessor* event_processor() { return events_.get(); }
  MetastoreRetention* retention() { return retention_.get(); }
  // Null without catalogd HA.
  const CatalogdRole* role() const { return role_.get(); }
  const CatalogServerOptions& options() const { return opts_; }

 private:
  // The steps of Start(), in order (see the .cc).
  [[nodiscard]] Status OpenStorage();
  [[nodiscard]] Status BuildCatalog();
  void CreateRole();
  [[nodiscard]] Status StartDoors();
  [[nodiscard]] Status StartSubscription();
  [[nodiscard]] Status EnsureDefaultDatabase();
  [[nodiscard]] Status LoadNamesFromMetastore();

  CatalogServerOptions opts_;
  // First, so it is destroyed last: its callbacks read the members below.
  std::unique_ptr<metrics::MetricRegistry> metrics_;
  std::unique_ptr<CatalogMetrics> catalog_metrics_;
  std::unique_ptr<AuditLog> audit_;  // before operations_, whose callback writes it
  std::unique_ptr<OperationLog> operations_;
  std::unique_ptr<Metastore> metastore_;  // undecorated: writes through it are external
  std::unique_ptr<SelfEventLog> self_events_;
  std::unique_ptr<FencedMetastore> fence_;    // HA only: between ddl_metastore_ and metastore_
  std::unique_ptr<Metastore> request_log_;    // records requests with their change
  std::unique_ptr<Metastore> ddl_metastore_;  // records own commits (ctx_->metastore)
  std::unique_ptr<FileSystem> fs_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<TableLoader> loader_;
  std::unique_ptr<TableLoadManager> loads_;
  std::unique_ptr<CatalogTopicPublisher> publisher_;
  std::unique_ptr<CatalogContext> ctx_;
  std::unique_ptr<DdlExecutor> ddl_;
  std::unique_ptr<ops::CommandCore> core_;        // every door's way to ddl_
  std::unique_ptr<ops::CatalogQueries> queries_;  // every door's reads of metastore_
  std::unique_ptr<PartialFetcher> fetcher_;
  std::unique_ptr<EventProcessor> events_;
  std::unique_ptr<MetastoreRetention> retention_;  // reads events_ (declared after it)
  std::unique_ptr<ThriftServer> rpc_;
  // Reads through queries_; every change goes through core_.
  std::unique_ptr<hms::HmsServer> hms_;
  std::unique_ptr<MetastoreServiceServer> mds_;
  std::unique_ptr<CatalogdRole> role_;  // HA only
  std::unique_ptr<statestore::SubscriberPair> subscribers_;  // two with statestored HA
  std::unique_ptr<TopicPusher> pusher_;  // after the subscribers it calls
  bool stopped_ = false;
};

}  // namespace ics::catalog
