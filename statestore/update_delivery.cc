#include "statestore/update_delivery.h"

#include <exception>
#include <utility>
#include <vector>

#include <glog/logging.h>

#include "common/rpc/status_convert.h"
#include "statestore/publish_channel.h"
#include "statestore/role_follower.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

using impala::TTopicDelta;

UpdateDelivery::UpdateDelivery(const StatestoreSubscriberOptions* options,
                               const Subscriptions* subscriptions, SubscriberSession* session,
                               RoleFollower* roles, PublishChannel* publisher)
    : options_(*options),
      subscriptions_(*subscriptions),
      session_(session),
      roles_(roles),
      publisher_(publisher) {}

void UpdateDelivery::UpdateState(const impala::TUpdateStateRequest& req,
                                 impala::TUpdateStateResponse* resp) {
  resp->status.status_code = impala::TErrorCode::OK;
  resp->topic_updates.clear();
  // Never block the statestore behind another update: it will retry.
  if (!mu_.TryLock()) {
    resp->__set_skipped(true);
    return;
  }
  Apply(req, resp);
  mu_.Unlock();
}

void UpdateDelivery::Apply(const impala::TUpdateStateRequest& req,
                           impala::TUpdateStateResponse* resp) {
  // An exception from a callback (or anything else here) fails this update
  // and nothing more: the caller releases the update lock on every path, so
  // later updates keep being applied, and the statestore resends the update
  // since the processed version did not advance.
  try {
    ApplyChecked(req, resp);
  } catch (const std::exception& e) {
    Fail(e.what(), resp);
  } catch (...) {
    Fail("unknown exception", resp);
  }
}

void UpdateDelivery::ApplyChecked(const impala::TUpdateStateRequest& req,
                                  impala::TUpdateStateResponse* resp) {
  SubscriberSession::Admission a = session_->AdmitUpdate(req);
  int64_t newer_activation = 0;
  if (a.status.ok() && !a.skip && req.__isset.active_statestored_version) {
    roles_->NoteUpdateActivation(req.active_statestored_version);
  }
  if (a.status.ok() && !a.skip && options_.activations != nullptr &&
      req.__isset.active_statestored_version &&
      !options_.activations->Observe(req.active_statestored_version)) {
    // From a statestore that was stopped while the other took over.
    a.skip = true;
    newer_activation = options_.activations->newest();
    VLOG(1) << options_.subscriber_id << ": skipping an update of statestore activation "
            << req.active_statestored_version << " (activation " << newer_activation
            << " is later)";
  }
  if (!a.status.ok()) {
    resp->status = ToTStatus(a.status);
  } else if (a.skip) {
    resp->__set_skipped(true);
    if (newer_activation > 0) resp->__set_newer_statestored_version(newer_activation);
  } else {
    Process(req, a.generation, resp);
  }
}

void UpdateDelivery::Fail(const std::string& what, impala::TUpdateStateResponse* resp) {
  failures_.fetch_add(1, std::memory_order_relaxed);
  LOG(ERROR) << options_.subscriber_id << ": topic update failed: " << what;
  resp->topic_updates.clear();
  resp->status =
      ToTStatus(Status::Internal(options_.subscriber_id + ": topic update failed: " + what));
}

void UpdateDelivery::Process(const impala::TUpdateStateRequest& req, int64_t generation,
                             impala::TUpdateStateResponse* resp) {
  // The processed version of each topic after this update, and the
  // min_subscriber_topic_version values received. An update carries a
  // topic at most once (a map on the wire) and usually one: vectors of
  // pointers to its names, not maps of copies, per update.
  SubscriberSession::TopicVersionList new_versions;
  SubscriberSession::TopicVersionList min_versions;
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
    const int64_t current = session_->ProcessedVersion(name);
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
  session_->CommitUpdate(generation, new_versions, min_versions);
}

// ---------------------------------------------------------------------------
// Updates without a reply

void UpdateDelivery::UpdateStateOneway(const impala::TUpdateStateRequest& req) {
  impala::TUpdateStateResponse resp;
  resp.status.status_code = impala::TErrorCode::OK;
  {
    // No reply to skip with: wait for an update in progress (on another
    // connection) instead.
    MutexLock u(&mu_);
    Apply(req, &resp);
  }
  if (!req.__isset.registration_id) return;  // not ours to answer
  // Skipped as stale (a later statestored activation): nothing to answer to
  // a statestore that is no longer the active one.
  if (resp.__isset.newer_statestored_version) return;
  std::optional<std::vector<impala::TTopicResend>> resends =
      session_->ResendsAfter(req.registration_id, req.topic_deltas);
  if (!resends.has_value()) return;
  impala::TRequestTopicUpdateRequest answer;
  answer.resend_from = std::move(*resends);
  for (TTopicDelta& pub : resp.topic_updates) {
    const bool clears = pub.__isset.clear_topic_entries && pub.clear_topic_entries;
    if (pub.__isset.from_version) {
      // The base reset it asked for is in resend_from already.
      pub.__isset.from_version = false;
      if (pub.topic_entries.empty() && !clears) continue;
    }
    answer.topic_updates.push_back(std::move(pub));
  }
  answer.__isset.resend_from = !answer.resend_from.empty();
  answer.__isset.topic_updates = !answer.topic_updates.empty();
  if (!answer.__isset.resend_from && !answer.__isset.topic_updates) return;
  const bool published = answer.__isset.topic_updates;
  const Status s = publisher_->SendAsRegistered(std::move(answer), &req.registration_id);
  if (s.ok()) return;
  LOG_EVERY_N(WARNING, 100) << options_.subscriber_id
                            << ": could not answer a oneway topic update: " << s.ToString();
  if (!published) return;
  for (const auto& [name, delta] : req.topic_deltas) {
    auto sub = subscriptions_.find(name);
    if (sub != subscriptions_.end() && sub->second.on_reply_lost) sub->second.on_reply_lost();
  }
}

}  // namespace ics::statestore
