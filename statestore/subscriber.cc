#include "statestore/subscriber.h"

#include <algorithm>
#include <functional>
#include <utility>

#include <glog/logging.h>

#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "common/rpc/status_convert.h"
#include "common/util/unique_id.h"

namespace ics::statestore {

using Clock = std::chrono::steady_clock;
using impala::TTopicDelta;
using impala::TUniqueId;

namespace {

// How long an UpdateState that arrives while our RegisterSubscriber call is
// in flight waits for its answer before replying skipped=true. The statestore
// usually sends the first update before its RegisterSubscriber reply has
// reached us, so a short wait saves a whole update round.
constexpr std::chrono::milliseconds kWaitForRegistration{500};

// One wait step of a wait-with-deadline loop; false once the deadline passed.
bool WaitStep(CondVar* cv, Mutex* mu, Clock::time_point deadline) REQUIRES(mu) {
  if (Clock::now() >= deadline) return false;
  cv->WaitUntil(mu, deadline);
  return true;
}

}  // namespace

// The Thrift service: delegates to the subscriber.
class StatestoreSubscriber::Handler : public impala::StatestoreSubscriberIf {
 public:
  explicit Handler(StatestoreSubscriber* owner) : owner_(owner) {}

  void UpdateState(impala::TUpdateStateResponse& resp,
                   const impala::TUpdateStateRequest& req) override {
    owner_->UpdateState(req, &resp);
  }
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) override {
    owner_->UpdateStateOneway(req);
  }
  void Heartbeat(impala::THeartbeatResponse& resp, const impala::THeartbeatRequest& req) override {
    owner_->Heartbeat(req, &resp);
  }
  void UpdateCatalogd(impala::TUpdateCatalogdResponse& resp,
                      const impala::TUpdateCatalogdRequest& req) override {
    owner_->UpdateCatalogd(req, &resp);
  }
  void UpdateStatestoredRole(impala::TUpdateStatestoredRoleResponse& resp,
                             const impala::TUpdateStatestoredRoleRequest& req) override {
    owner_->UpdateStatestoredRole(req, &resp);
  }

 private:
  StatestoreSubscriber* const owner_;
};

StatestoreSubscriber::StatestoreSubscriber(StatestoreSubscriberOptions options)
    : options_(std::move(options)) {}

StatestoreSubscriber::~StatestoreSubscriber() { Stop(); }

Status StatestoreSubscriber::AddTopic(TopicSubscription subscription) {
  {
    MutexLock l(&mu_);
    if (started_ || stopping_) {
      return Status::InvalidArgument("AddTopic(" + subscription.topic + ") after Start()");
    }
  }
  if (subscription.topic.empty()) return Status::InvalidArgument("empty topic name");
  if (!subscription.callback) {
    return Status::InvalidArgument("topic " + subscription.topic + " has no callback");
  }
  const std::string topic = subscription.topic;
  if (!subscriptions_.emplace(topic, std::move(subscription)).second) {
    return Status::AlreadyExists("topic " + topic + " already added");
  }
  MutexLock l(&mu_);
  topics_[topic] = TopicState{};
  return Status::OK();
}

Status StatestoreSubscriber::Start() {
  MutexLock s(&stop_mu_);
  {
    MutexLock l(&mu_);
    if (stopping_) return Status::Shutdown("subscriber " + options_.subscriber_id + " stopped");
    if (started_) return Status::InvalidArgument("subscriber already started");
  }
  if (options_.subscriber_id.empty()) return Status::InvalidArgument("empty subscriber_id");

  const ThriftServerOptions so{options_, "subscriber " + options_.subscriber_id, options_.metrics};
  auto server = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreSubscriberProcessor>(std::make_shared<Handler>(this)), so);
  ICS_RETURN_IF_ERROR(server->Start());

  ThriftClientOptions co;
  co.connect_timeout_ms = options_.rpc_connect_timeout_ms;
  co.send_timeout_ms = std::max(options_.register_timeout_ms, options_.request_update_timeout_ms);
  co.recv_timeout_ms = options_.register_timeout_ms;
  co.max_message_bytes = options_.max_message_bytes;
  co.tls = options_.security.tls;
  client_ =
      std::make_unique<StatestoreClient>(options_.statestore_host, options_.statestore_port, co);
  publish_client_ =
      std::make_unique<StatestoreClient>(options_.statestore_host, options_.statestore_port, co);
  server_port_ = server->port();
  server_ = std::move(server);
  {
    MutexLock l(&mu_);
    started_ = true;
  }
  thread_ = std::thread([this] { BackgroundLoop(); });
  return Status::OK();
}

void StatestoreSubscriber::Stop() {
  MutexLock s(&stop_mu_);
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    bg_cv_.Broadcast();
    state_cv_.Broadcast();
    // Unblock an RPC to a statestore that does not answer. Repeated, since
    // the call may not have opened its socket yet at the first attempt.
    while (started_ && !thread_done_) {
      if (in_rpc_) client_->connection().Interrupt();
      state_cv_.WaitFor(&mu_, std::chrono::milliseconds(100));
    }
  }
  if (thread_.joinable()) thread_.join();
  // A Publish() in progress fails at once (and every later one at its
  // stopping_ check); wait for it to leave.
  if (publish_client_ != nullptr) publish_client_->connection().Interrupt();
  { MutexLock p(&publish_mu_); }
  // Waits for UpdateState calls in progress (callbacks included).
  if (server_ != nullptr) server_->Stop();
  if (client_ != nullptr) client_->connection().Close();
  if (publish_client_ != nullptr) publish_client_->connection().Close();
}

void StatestoreSubscriber::RequestTopicUpdate() {
  MutexLock l(&mu_);
  if (stopping_ || !registration_id_.has_value() || update_requested_) return;
  update_requested_ = true;
  bg_cv_.Broadcast();
}

std::optional<TUniqueId> StatestoreSubscriber::registration_id() const {
  MutexLock l(&mu_);
  return registration_id_;
}

std::optional<TUniqueId> StatestoreSubscriber::statestore_id() const {
  MutexLock l(&mu_);
  return statestore_id_;
}

bool StatestoreSubscriber::is_registered() const {
  MutexLock l(&mu_);
  return registration_id_.has_value();
}

int64_t StatestoreSubscriber::num_registrations() const {
  MutexLock l(&mu_);
  return num_registrations_;
}

int64_t StatestoreSubscriber::last_topic_version(const std::string& topic) const {
  MutexLock l(&mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.version;
}

int64_t StatestoreSubscriber::min_subscriber_topic_version(const std::string& topic) const {
  MutexLock l(&mu_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : it->second.min_subscriber_version;
}

Status StatestoreSubscriber::WaitForRegistration(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  MutexLock l(&mu_);
  while (!registration_id_.has_value()) {
    if (stopping_) return Status::Shutdown("subscriber stopped");
    if (!WaitStep(&state_cv_, &mu_, deadline)) {
      return Status::TimedOut("subscriber " + options_.subscriber_id + " not registered after " +
                              std::to_string(timeout.count()) + " ms");
    }
  }
  return Status::OK();
}

Status StatestoreSubscriber::WaitForTopicVersion(const std::string& topic, int64_t version,
                                                 std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  MutexLock l(&mu_);
  if (topics_.count(topic) == 0) return Status::NotFound("not subscribed to topic " + topic);
  while (topics_[topic].version < version) {
    if (stopping_) return Status::Shutdown("subscriber stopped");
    if (!WaitStep(&state_cv_, &mu_, deadline)) {
      return Status::TimedOut("topic " + topic + " at version " +
                              std::to_string(topics_[topic].version) + ", waited for " +
                              std::to_string(version));
    }
  }
  return Status::OK();
}

void StatestoreSubscriber::WantMinLocked(const std::string& topic, int64_t version) {
  auto sub = subscriptions_.find(topic);
  if (sub != subscriptions_.end() && sub->second.min_version_on_request &&
      topics_[topic].min_subscriber_version < version && min_wanted_[topic] < version) {
    min_wanted_[topic] = version;
    min_wanted_pending_ = true;
    bg_cv_.Broadcast();
  }
}

void StatestoreSubscriber::ExpectMinWait(const std::string& topic) {
  MutexLock l(&mu_);
  auto t = topics_.find(topic);
  if (t != topics_.end()) WantMinLocked(topic, t->second.version + 1);
}

Status StatestoreSubscriber::WaitForMinSubscriberTopicVersion(const std::string& topic,
                                                              int64_t version,
                                                              std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  MutexLock l(&mu_);
  if (topics_.count(topic) == 0) return Status::NotFound("not subscribed to topic " + topic);
  WantMinLocked(topic, version);
  while (topics_[topic].min_subscriber_version < version) {
    if (stopping_) return Status::Shutdown("subscriber stopped");
    if (!WaitStep(&state_cv_, &mu_, deadline)) {
      return Status::TimedOut("topic " + topic + " min subscriber version at " +
                              std::to_string(topics_[topic].min_subscriber_version) +
                              ", waited for " + std::to_string(version));
    }
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// RPC handlers

Status StatestoreSubscriber::CheckRequestIds(const char* rpc, const TUniqueId* registration_id,
                                             const TUniqueId* statestore_id) {
  if (statestore_id != nullptr && statestore_id_.has_value() && registration_id_.has_value() &&
      *statestore_id != *statestore_id_) {
    LOG(WARNING) << options_.subscriber_id << ": " << rpc << " from statestore "
                 << PrintId(*statestore_id) << ", but registered with " << PrintId(*statestore_id_)
                 << "; registering again";
    registration_id_.reset();
    bg_cv_.Broadcast();
    return Status::General(options_.subscriber_id + ": " + rpc + " from unknown statestore " +
                           PrintId(*statestore_id));
  }
  if (registration_id == nullptr) return Status::OK();
  if (!registration_id_.has_value()) {
    return Status::General(options_.subscriber_id + ": " + rpc + " for registration " +
                           PrintId(*registration_id) + ", but the subscriber is not registered");
  }
  if (*registration_id != *registration_id_) {
    return Status::General(options_.subscriber_id + ": " + rpc + " for unknown registration " +
                           PrintId(*registration_id) + " (current registration is " +
                           PrintId(*registration_id_) + ")");
  }
  return Status::OK();
}

void StatestoreSubscriber::UpdateState(const impala::TUpdateStateRequest& req,
                                       impala::TUpdateStateResponse* resp) {
  resp->status.status_code = impala::TErrorCode::OK;
  resp->topic_updates.clear();
  // Never block the statestore behind another update: it will retry.
  if (!update_mu_.TryLock()) {
    resp->__set_skipped(true);
    return;
  }
  ApplyUpdateLocked(req, resp);
  update_mu_.Unlock();
}

void StatestoreSubscriber::ApplyUpdateLocked(const impala::TUpdateStateRequest& req,
                                             impala::TUpdateStateResponse* resp) {
  // An exception from a callback (or anything else here) fails this update
  // and nothing more: the caller releases update_mu_ on every path, so later
  // updates keep being applied, and the statestore resends the update since
  // the processed version did not advance.
  try {
    UpdateStateLocked(req, resp);
  } catch (const std::exception& e) {
    FailUpdate(e.what(), resp);
  } catch (...) {
    FailUpdate("unknown exception", resp);
  }
}

void StatestoreSubscriber::UpdateStateLocked(const impala::TUpdateStateRequest& req,
                                             impala::TUpdateStateResponse* resp) {
  Status status;
  bool skip = false;
  int64_t generation = 0;
  int64_t newer_activation = 0;
  {
    MutexLock l(&mu_);
    const auto deadline = Clock::now() + kWaitForRegistration;
    while (registering_ && !stopping_ && WaitStep(&state_cv_, &mu_, deadline)) {
    }
    if (stopping_) {
      status = Status::Shutdown(options_.subscriber_id + " is stopping");
    } else if (registering_) {
      skip = true;
    } else {
      status = CheckRequestIds("UpdateState",
                               req.__isset.registration_id ? &req.registration_id : nullptr,
                               req.__isset.statestore_id ? &req.statestore_id : nullptr);
    }
    generation = num_registrations_;
  }
  if (status.ok() && !skip && req.__isset.active_statestored_version) {
    statestore_activation_ = req.active_statestored_version;
  }
  if (status.ok() && !skip && options_.activations != nullptr &&
      req.__isset.active_statestored_version &&
      !options_.activations->Observe(req.active_statestored_version)) {
    // From a statestore that was stopped while the other took over.
    skip = true;
    newer_activation = options_.activations->newest();
    VLOG(1) << options_.subscriber_id << ": skipping an update of statestore activation "
            << req.active_statestored_version << " (activation " << newer_activation
            << " is later)";
  }
  if (!status.ok()) {
    resp->status = ToTStatus(status);
  } else if (skip) {
    resp->__set_skipped(true);
    if (newer_activation > 0) resp->__set_newer_statestored_version(newer_activation);
  } else {
    ProcessUpdate(req, generation, resp);
  }
}

void StatestoreSubscriber::FailUpdate(const std::string& what, impala::TUpdateStateResponse* resp) {
  callback_failures_.fetch_add(1, std::memory_order_relaxed);
  LOG(ERROR) << options_.subscriber_id << ": topic update failed: " << what;
  resp->topic_updates.clear();
  resp->status = ToTStatus(Status::Internal(options_.subscriber_id + ": topic update failed: " + what));
}

void StatestoreSubscriber::ProcessUpdate(const impala::TUpdateStateRequest& req, int64_t generation,
                                         impala::TUpdateStateResponse* resp) {
  // The processed version of each topic after this update, and the
  // min_subscriber_topic_version values received. An update carries a
  // topic at most once (a map on the wire) and usually one: vectors of
  // pointers to its names, not maps of copies, per update.
  std::vector<std::pair<const std::string*, int64_t>> new_versions;
  std::vector<std::pair<const std::string*, int64_t>> min_versions;
  new_versions.reserve(req.topic_deltas.size());
  auto set_new_version = [&new_versions](const std::string& topic, int64_t version) {
    for (auto& [name, v] : new_versions) {
      if (*name == topic) {
        v = version;
        return;
      }
    }
    new_versions.emplace_back(&topic, version);
  };
  for (const auto& [name, delta] : req.topic_deltas) {
    auto sub = subscriptions_.find(name);
    if (sub == subscriptions_.end()) {
      LOG(WARNING) << options_.subscriber_id << ": update for topic " << name
                   << ", which it did not subscribe to; ignored";
      continue;
    }
    if (delta.__isset.min_subscriber_topic_version) {
      min_versions.emplace_back(&name, delta.min_subscriber_topic_version);
    }
    int64_t current = 0;
    {
      MutexLock l(&mu_);
      current = topics_[name].version;
    }
    const int64_t from = delta.__isset.from_version ? delta.from_version : 0;
    if (delta.is_delta && from != current) {
      LOG(INFO) << options_.subscriber_id << ": topic " << name << " delta starts at version "
                << from << ", but processed version is " << current << "; asking for a new base";
      TTopicDelta ask;
      ask.topic_name = name;
      ask.is_delta = false;
      ask.__set_from_version(current);
      resp->topic_updates.push_back(std::move(ask));
      set_new_version(name, current);
      // The statestore is behind us: our previous reply was not applied.
      if (sub->second.on_reply_lost) sub->second.on_reply_lost();
      continue;
    }
    std::vector<TTopicDelta> publications;
    sub->second.callback(delta, &publications);
    set_new_version(name, delta.__isset.to_version ? delta.to_version : current);
    for (TTopicDelta& pub : publications) {
      if (pub.topic_name.empty()) pub.topic_name = name;
      resp->topic_updates.push_back(std::move(pub));
    }
  }
  // The statestore applies to_version first, then each publication's
  // from_version; mirror that for the topics this subscriber follows.
  for (const TTopicDelta& pub : resp->topic_updates) {
    if (pub.__isset.from_version && subscriptions_.count(pub.topic_name) != 0) {
      set_new_version(pub.topic_name, pub.from_version);
    }
  }
  MutexLock l(&mu_);
  // A re-registration during the callbacks reset the versions; keep that.
  if (generation != num_registrations_) return;
  for (const auto& [name, version] : new_versions) topics_[*name].version = version;
  for (const auto& [name, version] : min_versions) topics_[*name].min_subscriber_version = version;
  state_cv_.Broadcast();
}

void StatestoreSubscriber::Heartbeat(const impala::THeartbeatRequest& req,
                                     impala::THeartbeatResponse* resp) {
  if (req.__isset.request_statestore_conn_state && req.request_statestore_conn_state) {
    resp->__set_statestore_conn_state(impala::TStatestoreConnState::OK);
  }
  MutexLock l(&mu_);
  Status status;
  if (stopping_) {
    status = Status::Shutdown(options_.subscriber_id + " is stopping");
  } else if (!registering_) {
    // While registering, the heartbeat may carry the registration id whose
    // reply is on its way: accept it without recording it.
    status =
        CheckRequestIds("Heartbeat", req.__isset.registration_id ? &req.registration_id : nullptr,
                        req.__isset.statestore_id ? &req.statestore_id : nullptr);
    if (status.ok()) last_heartbeat_ = Clock::now();
  }
  resp->status = ToTStatus(status);
}

}  // namespace ics::statestore
