// PushScheduler: when the broker's workers run which subscriber's update or
// heartbeat. It owns the two run queues (BulkheadQueue: lanes keep jobs for
// unresponsive subscribers from taking every worker), the wake-ups of the
// update workers, the heartbeat workers and the timer, the jitter of
// periodic deadlines, and the stop flag. Per subscriber it drives the
// JobSlot fields of SubscriberRecord (queued, in_flight, again, next_due;
// answered and rpc_failures through NoteRpcOutcome): one job of a kind per
// subscriber is queued or in flight at a time, and a request made while one
// is in flight is coalesced into one follow-up. What an update carries is
// not its business (Statestore::Impl plans it).
//
// Thread-safety: none of its own. Its owner (Statestore::Impl) keeps it as
// a member guarded by the broker lock: every call holds that lock, and the
// waiting calls (TakeUpdateJobs, TakeHeartbeatJob, WaitTick) take that
// lock as `mu` and release it only while they wait. It takes no other lock
// and calls nothing outside itself.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <random>
#include <vector>

#include "common/util/mutex.h"
#include "common/util/status.h"
#include "statestore/bulkhead_queue.h"
#include "statestore/subscriber_record.h"

namespace ics::statestore {

class PushScheduler {
 public:
  using SubPtr = std::shared_ptr<SubscriberRecord>;
  struct Job {
    SubPtr sub;
    JobLane lane = JobLane::kHealthy;
  };

  PushScheduler(int update_workers, int heartbeat_workers);

  // Ends scheduling: nothing is queued any more and every waiting call
  // returns. Idempotent.
  void Stop();
  bool stopping() const { return stopping_; }
  // Drops the queued jobs (after the workers have stopped).
  void Clear();

  // The lane of the next job of kind `own` (the other kind is `other`): a
  // failing kind is suspect; a kind never tried yet follows the other one.
  static JobLane LaneOf(const JobSlot& own, const JobSlot& other);
  // Records whether an RPC of the slot's kind got a reply (s.ok()).
  static void NoteRpcOutcome(JobSlot* slot, const Status& s);

  // When a periodic RPC (heartbeat, fallback update) to one subscriber is
  // next due: `interval_ms` after `now`, give or take a tenth, so that
  // subscribers that registered or were updated together do not stay in
  // step (a burst of N RPCs every interval delays whatever change is pushed
  // during it). `first`: anywhere in (0, interval_ms], the phase of a new
  // subscriber.
  SteadyTime NextPeriodic(SteadyTime now, int interval_ms, bool first = false);

  // Queues an update to `sub`, or asks for a follow-up if one is in flight.
  // Nothing for an ended registration or once stopped.
  void ScheduleUpdate(const SubPtr& sub);
  // Queues a heartbeat to `sub` unless one is queued or in flight.
  void ScheduleHeartbeat(const SubPtr& sub);

  // For an update worker: waits (releasing `mu`) until a job can run, then
  // takes it and, if it is in the healthy lane, up to `max_batch` healthy
  // ones in all, each marked in flight. False once stopped.
  bool TakeUpdateJobs(Mutex* mu, size_t max_batch, std::vector<Job>* jobs) REQUIRES(mu);
  // An update job has ended (sent or not): frees its worker slot, sets the
  // subscriber's next fallback update `update_frequency_ms` after `now`
  // (jittered) and queues the follow-up asked for meanwhile.
  void EndUpdateJob(const SubPtr& sub, JobLane lane, SteadyTime now, int update_frequency_ms);

  // For a heartbeat worker: like TakeUpdateJobs, one job at a time.
  bool TakeHeartbeatJob(Mutex* mu, Job* job) REQUIRES(mu);
  // A heartbeat job has ended; the subscriber's slot is the caller's to
  // book (it knows the outcome).
  void EndHeartbeatJob(JobLane lane) { heartbeat_queue_.Done(lane); }

  // For the timer: waits (releasing `mu`) for `tick` or until Stop().
  void WaitTick(Mutex* mu, std::chrono::milliseconds tick) REQUIRES(mu) {
    timer_cv_.WaitFor(mu, tick);
  }

 private:
  BulkheadQueue<SubPtr> update_queue_;
  BulkheadQueue<SubPtr> heartbeat_queue_;
  bool stopping_ = false;
  std::minstd_rand jitter_{std::random_device{}()};  // NextPeriodic
  CondVar update_cv_;
  CondVar heartbeat_cv_;
  CondVar timer_cv_;
};

}  // namespace ics::statestore
