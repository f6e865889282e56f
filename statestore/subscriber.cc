#include "statestore/subscriber.h"

#include <utility>

#include "StatestoreSubscriber.h"
#include "common/rpc/status_convert.h"

namespace ics::statestore {

using impala::TUniqueId;

// The Thrift service: hands each RPC to the component that serves it.
class StatestoreSubscriber::Handler : public impala::StatestoreSubscriberIf {
 public:
  explicit Handler(StatestoreSubscriber* owner) : owner_(owner) {}

  void UpdateState(impala::TUpdateStateResponse& resp,
                   const impala::TUpdateStateRequest& req) override {
    owner_->delivery_.UpdateState(req, &resp);
  }
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) override {
    owner_->delivery_.UpdateStateOneway(req);
  }
  void Heartbeat(impala::THeartbeatResponse& resp, const impala::THeartbeatRequest& req) override {
    if (req.__isset.request_statestore_conn_state && req.request_statestore_conn_state) {
      resp.__set_statestore_conn_state(impala::TStatestoreConnState::OK);
    }
    resp.status = ToTStatus(owner_->session_.Heartbeat(req));
  }
  void UpdateCatalogd(impala::TUpdateCatalogdResponse& resp,
                      const impala::TUpdateCatalogdRequest& req) override {
    owner_->roles_.UpdateCatalogd(req, &resp);
  }
  void UpdateStatestoredRole(impala::TUpdateStatestoredRoleResponse& resp,
                             const impala::TUpdateStatestoredRoleRequest& req) override {
    owner_->roles_.UpdateStatestoredRole(req, &resp);
  }

 private:
  StatestoreSubscriber* const owner_;
};

StatestoreSubscriber::StatestoreSubscriber(StatestoreSubscriberOptions options)
    : options_(std::move(options)) {}

StatestoreSubscriber::~StatestoreSubscriber() { Stop(); }

Status StatestoreSubscriber::AddTopic(TopicSubscription subscription) {
  ICS_RETURN_IF_ERROR(session_.CheckNotStarted(subscription.topic));
  if (subscription.topic.empty()) return Status::InvalidArgument("empty topic name");
  if (!subscription.callback) {
    return Status::InvalidArgument("topic " + subscription.topic + " has no callback");
  }
  const std::string topic = subscription.topic;
  auto [it, added] = subscriptions_.emplace(topic, std::move(subscription));
  if (!added) return Status::AlreadyExists("topic " + topic + " already added");
  session_.AddTopic(it->second);
  return Status::OK();
}

Status StatestoreSubscriber::Start() {
  MutexLock s(&stop_mu_);
  ICS_RETURN_IF_ERROR(session_.CheckStartable());
  if (options_.subscriber_id.empty()) return Status::InvalidArgument("empty subscriber_id");

  const ThriftServerOptions so{options_, "subscriber " + options_.subscriber_id, options_.metrics};
  auto server = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreSubscriberProcessor>(std::make_shared<Handler>(this)), so);
  ICS_RETURN_IF_ERROR(server->Start());

  loop_.CreateClient(server->port());
  publisher_.Start();
  server_port_ = server->port();
  server_ = std::move(server);
  session_.MarkStarted();
  loop_.StartThread();
  return Status::OK();
}

void StatestoreSubscriber::Stop() {
  MutexLock s(&stop_mu_);
  if (!session_.Stop([this] { loop_.InterruptRpc(); })) return;
  loop_.Join();
  publisher_.Stop();
  // Waits for UpdateState calls in progress (callbacks included).
  if (server_ != nullptr) server_->Stop();
  loop_.Close();
  publisher_.Close();
}

void StatestoreSubscriber::RequestTopicUpdate() { session_.RequestTopicUpdate(); }

Result<std::map<std::string, int64_t>> StatestoreSubscriber::Publish(
    std::vector<impala::TTopicDelta> deltas) {
  return publisher_.Publish(std::move(deltas));
}

Status StatestoreSubscriber::WaitForRegistration(std::chrono::milliseconds timeout) {
  return session_.WaitForRegistration(timeout);
}

Status StatestoreSubscriber::WaitForTopicVersion(const std::string& topic, int64_t version,
                                                 std::chrono::milliseconds timeout) {
  return session_.WaitForTopicVersion(topic, version, timeout);
}

Status StatestoreSubscriber::WaitForMinSubscriberTopicVersion(const std::string& topic,
                                                              int64_t version,
                                                              std::chrono::milliseconds timeout) {
  return session_.WaitForMinSubscriberTopicVersion(topic, version, timeout);
}

void StatestoreSubscriber::ExpectMinWait(const std::string& topic) {
  session_.ExpectMinWait(topic);
}

std::optional<TUniqueId> StatestoreSubscriber::registration_id() const {
  return session_.registration_id();
}

std::optional<CatalogdDesignation> StatestoreSubscriber::active_catalogd() const {
  return roles_.active_catalogd();
}

std::optional<TUniqueId> StatestoreSubscriber::statestore_id() const {
  return session_.statestore_id();
}

bool StatestoreSubscriber::is_registered() const { return session_.is_registered(); }

int64_t StatestoreSubscriber::num_registrations() const { return session_.num_registrations(); }

int64_t StatestoreSubscriber::last_topic_version(const std::string& topic) const {
  return session_.last_topic_version(topic);
}

int64_t StatestoreSubscriber::min_subscriber_topic_version(const std::string& topic) const {
  return session_.min_subscriber_topic_version(topic);
}

}  // namespace ics::statestore
