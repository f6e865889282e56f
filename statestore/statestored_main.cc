// statestored: the pub/sub topic broker daemon. Flag names follow Impala's.
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <algorithm>
#include <chrono>

#include "common/daemon/daemon.h"
#include "common/daemon/security_flags.h"
#include "common/web/web_flags.h"
#include "statestore/statestore_ha.h"
#include "statestore/statestore_server.h"
#include "statestore/statestore_web.h"

DEFINE_string(hostname, "",
              "Address to bind the StatestoreService port to. Empty: every interface with TLS "
              "on, else loopback only.");
DEFINE_int32(state_store_port, 24000, "StatestoreService port (0 picks a free port).");
DEFINE_string(port_file, "",
              "If set, '<port> webserver=<web port>' is written to this file once listening.");
DEFINE_int32(statestore_heartbeat_frequency_ms, 1000,
             "Interval between heartbeats to each subscriber (each one spread by up to 10% "
             "so that subscribers do not get theirs all at once).");
DEFINE_int32(statestore_max_missed_heartbeats, 10,
             "Consecutive failed heartbeats after which a subscriber is failed.");
DEFINE_int32(statestore_heartbeat_tcp_timeout_seconds, 3, "Timeout of one heartbeat RPC.");
DEFINE_int32(statestore_heartbeat_tcp_timeout_ms, 0,
             "Timeout of one heartbeat RPC in ms (overrides the seconds flag when > 0).");
DEFINE_int32(statestore_update_tcp_timeout_seconds, 30, "Timeout of one UpdateState RPC.");
DEFINE_int32(statestore_update_frequency_ms, 2000,
             "Fallback cadence: every subscriber gets an update about this often (+-10%), "
             "even when nothing changed. Changes are pushed immediately regardless.");
DEFINE_int32(statestore_max_subscribers, 10000, "Most registrations accepted at once.");
DEFINE_int32(statestore_num_update_threads, 32, "Workers sending UpdateState RPCs.");
DEFINE_int32(statestore_num_heartbeat_threads, 16, "Workers sending Heartbeat RPCs.");
DEFINE_int32(statestore_tombstone_retention_ms, 60000,
             "Deleted entries every subscriber has processed are dropped after this long.");
DEFINE_int64(statestore_max_message_bytes, 1ll << 30, "Largest Thrift message accepted or sent.");
DEFINE_string(statestore_catalogd_identity, "",
              "The catalogd's identity: its certificate subject with mutual TLS (RFC 2253, "
              "e.g. 'CN=catalogd') or 'token:<name>' with --statestore_subscriber_tokens_file; "
              "only it may register as catalogd and write catalog-update. Empty: any "
              "catalogd-type registration may.");
DEFINE_string(statestore_topic_writers, "",
              "Owners of other topics, 'topic=identity;topic=identity': only that certificate "
              "subject may write the topic. Unlisted topics are open.");

DEFINE_string(statestore_subscriber_tokens_file, "",
              "Token table ('<name> <secret>' per line): every registration must present one "
              "of the secrets (subscribers' --statestore_auth_token_file) unless its client "
              "certificate identifies it; its identity is then 'token:<name>'.");

DEFINE_int32(catalogd_ha_preemption_wait_period_ms, 10000,
             "catalogd HA: how long the first designation of an active catalogd waits for a "
             "second catalogd to register (one registered with --force_catalogd_active, or a "
             "second one, ends the wait).");
DEFINE_int32(active_catalogd_designation_monitoring_interval_ms, 100,
             "catalogd HA: the active catalogd is heartbeated at this interval instead of "
             "--statestore_heartbeat_frequency_ms.");
DEFINE_int32(active_catalogd_heartbeat_timeout_ms, 250,
             "catalogd HA: a heartbeat to the active catalogd that has no answer within this "
             "long is missed (a stopped process accepts connections but never answers).");
DEFINE_int32(active_catalogd_max_missed_heartbeats, 3,
             "catalogd HA: consecutive missed heartbeats (probes included) after which the "
             "active role passes to a standby catalogd.");

DEFINE_bool(enable_statestored_ha, false,
            "statestored HA: run as one of two statestores (--state_store_peer_host, "
            "--state_store_peer_ha_port); one is active, the other a standby that takes over.");
DEFINE_int32(state_store_ha_port, 24020,
             "statestored HA: this statestore's StatestoreHaService port.");
DEFINE_string(state_store_peer_host, "127.0.0.1", "statestored HA: the other statestore's host.");
DEFINE_int32(state_store_peer_ha_port, 24020,
             "statestored HA: the other statestore's StatestoreHaService port.");
DEFINE_int32(statestore_peer_timeout_seconds, 1,
             "statestored HA: a standby that hears no heartbeat from the active for this long "
             "takes over (and at start-up, a peer that does not answer for this long is taken "
             "to be down).");
DEFINE_int32(statestore_peer_timeout_ms, 0,
             "statestored HA: if > 0, overrides --statestore_peer_timeout_seconds.");
DEFINE_int32(statestore_ha_heartbeat_monitoring_frequency_ms, 100,
             "statestored HA: interval of the active statestore's heartbeats to the standby.");
DEFINE_bool(statestore_force_active, false,
            "statestored HA: prefer this statestore as the active one when both start.");

int main(int argc, char** argv) {
  ics::web::SetDefaultWebserverPort(25010);
  ics::InitDaemon(&argc, &argv, "statestored: the catalog pub/sub topic broker");
  auto security = ics::RpcSecurityFromFlags();
  if (!security.ok()) {
    LOG(ERROR) << "statestored failed to start: " << security.status().ToString();
    return 2;
  }
  ics::statestore::StatestoreServerOptions opts;
  opts.security = *security;
  opts.bind_host = ics::ListenHostOrDefault(FLAGS_hostname, opts.security);
  opts.port = FLAGS_state_store_port;
  auto& ss = opts.statestore;
  ss.heartbeat_interval_ms = FLAGS_statestore_heartbeat_frequency_ms;
  ss.max_missed_heartbeats = FLAGS_statestore_max_missed_heartbeats;
  ss.heartbeat_timeout_ms = FLAGS_statestore_heartbeat_tcp_timeout_ms > 0
                                ? FLAGS_statestore_heartbeat_tcp_timeout_ms
                                : FLAGS_statestore_heartbeat_tcp_timeout_seconds * 1000;
  ss.update_timeout_ms = FLAGS_statestore_update_tcp_timeout_seconds * 1000;
  ss.update_frequency_ms = FLAGS_statestore_update_frequency_ms;
  ss.max_subscribers = FLAGS_statestore_max_subscribers;
  ss.num_update_threads = FLAGS_statestore_num_update_threads;
  ss.num_heartbeat_threads = FLAGS_statestore_num_heartbeat_threads;
  ss.tombstone_retention_ms = FLAGS_statestore_tombstone_retention_ms;
  ss.max_message_bytes = FLAGS_statestore_max_message_bytes;
  ss.catalogd_ha.preemption_wait =
      std::chrono::milliseconds(std::max(0, FLAGS_catalogd_ha_preemption_wait_period_ms));
  ss.active_catalogd_probe_interval_ms =
      std::max(1, FLAGS_active_catalogd_designation_monitoring_interval_ms);
  ss.active_catalogd_heartbeat_timeout_ms =
      std::max(1, FLAGS_active_catalogd_heartbeat_timeout_ms);
  ss.active_catalogd_max_missed_heartbeats =
      std::max(1, FLAGS_active_catalogd_max_missed_heartbeats);
  ss.writers.catalogd_identity = FLAGS_statestore_catalogd_identity;
  auto writers = ics::statestore::ParseTopicWriters(FLAGS_statestore_topic_writers);
  if (!writers.ok()) {
    LOG(ERROR) << "--statestore_topic_writers: " << writers.status().message();
    return 2;
  }
  ss.writers.writers = std::move(*writers);
  if (!FLAGS_statestore_subscriber_tokens_file.empty()) {
    auto tokens =
        ics::statestore::ReadSubscriberTokensFile(FLAGS_statestore_subscriber_tokens_file);
    if (!tokens.ok() || tokens->entries.empty()) {
      LOG(ERROR) << "--statestore_subscriber_tokens_file: "
                 << (tokens.ok() ? "no tokens in the file" : tokens.status().message());
      return 2;
    }
    ss.tokens = std::move(*tokens);
  }
  const bool mtls =
      opts.security.tls != nullptr && opts.security.tls->options().require_client_certificate;
  if ((!ss.writers.catalogd_identity.empty() || !ss.writers.writers.empty()) && !mtls &&
      ss.tokens.entries.empty()) {
    LOG(ERROR) << "--statestore_catalogd_identity and --statestore_topic_writers name "
                  "identities: certificate subjects (mutual TLS: --ssl_server_certificate, "
                  "--ssl_private_key, --ssl_client_ca_certificate, "
                  "--ssl_require_client_certificate) or token names "
                  "(--statestore_subscriber_tokens_file)";
    return 2;
  }
  if (ss.heartbeat_interval_ms <= 0 || ss.max_missed_heartbeats <= 0 ||
      ss.heartbeat_timeout_ms <= 0 || ss.update_frequency_ms <= 0) {
    LOG(ERROR) << "heartbeat/update intervals, timeouts and missed-heartbeat count must be > 0";
    return 2;
  }

  ss.start_as_standby = FLAGS_enable_statestored_ha;
  ics::statestore::StatestoreServer server(opts);
  ics::Status s = server.Start();
  if (!s.ok()) {
    LOG(ERROR) << "statestored failed to start: " << s.ToString();
    return 1;
  }
  std::unique_ptr<ics::statestore::StatestoreHa> ha;
  if (FLAGS_enable_statestored_ha) {
    ics::statestore::StatestoreHaOptions ho;
    ho.bind_host = opts.bind_host;
    ho.port = FLAGS_state_store_ha_port;
    ho.peer_host = FLAGS_state_store_peer_host;
    ho.peer_ha_port = FLAGS_state_store_peer_ha_port;
    ho.self_address = opts.bind_host + ":" + std::to_string(FLAGS_state_store_ha_port);
    ho.force_active = FLAGS_statestore_force_active;
    ho.heartbeat_interval = std::chrono::milliseconds(
        std::max(10, FLAGS_statestore_ha_heartbeat_monitoring_frequency_ms));
    ho.peer_timeout =
        std::chrono::milliseconds(FLAGS_statestore_peer_timeout_ms > 0
                                      ? FLAGS_statestore_peer_timeout_ms
                                      : std::max(1, FLAGS_statestore_peer_timeout_seconds) * 1000);
    ho.security = opts.security;
    ho.metrics = server.metrics();
    ha = std::make_unique<ics::statestore::StatestoreHa>(server.statestore(), ho);
    s = ha->Start();
    if (!s.ok()) {
      LOG(ERROR) << "statestored failed to start its HA service: " << s.ToString();
      return 1;
    }
  }
  LOG(INFO) << "statestored listening on " << opts.bind_host << ":" << server.port();
  ics::statestore::RegisterStatestoreMetrics(server.metrics(), server.statestore());
  auto web = ics::web::StartWebServerFromFlags(
      "statestored", server.metrics(), [&](ics::web::WebServer* ws) {
        ics::statestore::RegisterStatestorePages(ws, server.statestore());
      });
  if (!web.ok()) {
    LOG(ERROR) << "statestored failed to start: " << web.status().ToString();
    return 1;
  }
  if (!FLAGS_port_file.empty()) {
    s = ics::WriteFileAtomically(
        FLAGS_port_file, std::to_string(server.port()) + ics::web::PortFileToken(web->get()) +
                             (ha ? " ha=" + std::to_string(ha->ha_port()) : std::string()) + "\n");
    if (!s.ok()) {
      LOG(ERROR) << s.ToString();
      return 1;
    }
  }
  ics::WaitForShutdownSignal();
  if (ha) ha->Stop();
  if (*web) (*web)->Stop();  // first: its pages read the broker
  server.Stop();
  LOG(INFO) << "statestored stopped";
  return 0;
}
