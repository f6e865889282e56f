#include "statestore/statestore.h"

#include <algorithm>

#include <glog/logging.h>

#include "statestore/catalogd_designation.h"
#include "statestore/statestore_impl.h"

namespace ics::statestore {

namespace {

using std::chrono::milliseconds;

constexpr size_t kMaxIdBytes = 1024;

}  // namespace

// ---------------------------------------------------------------- lifecycle

Status Statestore::Impl::Start() {
  MutexLock l(&mu_);
  if (started_) return Status::Internal("statestore already started");
  started_ = true;
  for (int i = 0; i < std::max(1, opts_.num_update_threads); ++i) {
    threads_.emplace_back([this] { UpdateWorker(); });
  }
  for (int i = 0; i < std::max(1, opts_.num_heartbeat_threads); ++i) {
    threads_.emplace_back([this] { HeartbeatWorker(); });
  }
  threads_.emplace_back([this] { TimerLoop(); });
  LOG(INFO) << "statestore " << PrintId(statestore_id_) << " started";
  return Status::OK();
}

void Statestore::Impl::Shutdown() {
  std::vector<SubPtr> subs;
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    for (auto& [id, sub] : subscribers_) subs.push_back(sub);
    update_cv_.Broadcast();
    heartbeat_cv_.Broadcast();
    timer_cv_.Broadcast();
  }
  for (auto& sub : subs) {
    sub->unregistered = true;
    sub->update_channel->Close();
    sub->heartbeat_channel->Close();
  }
  for (auto& t : threads_) t.join();
  threads_.clear();
  MutexLock l(&mu_);
  subscribers_.clear();
  update_queue_.Clear();
  heartbeat_queue_.Clear();
}

// ---------------------------------------------------------------- registration

Result<impala::TUniqueId> Statestore::Impl::Register(const impala::TRegisterSubscriberRequest& req,
                                                     const std::string& peer_identity) {
  if (req.protocol_version < impala::StatestoreServiceVersion::V2) {
    return Status(ErrorCode::kStatestoreIncompatibleProtocol,
                  "subscriber '" + req.subscriber_id + "' speaks statestore protocol V" +
                      std::to_string(static_cast<int>(req.protocol_version) + 1) +
                      "; this statestore requires V2");
  }
  if (req.subscriber_id.empty()) return Status::InvalidArgument("subscriber_id must not be empty");
  if (req.subscriber_id.size() > kMaxIdBytes) {
    return Status::InvalidArgument("subscriber_id is longer than " + std::to_string(kMaxIdBytes) +
                                   " bytes");
  }
  const auto& loc = req.subscriber_location;
  if (loc.hostname.empty() || loc.port <= 0 || loc.port > 65535) {
    return Status::InvalidArgument("subscriber '" + req.subscriber_id +
                                   "' has an invalid location '" + loc.hostname + ":" +
                                   std::to_string(loc.port) + "'");
  }
  std::set<std::string> names;
  for (const auto& t : req.topic_registrations) {
    if (t.topic_name.empty() || t.topic_name.size() > kMaxIdBytes) {
      return Status::InvalidArgument("topic names must be 1.." + std::to_string(kMaxIdBytes) +
                                     " bytes");
    }
    if (!names.insert(t.topic_name).second) {
      return Status::InvalidArgument("topic '" + t.topic_name + "' is registered twice");
    }
  }

  const Result<std::string> identified =
      opts_.tokens.Identify(req.subscriber_id, peer_identity, req.auth_token);
  if (!identified.ok()) {
    RefuseRegistration(identified.status());
    return identified.status();
  }
  const std::string& identity = *identified;
  const auto type = req.__isset.subscriber_type ? req.subscriber_type
                                                : impala::TStatestoreSubscriberType::COORDINATOR;
  if (Status s = opts_.writers.CheckRegistration(req.subscriber_id, type, identity); !s.ok()) {
    RefuseRegistration(s);
    return s;
  }
  const bool ha_candidate = CatalogdHa::IsCandidate(type, req);
  if (ha_candidate) {
    if (Status s = ValidateCatalogdRegistration(req.catalogd_registration); !s.ok()) {
      return s.WithContext("subscriber '" + req.subscriber_id + "'");
    }
  }

  auto sub = std::make_shared<SubscriberRecord>();
  sub->id = req.subscriber_id;
  sub->type = type;
  sub->identity = identity;
  sub->registration_id = GenerateUniqueId();
  sub->registration_key = PrintId(sub->registration_id);
  sub->location = loc;
  sub->ha_candidate = ha_candidate;
  sub->wants_catalogd =
      ha_candidate || (req.__isset.subscribe_catalogd_change && req.subscribe_catalogd_change);
  sub->accepts_oneway = req.__isset.accepts_oneway_updates && req.accepts_oneway_updates;
  ThriftClientOptions copts;
  copts.connect_timeout_ms = opts_.connect_timeout_ms;
  copts.max_message_bytes = opts_.max_message_bytes;
  copts.tls = opts_.tls;
  copts.recv_timeout_ms = copts.send_timeout_ms = opts_.update_timeout_ms;
  sub->update_channel = std::make_unique<SubscriberChannel>(loc.hostname, loc.port, copts,
                                                            opts_.update_timeout_ms);
  copts.recv_timeout_ms = copts.send_timeout_ms = opts_.heartbeat_timeout_ms;
  copts.connect_timeout_ms = std::min(opts_.connect_timeout_ms, opts_.heartbeat_timeout_ms);
  sub->heartbeat_channel = std::make_unique<SubscriberChannel>(loc.hostname, loc.port, copts,
                                                               opts_.heartbeat_timeout_ms);
  for (const auto& t : req.topic_registrations) {
    SubscribedTopic st;
    st.filter_prefix = t.__isset.filter_prefix ? t.filter_prefix : "";
    st.is_transient = t.is_transient;
    st.populate_min = t.populate_min_subscriber_topic_version;
    sub->topics.emplace(t.topic_name, std::move(st));
  }

  SubPtr old;
  {
    MutexLock l(&mu_);
    if (stopping_) return Status::Shutdown("statestore is shutting down");
    auto it = subscribers_.find(sub->id);
    if (it == subscribers_.end() &&
        subscribers_.size() >= static_cast<size_t>(opts_.max_subscribers)) {
      return Status::LimitExceeded("statestore has reached its limit of " +
                                   std::to_string(opts_.max_subscribers) + " subscribers");
    }
    if (it != subscribers_.end()) old = it->second;
    if (old != nullptr && old->identity != identity) {
      ++counters_.registrations_refused;
      Status s = Status::InvalidArgument("subscriber id '" + sub->id +
                                         "' is registered by another identity; a peer may only "
                                         "replace its own registration");
      LOG_EVERY_N(WARNING, 100) << s.message() << " (registered by '" << old->identity
                                << "', attempted by '" << identity << "')";
      return s;
    }
    // A candidate that registers again keeps its place (and an active one
    // its role): the old registration's end below then leaves it alone.
    if (ha_candidate && old != nullptr) {
      ha_.AddCandidate(sub->id, sub->registration_key, req.catalogd_registration, Now());
    }
  }
  if (old != nullptr) Unregister(old, "re-registered");

  SubPtr raced;  // a concurrent registration of the same id, replaced here
  {
    MutexLock l(&mu_);
    if (stopping_) return Status::Shutdown("statestore is shutting down");
    if (subscribers_.count(sub->id) == 0 &&
        subscribers_.size() >= static_cast<size_t>(opts_.max_subscribers)) {
      return Status::LimitExceeded("statestore has reached its limit of " +
                                   std::to_string(opts_.max_subscribers) + " subscribers");
    }
    auto& slot = subscribers_[sub->id];
    raced = slot;
    slot = sub;
    for (auto& [name, st] : sub->topics) {
      TopicRecord& tr = topics_[name];
      if (tr.topic == nullptr) tr.topic = std::make_unique<Topic>(name);
      tr.versions.insert(0);
      if (!sub->ha_candidate) tr.acked.insert(0);
      NoteMinReaderLocked(name, &st);
    }
    sub->last_heartbeat_ok = sub->registered_at = Now();
    ++counters_.registrations;
    if (ha_candidate) {
      ha_.AddCandidate(sub->id, sub->registration_key, req.catalogd_registration, Now());
      EvaluateHaLocked();
    }
    ScheduleUpdateLocked(sub);
    sub->heartbeat.next_due = NextPeriodicLocked(opts_.heartbeat_interval_ms, /*first=*/true);
  }
  LOG(INFO) << "registered subscriber '" << sub->id << "' at " << loc.hostname << ":" << loc.port
            << " with " << sub->topics.size() << " topic(s), registration "
            << sub->registration_key;
  if (raced != nullptr) Unregister(raced, "re-registered concurrently");
  return sub->registration_id;
}

void Statestore::Impl::RefuseRegistration(const Status& why) {
  {
    MutexLock l(&mu_);
    ++counters_.registrations_refused;
  }
  LOG_EVERY_N(WARNING, 100) << "registration refused: " << why.message();
}

namespace {

// One subscriber's version leaves `versions` (its registration ended).
void EraseVersion(std::multiset<int64_t>* versions, int64_t v) {
  auto it = versions->find(v);
  if (it != versions->end()) versions->erase(it);
}

// Replaces `from` by `to` in `versions` (inserts `to` when `from` is absent).
void MoveVersion(std::multiset<int64_t>* versions, int64_t from, int64_t to) {
  auto old = versions->find(from);
  if (old == versions->end()) {
    versions->insert(to);
  } else if (*old != to) {
    // Moves the node: no allocation per booked update.
    auto node = versions->extract(old);
    node.value() = to;
    versions->insert(std::move(node));
  }
}

}  // namespace

void Statestore::Impl::Unregister(const SubPtr& sub, const std::string& reason) {
  {
    MutexLock l(&mu_);
    if (sub->unregistered.exchange(true)) return;
    auto it = subscribers_.find(sub->id);
    if (it != subscribers_.end() && it->second == sub) subscribers_.erase(it);
    for (auto& [name, st] : sub->topics) {
      auto tr = topics_.find(name);
      if (tr == topics_.end()) continue;
      EraseVersion(&tr->second.versions, st.last_version);
      if (!sub->ha_candidate) EraseVersion(&tr->second.acked, st.acked_version);
      NoteMinReaderLocked(name, &st, /*removed=*/true);
    }
    if (sub->ha_candidate) {
      ha_.RemoveCandidate(sub->id, sub->registration_key);
      EvaluateHaLocked();
    }
  }
  LOG(INFO) << "unregistered subscriber '" << sub->id << "' (" << sub->registration_key
            << "): " << reason;
  // Unblock RPCs stuck on a hung subscriber; their workers drop the results
  // (a reply already read is still applied to the topics the subscriber did
  // not own transiently: ApplyReplyPublications). An update left to finish
  // after the failure would reach a subscriber cut off by the network once
  // the link heals, and it would go on believing itself registered, missed
  // by SYNC_DDL, until its own timeout.
  sub->update_channel->Close();
  sub->heartbeat_channel->Close();

  std::vector<std::string> changed;
  {
    MutexLock pl(&sub->publish_mu);
    for (const auto& [name, st] : sub->topics) {
      Topic* topic = nullptr;
      {
        MutexLock l(&mu_);
        auto tr = topics_.find(name);
        if (tr != topics_.end()) topic = tr->second.topic.get();
      }
      if (topic != nullptr && topic->RemoveEntriesOf(sub->registration_key, Now()) > 0) {
        changed.push_back(name);
      }
    }
  }
  MutexLock l(&mu_);
  for (const auto& name : changed) ScheduleTopicSubscribersLocked(name);
  PushMinChangesLocked();
}

void Statestore::Impl::SetActive(bool active, int64_t version) {
  MutexLock l(&mu_);
  if (active == active_ && (!active || version == active_version_)) return;
  active_ = active;
  if (!active) {
    ha_.EndActivation();
    LOG(WARNING) << "statestore " << PrintId(statestore_id_) << " is now the standby";
    return;
  }
  active_version_ = version;
  ha_.BeginActivation(version);
  ++counters_.activations;
  hold_until_ = Now() + milliseconds(kTakeoverHoldMs);
  LOG(INFO) << "statestore " << PrintId(statestore_id_) << " is now the active statestore "
            << "(active_statestored_version " << version << ")";
  EvaluateHaLocked();
  // Every subscriber hears of it (UpdateStatestoredRole) and gets a full
  // update from this statestore.
  for (auto& [id, sub] : subscribers_) ScheduleUpdateLocked(sub);
}

Status Statestore::Impl::RequestUpdate(const impala::TUniqueId& registration_id) {
  MutexLock l(&mu_);
  if (!active_) return Status::OK();  // a standby sends no updates
  SubPtr sub = FindRegistrationLocked(registration_id);
  if (sub == nullptr) return Status::NotFound("unknown registration id " + PrintId(registration_id));
  ScheduleUpdateLocked(sub);
  return Status::OK();
}

SubPtr Statestore::Impl::FindRegistrationLocked(
    const impala::TUniqueId& registration_id) const {
  for (const auto& [id, sub] : subscribers_) {
    if (sub->registration_id == registration_id) return sub;
  }
  return nullptr;
}

// ---------------------------------------------------------------- scheduling

JobLane Statestore::Impl::LaneOf(const JobSlot& own, const JobSlot& other) {
  if (own.rpc_failures > 0) return JobLane::kSuspect;
  if (own.answered) return JobLane::kHealthy;
  // Never tried: the other kind of RPC to the same address is the best hint.
  if (other.rpc_failures > 0) return JobLane::kSuspect;
  if (other.answered) return JobLane::kHealthy;
  return JobLane::kNew;
}

void Statestore::Impl::NoteRpcOutcome(JobSlot* slot, const Status& s) {
  if (s.ok()) {
    slot->answered = true;
    slot->rpc_failures = 0;
  } else {
    ++slot->rpc_failures;
  }
}

void Statestore::Impl::ScheduleUpdateLocked(const SubPtr& sub) {
  if (sub->unregistered || stopping_) return;
  if (sub->update.in_flight) {
    sub->update.again = true;
  } else if (!sub->update.queued) {
    sub->update.queued = true;
    // One wake-up per burst: the worker that takes the first job passes it
    // on while jobs are left (UpdateWorker).
    const bool was_idle = !update_queue_.Runnable();
    // Unanswered heartbeats make the update suspect too: oneway updates
    // never fail, so without this a subscriber that stopped (paused, hung)
    // would stay healthy and a call that waits for it (an announcement)
    // would hold a healthy batch.
    const JobLane lane =
        sub->heartbeat.rpc_failures > 0 ? JobLane::kSuspect : LaneOf(sub->update, sub->heartbeat);
    update_queue_.Push(sub, lane, sub->update.rpc_failures);
    if (was_idle) update_cv_.Signal();
  }
}

void Statestore::Impl::ScheduleHeartbeatLocked(const SubPtr& sub) {
  if (sub->unregistered || stopping_ || sub->heartbeat.in_flight || sub->heartbeat.queued) return;
  sub->heartbeat.queued = true;
  heartbeat_queue_.Push(sub, LaneOf(sub->heartbeat, sub->update), sub->heartbeat.rpc_failures);
  heartbeat_cv_.Signal();
}

void Statestore::Impl::ScheduleTopicSubscribersLocked(const std::string& topic) {
  for (auto& [id, sub] : subscribers_) {
    if (sub->topics.count(topic) != 0) ScheduleUpdateLocked(sub);
  }
}

void Statestore::Impl::SetVersionLocked(SubscriberRecord* sub, const std::string& topic,
                                        int64_t v) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end()) return;
  TopicRecord& tr = topics_[topic];
  MoveVersion(&tr.versions, st->second.last_version, v);
  if (!sub->ha_candidate) MoveVersion(&tr.acked, st->second.acked_version, v);
  st->second.last_version = st->second.acked_version = v;
}

bool Statestore::Impl::SetSentVersionLocked(SubscriberRecord* sub, const std::string& topic,
                                            int64_t v) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end()) return false;
  TopicRecord& tr = topics_[topic];
  MoveVersion(&tr.versions, st->second.last_version, v);
  st->second.last_version = v;
  return tr.min_readers > 0;
}

void Statestore::Impl::EvaluateHaLocked() {
  if (!active_) return;  // a standby statestore designates nobody
  if (!ha_.Evaluate(Now())) return;
  ++counters_.catalogd_designations;
  for (auto& [id, sub] : subscribers_) {
    if (sub->wants_catalogd) ScheduleUpdateLocked(sub);
  }
  PushMinChangesLocked();  // the minimum counts the active catalogd only
}

bool Statestore::Impl::MayPublishLocked(const SubscriberRecord& sub,
                                        const std::string& topic) const {
  if (topic != kCatalogTopicName || !ha_.enabled()) return true;
  return ha_.IsActive(sub.id);
}

SteadyTime Statestore::Impl::NextPeriodicLocked(int interval_ms, bool first) {
  const int64_t base = std::max(interval_ms, 1);
  const int64_t lo = first ? 1 : base - base / 10;
  const int64_t hi = first ? base : base + base / 10;
  return Now() + milliseconds(std::uniform_int_distribution<int64_t>(lo, hi)(jitter_));
}

void Statestore::Impl::HeartbeatWorker() {
  while (true) {
    SubPtr sub;
    JobLane lane = JobLane::kHealthy;
    {
      MutexLock l(&mu_);
      while (!stopping_ && !heartbeat_queue_.Pop(&sub, &lane)) heartbeat_cv_.Wait(&mu_);
      if (stopping_) return;
      sub->heartbeat.queued = false;
      sub->heartbeat.in_flight = true;
    }
    RunHeartbeat(sub);
    MutexLock l(&mu_);
    heartbeat_queue_.Done(lane);
  }
}

void Statestore::Impl::CutOverdueRpcsLocked(SteadyTime now) {
  for (auto& [id, sub] : subscribers_) {
    if (sub->update.in_flight && sub->update_channel->InterruptIfOverdue(now)) {
      ++counters_.rpcs_cut_at_deadline;
    }
    if (sub->heartbeat.in_flight && sub->heartbeat_channel->InterruptIfOverdue(now)) {
      ++counters_.rpcs_cut_at_deadline;
    }
  }
}

void Statestore::Impl::TimerLoop() {
  const int shortest = std::min(opts_.heartbeat_interval_ms, opts_.update_frequency_ms);
  // Fine enough that the spread deadlines (NextPeriodicLocked) are not
  // gathered into a few bursts again.
  const milliseconds tick(std::clamp(shortest / 20, 5, 50));
  auto next_gc = Now();
  MutexLock l(&mu_);
  while (!stopping_) {
    const auto now = Now();
    CutOverdueRpcsLocked(Clock::now());  // RPC deadlines are real time
    for (auto& [id, sub] : subscribers_) {
      if (!sub->update.queued && !sub->update.in_flight && now >= sub->update.next_due) {
        ScheduleUpdateLocked(sub);
      }
      if (now >= sub->heartbeat.next_due) ScheduleHeartbeatLocked(sub);
    }
    if (ha_.enabled() && !ha_.active()) EvaluateHaLocked();  // the first designation's wait
    if (now >= next_gc) {
      next_gc = now + milliseconds(std::clamp(opts_.tombstone_retention_ms / 4, 10, 1000));
      for (auto& [name, tr] : topics_) {
        // With no subscribers nobody can still need a tombstone's history
        // except future ones, which start with a full update anyway.
        // The bases of the next deltas, oneway ones included: a subscriber
        // that asks for a resend from below the floor gets a full update.
        const int64_t min = tr.versions.empty() ? tr.topic->last_version() : *tr.versions.begin();
        counters_.tombstones_collected +=
            tr.topic->CollectTombstones(min, milliseconds(opts_.tombstone_retention_ms), now);
      }
    }
    timer_cv_.WaitFor(&mu_, tick);
  }
}

// ---------------------------------------------------------------- introspection

std::vector<SubscriberInfo> Statestore::Impl::Subscribers() const {
  MutexLock l(&mu_);
  std::vector<SubscriberInfo> out;
  const auto now = Now();
  for (const auto& [id, sub] : subscribers_) {
    SubscriberInfo info;
    info.id = id;
    info.registration_id = sub->registration_key;
    info.address = sub->location.hostname + ":" + std::to_string(sub->location.port);
    for (const auto& [name, st] : sub->topics) {
      info.topics.push_back(
          {name, st.last_version, st.filter_prefix, st.is_transient, st.min_on_request,
           st.acked_version, st.min_wanted});
    }
    info.consecutive_heartbeat_failures = sub->consecutive_heartbeat_failures;
    info.unresponsive = sub->update.rpc_failures > 0 || sub->heartbeat.rpc_failures > 0;
    info.seconds_since_heartbeat =
        std::chrono::duration<double>(now - sub->last_heartbeat_ok).count();
    info.updates_sent = sub->updates_sent;
    info.update_failures = sub->update_failures;
    info.heartbeat_failures = sub->heartbeat_failures;
    info.seconds_since_registration =
        std::chrono::duration<double>(now - sub->registered_at).count();
    info.subscriber_type = impala::to_string(sub->type);
    for (const auto& [name, st] : sub->topics) {
      auto tr = topics_.find(name);
      if (st.is_transient && tr != topics_.end()) {
        info.num_transient += tr->second.topic->CountEntriesOf(sub->registration_key);
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<TopicStats> Statestore::Impl::Topics() const {
  MutexLock l(&mu_);
  std::vector<TopicStats> out;
  for (const auto& [name, tr] : topics_) out.push_back(tr.topic->Stats());
  return out;
}

// ---------------------------------------------------------------- public wrapper

Statestore::Statestore(StatestoreOptions options, metrics::MetricRegistry* metrics)
    : impl_(std::make_unique<Impl>(options, metrics)) {}
Statestore::~Statestore() { Shutdown(); }
Status Statestore::Start() { return impl_->Start(); }
void Statestore::Shutdown() { impl_->Shutdown(); }
Result<impala::TUniqueId> Statestore::RegisterSubscriber(
    const impala::TRegisterSubscriberRequest& req, const std::string& identity) {
  return impl_->Register(req, identity);
}
Status Statestore::RequestTopicUpdate(const impala::TRequestTopicUpdateRequest& req,
                                      const std::string& identity,
                                      std::map<std::string, int64_t>* topic_versions,
                                      bool* registration_unknown) {
  if (!impl_->KnowsRegistration(req.registration_id)) {
    if (registration_unknown != nullptr) *registration_unknown = true;
    return Status::NotFound("unknown registration id " + PrintId(req.registration_id) +
                            "; register again");
  }
  // Resends first: they do not depend on the publications being taken.
  if (req.__isset.resend_from) {
    ICS_RETURN_IF_ERROR(
        impl_->ResendFrom(req.registration_id, req.resend_from, req.auth_token, identity));
  }
  if (req.__isset.topic_updates) {
    Result<std::map<std::string, int64_t>> written =
        impl_->Publish(req.registration_id, req.topic_updates, req.auth_token, identity);
    if (!written.ok()) return written.status();
    if (topic_versions != nullptr) *topic_versions = std::move(written).value();
  }
  if (!req.__isset.min_subscriber_topic_versions_wanted &&
      !req.__isset.min_subscriber_topic_version_on_request) {
    if (req.__isset.topic_updates || req.__isset.resend_from) return Status::OK();
    return impl_->RequestUpdate(req.registration_id);
  }
  std::optional<bool> on_request;
  if (req.__isset.min_subscriber_topic_version_on_request) {
    on_request = req.min_subscriber_topic_version_on_request;
  }
  return impl_->WantMinVersions(req.registration_id, req.min_subscriber_topic_versions_wanted,
                                on_request);
}
int64_t Statestore::NewerActivationHeard() const { return impl_->NewerActivationHeard(); }

const impala::TUniqueId& Statestore::statestore_id() const { return impl_->statestore_id(); }
std::optional<ActiveCatalogd> Statestore::active_catalogd() const {
  return impl_->ActiveCatalogdInfo();
}
void Statestore::SetActive(bool active, int64_t version) { impl_->SetActive(active, version); }
bool Statestore::is_active() const { return impl_->IsActive(); }
int64_t Statestore::active_version() const { return impl_->ActiveVersion(); }
void Statestore::FollowPeerCatalogd(int64_t version, const std::string& host, int port) {
  impl_->FollowPeerCatalogd(version, host, port);
}
std::vector<SubscriberInfo> Statestore::Subscribers() const { return impl_->Subscribers(); }
std::vector<TopicStats> Statestore::Topics() const { return impl_->Topics(); }
StatestoreCounters Statestore::Counters() const { return impl_->Counters(); }
int64_t Statestore::MinSubscriberTopicVersion(const std::string& topic) const {
  return impl_->MinVersion(topic);
}

}  // namespace ics::statestore
