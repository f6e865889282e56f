// Statestore::Impl: the broker, a composition of its components under one
// lock (the broker lock, mu_):
//   SubscriberRegistry (subscriber_registry.h)  the registrations
//   TopicLedger (topic_ledger.h)                the topics and their
//       subscribers' versions: tombstone floor, minimum, who is owed it
//   PushScheduler (push_scheduler.h)            the run queues and deadlines
//   PublicationIntake (publication_intake.h)    the check and the write of
//       what subscribers publish
//   BrokerRole (broker_role.h)                  statestored HA role, catalogd
//       designation, who has yet to hear of them
// and the code that joins them, by concern:
//   statestore.cc          lifecycle, registration and its end, the
//                          statestored HA role, the timer, introspection
//   statestore_push.cc     the delivery of updates and heartbeats: planning,
//                          the RPCs, reading and booking replies
//   statestore_oneway.cc   updates without a reply and the resends they ask for
//   statestore_publish.cc  the two routes of publications (pushed, in a
//                          reply) into the intake, and who may make calls
//                          for a registration
// Not part of the public API: include it only from those files.
// Scheduling (lanes, deadlines) is described in statestore.h.
//
// Why one lock: an update is planned from the registration (its topics and
// bases), the ledger (each topic's minimum, whether someone reads it) and
// the HA role at one instant, and its booking moves versions, minimums and
// job slots together; a lock per component would only nest them. So the
// components hold no lock of their own: each is a member GUARDED_BY(mu_),
// which makes the compiler check every call into it. The terminal locks
// below mu_ are each Topic's and each SubscriberChannel's.
#pragma once

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/util/mutex.h"
#include "common/util/unique_id.h"
#include "statestore/broker_role.h"
#include "statestore/bulkhead_queue.h"
#include "statestore/publication_intake.h"
#include "statestore/push_scheduler.h"
#include "statestore/statestore.h"
#include "statestore/subscriber_record.h"
#include "statestore/subscriber_registry.h"
#include "statestore/topic_ledger.h"
#include "statestore/update_state_request.h"

namespace ics::statestore {

using Clock = std::chrono::steady_clock;
using SubPtr = std::shared_ptr<SubscriberRecord>;

// The most healthy subscribers' updates one worker sends before it reads
// the first reply (UpdateWorker).
inline constexpr int kUpdateBatch = 32;

class Statestore::Impl {
 public:
  Impl(StatestoreOptions o, metrics::MetricRegistry* m)
      : opts_(o),
        statestore_id_(GenerateUniqueId()),
        scheduler_(o.num_update_threads, o.num_heartbeat_threads),
        intake_(&opts_.writers),
        role_(o.catalogd_ha, o.start_as_standby,
              std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count()) {
    if (m == nullptr) return;
    update_latency_ = m->AddHistogram("statestore_update_duration_seconds",
                                      "Round trip of one UpdateState RPC to a subscriber "
                                      "(successful or not).", 1e-6);
    heartbeat_latency_ = m->AddHistogram("statestore_heartbeat_duration_seconds",
                                         "Round trip of one Heartbeat RPC to a subscriber "
                                         "(successful or not).", 1e-6);
    update_entries_ = m->AddHistogram("statestore_update_entries",
                                      "Topic entries sent in one UpdateState RPC.");
  }

  [[nodiscard]] Status Start();
  void Shutdown();
  void RefuseRegistration(const Status& why) EXCLUDES(mu_);
  [[nodiscard]] Result<impala::TUniqueId> Register(const impala::TRegisterSubscriberRequest& req,
                                                   const std::string& identity);
  [[nodiscard]] Status RequestUpdate(const impala::TUniqueId& registration_id);
  // TRequestTopicUpdateRequest field 5: writes the publications pushed by
  // the registration, all or none (statestore_publish.cc), and schedules the
  // topics' subscribers. `auth_token` and `peer_identity` must identify the
  // peer as the registration's identity. Returns each written topic's
  // version afterwards.
  [[nodiscard]] Result<std::map<std::string, int64_t>> Publish(
      const impala::TUniqueId& registration_id, const std::vector<impala::TTopicDelta>& pubs,
      const std::string& auth_token, const std::string& peer_identity) EXCLUDES(mu_);
  // TRequestTopicUpdateRequest field 7: the registration could not apply
  // UpdateStateOneway updates; each entry whose rejected_to_version is still
  // the last version sent to it for the topic sets that topic's base to
  // from_version, and an update is scheduled (statestore_oneway.cc). One
  // that does not match while an update to the registration is in flight
  // also schedules one (the answer may have overtaken that update's
  // booking; the next one brings the rejection back). Same identity rule
  // as Publish.
  [[nodiscard]] Status ResendFrom(const impala::TUniqueId& registration_id,
                                  const std::vector<impala::TTopicResend>& resends,
                                  const std::string& auth_token, const std::string& peer_identity)
      EXCLUDES(mu_);
  // TRequestTopicUpdateRequest fields 3 and 4 (TopicLedger::WantMin).
  [[nodiscard]] Status WantMinVersions(const impala::TUniqueId& registration_id,
                                       const std::map<std::string, int64_t>& wanted,
                                       std::optional<bool> on_request) EXCLUDES(mu_);

  const impala::TUniqueId& statestore_id() const { return statestore_id_; }
  // StatestoreOptions::clock, or the steady clock.
  SteadyTime Now() const { return opts_.clock ? opts_.clock() : Clock::now(); }
  std::vector<SubscriberInfo> Subscribers() const;
  std::vector<TopicStats> Topics() const;
  StatestoreCounters Counters() const {
    MutexLock l(&mu_);
    StatestoreCounters c = counters_;
    c.publications_refused = intake_.refused();
    return c;
  }
  std::optional<ActiveCatalogd> ActiveCatalogdInfo() const {
    MutexLock l(&mu_);
    return role_.reported_catalogd();
  }
  void SetActive(bool active, int64_t version) EXCLUDES(mu_);
  bool KnowsRegistration(const impala::TUniqueId& registration_id) const EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return registry_.FindRegistration(registration_id) != nullptr;
  }
  int64_t NewerActivationHeard() const EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return role_.newer_activation_heard();
  }
  bool IsActive() const {
    MutexLock l(&mu_);
    return role_.active();
  }
  int64_t ActiveVersion() const {
    MutexLock l(&mu_);
    return role_.active_version();
  }
  void FollowPeerCatalogd(int64_t version, const std::string& host, int port) {
    MutexLock l(&mu_);
    role_.catalogd().FollowPeer(version, host, port);
  }
  int64_t MinVersion(const std::string& topic) const {
    MutexLock l(&mu_);
    return ledger_.Min(topic, ActiveCatalogdLocked());
  }

 private:
  // What one update run needs about one topic, copied under the lock.
  struct TopicPlan {
    std::string name;
    Topic* topic;
    int64_t base;
    std::string prefix;
    bool populate_min;
    int64_t min_version;
    bool transient;
    // Filled in by StartUpdate, outside mu_.
    std::shared_ptr<const EncodedDelta> delta;
  };

  // What an update job does first, decided when its worker takes it
  // (PrepareUpdateLocked).
  enum class RunStep {
    kNone,      // nothing to send now; the job has ended
    kAnnounce,  // role / catalogd announcements first, then plan and send
    kSend,      // planned: send it
  };

  // One update job of a worker's batch: the UpdateState exchange with one
  // subscriber, from its request to the reply.
  struct UpdateRun {
    UpdateRun(SubPtr s, JobLane l) : sub(std::move(s)), lane(l) {}
    SubPtr sub;
    JobLane lane = JobLane::kHealthy;
    RunStep step = RunStep::kNone;
    std::vector<TopicPlan> plan;
    // Sent as UpdateStateOneway (PlanUpdateLocked): booked as delivered
    // once written, no reply read.
    bool oneway = false;
    // statestored HA: this statestore's activation, sent with the update
    // (0 without HA).
    int64_t activation = 0;
    Clock::time_point sent_at;
    // The reply, as ReadReply() left it for BookReplyLocked().
    Status reply_status;
    impala::TUpdateStateResponse reply;
    std::set<std::string> changed;                           // topics its publications changed
    std::vector<std::pair<std::string, int64_t>> base_resets;  // from_version asked for
  };

  // The registration of the designated active catalogd, or null (what
  // the ledger adds to a topic's minimum).
  const SubscriberRecord* ActiveCatalogdLocked() const REQUIRES(mu_);
  SteadyTime NextPeriodicLocked(int interval_ms, bool first = false) REQUIRES(mu_) {
    return scheduler_.NextPeriodic(Now(), interval_ms, first);
  }
  void ScheduleUpdateLocked(const SubPtr& sub) REQUIRES(mu_) { scheduler_.ScheduleUpdate(sub); }
  void ScheduleTopicSubscribersLocked(const std::string& topic) REQUIRES(mu_);
  // The ledger's minimums moved: schedules the updates they are owed.
  void PushMinChangesLocked() REQUIRES(mu_);
  // The registration `registration_id` when `auth_token` / `peer_identity`
  // identify the peer as the identity that registered it (the rule of calls
  // that change what the statestore holds for a registration).
  [[nodiscard]] Result<SubPtr> AuthorizedRegistration(const impala::TUniqueId& registration_id,
                                                      const std::string& auth_token,
                                                      const std::string& peer_identity)
      EXCLUDES(mu_);
  // Whether the subscriber of `run` takes its update as UpdateStateOneway:
  // it accepts them, has answered an update of this registration, is in
  // the healthy lane and no resend was taken since its last answered one.
  // PlanUpdateLocked also requires that no topic of the plan has a
  // subscriber that reads its minimum now.
  bool TakesOnewayLocked(const UpdateRun& run) const REQUIRES(mu_);
  // Books the oneway updates of a batch that went out: their versions as
  // delivered, and the end of each job.
  void BookOnewayLocked(const std::vector<UpdateRun*>& runs) REQUIRES(mu_);
  // Re-applies the catalogd HA rules; on a new designation, schedules an
  // update (which carries the UpdateCatalogd call) to everyone who wants it.
  void EvaluateHaLocked() REQUIRES(mu_);
  // Tells `sub` the designation if it wants it and has not heard it yet.
  // Returns false when the RPC failed (the update is then abandoned).
  bool SendCatalogdUpdate(const SubPtr& sub) EXCLUDES(mu_);
  // statestored HA: tells `sub` this statestore is active, once per
  // activation. Returns false when the RPC failed.
  bool SendRoleUpdate(const SubPtr& sub) EXCLUDES(mu_);
  // Decides what `run`'s update carries (its topics and bases); false when
  // nothing is to be sent now (held after a takeover, or unregistered).
  bool PlanUpdateLocked(UpdateRun* run) REQUIRES(mu_);
  // Sets run->step when a worker takes the job: a standby sends nothing,
  // announcements due go first (they are RPCs: planned after them, outside
  // this lock hold), otherwise the update is planned now, so that a batch
  // is planned under one hold of the lock instead of one per job.
  void PrepareUpdateLocked(UpdateRun* run) REQUIRES(mu_);
  // Counts a failed UpdateCatalogd / UpdateStatestoredRole as an update
  // failure (the update is abandoned and retried); returns false.
  bool AnnouncementFailedLocked(SubscriberRecord* sub, const Status& s) REQUIRES(mu_);
  // PublicationIntake::Check with the broker's topic and HA verdict.
  [[nodiscard]] Result<CheckedPublication> CheckPublicationLocked(const SubscriberRecord& sub,
                                                                  const impala::TTopicDelta& pub)
      REQUIRES(mu_) {
    return intake_.Check(sub, pub, ledger_.Find(pub.topic_name),
                         role_.MayPublish(sub, pub.topic_name));
  }
  [[nodiscard]] Result<CheckedPublication> CheckPublication(const SubscriberRecord& sub,
                                                            const impala::TTopicDelta& pub)
      EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return CheckPublicationLocked(sub, pub);
  }
  // The publications of an UpdateState reply: each delta that passes the
  // check is written (the others are logged and dropped); names the topics
  // that changed and the base resets (from_version) asked for.
  void ApplyReplyPublications(const SubPtr& sub, const std::vector<impala::TTopicDelta>& pubs,
                              std::set<std::string>* changed,
                              std::vector<std::pair<std::string, int64_t>>* resets) EXCLUDES(mu_);
  // Interrupts in-flight RPCs past their deadline (SubscriberChannel).
  void CutOverdueRpcsLocked(SteadyTime now) REQUIRES(mu_);
  // Ends a registration: drops it from the registry, turns its transient
  // entries into tombstones and tells the other subscribers.
  void Unregister(const SubPtr& sub, const std::string& reason) EXCLUDES(mu_);

  void UpdateWorker() EXCLUDES(mu_);
  void HeartbeatWorker() EXCLUDES(mu_);
  void TimerLoop() EXCLUDES(mu_);
  // An update in two halves, so that a worker sends a batch of requests
  // before it waits for the replies. StartUpdate() takes a prepared run
  // (step kAnnounce or kSend), makes the announcements, builds the request
  // and sends it; true if it went out. Then ReadReply() reads the reply and
  // writes what the subscriber published in it, without the broker's lock,
  // and BookReplyLocked() records the outcome and ends the job. In the
  // common case (no announcement due, nothing published back) a batch takes
  // the broker's lock once to plan and once per group of replies that
  // arrived together, not once per subscriber and half.
  bool StartUpdate(UpdateRun* run) EXCLUDES(mu_);
  void ReadReply(UpdateRun* run) EXCLUDES(mu_);
  void BookReplyLocked(UpdateRun* run) REQUIRES(mu_);
  // Finishes the started runs of a batch in the order their replies arrive,
  // so that one subscriber that does not answer holds back none of the
  // others (only this worker, until its deadline).
  void FinishAsReplied(std::vector<UpdateRun*> started) EXCLUDES(mu_);
  // ReadReply() for each of `runs`, then BookReplyLocked() for all of them
  // under one hold of the lock.
  void FinishReplies(const std::vector<UpdateRun*>& runs) EXCLUDES(mu_);
  // Books a failed UpdateState (no reply, or an error status in it).
  void UpdateFailed(const SubPtr& sub, const Status& s, const impala::TUpdateStateResponse& resp)
      EXCLUDES(mu_);
  void UpdateFailedLocked(const SubPtr& sub, const Status& s,
                          const impala::TUpdateStateResponse& resp) REQUIRES(mu_);
  // The job of `run` has ended (sent or not): PushScheduler::EndUpdateJob.
  void EndUpdateJobLocked(const UpdateRun& run) REQUIRES(mu_) {
    scheduler_.EndUpdateJob(run.sub, run.lane, Now(), opts_.update_frequency_ms);
  }
  void RunHeartbeat(const SubPtr& sub) EXCLUDES(mu_);

  const StatestoreOptions opts_;
  const impala::TUniqueId statestore_id_;
  // Owned by the caller's registry; null without one.
  metrics::Histogram* update_latency_ = nullptr;
  metrics::Histogram* heartbeat_latency_ = nullptr;
  metrics::Histogram* update_entries_ = nullptr;

  // The broker lock. Order: SubscriberRecord::publish_mu -> mu_ -> Topic::mu_
  // and mu_ -> SubscriberChannel::mu_ (both terminal). No RPC is made with
  // it held. The components below take no lock of their own.
  mutable Mutex mu_;
  SubscriberRegistry registry_ GUARDED_BY(mu_);
  TopicLedger ledger_ GUARDED_BY(mu_);
  PushScheduler scheduler_ GUARDED_BY(mu_);
  PublicationIntake intake_ GUARDED_BY(mu_);
  bool started_ GUARDED_BY(mu_) = false;
  StatestoreCounters counters_ GUARDED_BY(mu_);
  BrokerRole role_ GUARDED_BY(mu_);
  std::vector<std::thread> threads_;  // touched only by Start/Shutdown
};

}  // namespace ics::statestore
