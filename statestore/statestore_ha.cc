#include "statestore/statestore_ha.h"

#include <algorithm>

#include <glog/logging.h>

#include "StatestoreHaService.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "common/util/unique_id.h"

namespace ics::statestore {

namespace {
using Clock = std::chrono::steady_clock;
using HaClient = ThriftClient<impala::StatestoreHaServiceClient>;

int64_t WallMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

class StatestoreHa::Handler : public impala::StatestoreHaServiceIf {
 public:
  explicit Handler(StatestoreHa* owner) : owner_(owner) {}
  void StatestoreHaHandshake(impala::TStatestoreHaHandshakeResponse& resp,
                             const impala::TStatestoreHaHandshakeRequest& req) override {
    resp = owner_->OnHandshake(req);
  }
  void StatestoreHaHeartbeat(impala::TStatestoreHaHeartbeatResponse& resp,
                             const impala::TStatestoreHaHeartbeatRequest& req) override {
    resp = owner_->OnHeartbeat(req);
  }

 private:
  StatestoreHa* const owner_;
};

StatestoreHa::StatestoreHa(Statestore* broker, StatestoreHaOptions options)
    : broker_(broker), opts_(std::move(options)) {}

StatestoreHa::~StatestoreHa() { Stop(); }

int StatestoreHa::ha_port() const { return server_ ? server_->port() : 0; }

std::shared_ptr<impala::StatestoreHaServiceIf> StatestoreHa::MakeHandler() {
  return std::make_shared<Handler>(this);
}

Status StatestoreHa::Start() {
  server_ = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreHaServiceProcessor>(MakeHandler()),
      ThriftServerOptions{opts_, "statestore-ha", opts_.metrics});
  ICS_RETURN_IF_ERROR(server_->Start());
  {
    MutexLock l(&mu_);
    last_peer_heartbeat_ = Clock::now();
  }
  thread_ = std::thread([this] { Loop(); });
  return Status::OK();
}

void StatestoreHa::Stop() {
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    cv_.Broadcast();
  }
  if (thread_.joinable()) thread_.join();
  if (server_) server_->Stop();
}

bool StatestoreHa::PreferredOver(const impala::TUniqueId& peer_id, bool peer_forced) const {
  if (opts_.force_active != peer_forced) return opts_.force_active;
  return PrintId(broker_->statestore_id()) < PrintId(peer_id);
}

void StatestoreHa::BecomeActiveLocked(const char* why) {
  decided_ = true;
  if (active_) return;
  active_ = true;
  last_peer_answer_ = Clock::now();
  // Above every activation heard of, even with a clock behind the peer's.
  activation_ = std::max(WallMillis(), peer_activation_ + 1);
  LOG(INFO) << "statestored HA: becoming the active statestore (" << why << "; activation "
            << activation_ << ")";
  broker_->SetActive(true, activation_);
}

void StatestoreHa::BecomeStandbyLocked(const char* why) {
  decided_ = true;
  last_peer_heartbeat_ = Clock::now();
  if (!active_) return;
  active_ = false;
  LOG(WARNING) << "statestored HA: becoming the standby statestore (" << why << ")";
  broker_->SetActive(false, 0);
}

impala::TStatestoreHaHandshakeResponse StatestoreHa::OnHandshake(
    const impala::TStatestoreHaHandshakeRequest& r) {
  impala::TStatestoreHaHandshakeResponse resp;
  resp.dst_statestore_id = broker_->statestore_id();
  MutexLock l(&mu_);
  peer_id_ = r.src_statestore_id;
  if (!decided_) {
    // Both starting: the same rule on both sides.
    if (PreferredOver(r.src_statestore_id, r.src_force_active)) {
      BecomeActiveLocked("won the start-up handshake");
    } else {
      BecomeStandbyLocked("lost the start-up handshake");
    }
  }
  resp.dst_statestore_active = active_;
  resp.status = ToTStatus(Status::OK());
  return resp;
}

impala::TStatestoreHaHeartbeatResponse StatestoreHa::OnHeartbeat(
    const impala::TStatestoreHaHeartbeatRequest& r) {
  impala::TStatestoreHaHeartbeatResponse resp;
  MutexLock l(&mu_);
  peer_id_ = r.src_statestore_id;
  // Out of range (a broken or hostile peer): taken as absent.
  int64_t theirs = r.__isset.active_statestored_version ? r.active_statestored_version : 0;
  if (theirs < 0 || theirs > CatalogdHa::kMaxActivation) theirs = 0;
  peer_activation_ = std::max(peer_activation_, theirs);
  if (active_) {
    // Both active (one was paused or cut off while the other took over):
    // the later activation keeps the role, so the statestore that took over
    // stays active when the other resumes. A peer that sends no activation
    // is judged by the start-up rule.
    const bool keep = theirs != 0 ? theirs < activation_ ||
                                        (theirs == activation_ &&
                                         PreferredOver(r.src_statestore_id, false))
                                  : PreferredOver(r.src_statestore_id, false);
    if (keep) {  // the peer steps down on our heartbeat, or on our answer
      resp.status = ToTStatus(Status::OK());
      resp.__set_dst_statestore_active(true);
      resp.__set_dst_active_statestored_version(activation_);
      return resp;
    }
    BecomeStandbyLocked("the peer is active too, with a later activation");
  }
  decided_ = true;
  last_peer_heartbeat_ = Clock::now();
  if (r.__isset.active_catalogd_address) {
    broker_->FollowPeerCatalogd(r.__isset.catalogd_version ? r.catalogd_version : 0,
                                r.active_catalogd_address.hostname,
                                r.active_catalogd_address.port);
  }
  resp.status = ToTStatus(Status::OK());
  resp.__set_dst_statestore_active(active_);
  resp.__set_dst_active_statestored_version(activation_);
  return resp;
}

void StatestoreHa::Handshake() {
  ThriftClientOptions co;
  co.connect_timeout_ms = 500;
  co.recv_timeout_ms = co.send_timeout_ms = 1000;
  co.tls = opts_.security.tls;
  HaClient client(opts_.peer_host, opts_.peer_ha_port, co);
  impala::TStatestoreHaHandshakeRequest req;
  req.src_statestore_id = broker_->statestore_id();
  req.src_statestore_address = opts_.self_address;
  req.src_force_active = opts_.force_active;
  impala::TStatestoreHaHandshakeResponse resp;
  Status s = client.Call("StatestoreHaHandshake", [&](impala::StatestoreHaServiceClient& c) {
    c.StatestoreHaHandshake(resp, req);
  });
  if (s.ok()) s = FromTStatus(resp.status);
  MutexLock l(&mu_);
  if (decided_) return;  // the peer's handshake reached us first
  if (!s.ok()) return;   // keep trying until peer_timeout
  peer_id_ = resp.dst_statestore_id;
  if (resp.dst_statestore_active) {
    BecomeStandbyLocked("the peer is active");
  } else if (PreferredOver(resp.dst_statestore_id, false)) {
    BecomeActiveLocked("won the start-up handshake");
  } else {
    BecomeStandbyLocked("lost the start-up handshake");
  }
}

void StatestoreHa::SendHeartbeat() {
  ThriftClientOptions co;
  co.connect_timeout_ms = static_cast<int>(std::max<int64_t>(50, opts_.heartbeat_interval.count()));
  co.recv_timeout_ms = co.send_timeout_ms = co.connect_timeout_ms;
  co.tls = opts_.security.tls;
  if (heartbeat_client_ == nullptr) {
    heartbeat_client_ = std::make_unique<HaClient>(opts_.peer_host, opts_.peer_ha_port, co);
  }
  impala::TStatestoreHaHeartbeatRequest req;
  req.src_statestore_id = broker_->statestore_id();
  {
    MutexLock l(&mu_);
    if (peer_id_) req.dst_statestore_id = *peer_id_;
    req.__set_active_statestored_version(activation_);
  }
  if (std::optional<ActiveCatalogd> a = broker_->active_catalogd()) {
    req.__set_active_catalogd_address(a->registration.address);
    req.__set_catalogd_version(a->version);
  }
  impala::TStatestoreHaHeartbeatResponse resp;
  Status s = heartbeat_client_->Call(
      "StatestoreHaHeartbeat",
      [&](impala::StatestoreHaServiceClient& c) { c.StatestoreHaHeartbeat(resp, req); });
  if (!s.ok()) {
    heartbeat_client_.reset();  // a fresh connection next time
    return;
  }
  if (!FromTStatus(resp.status).ok()) return;
  MutexLock l(&mu_);
  if (!active_) return;
  last_peer_answer_ = Clock::now();
  if (resp.__isset.dst_statestore_active && !resp.dst_statestore_active) {
    standby_answer_at_ = last_peer_answer_;
  }
  if (resp.__isset.dst_statestore_active && resp.dst_statestore_active &&
      resp.__isset.dst_active_statestored_version) {
    int64_t theirs = resp.dst_active_statestored_version;
    if (theirs < 0 || theirs > CatalogdHa::kMaxActivation) theirs = 0;
    peer_activation_ = std::max(peer_activation_, theirs);
    // The rule of OnHeartbeat, from this side: the later activation keeps
    // the role (we were stopped or cut off while the peer took over).
    if (theirs > activation_ ||
        (theirs == activation_ && peer_id_ && !PreferredOver(*peer_id_, false))) {
      BecomeStandbyLocked("the peer answered as active, with a later activation");
    }
  }
}

void StatestoreHa::Loop() {
  const auto started = Clock::now();
  while (true) {
    bool decided = false, active = false;
    {
      MutexLock l(&mu_);
      if (stopping_) return;
      decided = decided_;
      active = active_;
      const auto now = Clock::now();
      if (!decided && now - started >= opts_.peer_timeout) {
        BecomeActiveLocked("no answer from the peer at start-up");
        continue;
      }
      if (decided && !active && now - last_peer_heartbeat_ >= opts_.peer_timeout) {
        BecomeActiveLocked("no heartbeat from the active peer");
        continue;
      }
      if (decided && active) {
        // Subscribers skip our updates: they heard of a later activation
        // (the peer's, made while we were stopped). If the peer is no longer
        // active (it answers as a standby, or not at all), activate again
        // above it, or nobody would take our updates; if it is, its answer
        // or heartbeat makes us step down.
        // Only the peer's answers after we noticed count (a resumed
        // statestore's last answer is from before its pause).
        const int64_t newer = broker_->NewerActivationHeard();
        if (newer > activation_ && newer != newer_noticed_) {
          newer_noticed_ = newer;
          newer_noticed_at_ = now;
        }
        const bool peer_standby = standby_answer_at_ > newer_noticed_at_;
        const bool peer_silent =
            last_peer_answer_ < newer_noticed_at_ && now - newer_noticed_at_ >= opts_.peer_timeout;
        if (newer > activation_ && (peer_standby || peer_silent)) {
          peer_activation_ = std::max(peer_activation_, newer);
          active_ = false;
          BecomeActiveLocked("subscribers heard of a later activation, which the peer no "
                             "longer holds");
          continue;
        }
      }
    }
    if (!decided) {
      Handshake();
    } else if (active) {
      SendHeartbeat();
    }
    MutexLock l(&mu_);
    if (stopping_) return;
    cv_.WaitFor(&mu_, opts_.heartbeat_interval);
  }
}

}  // namespace ics::statestore
