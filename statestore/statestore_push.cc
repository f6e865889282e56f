// The broker side of the two RPCs it sends to subscribers: UpdateState
// (topic deltas out, subscriber publications in) and Heartbeat (liveness),
// and the update workers that run them in batches.
#include <poll.h>

#include <cerrno>

#include <glog/logging.h>

#include "statestore/statestore_impl.h"

namespace ics::statestore {

using std::chrono::milliseconds;

// ---------------------------------------------------------------- update / heartbeat RPCs

bool Statestore::Impl::SendCatalogdUpdate(const SubPtr& sub) {
  impala::TUpdateCatalogdRequest req;
  {
    MutexLock l(&mu_);
    if (!role_.NeedsCatalogdUpdate(*sub)) return true;
    const std::optional<ActiveCatalogd>& active = role_.catalogd().active();
    req.catalogd_version = active->version;
    req.catalogd_registration = active->registration;
  }
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.registration_id = sub->registration_id;
  req.statestore_id = statestore_id_;
  impala::TUpdateCatalogdResponse resp;
  Status s = sub->update_channel->Call(
      "UpdateCatalogd",
      [&](impala::StatestoreSubscriberClient& c) { c.UpdateCatalogd(resp, req); });
  MutexLock l(&mu_);
  if (!s.ok()) return AnnouncementFailedLocked(sub.get(), s);
  ++counters_.catalogd_updates_sent;
  // Taken in only when answered OK and not skipped (a subscriber still
  // waiting for its registration reply skips it); otherwise the next update
  // sends it again.
  const bool taken =
      resp.status.status_code == impala::TErrorCode::OK && !(resp.__isset.skipped && resp.skipped);
  if (taken)
    sub->catalogd_version_sent = std::max(sub->catalogd_version_sent, req.catalogd_version);
  if (resp.status.status_code != impala::TErrorCode::OK) {
    LOG_EVERY_N(WARNING, 100) << "subscriber '" << sub->id << "' answered UpdateCatalogd with "
                              << (resp.status.error_msgs.empty() ? std::string("an error")
                                                                 : resp.status.error_msgs[0]);
  }
  return true;
}

bool Statestore::Impl::AnnouncementFailedLocked(SubscriberRecord* sub, const Status& s) {
  PushScheduler::NoteRpcOutcome(&sub->update, s);
  ++counters_.update_failures;
  ++sub->update_failures;
  LOG_EVERY_N(WARNING, 100) << "announcement to subscriber '" << sub->id
                            << "' failed: " << s.ToString();
  return false;
}

bool Statestore::Impl::SendRoleUpdate(const SubPtr& sub) {
  impala::TUpdateStatestoredRoleRequest req;
  {
    MutexLock l(&mu_);
    if (!role_.NeedsRoleUpdate(*sub)) return true;
    req.active_statestored_version = role_.active_version();
    if (const std::optional<ActiveCatalogd>& a = role_.catalogd().active()) {
      req.__set_catalogd_version(a->version);
      req.__set_catalogd_registration(a->registration);
    }
  }
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.registration_id = sub->registration_id;
  req.statestore_id = statestore_id_;
  req.is_active = true;
  impala::TUpdateStatestoredRoleResponse resp;
  Status s = sub->update_channel->Call(
      "UpdateStatestoredRole",
      [&](impala::StatestoreSubscriberClient& c) { c.UpdateStatestoredRole(resp, req); });
  MutexLock l(&mu_);
  if (!s.ok()) return AnnouncementFailedLocked(sub.get(), s);
  ++counters_.role_updates_sent;
  if (resp.status.status_code == impala::TErrorCode::OK &&
      !(resp.__isset.skipped && resp.skipped)) {
    sub->role_version_sent = std::max(sub->role_version_sent, req.active_statestored_version);
    // The role update carried the designation too.
    if (req.__isset.catalogd_version) {
      sub->catalogd_version_sent = std::max(sub->catalogd_version_sent, req.catalogd_version);
    }
  }
  return true;
}

// ---------------------------------------------------------------- update workers

void Statestore::Impl::UpdateWorker() {
  std::vector<PushScheduler::Job> jobs;
  std::vector<UpdateRun> batch;
  std::vector<UpdateRun*> started;
  std::vector<UpdateRun*> sent_oneway;
  while (true) {
    jobs.clear();
    batch.clear();
    started.clear();
    sent_oneway.clear();
    {
      MutexLock l(&mu_);
      // A batch of healthy subscribers' updates, or one other job
      // (PushScheduler::TakeUpdateJobs); all planned under this one hold.
      if (!scheduler_.TakeUpdateJobs(&mu_, kUpdateBatch, &jobs)) return;
      for (PushScheduler::Job& job : jobs) batch.emplace_back(std::move(job.sub), job.lane);
      for (UpdateRun& run : batch) {
        PrepareUpdateLocked(&run);
        if (run.step == RunStep::kNone) EndUpdateJobLocked(run);
      }
    }
    for (UpdateRun& run : batch) {
      if (run.step == RunStep::kNone) continue;
      if (StartUpdate(&run)) {
        (run.oneway ? sent_oneway : started).push_back(&run);
      } else {
        MutexLock l(&mu_);
        EndUpdateJobLocked(run);
      }
    }
    if (!sent_oneway.empty()) {
      MutexLock l(&mu_);
      BookOnewayLocked(sent_oneway);
    }
    FinishAsReplied(started);
  }
}

bool Statestore::Impl::PlanUpdateLocked(UpdateRun* run) {
  const SubPtr& sub = run->sub;
  // Just took over: the catalog topic is empty until catalogd's first
  // reply fills it (which schedules everyone). Until then, or for at most
  // kTakeoverHoldMs, only catalogd gets updates, so that coordinators do
  // not take an empty topic for the catalog.
  if (role_.InTakeoverHold(*sub, Now())) {
    const Topic* catalog = ledger_.Find(std::string(kCatalogTopicName));
    if (catalog != nullptr && catalog->last_version() == 0) return false;
  }
  if (sub->unregistered) return false;
  bool min_read = false;  // a topic of the plan has a subscriber that reads its minimum now
  const SubscriberRecord* active_catalogd = ActiveCatalogdLocked();
  for (const auto& [name, st] : sub->topics) {
    const TopicLedger::PlanView view = ledger_.View(name, active_catalogd);
    run->plan.push_back(TopicPlan{name, view.topic, st.last_version, st.filter_prefix,
                                  st.populate_min, view.min_version, st.is_transient, nullptr});
    min_read = min_read || view.min_read;
  }
  // Whose minimum someone reads keeps the reply: the minimum counts only
  // acknowledged versions.
  run->oneway = !min_read && TakesOnewayLocked(*run);
  if (!run->oneway) sub->answer_next_update = false;
  return true;
}

void Statestore::Impl::PrepareUpdateLocked(UpdateRun* run) {
  const SubscriberRecord& sub = *run->sub;
  run->activation = role_.activation_for_updates();
  if (!role_.active()) {
    run->step = RunStep::kNone;  // a standby statestore sends no updates
  } else if (role_.NeedsRoleUpdate(sub) || role_.NeedsCatalogdUpdate(sub)) {
    run->step = RunStep::kAnnounce;
  } else {
    run->step = PlanUpdateLocked(run) ? RunStep::kSend : RunStep::kNone;
  }
}

bool Statestore::Impl::StartUpdate(UpdateRun* run) {
  const SubPtr& sub = run->sub;
  if (run->step == RunStep::kAnnounce) {
    // The announcements go out at once, also while the updates are held.
    if (!SendRoleUpdate(sub)) return false;
    if (!SendCatalogdUpdate(sub)) return false;
    MutexLock l(&mu_);
    if (!PlanUpdateLocked(run)) return false;
  }
  // Each topic's delta is encoded once and shared by every subscriber that
  // needs the same one (update_state_request.h).
  std::vector<UpdateStatePart> parts;
  parts.reserve(run->plan.size());
  int64_t entries = 0;
  for (TopicPlan& p : run->plan) {
    Result<std::shared_ptr<const EncodedDelta>> delta = p.topic->EncodedDeltaFor(p.base, p.prefix);
    if (!delta.ok()) {
      UpdateFailed(sub, delta.status(), impala::TUpdateStateResponse());
      return false;
    }
    p.delta = std::move(delta).value();
    entries += p.delta->num_entries;
    parts.push_back(UpdateStatePart{&p.name, p.delta, p.populate_min, p.min_version});
  }
  if (update_entries_ != nullptr) update_entries_->Record(entries);
  run->sent_at = Clock::now();
  const auto send = [&](impala::StatestoreSubscriberClient& c) {
    SendUpdateState(c, parts, sub->registration_id, statestore_id_, run->oneway, run->activation);
  };
  const Status s = run->oneway ? sub->update_channel->Send("UpdateStateOneway", send)
                               : sub->update_channel->Start("UpdateState", send);
  if (!s.ok()) {
    if (update_latency_ != nullptr) update_latency_->RecordMicrosSince(run->sent_at);
    UpdateFailed(sub, s, impala::TUpdateStateResponse());
    return false;
  }
  return true;
}

void Statestore::Impl::UpdateFailed(const SubPtr& sub, const Status& s,
                                    const impala::TUpdateStateResponse& resp) {
  MutexLock l(&mu_);
  UpdateFailedLocked(sub, s, resp);
}

void Statestore::Impl::UpdateFailedLocked(const SubPtr& sub, const Status& s,
                                          const impala::TUpdateStateResponse& resp) {
  PushScheduler::NoteRpcOutcome(&sub->update, s);
  ++counters_.update_failures;
  ++sub->update_failures;
  // The active catalogd did not answer: probe it now rather than at its
  // next scheduled heartbeat.
  if (!s.ok() && role_.catalogd().IsActive(sub->id)) sub->heartbeat.next_due = Now();
  if (!sub->unregistered) {
    LOG_EVERY_N(WARNING, 100) << "update to subscriber '" << sub->id << "' failed: "
                              << (s.ok() ? (resp.status.error_msgs.empty()
                                                ? std::string("error status")
                                                : resp.status.error_msgs[0])
                                         : s.ToString());
  }
}

namespace {

// Whether an UpdateState exchange failed (no reply, or an error status in
// it), and whether the subscriber skipped the update (nothing advances).
bool ReplyFailed(const Status& s, const impala::TUpdateStateResponse& resp) {
  return !s.ok() || resp.status.status_code != impala::TErrorCode::OK;
}
bool ReplySkipped(const impala::TUpdateStateResponse& resp) {
  return resp.__isset.skipped && resp.skipped;
}

}  // namespace

void Statestore::Impl::ReadReply(UpdateRun* run) {
  impala::TUpdateStateResponse& resp = run->reply;
  run->reply_status = run->sub->update_channel->Finish(
      "UpdateState", [&](impala::StatestoreSubscriberClient& c) { c.recv_UpdateState(resp); });
  if (update_latency_ != nullptr) update_latency_->RecordMicrosSince(run->sent_at);
  if (run->reply_status.ok() && resp.__isset.newer_statestored_version &&
      resp.newer_statestored_version > 0) {
    // A subscriber heard of a later activation: the peer took over while
    // this statestore was stopped or cut off (StatestoreHa steps down, or
    // activates above it if the peer is gone).
    MutexLock l(&mu_);
    role_.NoteNewerActivation(resp.newer_statestored_version);
  }
  if (ReplyFailed(run->reply_status, resp) || ReplySkipped(resp)) return;
  // Write what the subscriber published (a reply that publishes nothing
  // needs no publish lock).
  if (!resp.topic_updates.empty()) {
    ApplyReplyPublications(run->sub, resp.topic_updates, &run->changed, &run->base_resets);
  }
}

void Statestore::Impl::BookReplyLocked(UpdateRun* run) {
  const SubPtr& sub = run->sub;
  const impala::TUpdateStateResponse& resp = run->reply;
  const Status& s = run->reply_status;
  if (ReplyFailed(s, resp)) {
    UpdateFailedLocked(sub, s, resp);
  } else if (ReplySkipped(resp)) {
    // Nothing advances; the next update is rebuilt from the same base.
    PushScheduler::NoteRpcOutcome(&sub->update, s);
    ++counters_.updates_sent;
  } else {
    PushScheduler::NoteRpcOutcome(&sub->update, s);
    ++counters_.updates_sent;
    if (!sub->unregistered) {
      ++sub->updates_sent;
      for (const TopicPlan& p : run->plan) {
        ledger_.SetVersion(sub.get(), p.name, p.delta->to_version);
        if (p.populate_min) ledger_.NoteMinSent(sub.get(), p.name, p.min_version);
      }
      for (const auto& [name, v] : run->base_resets) ledger_.SetVersion(sub.get(), name, v);
      for (const auto& name : run->changed) ScheduleTopicSubscribersLocked(name);
    }
  }
  EndUpdateJobLocked(*run);
}

void Statestore::Impl::FinishReplies(const std::vector<UpdateRun*>& runs) {
  if (runs.empty()) return;
  for (UpdateRun* run : runs) ReadReply(run);
  MutexLock l(&mu_);
  for (UpdateRun* run : runs) BookReplyLocked(run);
  // The acknowledged versions may have moved a topic's minimum.
  PushMinChangesLocked();
}

void Statestore::Impl::FinishAsReplied(std::vector<UpdateRun*> started) {
  // How long one poll() waits. A subscriber that never answers is cut off
  // at its exchange deadline by the timer, which shuts its socket down and
  // so makes it readable; the slice only bounds each wait.
  constexpr int kPollSliceMs = 100;
  std::vector<pollfd> fds;
  std::vector<UpdateRun*> waiting;
  std::vector<UpdateRun*> ready;
  while (started.size() > 1) {
    fds.clear();
    bool gone = false;  // a channel without a connection fails at once
    for (UpdateRun* run : started) {
      fds.push_back(pollfd{run->sub->update_channel->ReplyFd(), POLLIN, 0});
      gone = gone || fds.back().fd < 0;
    }
    const int n = gone ? 0 : ::poll(fds.data(), fds.size(), kPollSliceMs);
    if (n < 0 && errno != EINTR) {
      PLOG_EVERY_N(WARNING, 100) << "poll for UpdateState replies failed; reading them in turn";
      break;
    }
    waiting.clear();
    ready.clear();
    for (size_t i = 0; i < started.size(); ++i) {
      if (fds[i].fd < 0 || (n > 0 && fds[i].revents != 0)) {
        ready.push_back(started[i]);
      } else {
        waiting.push_back(started[i]);
      }
    }
    // The replies that arrived together are booked together.
    FinishReplies(ready);
    started.swap(waiting);
  }
  FinishReplies(started);
}

void Statestore::Impl::RunHeartbeat(const SubPtr& sub) {
  if (sub->unregistered) {  // queued before the registration ended
    MutexLock l(&mu_);
    sub->heartbeat.in_flight = false;
    return;
  }
  impala::THeartbeatRequest req;
  req.__set_protocol_version(impala::StatestoreServiceVersion::V2);
  req.__set_registration_id(sub->registration_id);
  req.__set_statestore_id(statestore_id_);
  impala::THeartbeatResponse resp;
  Status s;
  bool active_catalogd = false;
  {
    MutexLock l(&mu_);
    active_catalogd = role_.catalogd().IsActive(sub->id);
  }
  // The active catalogd is watched closely: a stopped one is noticed within
  // about max_missed * (probe interval + this timeout).
  sub->heartbeat_channel->SetExchangeTimeout(milliseconds(
      active_catalogd ? opts_.active_catalogd_heartbeat_timeout_ms : opts_.heartbeat_timeout_ms));
  {
    metrics::ScopedLatencyTimer timer(heartbeat_latency_);
    s = sub->heartbeat_channel->Call(
        "Heartbeat", [&](impala::StatestoreSubscriberClient& c) { c.Heartbeat(resp, req); });
  }
  const bool ok = s.ok() && resp.status.status_code == impala::TErrorCode::OK;
  bool failed = false;
  {
    MutexLock l(&mu_);
    ++counters_.heartbeats_sent;
    sub->heartbeat.in_flight = false;
    sub->heartbeat.next_due = role_.catalogd().IsActive(sub->id)
                                  ? Now() + milliseconds(opts_.active_catalogd_probe_interval_ms)
                                  : NextPeriodicLocked(opts_.heartbeat_interval_ms);
    PushScheduler::NoteRpcOutcome(&sub->heartbeat, s);
    if (ok) {
      sub->consecutive_heartbeat_failures = 0;
      sub->last_heartbeat_ok = Now();
      if (sub->ha_candidate) role_.catalogd().MarkHealthy(sub->id);
    } else {
      ++counters_.heartbeat_failures;
      ++sub->heartbeat_failures;
      ++sub->consecutive_heartbeat_failures;
      if (role_.catalogd().IsActive(sub->id) && !sub->unregistered) {
        if (sub->consecutive_heartbeat_failures >= opts_.active_catalogd_max_missed_heartbeats) {
          LOG(WARNING) << "active catalogd '" << sub->id << "' missed "
                       << sub->consecutive_heartbeat_failures << " heartbeats; failing over";
          role_.catalogd().MarkFailed(sub->id);
          EvaluateHaLocked();
        } else {
          sub->heartbeat.next_due = Now() + milliseconds(opts_.active_catalogd_probe_interval_ms);
        }
      }
      if (sub->consecutive_heartbeat_failures >= opts_.max_missed_heartbeats &&
          !sub->unregistered) {
        failed = true;
        ++counters_.subscribers_failed;
      }
    }
  }
  if (failed) {
    Unregister(sub, "failed " + std::to_string(opts_.max_missed_heartbeats) +
                        " consecutive heartbeats (last: " +
                        (s.ok() ? std::string("error status") : s.ToString()) + ")");
  }
}

}  // namespace ics::statestore
