#include "statestore/push_scheduler.h"

#include <algorithm>

namespace ics::statestore {

PushScheduler::PushScheduler(int update_workers, int heartbeat_workers)
    : update_queue_(std::max(1, update_workers)),
      heartbeat_queue_(std::max(1, heartbeat_workers)) {}

void PushScheduler::Stop() {
  stopping_ = true;
  update_cv_.Broadcast();
  heartbeat_cv_.Broadcast();
  timer_cv_.Broadcast();
}

void PushScheduler::Clear() {
  update_queue_.Clear();
  heartbeat_queue_.Clear();
}

JobLane PushScheduler::LaneOf(const JobSlot& own, const JobSlot& other) {
  if (own.rpc_failures > 0) return JobLane::kSuspect;
  if (own.answered) return JobLane::kHealthy;
  // Never tried: the other kind of RPC to the same address is the best hint.
  if (other.rpc_failures > 0) return JobLane::kSuspect;
  if (other.answered) return JobLane::kHealthy;
  return JobLane::kNew;
}

void PushScheduler::NoteRpcOutcome(JobSlot* slot, const Status& s) {
  if (s.ok()) {
    slot->answered = true;
    slot->rpc_failures = 0;
  } else {
    ++slot->rpc_failures;
  }
}

SteadyTime PushScheduler::NextPeriodic(SteadyTime now, int interval_ms, bool first) {
  const int64_t base = std::max(interval_ms, 1);
  const int64_t lo = first ? 1 : base - base / 10;
  const int64_t hi = first ? base : base + base / 10;
  return now + std::chrono::milliseconds(std::uniform_int_distribution<int64_t>(lo, hi)(jitter_));
}

void PushScheduler::ScheduleUpdate(const SubPtr& sub) {
  if (sub->unregistered || stopping_) return;
  if (sub->update.in_flight) {
    sub->update.again = true;
  } else if (!sub->update.queued) {
    sub->update.queued = true;
    // One wake-up per burst: the worker that takes the first job passes it
    // on while jobs are left (TakeUpdateJobs).
    const bool was_idle = !update_queue_.Runnable();
    // Unanswered heartbeats make the update suspect too: oneway updates
    // never fail, so without this a subscriber that stopped (paused, hung)
    // would stay healthy and a call that waits for it (an announcement)
    // would hold a healthy batch.
    const JobLane lane =
        sub->heartbeat.rpc_failures > 0 ? JobLane::kSuspect : LaneOf(sub->update, sub->heartbeat);
    update_queue_.Push(sub, lane, sub->update.rpc_failures);
    if (was_idle) update_cv_.Signal();
  }
}

void PushScheduler::ScheduleHeartbeat(const SubPtr& sub) {
  if (sub->unregistered || stopping_ || sub->heartbeat.in_flight || sub->heartbeat.queued) return;
  sub->heartbeat.queued = true;
  heartbeat_queue_.Push(sub, LaneOf(sub->heartbeat, sub->update), sub->heartbeat.rpc_failures);
  heartbeat_cv_.Signal();
}

bool PushScheduler::TakeUpdateJobs(Mutex* mu, size_t max_batch, std::vector<Job>* jobs) {
  SubPtr sub;
  JobLane lane = JobLane::kHealthy;
  while (!stopping_ && !update_queue_.Pop(&sub, &lane)) update_cv_.Wait(mu);
  if (stopping_) return false;
  jobs->push_back(Job{std::move(sub), lane});
  // Healthy subscribers' updates go out as a batch: every request is sent
  // before the replies are read, so they arrive while the worker is busy
  // instead of waking it one by one. New and failing subscribers run alone
  // (bulkhead_queue.h).
  if (lane == JobLane::kHealthy) {
    while (jobs->size() < max_batch && update_queue_.PopHealthy(&sub)) {
      jobs->push_back(Job{std::move(sub), JobLane::kHealthy});
    }
  }
  // A burst of jobs is queued with one wake-up (ScheduleUpdate); whoever
  // takes work passes it on while some is left.
  if (update_queue_.Runnable()) update_cv_.Signal();
  for (Job& job : *jobs) {
    job.sub->update.queued = false;
    job.sub->update.in_flight = true;
  }
  return true;
}

void PushScheduler::EndUpdateJob(const SubPtr& sub, JobLane lane, SteadyTime now,
                                 int update_frequency_ms) {
  // Done() may have let a waiting new or suspect job start, while the
  // worker still has the rest of its batch to finish: wake a worker for it.
  // Jobs that were runnable before have their wake-up already (passed on
  // by whoever takes work), so a burst is not woken once per finished job.
  const bool was_runnable = update_queue_.Runnable();
  update_queue_.Done(lane);
  if (!was_runnable && update_queue_.Runnable()) update_cv_.Signal();
  sub->update.in_flight = false;
  sub->update.next_due = NextPeriodic(now, update_frequency_ms);
  if (sub->update.again) {
    sub->update.again = false;
    ScheduleUpdate(sub);
  }
}

bool PushScheduler::TakeHeartbeatJob(Mutex* mu, Job* job) {
  while (!stopping_ && !heartbeat_queue_.Pop(&job->sub, &job->lane)) heartbeat_cv_.Wait(mu);
  if (stopping_) return false;
  job->sub->heartbeat.queued = false;
  job->sub->heartbeat.in_flight = true;
  return true;
}

}  // namespace ics::statestore
