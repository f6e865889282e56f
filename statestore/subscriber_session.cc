#include "statestore/subscriber_session.h"

#include <algorithm>

#include <glog/logging.h>

#include "common/util/unique_id.h"

namespace ics::statestore {

using impala::TUniqueId;
using Clock = SubscriberSession::Clock;

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

// ---------------------------------------------------------------------------
// Lifecycle

Status SubscriberSession::CheckNotStarted(const std::string& topic) const {
  MutexLock l(&mu_);
  if (started_ || stopping_) {
    return Status::InvalidArgument("AddTopic(" + topic + ") after Start()");
  }
  return Status::OK();
}

void SubscriberSession::AddTopic(const TopicSubscription& subscription) {
  MutexLock l(&mu_);
  topics_.AddTopic(
      subscription.topic, subscription.min_version_on_request,
      subscription.populate_min_subscriber_topic_version && subscription.min_version_on_request);
}

Status SubscriberSession::CheckStartable() const {
  MutexLock l(&mu_);
  if (stopping_) return Status::Shutdown("subscriber " + options_.subscriber_id + " stopped");
  if (started_) return Status::InvalidArgument("subscriber already started");
  return Status::OK();
}

void SubscriberSession::MarkStarted() {
  MutexLock l(&mu_);
  started_ = true;
}

bool SubscriberSession::Stop(const std::function<void()>& interrupt_rpc) {
  MutexLock l(&mu_);
  if (stopping_) return false;
  stopping_ = true;
  bg_cv_.Broadcast();
  state_cv_.Broadcast();
  // Unblock an RPC to a statestore that does not answer. Repeated, since
  // the call may not have opened its socket yet at the first attempt.
  while (started_ && !thread_done_) {
    if (in_rpc_) interrupt_rpc();
    state_cv_.WaitFor(&mu_, std::chrono::milliseconds(100));
  }
  return true;
}

bool SubscriberSession::stopping() const {
  MutexLock l(&mu_);
  return stopping_;
}

// ---------------------------------------------------------------------------
// Accessors and waits

std::optional<TUniqueId> SubscriberSession::registration_id() const {
  MutexLock l(&mu_);
  return registration_id_;
}

std::optional<TUniqueId> SubscriberSession::statestore_id() const {
  MutexLock l(&mu_);
  return statestore_id_;
}

bool SubscriberSession::is_registered() const {
  MutexLock l(&mu_);
  return registration_id_.has_value();
}

int64_t SubscriberSession::num_registrations() const {
  MutexLock l(&mu_);
  return num_registrations_;
}

int64_t SubscriberSession::last_topic_version(const std::string& topic) const {
  MutexLock l(&mu_);
  return topics_.version(topic);
}

int64_t SubscriberSession::min_subscriber_topic_version(const std::string& topic) const {
  MutexLock l(&mu_);
  return topics_.min_version(topic);
}

Status SubscriberSession::WaitForRegistration(std::chrono::milliseconds timeout) {
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

Status SubscriberSession::WaitForTopicVersion(const std::string& topic, int64_t version,
                                              std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  MutexLock l(&mu_);
  if (!topics_.Has(topic)) return Status::NotFound("not subscribed to topic " + topic);
  while (topics_.version(topic) < version) {
    if (stopping_) return Status::Shutdown("subscriber stopped");
    if (!WaitStep(&state_cv_, &mu_, deadline)) {
      return Status::TimedOut("topic " + topic + " at version " +
                              std::to_string(topics_.version(topic)) + ", waited for " +
                              std::to_string(version));
    }
  }
  return Status::OK();
}

void SubscriberSession::WantMinLocked(const std::string& topic, int64_t version) {
  if (topics_.WantMin(topic, version)) bg_cv_.Broadcast();
}

void SubscriberSession::ExpectMinWait(const std::string& topic) {
  MutexLock l(&mu_);
  if (topics_.Has(topic)) WantMinLocked(topic, topics_.version(topic) + 1);
}

Status SubscriberSession::WaitForMinSubscriberTopicVersion(const std::string& topic,
                                                           int64_t version,
                                                           std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  MutexLock l(&mu_);
  if (!topics_.Has(topic)) return Status::NotFound("not subscribed to topic " + topic);
  WantMinLocked(topic, version);
  while (topics_.min_version(topic) < version) {
    if (stopping_) return Status::Shutdown("subscriber stopped");
    if (!WaitStep(&state_cv_, &mu_, deadline)) {
      return Status::TimedOut("topic " + topic + " min subscriber version at " +
                              std::to_string(topics_.min_version(topic)) + ", waited for " +
                              std::to_string(version));
    }
  }
  return Status::OK();
}

void SubscriberSession::RequestTopicUpdate() {
  MutexLock l(&mu_);
  if (stopping_ || !registration_id_.has_value() || update_requested_) return;
  update_requested_ = true;
  bg_cv_.Broadcast();
}

// ---------------------------------------------------------------------------
// Incoming requests

Status SubscriberSession::CheckRequestIds(const char* rpc, const TUniqueId* registration_id,
                                          const TUniqueId* statestore_id) {
  MutexLock l(&mu_);
  return CheckRequestIdsLocked(rpc, registration_id, statestore_id);
}

Status SubscriberSession::CheckRequestIdsLocked(const char* rpc, const TUniqueId* registration_id,
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

Status SubscriberSession::Heartbeat(const impala::THeartbeatRequest& req) {
  MutexLock l(&mu_);
  Status status;
  if (stopping_) {
    status = Status::Shutdown(options_.subscriber_id + " is stopping");
  } else if (!registering_) {
    // While registering, the heartbeat may carry the registration id whose
    // reply is on its way: accept it without recording it.
    status = CheckRequestIdsLocked("Heartbeat",
                                   req.__isset.registration_id ? &req.registration_id : nullptr,
                                   req.__isset.statestore_id ? &req.statestore_id : nullptr);
    if (status.ok()) last_heartbeat_ = Clock::now();
  }
  return status;
}

SubscriberSession::Admission SubscriberSession::AdmitUpdate(
    const impala::TUpdateStateRequest& req) {
  Admission a;
  MutexLock l(&mu_);
  const auto deadline = Clock::now() + kWaitForRegistration;
  while (registering_ && !stopping_ && WaitStep(&state_cv_, &mu_, deadline)) {
  }
  if (stopping_) {
    a.status = Status::Shutdown(options_.subscriber_id + " is stopping");
  } else if (registering_) {
    a.skip = true;
  } else {
    a.status = CheckRequestIdsLocked("UpdateState",
                                     req.__isset.registration_id ? &req.registration_id : nullptr,
                                     req.__isset.statestore_id ? &req.statestore_id : nullptr);
  }
  a.generation = num_registrations_;
  return a;
}

int64_t SubscriberSession::ProcessedVersion(const std::string& topic) const {
  MutexLock l(&mu_);
  return topics_.version(topic);
}

void SubscriberSession::CommitUpdate(int64_t generation, const TopicVersionList& versions,
                                     const TopicVersionList& min_versions) {
  MutexLock l(&mu_);
  // A re-registration during the callbacks reset the versions; keep that.
  if (generation != num_registrations_) return;
  for (const auto& [name, version] : versions) topics_.SetVersion(*name, version);
  for (const auto& [name, version] : min_versions) topics_.SetMinVersion(*name, version);
  state_cv_.Broadcast();
}

std::optional<std::vector<impala::TTopicResend>> SubscriberSession::ResendsAfter(
    const TUniqueId& registration_id,
    const std::map<std::string, impala::TTopicDelta>& deltas) const {
  MutexLock l(&mu_);
  // An update for another registration (or one that ended meanwhile)
  // changed nothing here; the statestore that sent it has no use for an
  // answer.
  if (stopping_ || !registration_id_.has_value() || registration_id != *registration_id_) {
    return std::nullopt;
  }
  std::vector<impala::TTopicResend> resends;
  for (const auto& [name, delta] : deltas) {
    if (!topics_.Has(name) || !delta.__isset.to_version) continue;
    const int64_t version = topics_.version(name);
    if (version == delta.to_version) continue;
    impala::TTopicResend r;
    r.topic_name = name;
    r.from_version = version;
    r.rejected_to_version = delta.to_version;
    resends.push_back(std::move(r));
  }
  return resends;
}

// ---------------------------------------------------------------------------
// Calls to the statestore

Result<TUniqueId> SubscriberSession::RegistrationForSend(const TUniqueId* only_for) const {
  MutexLock l(&mu_);
  if (stopping_) return Status::Shutdown("subscriber " + options_.subscriber_id + " stopped");
  if (!started_ || !registration_id_.has_value()) {
    return Status(ErrorCode::kRecoverableError,
                  "subscriber " + options_.subscriber_id + " is not registered");
  }
  if (only_for != nullptr && *only_for != *registration_id_) {
    return Status(ErrorCode::kRecoverableError,
                  "subscriber " + options_.subscriber_id + " registered again meanwhile");
  }
  return *registration_id_;
}

void SubscriberSession::DropUnknownRegistration(const TUniqueId& registration_id) {
  MutexLock l(&mu_);
  if (registration_id_.has_value() && *registration_id_ == registration_id) {
    LOG(WARNING) << options_.subscriber_id << ": statestore " << options_.statestore_host << ":"
                 << options_.statestore_port << " does not know registration "
                 << PrintId(registration_id) << "; registering again";
    registration_id_.reset();
    bg_cv_.Broadcast();
    state_cv_.Broadcast();
  }
}

// ---------------------------------------------------------------------------
// The background thread

bool SubscriberSession::BeginRegistration() {
  MutexLock l(&mu_);
  if (stopping_) return false;
  registering_ = true;
  in_rpc_ = true;
  return true;
}

void SubscriberSession::EndRegistration(const Status& status,
                                        const impala::TRegisterSubscriberResponse& resp) {
  MutexLock l(&mu_);
  registering_ = false;
  in_rpc_ = false;
  if (status.ok()) {
    registration_id_ = resp.registration_id;
    if (resp.__isset.statestore_id) {
      statestore_id_ = resp.statestore_id;
    } else {
      statestore_id_.reset();
    }
    ++num_registrations_;
    last_heartbeat_ = Clock::now();
    update_requested_ = false;  // the first update follows registration anyway
    topics_.ResetForRegistration();
    LOG(INFO) << options_.subscriber_id << " registered with statestore "
              << options_.statestore_host << ":" << options_.statestore_port << ", registration id "
              << PrintId(*registration_id_) << ", statestore id "
              << (statestore_id_ ? PrintId(*statestore_id_) : std::string("(none)"));
  }
  state_cv_.Broadcast();
}

SubscriberSession::Work SubscriberSession::NextWork(Timers* timers) {
  Work work;
  MutexLock l(&mu_);
  while (true) {
    if (stopping_) {
      work.action = Action::kStop;
      return work;
    }
    if (!registration_id_.has_value()) {
      work.action = Action::kRegister;
      return work;
    }
    if (update_requested_) {
      update_requested_ = false;
      work.registration_id = *registration_id_;
      in_rpc_ = true;
      work.action = Action::kRequestUpdate;
      return work;
    }
    if (topics_.HasUnsent()) {
      work.wishes = topics_.TakeUnsent();
      work.registration_id = *registration_id_;
      in_rpc_ = true;
      work.action = Action::kMinVersions;
      return work;
    }
    const auto deadline =
        last_heartbeat_ + std::chrono::milliseconds(options_.statestore_timeout_ms);
    const auto now = Clock::now();
    if (timers->close_idle_at.has_value() && now >= *timers->close_idle_at) {
      timers->close_idle_at.reset();
      work.action = Action::kCloseIdle;
      return work;
    }
    if (now >= deadline) {
      LOG(WARNING) << options_.subscriber_id << ": no heartbeat from the statestore for "
                   << options_.statestore_timeout_ms << " ms; registering again";
      registration_id_.reset();
      state_cv_.Broadcast();
      continue;
    }
    auto wake =
        timers->close_idle_at.has_value() ? std::min(deadline, *timers->close_idle_at) : deadline;
    if (timers->probe_after.count() > 0) {
      const auto probe_at =
          std::max(last_heartbeat_ + timers->probe_after, timers->last_probe + timers->probe_every);
      if (now >= probe_at) {
        timers->last_probe = now;
        work.registration_id = *registration_id_;
        in_rpc_ = true;
        work.action = Action::kProbe;
        return work;
      }
      wake = std::min(wake, probe_at);
    }
    bg_cv_.WaitUntil(&mu_, wake);
  }
}

void SubscriberSession::RpcDone() {
  MutexLock l(&mu_);
  in_rpc_ = false;
}

void SubscriberSession::WaitUntil(Clock::time_point deadline) {
  MutexLock l(&mu_);
  while (!stopping_ && Clock::now() < deadline) bg_cv_.WaitUntil(&mu_, deadline);
}

void SubscriberSession::LoopExited() {
  MutexLock l(&mu_);
  thread_done_ = true;
  state_cv_.Broadcast();
}

}  // namespace ics::statestore
