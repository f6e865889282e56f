// StatestoreSubscriber::Publish: publications pushed to the statestore on
// the caller's thread (RequestTopicUpdate field 5). See subscriber.h. The
// answer to a oneway update (fields 5 and 7) goes the same way.
#include "StatestoreService.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

Result<std::map<std::string, int64_t>> StatestoreSubscriber::Publish(
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

Status StatestoreSubscriber::SendAsRegistered(impala::TRequestTopicUpdateRequest req,
                                              const impala::TUniqueId* only_for,
                                              impala::TRequestTopicUpdateResponse* resp) {
  MutexLock p(&publish_mu_);
  {
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
    req.registration_id = *registration_id_;
  }
  if (!options_.security.statestore_auth_token.empty()) {
    req.__set_auth_token(options_.security.statestore_auth_token);
  }
  // Publications are pushed with the short timeout; the answers to oneway
  // updates (resends) with the usual one.
  const int timeout_ms = req.__isset.topic_updates && !req.__isset.resend_from
                             ? options_.publish_timeout_ms
                             : options_.request_update_timeout_ms;
  return SendRequestTopicUpdate(publish_client_.get(), std::move(req), resp, timeout_ms);
}

}  // namespace ics::statestore
