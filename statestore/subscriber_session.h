// SubscriberSession: a subscriber's registration with its statestore as all
// of its threads see it, and the one lock over it.
//
// It keeps: the lifecycle (started, stopping, whether the background thread
// has exited and whether it is inside an RPC), the registration (its id,
// the statestore's id, how many registrations so far (the generation), a
// RegisterSubscriber call in flight, the last heartbeat), the topics'
// processed versions and minimum wishes (ProcessedVersions), and the work
// asked of the background thread (an update request). It decides what the
// ids of an incoming request mean (ours, another registration's, another
// statestore's: then the registration is dropped and the background thread
// registers again) and what the background thread does next. Waiters
// (WaitForRegistration, WaitForTopicVersion, ...) wait on it.
//
// Owns: all of the above. It makes no RPC and runs no callback: the
// RegistrationLoop, UpdateDelivery, PublishChannel and RoleFollower act on
// what it answers.
//
// Thread-safety: every method is thread-safe and takes the session lock
// itself. The lock is terminal: with it held the session calls nothing
// outside itself, except the `interrupt_rpc` function Stop() is given (a
// socket interrupt, no lock, no RPC). Lock order: the RoleFollower's,
// UpdateDelivery's and PublishChannel's locks and the subscriber's stop lock
// are all taken before it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "StatestoreService_types.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "common/util/status.h"
#include "statestore/processed_versions.h"
#include "statestore/subscriber_options.h"

namespace ics::statestore {

class SubscriberSession {
 public:
  using Clock = std::chrono::steady_clock;

  // `options` must outlive the session.
  explicit SubscriberSession(const StatestoreSubscriberOptions* options) : options_(*options) {}
  SubscriberSession(const SubscriberSession&) = delete;
  SubscriberSession& operator=(const SubscriberSession&) = delete;

  // --- Lifecycle (the owner's AddTopic / Start / Stop).

  // OK while topics may be added (before Start and Stop).
  [[nodiscard]] Status CheckNotStarted(const std::string& topic) const EXCLUDES(mu_);
  void AddTopic(const TopicSubscription& subscription) EXCLUDES(mu_);
  // OK if Start may proceed: not started and not stopped.
  [[nodiscard]] Status CheckStartable() const EXCLUDES(mu_);
  void MarkStarted() EXCLUDES(mu_);
  // Marks the session stopping (every waiter and the background thread
  // wake up) and, if it was started, waits until the background thread has
  // exited, calling `interrupt_rpc` (with the session lock held) every
  // 100 ms while the thread is inside an RPC. False if it was stopping
  // already.
  bool Stop(const std::function<void()>& interrupt_rpc) EXCLUDES(mu_);
  bool stopping() const EXCLUDES(mu_);

  // --- The public accessors and waits (see StatestoreSubscriber).
  std::optional<impala::TUniqueId> registration_id() const EXCLUDES(mu_);
  std::optional<impala::TUniqueId> statestore_id() const EXCLUDES(mu_);
  bool is_registered() const EXCLUDES(mu_);
  int64_t num_registrations() const EXCLUDES(mu_);
  int64_t last_topic_version(const std::string& topic) const EXCLUDES(mu_);
  int64_t min_subscriber_topic_version(const std::string& topic) const EXCLUDES(mu_);
  [[nodiscard]] Status WaitForRegistration(std::chrono::milliseconds timeout) EXCLUDES(mu_);
  [[nodiscard]] Status WaitForTopicVersion(const std::string& topic, int64_t version,
                                           std::chrono::milliseconds timeout) EXCLUDES(mu_);
  [[nodiscard]] Status WaitForMinSubscriberTopicVersion(const std::string& topic, int64_t version,
                                                        std::chrono::milliseconds timeout)
      EXCLUDES(mu_);
  void ExpectMinWait(const std::string& topic) EXCLUDES(mu_);
  // Asks the background thread for a RequestTopicUpdate (merged with one
  // already asked for); nothing when not registered or stopping.
  void RequestTopicUpdate() EXCLUDES(mu_);

  // --- Incoming requests.

  // Checks the ids a request carries against the current registration
  // (null: not carried); drops the registration (so the background thread
  // registers again) when the request comes from another statestore.
  [[nodiscard]] Status CheckRequestIds(const char* rpc, const impala::TUniqueId* registration_id,
                                       const impala::TUniqueId* statestore_id) EXCLUDES(mu_);
  // A Heartbeat: its answer's status. Records the heartbeat when its ids
  // are ours; while registering, accepts it without recording it (it may
  // carry the registration id whose reply is on its way).
  [[nodiscard]] Status Heartbeat(const impala::THeartbeatRequest& req) EXCLUDES(mu_);

  // Whether an UpdateState may be applied. Waits (at most 0.5 s) for a
  // RegisterSubscriber call in flight; `skip` if it is still in flight.
  // `generation`: the registration the update is applied under (its
  // versions are kept only if no registration followed meanwhile).
  struct Admission {
    Status status;
    bool skip = false;
    int64_t generation = 0;
  };
  Admission AdmitUpdate(const impala::TUpdateStateRequest& req) EXCLUDES(mu_);
  // The processed version of a subscribed topic.
  int64_t ProcessedVersion(const std::string& topic) const EXCLUDES(mu_);
  // An applied update's processed versions and minimum versions (topic
  // name -> version), kept unless a registration after `generation` reset
  // them meanwhile.
  using TopicVersionList = std::vector<std::pair<const std::string*, int64_t>>;
  void CommitUpdate(int64_t generation, const TopicVersionList& versions,
                    const TopicVersionList& min_versions) EXCLUDES(mu_);
  // After a oneway update of registration `registration_id`: for each of
  // its topics we subscribed to that did not end at the delta's to_version,
  // where to send from next. nullopt when the update is not the current
  // registration's (or the session is stopping): nothing to answer.
  std::optional<std::vector<impala::TTopicResend>> ResendsAfter(
      const impala::TUniqueId& registration_id,
      const std::map<std::string, impala::TTopicDelta>& deltas) const EXCLUDES(mu_);

  // --- Calls to the statestore.

  // The registration to send a RequestTopicUpdate as: Shutdown when
  // stopping, RecoverableError when not registered (or not started), or
  // when `only_for` is set and is not the current registration.
  [[nodiscard]] Result<impala::TUniqueId> RegistrationForSend(
      const impala::TUniqueId* only_for) const EXCLUDES(mu_);
  // The statestore said it does not know `registration_id` (it restarted):
  // drops the registration, unless another one replaced it meanwhile.
  void DropUnknownRegistration(const impala::TUniqueId& registration_id) EXCLUDES(mu_);

  // --- The background thread (RegistrationLoop).

  // A RegisterSubscriber call starts; false when stopping.
  bool BeginRegistration() EXCLUDES(mu_);
  // It ended with `status` (and `resp`, when OK): a new registration, its
  // versions reset, and a pending update request dropped (the first update
  // follows registration anyway).
  void EndRegistration(const Status& status, const impala::TRegisterSubscriberResponse& resp)
      EXCLUDES(mu_);

  // What the background thread does next, and its own timers, which
  // NextWork reads and updates: when its idle connection is closed, and how
  // it probes a silent statestore (probe_after 0: never).
  enum class Action { kStop, kRegister, kRequestUpdate, kMinVersions, kProbe, kCloseIdle };
  struct Work {
    Action action = Action::kStop;
    impala::TUniqueId registration_id;  // kRequestUpdate, kMinVersions, kProbe
    ProcessedVersions::Wishes wishes;   // kMinVersions
  };
  struct Timers {
    std::optional<Clock::time_point> close_idle_at;
    std::chrono::milliseconds probe_after{0};
    std::chrono::milliseconds probe_every{0};
    Clock::time_point last_probe;
  };
  // Waits until there is something to do. Drops the registration when no
  // heartbeat came for statestore_timeout_ms (then returns kRegister). For
  // kRequestUpdate, kMinVersions and kProbe the thread is inside an RPC
  // (Stop interrupts it) until RpcDone().
  Work NextWork(Timers* timers) EXCLUDES(mu_);
  void RpcDone() EXCLUDES(mu_);
  // Waits until `deadline` (a registration retry's backoff) or Stop.
  void WaitUntil(Clock::time_point deadline) EXCLUDES(mu_);
  // The background thread has exited.
  void LoopExited() EXCLUDES(mu_);

  // The session lock, only for the lock-order annotations of the locks
  // taken before it (ACQUIRED_BEFORE); nobody else locks it.
  Mutex* mutex() const RETURN_CAPABILITY(mu_) { return &mu_; }

 private:
  [[nodiscard]] Status CheckRequestIdsLocked(const char* rpc,
                                             const impala::TUniqueId* registration_id,
                                             const impala::TUniqueId* statestore_id) REQUIRES(mu_);
  // Asks for the minimum of `topic` once it reaches `version` (sent by the
  // background thread), if that is a new wish.
  void WantMinLocked(const std::string& topic, int64_t version) REQUIRES(mu_);

  const StatestoreSubscriberOptions& options_;

  mutable Mutex mu_;
  CondVar bg_cv_;     // work for the background thread: stop, register, update request
  CondVar state_cv_;  // registration, versions, stop, thread exit (for waiters)
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool thread_done_ GUARDED_BY(mu_) = false;
  bool in_rpc_ GUARDED_BY(mu_) = false;       // background thread is inside an RPC
  bool registering_ GUARDED_BY(mu_) = false;  // a RegisterSubscriber call is in flight
  bool update_requested_ GUARDED_BY(mu_) = false;
  // Unset until registered, and again once the statestore is considered
  // lost (which makes the background thread register again).
  std::optional<impala::TUniqueId> registration_id_ GUARDED_BY(mu_);
  std::optional<impala::TUniqueId> statestore_id_ GUARDED_BY(mu_);
  int64_t num_registrations_ GUARDED_BY(mu_) = 0;  // also the registration generation
  Clock::time_point last_heartbeat_ GUARDED_BY(mu_);
  ProcessedVersions topics_ GUARDED_BY(mu_);
};

}  // namespace ics::statestore
