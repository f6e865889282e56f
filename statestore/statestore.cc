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
    if (scheduler_.stopping()) return;
    scheduler_.Stop();
    for (auto& [id, sub] : registry_.all()) subs.push_back(sub);
  }
  for (auto& sub : subs) {
    sub->unregistered = true;
    sub->update_channel->Close();
    sub->heartbeat_channel->Close();
  }
  for (auto& t : threads_) t.join();
  threads_.clear();
  MutexLock l(&mu_);
  registry_.Clear();
  scheduler_.Clear();
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
    if (scheduler_.stopping()) return Status::Shutdown("statestore is shutting down");
    old = registry_.Find(sub->id);
    if (old == nullptr && registry_.size() >= static_cast<size_t>(opts_.max_subscribers)) {
      return Status::LimitExceeded("statestore has reached its limit of " +
                                   std::to_string(opts_.max_subscribers) + " subscribers");
    }
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
      role_.catalogd().AddCandidate(sub->id, sub->registration_key, req.catalogd_registration,
                                    Now());
    }
  }
  if (old != nullptr) Unregister(old, "re-registered");

  SubPtr raced;  // a concurrent registration of the same id, replaced here
  {
    MutexLock l(&mu_);
    if (scheduler_.stopping()) return Status::Shutdown("statestore is shutting down");
    if (!registry_.Contains(sub->id) &&
        registry_.size() >= static_cast<size_t>(opts_.max_subscribers)) {
      return Status::LimitExceeded("statestore has reached its limit of " +
                                   std::to_string(opts_.max_subscribers) + " subscribers");
    }
    raced = registry_.Insert(sub);
    ledger_.AddSubscriber(sub.get());
    sub->last_heartbeat_ok = sub->registered_at = Now();
    ++counters_.registrations;
    if (ha_candidate) {
      role_.catalogd().AddCandidate(sub->id, sub->registration_key, req.catalogd_registration,
                                    Now());
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

void Statestore::Impl::Unregister(const SubPtr& sub, const std::string& reason) {
  {
    MutexLock l(&mu_);
    if (sub->unregistered.exchange(true)) return;
    registry_.Remove(sub);
    ledger_.RemoveSubscriber(sub.get());
    if (sub->ha_candidate) {
      role_.catalogd().RemoveCandidate(sub->id, sub->registration_key);
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
        topic = ledger_.Find(name);
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
  const BrokerRole::Change change = role_.SetActive(active, version, Now());
  if (change == BrokerRole::Change::kNone) return;
  if (change == BrokerRole::Change::kStandby) {
    LOG(WARNING) << "statestore " << PrintId(statestore_id_) << " is now the standby";
    return;
  }
  ++counters_.activations;
  LOG(INFO) << "statestore " << PrintId(statestore_id_) << " is now the active statestore "
            << "(active_statestored_version " << version << ")";
  EvaluateHaLocked();
  // Every subscriber hears of it (UpdateStatestoredRole) and gets a full
  // update from this statestore.
  for (auto& [id, sub] : registry_.all()) ScheduleUpdateLocked(sub);
}

Status Statestore::Impl::RequestUpdate(const impala::TUniqueId& registration_id) {
  MutexLock l(&mu_);
  if (!role_.active()) return Status::OK();  // a standby sends no updates
  SubPtr sub = registry_.FindRegistration(registration_id);
  if (sub == nullptr) return Status::NotFound("unknown registration id " + PrintId(registration_id));
  ScheduleUpdateLocked(sub);
  return Status::OK();
}

Status Statestore::Impl::WantMinVersions(const impala::TUniqueId& registration_id,
                                         const std::map<std::string, int64_t>& wanted,
                                         std::optional<bool> on_request) {
  MutexLock l(&mu_);
  SubPtr sub = registry_.FindRegistration(registration_id);
  if (sub == nullptr) {
    return Status::NotFound("unknown registration id " + PrintId(registration_id));
  }
  const TopicLedger::WishOutcome wish =
      ledger_.WantMin(sub.get(), wanted, on_request, registry_, ActiveCatalogdLocked());
  // A standby sends no updates; the wish stays for when it takes over.
  if (!role_.active()) return Status::OK();
  for (const SubPtr& other : wish.unacknowledged) ScheduleUpdateLocked(other);
  if (wish.due) ScheduleUpdateLocked(sub);
  return Status::OK();
}

// ---------------------------------------------------------------- scheduling

void Statestore::Impl::ScheduleTopicSubscribersLocked(const std::string& topic) {
  for (auto& [id, sub] : registry_.all()) {
    if (sub->topics.count(topic) != 0) ScheduleUpdateLocked(sub);
  }
}

const SubscriberRecord* Statestore::Impl::ActiveCatalogdLocked() const {
  const std::optional<ActiveCatalogd>& active = role_.catalogd().active();
  if (!active) return nullptr;
  return registry_.Find(active->subscriber_id).get();
}

void Statestore::Impl::PushMinChangesLocked() {
  for (const SubPtr& sub : ledger_.MinPushesDue(registry_, ActiveCatalogdLocked())) {
    ScheduleUpdateLocked(sub);
  }
}

void Statestore::Impl::EvaluateHaLocked() {
  if (!role_.EvaluateDesignation(Now())) return;
  ++counters_.catalogd_designations;
  for (auto& [id, sub] : registry_.all()) {
    if (sub->wants_catalogd) ScheduleUpdateLocked(sub);
  }
  PushMinChangesLocked();  // the minimum counts the active catalogd only
}

void Statestore::Impl::HeartbeatWorker() {
  while (true) {
    PushScheduler::Job job;
    {
      MutexLock l(&mu_);
      if (!scheduler_.TakeHeartbeatJob(&mu_, &job)) return;
    }
    RunHeartbeat(job.sub);
    MutexLock l(&mu_);
    scheduler_.EndHeartbeatJob(job.lane);
  }
}

void Statestore::Impl::CutOverdueRpcsLocked(SteadyTime now) {
  for (auto& [id, sub] : registry_.all()) {
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
  while (!scheduler_.stopping()) {
    const auto now = Now();
    CutOverdueRpcsLocked(Clock::now());  // RPC deadlines are real time
    for (auto& [id, sub] : registry_.all()) {
      if (!sub->update.queued && !sub->update.in_flight && now >= sub->update.next_due) {
        ScheduleUpdateLocked(sub);
      }
      if (now >= sub->heartbeat.next_due) scheduler_.ScheduleHeartbeat(sub);
    }
    if (role_.AwaitsFirstDesignation()) EvaluateHaLocked();  // the first designation's wait
    if (now >= next_gc) {
      next_gc = now + milliseconds(std::clamp(opts_.tombstone_retention_ms / 4, 10, 1000));
      counters_.tombstones_collected +=
          ledger_.CollectTombstones(milliseconds(opts_.tombstone_retention_ms), now);
    }
    scheduler_.WaitTick(&mu_, tick);
  }
}

// ---------------------------------------------------------------- introspection

std::vector<SubscriberInfo> Statestore::Impl::Subscribers() const {
  MutexLock l(&mu_);
  std::vector<SubscriberInfo> out;
  const auto now = Now();
  for (const auto& [id, sub] : registry_.all()) {
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
      const Topic* topic = ledger_.Find(name);
      if (st.is_transient && topic != nullptr) {
        info.num_transient += topic->CountEntriesOf(sub->registration_key);
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<TopicStats> Statestore::Impl::Topics() const {
  MutexLock l(&mu_);
  return ledger_.Stats();
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
