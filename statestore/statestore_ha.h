// StatestoreHa: statestored high availability (Impala's StatestoreHaService).
//
// Two statestored processes, each knowing the other's HA address, agree
// that one is active:
//  * At start a statestore (its broker a standby) sends the peer a
//    handshake. A peer that answers it is active: we stay standby. A peer
//    that answers it is not active either (both starting): the one with
//    force_active, else the smaller statestore id, becomes active; the peer
//    applies the same rule to our handshake. No answer within
//    peer_timeout: we become active.
//  * The active statestore sends the standby a heartbeat every
//    heartbeat_interval, carrying (our own field) the address of the
//    catalogd it designated, so a standby that takes over keeps it.
//  * A standby that hears no heartbeat for peer_timeout becomes active; its
//    broker then tells every subscriber with UpdateStatestoredRole and sends
//    them updates (subscribers register with both statestores).
//  * Heartbeats also carry (our own fields) the sender's activation
//    version and its designation version; a standby that takes over
//    designates above it (catalogd_ha.h).
//  * An active statestore that receives a heartbeat (both became active:
//    one was paused or cut off while the other took over) keeps the role
//    only if its activation is the later one; otherwise it becomes the
//    standby. So the statestore that took over stays active when the other
//    resumes, and a statestore that starts while the other is active stays
//    standby (no flip-flop). The start-up rule above decides only between
//    two that are starting (or a peer that sends no activation version).
// Each activation takes a new active_statestored_version: the wall clock in
// milliseconds, and above every activation version heard from the peer
// (later activations, of either statestore, get larger ones).
//
// Lifecycle: construct, Start(), Stop() (idempotent; also the destructor).
// Thread-safety: thread-safe; mu_ is terminal, no RPC runs under it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/util/mutex.h"
#include "statestore/statestore.h"

namespace impala {
class StatestoreHaServiceClient;
class StatestoreHaServiceIf;
}

namespace ics::statestore {

// The endpoint is this statestore's StatestoreHaService (port 24020 by
// default; 16 connections, 1 MiB messages); its TLS is also that of the
// connections to the peer.
struct StatestoreHaOptions : EndpointOptions {
  StatestoreHaOptions() {
    port = 24020;
    max_connections = 16;
    max_message_bytes = 1 << 20;
  }
  std::string peer_host;
  int peer_ha_port = 24020;
  std::string self_address;  // host:port, sent in handshakes
  bool force_active = false;
  std::chrono::milliseconds heartbeat_interval{100};
  std::chrono::milliseconds peer_timeout{3000};
  metrics::MetricRegistry* metrics = nullptr;
};

class StatestoreHa {
 public:
  // `broker` (not owned) must outlive this object and start as a standby.
  StatestoreHa(Statestore* broker, StatestoreHaOptions options);
  ~StatestoreHa();
  StatestoreHa(const StatestoreHa&) = delete;
  StatestoreHa& operator=(const StatestoreHa&) = delete;

  [[nodiscard]] Status Start() EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);
  int ha_port() const;

  // The StatestoreHaService handler Start() serves (fuzz targets feed it
  // directly).
  std::shared_ptr<impala::StatestoreHaServiceIf> MakeHandler();

  // The StatestoreHaService handlers.
  impala::TStatestoreHaHandshakeResponse OnHandshake(const impala::TStatestoreHaHandshakeRequest& r)
      EXCLUDES(mu_);
  impala::TStatestoreHaHeartbeatResponse OnHeartbeat(const impala::TStatestoreHaHeartbeatRequest& r)
      EXCLUDES(mu_);

 private:
  class Handler;
  // Whether we win the role against a peer with this id and force flag.
  bool PreferredOver(const impala::TUniqueId& peer_id, bool peer_forced) const;
  void BecomeActiveLocked(const char* why) REQUIRES(mu_);
  void BecomeStandbyLocked(const char* why) REQUIRES(mu_);
  void Loop() EXCLUDES(mu_);
  void Handshake() EXCLUDES(mu_);
  void SendHeartbeat() EXCLUDES(mu_);

  Statestore* const broker_;
  const StatestoreHaOptions opts_;
  std::unique_ptr<ThriftServer> server_;

  mutable Mutex mu_;
  CondVar cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool decided_ GUARDED_BY(mu_) = false;  // the start-up handshake settled the role
  bool active_ GUARDED_BY(mu_) = false;
  std::optional<impala::TUniqueId> peer_id_ GUARDED_BY(mu_);
  int64_t activation_ GUARDED_BY(mu_) = 0;       // our latest activation version
  int64_t peer_activation_ GUARDED_BY(mu_) = 0;  // the highest heard from the peer
  std::chrono::steady_clock::time_point last_peer_heartbeat_ GUARDED_BY(mu_);
  // While active: when the peer last answered our heartbeat, and last
  // answered it as a standby.
  std::chrono::steady_clock::time_point last_peer_answer_ GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point standby_answer_at_ GUARDED_BY(mu_);
  // A later activation than ours that subscribers reported, and when we
  // first noticed it (the peer's answers count only after that).
  int64_t newer_noticed_ GUARDED_BY(mu_) = 0;
  std::chrono::steady_clock::time_point newer_noticed_at_ GUARDED_BY(mu_);
  std::thread thread_;
  // The heartbeat connection to the peer (the loop thread only).
  std::unique_ptr<ThriftClient<impala::StatestoreHaServiceClient>> heartbeat_client_;
};

}  // namespace ics::statestore
