// coordinator-sim: runs N simulated coordinators in one process. The i-th
// uses coordinator port + i, subscriber port + i and web server port + i
// (0 = free ports).
#include <algorithm>
#include <memory>
#include <sstream>
#include <vector>

#include <gflags/gflags.h>
#include <glog/logging.h>

#include "common/daemon/daemon.h"
#include "common/daemon/security_flags.h"
#include "common/web/web_flags.h"
#include "coordinator-sim/coordinator.h"
#include "coordinator-sim/web/coordinator_pages.h"

DEFINE_string(hostname, "127.0.0.1", "Host name advertised to the statestore.");
DEFINE_string(listen_host, "",
              "Address the ports bind to. Empty: every interface with TLS on, else loopback "
              "only.");
DEFINE_int32(num_coordinators, 1, "Coordinators to run in this process.");
DEFINE_int32(coordinator_port, 21000, "CoordinatorService port of the first coordinator.");
DEFINE_int32(state_store_subscriber_port, 23000, "Subscriber port of the first coordinator.");
DEFINE_string(state_store_host, "127.0.0.1", "Statestore host.");
DEFINE_int32(state_store_port, 24000, "Statestore port.");
DEFINE_string(state_store_2_host, "127.0.0.1", "statestored HA: the second statestore's host.");
DEFINE_int32(state_store_2_port, 0,
             "statestored HA: the second statestore's port (0: there is none); each "
             "coordinator registers with both (its second subscriber takes a free port).");
DEFINE_int32(statestore_subscriber_timeout_seconds, 30,
             "No statestore heartbeat for this long => re-register.");
DEFINE_int32(statestore_subscriber_probe_ms, 2500,
             "No statestore heartbeat for this long => ask the statestore whether it still "
             "knows this subscriber (it may have restarted) and register again at once if not; "
             "0: only --statestore_subscriber_timeout_seconds.");
DEFINE_string(catalog_service_host, "127.0.0.1", "catalogd host.");
DEFINE_int32(catalog_service_port, 26000, "catalogd CatalogService port.");
DEFINE_bool(enable_catalogd_ha, false,
            "catalogd HA: follow the active catalogd the statestore designates "
            "(--catalog_service_host/port is only where to start), and repeat catalogd calls "
            "a standby refused or that could not be sent.");
DEFINE_int32(catalogd_ha_failover_wait_ms, 30000,
             "catalogd HA: how long one catalogd call follows failovers before its error is "
             "returned.");
DEFINE_bool(use_local_catalog, true,
            "On-demand local catalog (2: invalidations + partial fetches); false = full replica.");
DEFINE_int32(local_catalog_cache_mb, 256, "Byte limit of the on-demand cache.");
DEFINE_bool(compact_catalog_topic, true,
            "Catalog topic values are LZ4-compacted; must match catalogd's setting.");
DEFINE_int32(sync_ddl_timeout_ms, 60000, "How long SYNC_DDL waits before failing.");
DEFINE_int32(wait_for_catalog_timeout_ms, 30000,
             "How long a statement waits for the coordinator's first catalog topic update "
             "before it is refused with 'Catalog not ready' (0: refuse at once).");
DEFINE_string(id_prefix, "coordinator", "Subscriber ids are <prefix>-<i>.");
DEFINE_string(port_file, "",
              "If set, one line '<i> <port> <subscriber port> webserver=<port>' per "
              "coordinator (no webserver token with --enable_webserver=false).");

int main(int argc, char** argv) {
  ics::web::SetDefaultWebserverPort(25000);
  ics::InitDaemon(&argc, &argv, "coordinator-sim: simulated query coordinators");
  if (FLAGS_num_coordinators < 1) {
    LOG(ERROR) << "--num_coordinators must be >= 1";
    return 2;
  }
  auto security = ics::RpcSecurityFromFlags();
  if (!security.ok()) {
    LOG(ERROR) << "coordinator-sim failed to start: " << security.status().ToString();
    return 2;
  }
  const std::string listen_host = ics::ListenHostOrDefault(FLAGS_listen_host, *security);
  std::vector<std::unique_ptr<ics::coord::Coordinator>> coords;
  std::vector<std::unique_ptr<ics::web::WebServer>> webs;  // one per coordinator
  std::ostringstream ports;
  for (int i = 0; i < FLAGS_num_coordinators; ++i) {
    ics::coord::CoordinatorOptions o;
    o.id = FLAGS_id_prefix + "-" + std::to_string(i);
    o.hostname = FLAGS_hostname;
    o.bind_host = listen_host;
    o.security = *security;
    o.port = FLAGS_coordinator_port == 0 ? 0 : FLAGS_coordinator_port + i;
    o.subscriber_port =
        FLAGS_state_store_subscriber_port == 0 ? 0 : FLAGS_state_store_subscriber_port + i;
    o.statestore_host = FLAGS_state_store_host;
    o.statestore_port = FLAGS_state_store_port;
    o.statestore2_host = FLAGS_state_store_2_host;
    o.statestore2_port = FLAGS_state_store_2_port;
    o.statestore_subscriber_timeout_ms = FLAGS_statestore_subscriber_timeout_seconds * 1000;
    o.statestore_subscriber_probe_ms = FLAGS_statestore_subscriber_probe_ms;
    o.catalogd_host = FLAGS_catalog_service_host;
    o.catalogd_port = FLAGS_catalog_service_port;
    o.enable_catalogd_ha = FLAGS_enable_catalogd_ha;
    o.catalogd_ha_failover_wait_ms = std::max(0, FLAGS_catalogd_ha_failover_wait_ms);
    o.use_local_catalog = FLAGS_use_local_catalog;
    o.local_catalog_cache_bytes = int64_t{FLAGS_local_catalog_cache_mb} << 20;
    o.sync_ddl_timeout_ms = FLAGS_sync_ddl_timeout_ms;
    o.wait_for_catalog_timeout_ms = std::max(0, FLAGS_wait_for_catalog_timeout_ms);
    o.topic_format.compact = FLAGS_compact_catalog_topic;
    auto c = std::make_unique<ics::coord::Coordinator>(o);
    ics::Status s = c->Start();
    if (!s.ok()) {
      LOG(ERROR) << o.id << " failed to start: " << s.ToString();
      return 1;
    }
    ics::coord::Coordinator* coord = c.get();
    auto web = ics::web::StartWebServerFromFlags(
        o.id, coord->metrics(),
        [coord](ics::web::WebServer* ws) { ics::coord::RegisterCoordinatorPages(ws, coord); }, i);
    if (!web.ok()) {
      LOG(ERROR) << web.status().ToString();
      return 1;
    }
    LOG(INFO) << o.id << " serving on " << listen_host << ":" << c->port()
              << " (subscriber port " << c->subscriber_port() << ", "
              << (o.use_local_catalog ? "on-demand" : "full-replica") << " catalog"
              << (*web ? ", web port " + std::to_string((*web)->port()) : std::string()) << ")";
    ports << i << " " << c->port() << " " << c->subscriber_port()
          << ics::web::PortFileToken(web->get()) << "\n";
    coords.push_back(std::move(c));
    webs.push_back(std::move(*web));
  }
  if (!FLAGS_port_file.empty()) {
    ics::Status s = ics::WriteFileAtomically(FLAGS_port_file, ports.str());
    if (!s.ok()) {
      LOG(ERROR) << s.ToString();
      return 1;
    }
  }
  ics::WaitForShutdownSignal();
  for (auto& w : webs) {
    if (w) w->Stop();  // before the coordinators their pages read
  }
  for (auto& c : coords) c->Stop();
  LOG(INFO) << "coordinator-sim stopped";
  return 0;
}
