#include "statestore/registration_loop.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <random>

#include <glog/logging.h>

#include "StatestoreService.h"
#include "common/rpc/status_convert.h"
#include "statestore/role_follower.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

using Clock = SubscriberSession::Clock;
using Action = SubscriberSession::Action;

namespace {

// How long the connection of the last RequestTopicUpdate stays open for the
// next one. A publisher asks once per change (catalogd after every DDL), and
// a new connection per request cost a connect, a server thread and with TLS
// a handshake; past this much idleness it is closed, so quiet subscribers
// hold no connection to the statestore.
constexpr std::chrono::milliseconds kKeepRequestConnection{5000};

}  // namespace

RegistrationLoop::RegistrationLoop(const StatestoreSubscriberOptions* options,
                                   const Subscriptions* subscriptions, SubscriberSession* session,
                                   RoleFollower* roles)
    : options_(*options), subscriptions_(*subscriptions), session_(session), roles_(roles) {}

RegistrationLoop::~RegistrationLoop() = default;

void RegistrationLoop::CreateClient(int callback_port) {
  callback_port_ = callback_port;
  client_ = MakeStatestoreClient(options_);
}

void RegistrationLoop::StartThread() {
  thread_ = std::thread([this] { Loop(); });
}

void RegistrationLoop::InterruptRpc() { client_->connection().Interrupt(); }

void RegistrationLoop::Join() {
  if (thread_.joinable()) thread_.join();
}

void RegistrationLoop::Close() {
  if (client_ != nullptr) client_->connection().Close();
}

std::string RegistrationLoop::AdvertisedHost() const {
  if (!options_.advertised_host.empty()) return options_.advertised_host;
  const std::string& bind = options_.bind_host;
  if (!bind.empty() && bind != "0.0.0.0" && bind != "::") return bind;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0 && name[0] != '\0') return name;
  return "127.0.0.1";
}

Status RegistrationLoop::Register() {
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = options_.subscriber_id;
  req.subscriber_location.hostname = AdvertisedHost();
  req.subscriber_location.port = callback_port_;
  for (const auto& [name, sub] : subscriptions_) {
    impala::TTopicRegistration reg;
    reg.topic_name = name;
    reg.is_transient = sub.is_transient;
    reg.populate_min_subscriber_topic_version = sub.populate_min_subscriber_topic_version;
    if (!sub.filter_prefix.empty()) reg.__set_filter_prefix(sub.filter_prefix);
    req.topic_registrations.push_back(std::move(reg));
  }
  req.__set_subscriber_type(options_.subscriber_type);
  if (options_.subscribe_catalogd_change) req.__set_subscribe_catalogd_change(true);
  if (options_.accept_oneway_updates) req.__set_accepts_oneway_updates(true);
  if (options_.catalogd_registration.has_value()) {
    req.__set_catalogd_registration(*options_.catalogd_registration);
  }
  if (!options_.security.statestore_auth_token.empty()) {
    req.__set_auth_token(options_.security.statestore_auth_token);
  }
  if (!session_->BeginRegistration()) return Status::Shutdown("subscriber stopped");
  impala::TRegisterSubscriberResponse resp;
  Status s =
      CallStatestore(client_.get(), "RegisterSubscriber", options_.register_timeout_ms,
                     [&](impala::StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
  if (s.ok()) s = FromTStatus(resp.status);
  if (s.ok() && !resp.__isset.registration_id) {
    s = Status::Internal("RegisterSubscriber reply without a registration id");
  }
  roles_->OnRegistrationEnd(s, resp, [&] { session_->EndRegistration(s, resp); });
  return s;
}

void RegistrationLoop::Loop() {
  const int initial_backoff_ms = std::max(1, options_.register_backoff_initial_ms);
  const int max_backoff_ms = std::max(initial_backoff_ms, options_.register_backoff_max_ms);
  int backoff_ms = initial_backoff_ms;
  int64_t failures = 0;
  std::minstd_rand rng(static_cast<uint32_t>(std::hash<std::string>()(options_.subscriber_id) ^
                                             Clock::now().time_since_epoch().count()));
  SubscriberSession::Timers timers;
  // Probes while no heartbeat arrives (options_.statestore_probe_after_ms).
  timers.probe_after = std::chrono::milliseconds(options_.statestore_probe_after_ms);
  timers.probe_every =
      std::chrono::milliseconds(std::max(100, options_.statestore_probe_after_ms / 3));
  while (true) {
    SubscriberSession::Work work = session_->NextWork(&timers);
    if (work.action == Action::kStop) break;

    if (work.action == Action::kCloseIdle) {
      client_->connection().Close();
      continue;
    }

    if (work.action == Action::kMinVersions) {
      impala::TRequestTopicUpdateRequest req;
      req.registration_id = work.registration_id;
      req.__set_min_subscriber_topic_versions_wanted(std::move(work.wishes.wanted));
      if (work.wishes.on_request) req.__set_min_subscriber_topic_version_on_request(true);
      Status s = SendRequestTopicUpdate(options_, session_, client_.get(), std::move(req));
      session_->RpcDone();
      // Not resent: without the choice every change of the minimum is
      // pushed anyway, and a wish not heard is met by a later update (or
      // times out its waiter).
      if (!s.ok()) {
        LOG(WARNING) << options_.subscriber_id
                     << ": RequestTopicUpdate (minimum versions) failed: " << s.ToString();
      }
      timers.close_idle_at = Clock::now() + kKeepRequestConnection;
      continue;
    }

    if (work.action == Action::kRequestUpdate || work.action == Action::kProbe) {
      // An empty request: send an update now. It is also how a silent
      // statestore is probed: SendRequestTopicUpdate drops the registration
      // when the statestore does not know it; an unreachable one is probed
      // again later.
      impala::TRequestTopicUpdateRequest req;
      req.registration_id = work.registration_id;
      Status s = SendRequestTopicUpdate(options_, session_, client_.get(), std::move(req));
      session_->RpcDone();
      if (work.action == Action::kProbe) {
        VLOG(1) << options_.subscriber_id << ": probe of the silent statestore: " << s.ToString();
      } else if (!s.ok()) {
        LOG(WARNING) << options_.subscriber_id << ": RequestTopicUpdate failed: " << s.ToString();
      }
      timers.close_idle_at = Clock::now() + kKeepRequestConnection;
      continue;
    }

    // Action::kRegister
    Status s = Register();
    client_->connection().Close();
    timers.close_idle_at.reset();
    if (s.ok()) {
      backoff_ms = initial_backoff_ms;
      failures = 0;
      continue;
    }
    if (session_->stopping()) continue;  // the failure is our own interruption
    // Jitter by +-20% so that many subscribers do not retry in lockstep.
    const int wait_ms =
        static_cast<int>(backoff_ms * std::uniform_real_distribution<double>(0.8, 1.2)(rng));
    if (failures++ % 10 == 0) {
      LOG(WARNING) << options_.subscriber_id << ": cannot register with statestore "
                   << options_.statestore_host << ":" << options_.statestore_port << " (attempt "
                   << failures << "): " << s.ToString() << "; retrying in " << wait_ms << " ms";
    }
    backoff_ms = std::min(max_backoff_ms, backoff_ms * 2);
    session_->WaitUntil(Clock::now() + std::chrono::milliseconds(wait_ms));
  }
  session_->LoopExited();
}

}  // namespace ics::statestore
