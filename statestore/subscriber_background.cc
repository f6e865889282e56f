// StatestoreSubscriber's background thread: registration (with backoff),
// RequestTopicUpdate calls, and the statestore-lost check. See subscriber.h.
#include <unistd.h>

#include <algorithm>
#include <random>

#include <glog/logging.h>

#include "StatestoreService.h"
#include "common/rpc/status_convert.h"
#include "common/util/unique_id.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

using Clock = std::chrono::steady_clock;
using impala::TUniqueId;

namespace {

// How long the connection of the last RequestTopicUpdate stays open for the
// next one. A publisher asks once per change (catalogd after every DDL), and
// a new connection per request cost a connect, a server thread and with TLS
// a handshake; past this much idleness it is closed, so quiet subscribers
// hold no connection to the statestore.
constexpr std::chrono::milliseconds kKeepRequestConnection{5000};

}  // namespace


std::string StatestoreSubscriber::AdvertisedHost() const {
  if (!options_.advertised_host.empty()) return options_.advertised_host;
  const std::string& bind = options_.bind_host;
  if (!bind.empty() && bind != "0.0.0.0" && bind != "::") return bind;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0 && name[0] != '\0') return name;
  return "127.0.0.1";
}

Status StatestoreSubscriber::Register() {
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = options_.subscriber_id;
  req.subscriber_location.hostname = AdvertisedHost();
  req.subscriber_location.port = server_port_.load();
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
  {
    MutexLock l(&mu_);
    if (stopping_) return Status::Shutdown("subscriber stopped");
    registering_ = true;
    in_rpc_ = true;
  }
  impala::TRegisterSubscriberResponse resp;
  Status s =
      CallStatestore(client_.get(), "RegisterSubscriber", options_.register_timeout_ms,
                     [&](impala::StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
  if (s.ok()) s = FromTStatus(resp.status);
  if (s.ok() && !resp.__isset.registration_id) {
    s = Status::Internal("RegisterSubscriber reply without a registration id");
  }
  MutexLock cl(&catalogd_mu_);
  {
    MutexLock l(&mu_);
    registering_ = false;
    in_rpc_ = false;
    if (s.ok()) {
      registration_id_ = resp.registration_id;
      if (resp.__isset.statestore_id) {
        statestore_id_ = resp.statestore_id;
      } else {
        statestore_id_.reset();
      }
      ++num_registrations_;
      last_heartbeat_ = Clock::now();
      update_requested_ = false;  // the first update follows registration anyway
      // A new registration knows nothing of the choice or the wishes.
      min_on_request_pending_ = AnyMinOnRequest();
      min_wanted_pending_ = !min_wanted_.empty();
      for (auto& [name, state] : topics_) state = TopicState{};
      LOG(INFO) << options_.subscriber_id << " registered with statestore "
                << options_.statestore_host << ":" << options_.statestore_port
                << ", registration id " << PrintId(*registration_id_) << ", statestore id "
                << (statestore_id_ ? PrintId(*statestore_id_) : std::string("(none)"));
    }
    state_cv_.Broadcast();
  }
  if (s.ok()) {
    const bool active = resp.__isset.statestore_is_active && resp.statestore_is_active &&
                        resp.__isset.active_statestored_version;
    statestore_activation_ = active ? resp.active_statestored_version : 0;
    if (active && options_.activations != nullptr) {
      options_.activations->Observe(resp.active_statestored_version);
    }
  }
  if (s.ok() && options_.subscribe_catalogd_change && resp.__isset.catalogd_registration &&
      resp.__isset.catalogd_version) {
    Status observed = ObserveCatalogdLocked(resp.catalogd_version, resp.catalogd_registration);
    if (!observed.ok()) {
      LOG(WARNING) << options_.subscriber_id
                   << ": ignoring the registration reply's catalogd: " << observed.ToString();
    }
  }
  return s;
}

Status StatestoreSubscriber::SendRequestTopicUpdate(StatestoreClient* client,
                                                    impala::TRequestTopicUpdateRequest req,
                                                    impala::TRequestTopicUpdateResponse* resp,
                                                    int timeout_ms) {
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  impala::TRequestTopicUpdateResponse local;
  impala::TRequestTopicUpdateResponse& out = resp != nullptr ? *resp : local;
  Status s = CallStatestore(
      client, "RequestTopicUpdate", timeout_ms > 0 ? timeout_ms : options_.request_update_timeout_ms,
      [&](impala::StatestoreServiceClient& c) { c.RequestTopicUpdate(out, req); });
  if (s.ok()) s = FromTStatus(out.status);
  if (s.ok() || !out.__isset.registration_unknown || !out.registration_unknown) return s;
  // The statestore does not know the registration (it restarted): register
  // again, unless that happened meanwhile.
  MutexLock l(&mu_);
  if (registration_id_.has_value() && *registration_id_ == req.registration_id) {
    LOG(WARNING) << options_.subscriber_id << ": statestore " << options_.statestore_host << ":"
                 << options_.statestore_port << " does not know registration "
                 << PrintId(req.registration_id) << "; registering again";
    registration_id_.reset();
    bg_cv_.Broadcast();
    state_cv_.Broadcast();
  }
  return s;
}

bool StatestoreSubscriber::AnyMinOnRequest() const {
  for (const auto& [name, sub] : subscriptions_) {
    if (sub.populate_min_subscriber_topic_version && sub.min_version_on_request) return true;
  }
  return false;
}

void StatestoreSubscriber::BackgroundLoop() {
  const int initial_backoff_ms = std::max(1, options_.register_backoff_initial_ms);
  const int max_backoff_ms = std::max(initial_backoff_ms, options_.register_backoff_max_ms);
  int backoff_ms = initial_backoff_ms;
  int64_t failures = 0;
  std::minstd_rand rng(static_cast<uint32_t>(std::hash<std::string>()(options_.subscriber_id) ^
                                             Clock::now().time_since_epoch().count()));
  enum class Action { kStop, kRegister, kRequestUpdate, kMinVersions, kProbe };
  // When the kept RequestTopicUpdate connection is closed if unused.
  std::optional<Clock::time_point> close_idle_at;
  // Probes while no heartbeat arrives (options_.statestore_probe_after_ms).
  const std::chrono::milliseconds probe_after(options_.statestore_probe_after_ms);
  const std::chrono::milliseconds probe_every(std::max(100, options_.statestore_probe_after_ms / 3));
  Clock::time_point last_probe;
  while (true) {
    Action action = Action::kStop;
    TUniqueId registration_id;
    std::map<std::string, int64_t> wanted;  // kMinVersions
    bool on_request = false;                // kMinVersions
    {
      MutexLock l(&mu_);
      while (true) {
        if (stopping_) break;
        if (!registration_id_.has_value()) {
          action = Action::kRegister;
          break;
        }
        if (update_requested_) {
          update_requested_ = false;
          registration_id = *registration_id_;
          in_rpc_ = true;
          action = Action::kRequestUpdate;
          break;
        }
        if (min_on_request_pending_ || min_wanted_pending_) {
          on_request = min_on_request_pending_;
          min_on_request_pending_ = min_wanted_pending_ = false;
          // Only what is still ahead of the minimum received.
          for (auto it = min_wanted_.begin(); it != min_wanted_.end();) {
            if (it->second <= topics_[it->first].min_subscriber_version) {
              it = min_wanted_.erase(it);
            } else {
              wanted.insert(*it++);
            }
          }
          registration_id = *registration_id_;
          in_rpc_ = true;
          action = Action::kMinVersions;
          break;
        }
        const auto deadline =
            last_heartbeat_ + std::chrono::milliseconds(options_.statestore_timeout_ms);
        const auto now = Clock::now();
        if (close_idle_at.has_value() && now >= *close_idle_at) {
          client_->connection().Close();
          close_idle_at.reset();
        }
        if (now >= deadline) {
          LOG(WARNING) << options_.subscriber_id << ": no heartbeat from the statestore for "
                       << options_.statestore_timeout_ms << " ms; registering again";
          registration_id_.reset();
          state_cv_.Broadcast();
          continue;
        }
        auto wake = close_idle_at.has_value() ? std::min(deadline, *close_idle_at) : deadline;
        if (probe_after.count() > 0) {
          const auto probe_at = std::max(last_heartbeat_ + probe_after, last_probe + probe_every);
          if (now >= probe_at) {
            last_probe = now;
            registration_id = *registration_id_;
            in_rpc_ = true;
            action = Action::kProbe;
            break;
          }
          wake = std::min(wake, probe_at);
        }
        bg_cv_.WaitUntil(&mu_, wake);
      }
    }
    if (action == Action::kStop) break;

    if (action == Action::kMinVersions) {
      impala::TRequestTopicUpdateRequest req;
      req.registration_id = registration_id;
      req.__set_min_subscriber_topic_versions_wanted(std::move(wanted));
      if (on_request) req.__set_min_subscriber_topic_version_on_request(true);
      Status s = SendRequestTopicUpdate(client_.get(), std::move(req));
      {
        MutexLock l(&mu_);
        in_rpc_ = false;
      }
      // Not resent: without the choice every change of the minimum is
      // pushed anyway, and a wish not heard is met by a later update (or
      // times out its waiter).
      if (!s.ok()) {
        LOG(WARNING) << options_.subscriber_id
                     << ": RequestTopicUpdate (minimum versions) failed: " << s.ToString();
      }
      close_idle_at = Clock::now() + kKeepRequestConnection;
      continue;
    }

    if (action == Action::kRequestUpdate || action == Action::kProbe) {
      // An empty request: send an update now. It is also how a silent
      // statestore is probed: SendRequestTopicUpdate drops the registration
      // when the statestore does not know it; an unreachable one is probed
      // again later.
      impala::TRequestTopicUpdateRequest req;
      req.registration_id = registration_id;
      Status s = SendRequestTopicUpdate(client_.get(), std::move(req));
      {
        MutexLock l(&mu_);
        in_rpc_ = false;
      }
      if (action == Action::kProbe) {
        VLOG(1) << options_.subscriber_id << ": probe of the silent statestore: " << s.ToString();
      } else if (!s.ok()) {
        LOG(WARNING) << options_.subscriber_id << ": RequestTopicUpdate failed: " << s.ToString();
      }
      close_idle_at = Clock::now() + kKeepRequestConnection;
      continue;
    }

    Status s = Register();
    client_->connection().Close();
    close_idle_at.reset();
    if (s.ok()) {
      backoff_ms = initial_backoff_ms;
      failures = 0;
      continue;
    }
    {
      MutexLock l(&mu_);
      if (stopping_) continue;  // the failure is our own interruption
    }
    // Jitter by +-20% so that many subscribers do not retry in lockstep.
    const int wait_ms =
        static_cast<int>(backoff_ms * std::uniform_real_distribution<double>(0.8, 1.2)(rng));
    if (failures++ % 10 == 0) {
      LOG(WARNING) << options_.subscriber_id << ": cannot register with statestore "
                   << options_.statestore_host << ":" << options_.statestore_port << " (attempt "
                   << failures << "): " << s.ToString() << "; retrying in " << wait_ms << " ms";
    }
    backoff_ms = std::min(max_backoff_ms, backoff_ms * 2);
    const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    MutexLock l(&mu_);
    while (!stopping_ && Clock::now() < deadline) bg_cv_.WaitUntil(&mu_, deadline);
  }
  MutexLock l(&mu_);
  thread_done_ = true;
  state_cv_.Broadcast();
}

}  // namespace ics::statestore
