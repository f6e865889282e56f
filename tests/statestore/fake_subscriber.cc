#include "tests/statestore/fake_subscriber.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include <thrift/TApplicationException.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TServerSocket.h>

namespace ics::sstest {

using apache::thrift::TException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TBinaryProtocolFactory;
using apache::thrift::server::TThreadedServer;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TBufferedTransportFactory;
using apache::thrift::transport::TServerSocket;
using apache::thrift::transport::TSocket;

namespace {

// A server socket bound before the serve loop starts, so port 0 can be
// resolved to the real port right away (serve() calls listen() again).
class PreboundServerSocket : public TServerSocket {
 public:
  PreboundServerSocket(const std::string& host, int port) : TServerSocket(host, port) {}
  void listen() override {
    if (bound_) return;
    TServerSocket::listen();
    bound_ = true;
  }

 private:
  bool bound_ = false;
};

impala::TStatus OkStatus() {
  impala::TStatus s;
  s.status_code = impala::TErrorCode::OK;
  return s;
}

impala::TStatus ErrorStatus(const std::string& msg) {
  impala::TStatus s;
  s.status_code = impala::TErrorCode::GENERAL;
  s.__set_error_msgs({msg});
  return s;
}

constexpr size_t kMaxSnapshots = 256;

}  // namespace

impala::TTopicRegistration TopicReg(const std::string& name, bool transient,
                                    const std::string& filter_prefix, bool want_min_version) {
  impala::TTopicRegistration reg;
  reg.topic_name = name;
  reg.is_transient = transient;
  reg.populate_min_subscriber_topic_version = want_min_version;
  if (!filter_prefix.empty()) reg.__set_filter_prefix(filter_prefix);
  return reg;
}

impala::TTopicItem Item(const std::string& key, const std::string& value) {
  impala::TTopicItem item;
  item.key = key;
  item.value = value;
  item.deleted = false;
  return item;
}

impala::TTopicItem Tombstone(const std::string& key) {
  impala::TTopicItem item;
  item.key = key;
  item.deleted = true;
  return item;
}

std::string IdToString(const impala::TUniqueId& id) {
  std::ostringstream out;
  out << std::hex << id.hi << ":" << id.lo;
  return out.str();
}

bool CallStatestore(const std::string& host, int port,
                    const std::function<void(impala::StatestoreServiceClient&)>& call,
                    std::string* error, int timeout_ms) {
  auto socket = std::make_shared<TSocket>(host, port);
  socket->setConnTimeout(timeout_ms);
  socket->setRecvTimeout(timeout_ms);
  socket->setSendTimeout(timeout_ms);
  auto transport = std::make_shared<TBufferedTransport>(socket);
  auto protocol = std::make_shared<TBinaryProtocol>(transport);
  impala::StatestoreServiceClient client(protocol);
  try {
    transport->open();
    call(client);
    transport->close();
    return true;
  } catch (const TException& e) {
    if (error != nullptr) *error = e.what();
    try {
      transport->close();
    } catch (const TException&) {
    }
    return false;
  }
}

// Forwards the Thrift handler calls to the FakeSubscriber.
class FakeSubscriber::Handler : public impala::StatestoreSubscriberIf {
 public:
  explicit Handler(FakeSubscriber* owner) : owner_(owner) {}
  void UpdateState(impala::TUpdateStateResponse& resp,
                   const impala::TUpdateStateRequest& req) override {
    owner_->OnUpdateState(resp, req);
  }
  // Never registered with accepts_oneway_updates: being sent one is a
  // protocol violation.
  void UpdateStateOneway(const impala::TUpdateStateRequest&) override {
    owner_->OnUnexpectedOneway();
  }
  void Heartbeat(impala::THeartbeatResponse& resp, const impala::THeartbeatRequest& req) override {
    owner_->OnHeartbeat(resp, req);
  }
  void UpdateCatalogd(impala::TUpdateCatalogdResponse& resp,
                      const impala::TUpdateCatalogdRequest& req) override {
    RecordedCatalogdUpdate u;
    u.registration_id = req.registration_id;
    u.catalogd_version = req.catalogd_version;
    u.catalogd = req.catalogd_registration;
    owner_->OnCatalogdUpdate(std::move(u));
    resp.status = OkStatus();
  }
  void UpdateStatestoredRole(impala::TUpdateStatestoredRoleResponse& resp,
                             const impala::TUpdateStatestoredRoleRequest& req) override {
    RecordedCatalogdUpdate u;
    u.statestored_role = true;
    u.registration_id = req.registration_id;
    if (req.__isset.catalogd_version) u.catalogd_version = req.catalogd_version;
    if (req.__isset.catalogd_registration) u.catalogd = req.catalogd_registration;
    owner_->OnCatalogdUpdate(std::move(u));
    resp.status = OkStatus();
  }

 private:
  FakeSubscriber* const owner_;
};

FakeSubscriber::FakeSubscriber(FakeSubscriberOptions options)
    : options_(std::move(options)), last_contact_(Clock::now()) {}

FakeSubscriber::~FakeSubscriber() { Stop(); }

bool FakeSubscriber::Start(std::string* error) {
  std::lock_guard<std::mutex> sl(server_mu_);
  if (server_ != nullptr) {
    if (error != nullptr) *error = "already started";
    return false;
  }
  auto socket = std::make_shared<PreboundServerSocket>("127.0.0.1", 0);
  try {
    socket->listen();
  } catch (const TException& e) {
    if (error != nullptr) *error = e.what();
    return false;
  }
  port_ = socket->getPort();
  auto processor =
      std::make_shared<impala::StatestoreSubscriberProcessor>(std::make_shared<Handler>(this));
  server_ = std::make_shared<TThreadedServer>(processor, socket,
                                              std::make_shared<TBufferedTransportFactory>(),
                                              std::make_shared<TBinaryProtocolFactory>());
  serve_thread_ = std::thread([server = server_] {
    try {
      server->serve();
    } catch (const std::exception&) {
      // The loop ends on Stop(); nothing to report.
    }
  });
  {
    std::lock_guard<std::mutex> l(mu_);
    last_contact_ = Clock::now();
  }
  if (options_.reregister_after_ms > 0) monitor_thread_ = std::thread([this] { MonitorLoop(); });
  return true;
}

void FakeSubscriber::Stop() {
  std::lock_guard<std::mutex> sl(server_mu_);
  {
    std::lock_guard<std::mutex> l(mu_);
    stopping_ = true;
    BumpLocked();
  }
  if (monitor_thread_.joinable()) monitor_thread_.join();
  if (server_ != nullptr) {
    server_->stop();
    if (serve_thread_.joinable()) serve_thread_.join();
    server_.reset();
  }
}

impala::TRegisterSubscriberResponse FakeSubscriber::Register() {
  std::lock_guard<std::mutex> rl(register_mu_);
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = options_.id;
  req.subscriber_location.hostname = "127.0.0.1";
  req.subscriber_location.port = port_.load();
  req.topic_registrations = options_.topics;
  if (options_.subscriber_type) req.__set_subscriber_type(*options_.subscriber_type);
  if (options_.subscribe_catalogd_change) req.__set_subscribe_catalogd_change(true);
  if (options_.catalogd_registration)
    req.__set_catalogd_registration(*options_.catalogd_registration);
  {
    std::lock_guard<std::mutex> l(mu_);
    registering_ = true;
  }
  impala::TRegisterSubscriberResponse resp;
  std::string error;
  const bool sent = CallStatestore(
      options_.statestore_host, options_.statestore_port,
      [&](impala::StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); }, &error,
      options_.rpc_timeout_ms);
  std::lock_guard<std::mutex> l(mu_);
  registering_ = false;
  last_registration_ = resp;
  if (!sent) {
    resp.status = ErrorStatus("transport error: " + error);
  } else if (resp.status.status_code == impala::TErrorCode::OK && resp.__isset.registration_id) {
    registration_id_ = resp.registration_id;
    ++registration_count_;
    last_contact_ = Clock::now();
    for (auto& [name, model] : topics_) {
      model.version = 0;
      model.snapshots.clear();
    }
    // Sticky publications go first, ahead of anything queued meanwhile.
    for (auto it = sticky_.rbegin(); it != sticky_.rend(); ++it) {
      pending_.push_front(PendingPublication{*it, false});
    }
  }
  BumpLocked();
  return resp;
}

bool FakeSubscriber::RegisterOk(std::string* error) {
  impala::TRegisterSubscriberResponse resp = Register();
  if (resp.status.status_code == impala::TErrorCode::OK && resp.__isset.registration_id)
    return true;
  if (error != nullptr) {
    std::ostringstream out;
    out << "status " << static_cast<int>(resp.status.status_code);
    for (const auto& m : resp.status.error_msgs) out << ": " << m;
    *error = out.str();
  }
  return false;
}

std::optional<impala::TUniqueId> FakeSubscriber::registration_id() const {
  std::lock_guard<std::mutex> l(mu_);
  return registration_id_;
}

int FakeSubscriber::registration_count() const {
  std::lock_guard<std::mutex> l(mu_);
  return registration_count_;
}

void FakeSubscriber::Publish(const std::string& topic, std::vector<impala::TTopicItem> items,
                             bool clear_topic_entries) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.topic_entries = std::move(items);
  d.is_delta = true;
  if (clear_topic_entries) d.__set_clear_topic_entries(true);
  std::lock_guard<std::mutex> l(mu_);
  pending_.push_back(PendingPublication{std::move(d), false});
}

void FakeSubscriber::PublishSticky(const std::string& topic,
                                   std::vector<impala::TTopicItem> items) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.topic_entries = std::move(items);
  d.is_delta = true;
  std::lock_guard<std::mutex> l(mu_);
  sticky_.push_back(d);
  pending_.push_back(PendingPublication{std::move(d), false});
}

void FakeSubscriber::RequestFromVersion(const std::string& topic, int64_t version) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.is_delta = true;
  d.__set_from_version(version);
  std::lock_guard<std::mutex> l(mu_);
  versions_scripted_ = true;
  pending_.push_back(PendingPublication{std::move(d), false});
}

bool FakeSubscriber::RewindTo(const std::string& topic, int64_t version) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.is_delta = true;
  d.__set_from_version(version);
  std::lock_guard<std::mutex> l(mu_);
  auto it = topics_.find(topic);
  if (it == topics_.end() || it->second.snapshots.count(version) == 0) return false;
  versions_scripted_ = true;
  pending_.push_back(PendingPublication{std::move(d), true});
  return true;
}

void FakeSubscriber::SetUpdateReply(UpdateReply reply) {
  std::lock_guard<std::mutex> l(mu_);
  reply_ = reply;
}

void FakeSubscriber::SetUpdateDelay(Millis delay) {
  std::lock_guard<std::mutex> l(mu_);
  update_delay_ = delay;
  if (delay.count() > 0) timing_scripted_ = true;
}

void FakeSubscriber::SetHangUpdates(bool hang) {
  std::lock_guard<std::mutex> l(mu_);
  hang_updates_ = hang;
  if (hang) timing_scripted_ = true;
  cv_.notify_all();
}

void FakeSubscriber::DelayNextHeartbeats(int count, Millis delay) {
  std::lock_guard<std::mutex> l(mu_);
  slow_heartbeats_ = count;
  heartbeat_delay_ = delay;
}

void FakeSubscriber::SetHangHeartbeats(bool hang) {
  std::lock_guard<std::mutex> l(mu_);
  hang_heartbeats_ = hang;
  cv_.notify_all();
}

void FakeSubscriber::CheckDeltaLocked(const std::string& name, const impala::TTopicDelta& delta,
                                      int64_t seq) {
  auto fail = [&](const std::string& what) {
    violations_.push_back("call " + std::to_string(seq) + " topic " + name + ": " + what);
  };
  const impala::TTopicRegistration* reg = nullptr;
  for (const auto& r : options_.topics) {
    if (r.topic_name == name) reg = &r;
  }
  if (reg == nullptr) {
    fail("delta for a topic this subscriber did not register");
    return;
  }
  if (delta.topic_name != name) fail("map key differs from topic_name " + delta.topic_name);
  if (!delta.__isset.to_version) fail("no to_version");
  if (delta.is_delta && !delta.__isset.from_version) fail("delta without from_version");
  if (delta.__isset.to_version && delta.__isset.from_version && delta.is_delta &&
      delta.to_version < delta.from_version) {
    fail("to_version " + std::to_string(delta.to_version) + " < from_version " +
         std::to_string(delta.from_version));
  }
  if (reg->populate_min_subscriber_topic_version != delta.__isset.min_subscriber_topic_version) {
    fail(reg->populate_min_subscriber_topic_version ? "min_subscriber_topic_version missing"
                                                    : "min_subscriber_topic_version not asked for");
  }
  for (const auto& item : delta.topic_entries) {
    if (reg->__isset.filter_prefix &&
        item.key.compare(0, reg->filter_prefix.size(), reg->filter_prefix) != 0) {
      fail("key '" + item.key + "' outside filter_prefix '" + reg->filter_prefix + "'");
    }
    if (!delta.is_delta && item.deleted) fail("tombstone '" + item.key + "' in a full update");
  }
}

void FakeSubscriber::BumpLocked() {
  ++generation_;
  cv_.notify_all();
}

bool FakeSubscriber::SleepInterruptibly(std::unique_lock<std::mutex>& l, Millis d) {
  const auto deadline = Clock::now() + d;
  return !cv_.wait_until(l, deadline, [&] { return stopping_; });
}

void FakeSubscriber::WaitWhileRegistering(std::unique_lock<std::mutex>& l) {
  // Like a real subscriber, hold callbacks until registration has answered
  // (the first update may overtake the RegisterSubscriber response).
  cv_.wait_for(l, Millis(options_.rpc_timeout_ms), [&] { return !registering_ || stopping_; });
}

void FakeSubscriber::OnUnexpectedOneway() {
  std::unique_lock<std::mutex> l(mu_);
  violations_.push_back("UpdateStateOneway sent to a subscriber that did not accept it");
}

void FakeSubscriber::OnUpdateState(impala::TUpdateStateResponse& resp,
                                   const impala::TUpdateStateRequest& req) {
  std::unique_lock<std::mutex> l(mu_);
  WaitWhileRegistering(l);
  const auto now = Clock::now();
  const int64_t seq = update_calls_++;
  const bool foreign = req.__isset.registration_id && registration_id_.has_value() &&
                       !(req.registration_id == *registration_id_);
  ++updates_in_flight_;
  max_updates_in_flight_ = std::max(max_updates_in_flight_, updates_in_flight_);
  if (updates_in_flight_ > 1 && !timing_scripted_) {
    violations_.push_back("two UpdateState calls in flight at once (call " + std::to_string(seq) +
                          ")");
  }
  // Decrements the in-flight count however this handler returns.
  struct InFlight {
    int* n;
    ~InFlight() { --*n; }
  } in_flight{&updates_in_flight_};
  for (const auto& [name, delta] : req.topic_deltas) {
    CheckDeltaLocked(name, delta, seq);
    RecordedUpdate rec;
    rec.at = now;
    rec.call_seq = seq;
    rec.registration_seq = registration_count_;
    if (req.__isset.registration_id) rec.registration_id = req.registration_id;
    if (req.__isset.statestore_id) rec.statestore_id = req.statestore_id;
    rec.delta = delta;
    TopicModel& m = topics_[name];
    if (delta.__isset.min_subscriber_topic_version) {
      m.last_min_version = delta.min_subscriber_topic_version;
    }
    m.updates.push_back(std::move(rec));
  }
  BumpLocked();

  if (update_delay_.count() > 0) SleepInterruptibly(l, update_delay_);
  cv_.wait(l, [&] { return !hang_updates_ || stopping_; });
  if (stopping_) {
    resp.status = ErrorStatus("subscriber stopping");
    return;
  }
  if (foreign && options_.reject_foreign_registration) {
    ++foreign_updates_;
    resp.status = ErrorStatus("unknown registration id");
    BumpLocked();
    return;
  }
  if (reply_ != UpdateReply::kNormal) {
    // The queued publications ride along (and stay queued): the statestore
    // must not apply what comes with an error or a skipped reply.
    for (const auto& p : pending_) {
      if (!p.delta.__isset.from_version) resp.topic_updates.push_back(p.delta);
    }
    if (reply_ == UpdateReply::kError) {
      resp.status = ErrorStatus("injected update failure");
    } else {
      resp.status = OkStatus();
      resp.__set_skipped(true);
    }
    return;
  }
  resp.status = OkStatus();

  std::vector<impala::TTopicDelta> pubs;
  for (const auto& [name, delta] : req.topic_deltas) {
    TopicModel& m = topics_[name];
    if (delta.is_delta) {
      const int64_t from = delta.__isset.from_version ? delta.from_version : -1;
      if (from != m.version) {
        ++m.chain_errors;
        if (!versions_scripted_ && !timing_scripted_ && !foreign) {
          violations_.push_back("topic " + name + ": delta from " + std::to_string(from) +
                                " but processed version is " + std::to_string(m.version));
        }
        if (options_.auto_rebase) {
          impala::TTopicDelta rebase;
          rebase.topic_name = name;
          rebase.is_delta = true;
          rebase.__set_from_version(m.version);
          pubs.push_back(std::move(rebase));
        }
        continue;
      }
    } else {
      m.entries.clear();
    }
    for (const auto& item : delta.topic_entries) {
      if (item.deleted) {
        m.entries.erase(item.key);
      } else {
        m.entries[item.key] = item.value;
      }
    }
    if (delta.__isset.to_version) m.version = delta.to_version;
    m.snapshots[m.version] = m.entries;
    if (m.snapshots.size() > kMaxSnapshots) m.snapshots.erase(m.snapshots.begin());
  }
  bool published = false;
  while (!pending_.empty()) {
    PendingPublication p = std::move(pending_.front());
    pending_.pop_front();
    if (p.delta.__isset.from_version) {
      TopicModel& m = topics_[p.delta.topic_name];
      if (p.rewind) {
        auto it = m.snapshots.find(p.delta.from_version);
        if (it != m.snapshots.end()) m.entries = it->second;
      }
      m.version = p.delta.from_version;
    }
    if (!p.delta.topic_entries.empty() || p.delta.__isset.clear_topic_entries) published = true;
    pubs.push_back(std::move(p.delta));
  }
  if (published) last_publish_time_ = Clock::now();
  resp.topic_updates = std::move(pubs);
  resp.__set_skipped(false);
  BumpLocked();
}

void FakeSubscriber::OnHeartbeat(impala::THeartbeatResponse& resp,
                                 const impala::THeartbeatRequest& req) {
  std::unique_lock<std::mutex> l(mu_);
  WaitWhileRegistering(l);
  RecordedHeartbeat hb;
  hb.at = Clock::now();
  if (req.__isset.registration_id) hb.registration_id = req.registration_id;
  heartbeats_.push_back(hb);
  last_contact_ = hb.at;
  BumpLocked();
  if (slow_heartbeats_ > 0) {
    --slow_heartbeats_;
    SleepInterruptibly(l, heartbeat_delay_);
  }
  cv_.wait(l, [&] { return !hang_heartbeats_ || stopping_; });
  resp.status = stopping_ ? ErrorStatus("subscriber stopping") : OkStatus();
  if (req.__isset.request_statestore_conn_state && req.request_statestore_conn_state) {
    resp.__set_statestore_conn_state(impala::TStatestoreConnState::OK);
  }
}

void FakeSubscriber::OnCatalogdUpdate(RecordedCatalogdUpdate update) {
  std::lock_guard<std::mutex> l(mu_);
  update.at = Clock::now();
  catalogd_updates_.push_back(std::move(update));
  BumpLocked();
}

std::vector<RecordedCatalogdUpdate> FakeSubscriber::CatalogdUpdates() const {
  std::lock_guard<std::mutex> l(mu_);
  return catalogd_updates_;
}

impala::TRegisterSubscriberResponse FakeSubscriber::LastRegistration() const {
  std::lock_guard<std::mutex> l(mu_);
  return last_registration_;
}

void FakeSubscriber::MonitorLoop() {
  const Millis limit(options_.reregister_after_ms);
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    cv_.wait_for(l, Millis(50), [&] { return stopping_; });
    if (stopping_) break;
    if (Clock::now() - last_contact_ < limit) continue;
    l.unlock();
    const bool ok = RegisterOk();
    l.lock();
    // Retry a failed attempt after ~200 ms rather than at once.
    if (!ok) last_contact_ = Clock::now() - limit + Millis(200);
  }
}

}  // namespace ics::sstest
