// BulkheadQueue: the run queue of one broker worker pool (updates, or
// heartbeats), split into lanes so that jobs for unresponsive subscribers
// can never occupy every worker (see the scheduling contract in
// statestore.h).
//
//  kHealthy  the subscriber answered its last RPC of this kind. FIFO; may
//            use every worker.
//  kNew      no RPC of this kind has been answered or has failed yet (a new
//            registration). FIFO; at most share() of them run at once.
//  kSuspect  its last RPC of this kind failed (refused, timed out, broken).
//            At most share() run at once; ordered by rank (the number of
//            consecutive failures, lowest first: a subscriber that failed
//            once goes before one that has been failing for long), FIFO
//            within a rank.
//
// share() = max(1, workers / 4). Pop() gives a free worker a kNew job, else a
// kSuspect job, each only while fewer than share() jobs of that lane run (and,
// in a pool of 2 or 3, while one worker is left for healthy jobs), else a
// kHealthy job. So kHealthy jobs always have at least workers - 2 * share()
// workers (half the pool) not held by the other lanes if workers >= 4, and
// one if workers is 2 or 3; the other lanes still progress when healthy work
// never stops.
// A job waiting in a lane is not duplicated: the owner queues each job once
// and coalesces later requests (JobSlot in subscriber_record.h).
//
// Thread-safety: none; its owner (PushScheduler) is guarded by the broker
// lock.
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace ics::statestore {

enum class JobLane { kHealthy = 0, kNew = 1, kSuspect = 2 };

template <typename Job>
class BulkheadQueue {
 public:
  explicit BulkheadQueue(int workers)
      : share_(std::max(1, workers / 4)), max_unhealthy_(std::max(1, workers - 1)) {}

  // Queues `job` in `lane`; `rank` orders kSuspect jobs (clamped to
  // 0..kMaxRank) and is ignored by the other lanes.
  void Push(Job job, JobLane lane, int rank = 0) {
    switch (lane) {
      case JobLane::kHealthy:
        healthy_.push_back(std::move(job));
        break;
      case JobLane::kNew:
        new_.push_back(std::move(job));
        break;
      case JobLane::kSuspect:
        suspect_[std::clamp(rank, 0, kMaxRank)].push_back(std::move(job));
        break;
    }
    ++queued_;
  }

  // True if Pop() would return a job now.
  bool Runnable() const {
    return (!new_.empty() && MayStart(JobLane::kNew)) ||
           (!suspect_.empty() && MayStart(JobLane::kSuspect)) || !healthy_.empty();
  }

  // Takes the next job a free worker may start and counts it as running in
  // *lane until Done(*lane). False (nothing taken) if no job may start now.
  bool Pop(Job* job, JobLane* lane) {
    if (!new_.empty() && MayStart(JobLane::kNew)) {
      *job = std::move(new_.front());
      new_.pop_front();
      *lane = JobLane::kNew;
    } else if (!suspect_.empty() && MayStart(JobLane::kSuspect)) {
      auto first = suspect_.begin();
      *job = std::move(first->second.front());
      first->second.pop_front();
      if (first->second.empty()) suspect_.erase(first);
      *lane = JobLane::kSuspect;
    } else if (!healthy_.empty()) {
      *job = std::move(healthy_.front());
      healthy_.pop_front();
      *lane = JobLane::kHealthy;
    } else {
      return false;
    }
    --queued_;
    ++running_[static_cast<int>(*lane)];
    return true;
  }

  // Takes the next kHealthy job, counted as running in kHealthy: how a
  // worker that popped a healthy job takes more of them to run as a batch.
  // False if there is none.
  bool PopHealthy(Job* job) {
    if (healthy_.empty()) return false;
    *job = std::move(healthy_.front());
    healthy_.pop_front();
    --queued_;
    ++running_[static_cast<int>(JobLane::kHealthy)];
    return true;
  }

  // A job Pop() returned in `lane` has finished.
  void Done(JobLane lane) {
    int& n = running_[static_cast<int>(lane)];
    if (n > 0) --n;
  }

  // Drops every queued job (running ones still end with Done()).
  void Clear() {
    healthy_.clear();
    new_.clear();
    suspect_.clear();
    queued_ = 0;
  }

  int share() const { return share_; }
  size_t queued() const { return queued_; }
  int running(JobLane lane) const { return running_[static_cast<int>(lane)]; }

  static constexpr int kMaxRank = 1000;

 private:
  // Whether one more job of a limited lane (kNew, kSuspect) may start.
  bool MayStart(JobLane lane) const {
    return running(lane) < share_ &&
           running(JobLane::kNew) + running(JobLane::kSuspect) < max_unhealthy_;
  }

  const int share_;
  const int max_unhealthy_;  // kNew + kSuspect running at once
  std::deque<Job> healthy_;
  std::deque<Job> new_;
  std::map<int, std::deque<Job>> suspect_;  // rank -> FIFO; no empty deques
  size_t queued_ = 0;
  int running_[3] = {0, 0, 0};
};

}  // namespace ics::statestore
