// BulkheadQueue: the lane rules of the broker's worker pools (see
// statestore/bulkhead_queue.h), checked without threads or sockets.
#include "statestore/bulkhead_queue.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace ics::statestore {
namespace {

using Queue = BulkheadQueue<std::string>;

TEST(BulkheadQueueTest, ShareIsAQuarterOfThePoolAndAtLeastOne) {
  EXPECT_EQ(Queue(1).share(), 1);
  EXPECT_EQ(Queue(3).share(), 1);
  EXPECT_EQ(Queue(4).share(), 1);
  EXPECT_EQ(Queue(16).share(), 4);
  EXPECT_EQ(Queue(32).share(), 8);
}

TEST(BulkheadQueueTest, HealthyJobsAreFifoAndUnlimited) {
  Queue q(4);
  for (int i = 0; i < 10; ++i) q.Push("h" + std::to_string(i), JobLane::kHealthy);
  for (int i = 0; i < 10; ++i) {
    std::string job;
    JobLane lane;
    ASSERT_TRUE(q.Pop(&job, &lane));
    EXPECT_EQ(job, "h" + std::to_string(i));
    EXPECT_EQ(lane, JobLane::kHealthy);
  }
  EXPECT_EQ(q.running(JobLane::kHealthy), 10);
  EXPECT_FALSE(q.Runnable());
}

TEST(BulkheadQueueTest, SuspectsNeverHoldMoreThanTheirShare) {
  Queue q(16);  // share 4
  for (int i = 0; i < 64; ++i) q.Push("s" + std::to_string(i), JobLane::kSuspect, 1);
  std::string job;
  JobLane lane;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(q.Pop(&job, &lane));
    EXPECT_EQ(lane, JobLane::kSuspect);
  }
  // The share is used up: the 60 others wait, healthy jobs still run.
  EXPECT_FALSE(q.Runnable());
  EXPECT_FALSE(q.Pop(&job, &lane));
  q.Push("h", JobLane::kHealthy);
  ASSERT_TRUE(q.Pop(&job, &lane));
  EXPECT_EQ(job, "h");
  // One suspect finishing lets exactly one more start.
  q.Done(JobLane::kSuspect);
  ASSERT_TRUE(q.Pop(&job, &lane));
  EXPECT_EQ(lane, JobLane::kSuspect);
  EXPECT_FALSE(q.Pop(&job, &lane));
  EXPECT_EQ(q.running(JobLane::kSuspect), 4);
  EXPECT_EQ(q.queued(), 59u);
}

TEST(BulkheadQueueTest, NewJobsHaveTheirOwnShare) {
  Queue q(8);  // share 2
  for (int i = 0; i < 5; ++i) q.Push("s" + std::to_string(i), JobLane::kSuspect, 3);
  for (int i = 0; i < 5; ++i) q.Push("n" + std::to_string(i), JobLane::kNew);
  std::vector<std::string> started;
  std::string job;
  JobLane lane;
  while (q.Pop(&job, &lane)) started.push_back(job);
  // New jobs first, each lane up to its share: 8 - 2 * 2 workers stay free.
  EXPECT_EQ(started, (std::vector<std::string>{"n0", "n1", "s0", "s1"}));
  EXPECT_EQ(q.running(JobLane::kNew), 2);
  EXPECT_EQ(q.running(JobLane::kSuspect), 2);
}

TEST(BulkheadQueueTest, TinyPoolsKeepOneWorkerForHealthyJobs) {
  Queue q(2);  // share 1, but new + suspect together only 1
  q.Push("n", JobLane::kNew);
  q.Push("s", JobLane::kSuspect, 1);
  std::string job;
  JobLane lane;
  ASSERT_TRUE(q.Pop(&job, &lane));
  EXPECT_EQ(job, "n");
  EXPECT_FALSE(q.Pop(&job, &lane));
  q.Push("h", JobLane::kHealthy);
  ASSERT_TRUE(q.Pop(&job, &lane));
  EXPECT_EQ(job, "h");

  Queue one(1);  // a single worker must still run everything
  one.Push("s", JobLane::kSuspect, 1);
  ASSERT_TRUE(one.Pop(&job, &lane));
  EXPECT_EQ(job, "s");
}

TEST(BulkheadQueueTest, SuspectsRunFewestFailuresFirstFifoWithin) {
  Queue q(4);  // share 1
  q.Push("dead-a", JobLane::kSuspect, 7);
  q.Push("blip", JobLane::kSuspect, 1);
  q.Push("dead-b", JobLane::kSuspect, 7);
  q.Push("huge", JobLane::kSuspect, 1 << 30);  // clamped, still last
  q.Push("blip2", JobLane::kSuspect, 1);
  std::vector<std::string> order;
  std::string job;
  JobLane lane;
  while (q.Pop(&job, &lane)) {
    order.push_back(job);
    q.Done(lane);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"blip", "blip2", "dead-a", "dead-b", "huge"}));
}

TEST(BulkheadQueueTest, SuspectsProgressUnderEndlessHealthyWork) {
  Queue q(4);
  q.Push("s", JobLane::kSuspect, 1);
  for (int i = 0; i < 3; ++i) q.Push("h", JobLane::kHealthy);
  std::string job;
  JobLane lane;
  ASSERT_TRUE(q.Pop(&job, &lane));
  EXPECT_EQ(job, "s");  // within its share, not starved by the healthy backlog
}

TEST(BulkheadQueueTest, ClearDropsQueuedJobsOnly) {
  Queue q(4);
  q.Push("a", JobLane::kNew);
  q.Push("b", JobLane::kNew);
  std::string job;
  JobLane lane;
  ASSERT_TRUE(q.Pop(&job, &lane));
  q.Clear();
  EXPECT_EQ(q.queued(), 0u);
  EXPECT_FALSE(q.Pop(&job, &lane));
  EXPECT_EQ(q.running(JobLane::kNew), 1);
  q.Done(JobLane::kNew);
  EXPECT_EQ(q.running(JobLane::kNew), 0);
}

}  // namespace
}  // namespace ics::statestore
