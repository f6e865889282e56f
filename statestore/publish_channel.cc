#include "statestore/publish_channel.h"

#include "StatestoreService.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

PublishChannel::PublishChannel(const StatestoreSubscriberOptions* options,
                               SubscriberSession* session)
    : options_(*options), session_(session) {}

PublishChannel::~PublishChannel() = default;

void PublishChannel::Start() { client_ = MakeStatestoreClient(options_); }

void PublishChannel::Stop() {
  // A call in progress fails at once (and every later one at the session's
  // stopping check); wait for it to leave.
  if (client_ != nullptr) client_->connection().Interrupt();
  MutexLock l(&mu_);
}

void PublishChannel::Close() {
  if (client_ != nullptr) client_->connection().Close();
}

Result<std::map<std::string, int64_t>> PublishChannel::Publish(
    std::vector<impala::TTopicDelta> deltas) {
  for (const impala::TTopicDelta& d : deltas) {
    if (d.topic_name.empty()) return Status::InvalidArgument("a published delta names no topic");
    if (d.__isset.from_version) {
      return Status::InvalidArgument("topic '" + d.topic_name +
                                     "': from_version belongs in an UpdateState reply");
    }
  }
  impala::TRequestTopicUpdateRequest req;
  req.topic_updates = std::move(deltas);  // __set_ would copy them
  req.__isset.topic_updates = true;
  impala::TRequestTopicUpdateResponse resp;
  ICS_RETURN_IF_ERROR(SendAsRegistered(std::move(req), nullptr, &resp));
  return std::move(resp.topic_versions);
}

Status PublishChannel::SendAsRegistered(impala::TRequestTopicUpdateRequest req,
                                        const impala::TUniqueId* only_for,
                                        impala::TRequestTopicUpdateResponse* resp) {
  MutexLock l(&mu_);
  ICS_ASSIGN_OR_RETURN(req.registration_id, session_->RegistrationForSend(only_for));
  if (!options_.security.statestore_auth_token.empty()) {
    req.__set_auth_token(options_.security.statestore_auth_token);
  }
  // Publications are pushed with the short timeout; the answers to oneway
  // updates (resends) with the usual one.
  const int timeout_ms = req.__isset.topic_updates && !req.__isset.resend_from
                             ? options_.publish_timeout_ms
                             : options_.request_update_timeout_ms;
  return SendRequestTopicUpdate(options_, session_, client_.get(), std::move(req), resp,
                                timeout_ms);
}

}  // namespace ics::statestore
