// catalogd: the catalog daemon. Flag names follow Impala's where it has them.
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <algorithm>
#include <cstdint>

#include "catalogd/service/catalog_server.h"
#include "catalogd/service/catalog_server_pages.h"
#include "common/daemon/daemon.h"
#include "common/daemon/security_flags.h"
#include "common/util/heap_release.h"
#include "common/util/split.h"
#include "common/web/web_flags.h"

DEFINE_string(hostname, "127.0.0.1", "Host name other daemons use to reach this catalogd.");
DEFINE_string(listen_host, "",
              "Address the RPC ports bind to. Empty: every interface with TLS on, else "
              "loopback only.");
DEFINE_int32(catalog_service_port, 26000, "CatalogService port (0 picks a free port).");
DEFINE_string(state_store_host, "127.0.0.1", "Statestore host.");
DEFINE_int32(state_store_port, 24000, "Statestore port; -1 runs without a statestore.");
DEFINE_int32(state_store_subscriber_port, 23020, "Port of catalogd's statestore subscriber.");
DEFINE_string(state_store_2_host, "127.0.0.1", "statestored HA: the second statestore's host.");
DEFINE_int32(state_store_2_port, 0,
             "statestored HA: the second statestore's port (0: there is none). catalogd "
             "registers with both; its second subscriber takes a free port.");
DEFINE_int32(statestore_subscriber_timeout_seconds, 30,
             "No statestore heartbeat for this long => re-register.");
DEFINE_int32(statestore_subscriber_probe_ms, 2500,
             "No statestore heartbeat for this long => ask the statestore whether it still "
             "knows this subscriber (it may have restarted) and register again at once if not; "
             "0: only --statestore_subscriber_timeout_seconds.");
DEFINE_string(data_dir, "./catalogd-data", "Directory for the embedded metastore.");
DEFINE_string(warehouse_dir, "", "Warehouse root (default <data_dir>/warehouse).");
DEFINE_string(data_roots, "",
              "Comma-separated directories under which catalogd may create, delete and move "
              "data (default: the warehouse). Locations elsewhere are never deleted or moved, "
              "and not created.");
DEFINE_string(metastore, "",
              "Metastore: sqlite:<path> (default sqlite:<data_dir>/metastore.db), or "
              "thrift://host:port[?pool_size=N&rpc_timeout_ms=N&...] for a remote Hive "
              "Metastore.");
DEFINE_string(catalog_topic_mode, "minimal", "Topic entries to publish: full, mixed or minimal.");
DEFINE_bool(compact_catalog_topic, true, "LZ4-compress catalog topic values.");
DEFINE_bool(catalog_topic_push, true,
            "Push each catalog change to the statestore as it is installed (this project's "
            "statestored) instead of only asking the statestore to collect it in its next "
            "update's reply (one round trip less before the fan-out). A statestore that does "
            "not take pushes (Impala's) costs one failed call per 10 s, then the reply path "
            "is used.");
DEFINE_bool(load_catalog_in_background, false, "Load every table in the background at start.");
DEFINE_int32(num_metadata_loading_threads, 0,
             "Threads listing partition directories; 0 = one per CPU core (listing a local "
             "file system is CPU-bound, so more threads only contend).");
DEFINE_int32(sync_ddl_timeout_ms, 60000, "How long SYNC_DDL waits for publication.");
DEFINE_int64(max_partial_fetch_file_descs, 1000000,
             "Most file descriptors in one GetPartialCatalogObject response.");
DEFINE_bool(synthetic_files, false, "List synthetic files instead of the local file system.");
DEFINE_int32(metastore_service_port, 26100,
             "Port of the metastore services (PartitionService, TableService; one port, "
             "multiplexed). 0 picks a free port, negative disables. Not given while "
             "--catalog_service_port=0: a free port too.");
DEFINE_int64(metastore_write_streams_max_staged_bytes, 1ll << 30,
             "Most bytes of partitions that all open PartitionService write streams and "
             "in-flight partition batches may stage in memory together (per metastore service "
             "server); a write beyond it fails with RESOURCE_EXHAUSTED. <= 0: no cap.");
DEFINE_int64(metastore_write_streams_max_open, 1000,
             "Most PartitionService write streams open at once; opening another fails with "
             "RESOURCE_EXHAUSTED.");
DEFINE_int32(hms_port, 9083,
             "Port of the Hive Metastore endpoint (ThriftHiveMetastore; binary protocol, "
             "unframed, as Hive clients use). 0 picks a free port, negative disables. Not "
             "given while --catalog_service_port=0: a free port too.");
DEFINE_string(hms_catalog_name, "hive",
              "The catalog the Hive Metastore endpoint serves: Hive 3/4 clients name it in "
              "'@<catalog>#<database>' and in catName fields; any other catalog is answered "
              "NoSuchObjectException. metastore.catalog.default answers it.");
DEFINE_int32(hms_event_polling_interval_s, 1,
             "Seconds between polls of the metastore's notification log for changes made by "
             "other writers (applied to the catalog); 0 disables event processing.");
DEFINE_int32(hms_event_polling_interval_ms, 0,
             "If > 0, overrides --hms_event_polling_interval_s with a finer interval.");
DEFINE_int32(hms_event_batch_size, 1000, "Most notification events read per poll.");
DEFINE_int64(hms_event_retention_seconds, 7 * 24 * 3600,
             "Notification log events older than this are deleted in the background (as "
             "Hive's hive.metastore.event.db.listener.timetolive); events catalogd's event "
             "processor has not applied yet are kept. <= 0: no age limit.");
DEFINE_int64(hms_event_retention_max_events, 1000000,
             "At most this many newest notification log events are kept (same exception as "
             "--hms_event_retention_seconds). <= 0: no count limit.");
DEFINE_int64(table_version_retention, 1000,
             "At most this many archived versions are kept per table (TableService); older "
             "ones are deleted in the background. <= 0: keep all.");
DEFINE_int32(metastore_retention_interval_seconds, 60,
             "Seconds between background retention rounds (each deletes in batches of 1000 "
             "rows); <= 0 disables retention.");
DEFINE_string(audit_log_dir, "",
              "If set, every DDL, UpdateCatalog, ResetMetadata, metastore-service write and "
              "HMS write is recorded here, one JSON object per line (rotating files).");
DEFINE_int64(audit_log_max_file_bytes, 64ll << 20,
             "An audit file is rotated before it would exceed this size.");
DEFINE_int32(audit_log_max_files, 20,
             "Audit files kept (the oldest are removed); 0 keeps all of them.");
DEFINE_string(port_file, "", "If set, '<catalog port> <subscriber port>' is written here.");
DEFINE_bool(enable_catalogd_ha, false,
            "catalogd high availability: run as one of two catalogds sharing one metastore "
            "(--metastore sqlite: or postgresql:); the statestore designates one active, the "
            "other stays a warm standby that answers CATALOG_IN_STANDBY_MODE.");
DEFINE_bool(force_catalogd_active, false,
            "catalogd HA: ask the statestore to make this catalogd the active one, even if "
            "another is active.");
DEFINE_int32(catalogd_ha_catchup_timeout_ms, 30000,
             "catalogd HA: how long a takeover may spend applying the metastore's notification "
             "log before it is retried.");

namespace {

// " metastore_service=<port>" for the port file, or "" when disabled.
std::string MetastoreServicePortToken(const ics::catalog::CatalogServer& server) {
  const int port = server.metastore_service_port();
  return port > 0 ? " metastore_service=" + std::to_string(port) : "";
}

// " hms=<port>" for the port file, or "" when the HMS endpoint is disabled.
std::string HmsPortToken(const ics::catalog::CatalogServer& server) {
  const int port = server.hms_port();
  return port > 0 ? " hms=" + std::to_string(port) : "";
}

}  // namespace

int main(int argc, char** argv) {
  ics::ConfigureHeapForLongLivedState();
  ics::web::SetDefaultWebserverPort(25020);
  ics::InitDaemon(&argc, &argv, "catalogd: the catalog service daemon");
  auto security = ics::RpcSecurityFromFlags();
  if (!security.ok()) {
    LOG(ERROR) << "catalogd failed to start: " << security.status().ToString();
    return 2;
  }
  ics::catalog::CatalogServerOptions o;
  o.security = *security;
  o.bind_host = ics::ListenHostOrDefault(FLAGS_listen_host, o.security);
  o.port = FLAGS_catalog_service_port;
  o.hostname = FLAGS_hostname;
  o.data_dir = FLAGS_data_dir;
  o.warehouse_dir = FLAGS_warehouse_dir;
  o.data_roots = ics::SplitNonEmpty(FLAGS_data_roots);
  o.metastore = FLAGS_metastore;
  o.synthetic_files = FLAGS_synthetic_files;
  o.statestore_host = FLAGS_state_store_host;
  o.statestore_port = FLAGS_state_store_port;
  o.subscriber_port = FLAGS_state_store_subscriber_port;
  o.statestore2_host = FLAGS_state_store_2_host;
  o.statestore2_port = FLAGS_state_store_2_port;
  o.statestore_subscriber_timeout_ms = FLAGS_statestore_subscriber_timeout_seconds * 1000;
  o.statestore_subscriber_probe_ms = FLAGS_statestore_subscriber_probe_ms;
  auto mode = ics::catalog::ParseTopicMode(FLAGS_catalog_topic_mode);
  if (!mode.ok()) {
    LOG(ERROR) << mode.status().message();
    return 2;
  }
  o.publisher.mode = *mode;
  o.publisher.compact = FLAGS_compact_catalog_topic;
  o.push_topic_updates = FLAGS_catalog_topic_push;
  o.load_in_background = FLAGS_load_catalog_in_background;
  o.num_loading_threads = FLAGS_num_metadata_loading_threads;
  o.sync_ddl_timeout_ms = FLAGS_sync_ddl_timeout_ms;
  o.fetch.max_file_descs_per_response = FLAGS_max_partial_fetch_file_descs;
  o.hms_event_polling_interval_ms = FLAGS_hms_event_polling_interval_ms > 0
                                        ? FLAGS_hms_event_polling_interval_ms
                                        : FLAGS_hms_event_polling_interval_s * 1000;
  o.hms_event_batch_size = FLAGS_hms_event_batch_size;
  o.retention.event_max_age_seconds = FLAGS_hms_event_retention_seconds;
  o.retention.event_max_events = FLAGS_hms_event_retention_max_events;
  o.retention.table_versions_per_table = FLAGS_table_version_retention;
  o.retention.interval_ms =
      FLAGS_metastore_retention_interval_seconds > 0
          ? static_cast<int>(std::min<int64_t>(FLAGS_metastore_retention_interval_seconds,
                                               24 * 3600) * 1000)
          : 0;
  o.metastore_service_port = FLAGS_metastore_service_port;
  if (FLAGS_catalog_service_port == 0 &&
      gflags::GetCommandLineFlagInfoOrDie("metastore_service_port").is_default) {
    o.metastore_service_port = 0;  // tests that ask for free ports get one here too
  }
  o.metastore_write_streams_max_staged_bytes = FLAGS_metastore_write_streams_max_staged_bytes;
  o.metastore_write_streams_max_open = FLAGS_metastore_write_streams_max_open;
  o.hms_port = FLAGS_hms_port;
  o.hms_catalog_name = FLAGS_hms_catalog_name;
  if (FLAGS_catalog_service_port == 0 &&
      gflags::GetCommandLineFlagInfoOrDie("hms_port").is_default) {
    o.hms_port = 0;
  }

  o.audit.dir = FLAGS_audit_log_dir;
  o.audit.max_file_bytes = FLAGS_audit_log_max_file_bytes;
  o.audit.max_files = FLAGS_audit_log_max_files;
  o.enable_catalogd_ha = FLAGS_enable_catalogd_ha;
  o.force_catalogd_active = FLAGS_force_catalogd_active;
  o.catalogd_ha_catchup_timeout_ms = FLAGS_catalogd_ha_catchup_timeout_ms;

  ics::catalog::CatalogServer server(o);
  ics::Status s = server.Start();
  if (!s.ok()) {
    LOG(ERROR) << "catalogd failed to start: " << s.ToString();
    return 1;
  }
  auto web = ics::web::StartWebServerFromFlags(
      "catalogd", server.metrics(), [&server](ics::web::WebServer* ws) {
        ics::catalog::RegisterCatalogPages(ws, ics::catalog::CatalogPagesDepsOf(&server));
      });
  if (!web.ok()) {
    LOG(ERROR) << web.status().ToString();
    return 1;
  }
  if (!FLAGS_port_file.empty()) {
    s = ics::WriteFileAtomically(FLAGS_port_file, std::to_string(server.port()) + " " +
                                                      std::to_string(server.subscriber_port()) +
                                                      MetastoreServicePortToken(server) +
                                                      HmsPortToken(server) +
                                                      ics::web::PortFileToken(web->get()) + "\n");
    if (!s.ok()) {
      LOG(ERROR) << s.ToString();
      return 1;
    }
  }
  ics::WaitForShutdownSignal();
  if (*web) (*web)->Stop();  // before the server its pages read
  server.Stop();
  LOG(INFO) << "catalogd stopped";
  return 0;
}
