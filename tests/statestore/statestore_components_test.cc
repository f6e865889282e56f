// The broker's components on their own, without RPCs: the registry's
// index by registration id, the ledger's minimum (acknowledged versions
// only, HA catalogds left out unless designated) and the pushes it owes,
// and the scheduler's coalescing of update requests.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/util/mutex.h"
#include "statestore/push_scheduler.h"
#include "statestore/subscriber_registry.h"
#include "statestore/topic_ledger.h"

namespace ics::statestore {
namespace {

using SubPtr = std::shared_ptr<SubscriberRecord>;

impala::TUniqueId RegId(int64_t hi, int64_t lo) {
  impala::TUniqueId id;
  id.hi = hi;
  id.lo = lo;
  return id;
}

SubPtr MakeSub(const std::string& id, int64_t reg, const std::vector<std::string>& topics,
               bool populate_min = false) {
  auto sub = std::make_shared<SubscriberRecord>();
  sub->id = id;
  sub->registration_id = RegId(reg, reg * 7);
  sub->registration_key = id + "#" + std::to_string(reg);
  for (const std::string& t : topics) {
    SubscribedTopic st;
    st.populate_min = populate_min;
    sub->topics.emplace(t, st);
  }
  return sub;
}

TEST(SubscriberRegistryTest, FindsRegistrationsByIdAndRegistrationId) {
  SubscriberRegistry registry;
  SubPtr a = MakeSub("a", 1, {});
  SubPtr b = MakeSub("b", 2, {});
  EXPECT_EQ(registry.Insert(a), nullptr);
  EXPECT_EQ(registry.Insert(b), nullptr);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_EQ(registry.Find("a"), a);
  EXPECT_EQ(registry.FindRegistration(RegId(2, 14)), b);
  EXPECT_EQ(registry.FindRegistration(RegId(2, 15)), nullptr);
  EXPECT_EQ(registry.FindRegistration(RegId(3, 21)), nullptr);
}

TEST(SubscriberRegistryTest, ReplacedRegistrationIsNotFoundByItsId) {
  SubscriberRegistry registry;
  SubPtr old_a = MakeSub("a", 1, {});
  SubPtr new_a = MakeSub("a", 2, {});
  ASSERT_EQ(registry.Insert(old_a), nullptr);
  EXPECT_EQ(registry.Insert(new_a), old_a);
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.FindRegistration(old_a->registration_id), nullptr);
  EXPECT_EQ(registry.FindRegistration(new_a->registration_id), new_a);
  // Ending the replaced registration leaves its successor in place.
  registry.Remove(old_a);
  EXPECT_EQ(registry.Find("a"), new_a);
  EXPECT_EQ(registry.FindRegistration(new_a->registration_id), new_a);
  registry.Remove(new_a);
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(registry.FindRegistration(new_a->registration_id), nullptr);
}

TEST(TopicLedgerTest, MinimumCountsAcknowledgedVersionsOnly) {
  TopicLedger ledger;
  SubPtr a = MakeSub("a", 1, {"t"});
  SubPtr b = MakeSub("b", 2, {"t"});
  ledger.AddSubscriber(a.get());
  ledger.AddSubscriber(b.get());
  ASSERT_NE(ledger.Find("t"), nullptr);
  EXPECT_EQ(ledger.Find("u"), nullptr);
  ledger.SetVersion(a.get(), "t", 5);
  ledger.SetVersion(b.get(), "t", 3);
  EXPECT_EQ(ledger.Min("t", nullptr), 3);
  // A oneway update written to b moves its next base, not what it acknowledged.
  EXPECT_FALSE(ledger.SetSentVersion(b.get(), "t", 7));
  EXPECT_EQ(b->topics["t"].last_version, 7);
  EXPECT_EQ(b->topics["t"].acked_version, 3);
  EXPECT_EQ(ledger.Min("t", nullptr), 3);
  ledger.SetVersion(b.get(), "t", 7);
  EXPECT_EQ(ledger.Min("t", nullptr), 5);
  ledger.RemoveSubscriber(a.get());
  EXPECT_EQ(ledger.Min("t", nullptr), 7);
  EXPECT_EQ(ledger.Min("unknown", nullptr), 0);
}

TEST(TopicLedgerTest, HaCatalogdCountsOnlyWhenDesignated) {
  TopicLedger ledger;
  SubPtr coord = MakeSub("coord", 1, {"t"});
  SubPtr catalogd = MakeSub("catalogd", 2, {"t"});
  catalogd->ha_candidate = true;
  ledger.AddSubscriber(coord.get());
  ledger.AddSubscriber(catalogd.get());
  ledger.SetVersion(coord.get(), "t", 9);
  ledger.SetVersion(catalogd.get(), "t", 4);
  EXPECT_EQ(ledger.Min("t", nullptr), 9);
  EXPECT_EQ(ledger.Min("t", catalogd.get()), 4);
}

TEST(TopicLedgerTest, MinimumPushesGoToThoseThatTakeEveryChange) {
  SubscriberRegistry registry;
  TopicLedger ledger;
  SubPtr follower = MakeSub("follower", 1, {"t"}, /*populate_min=*/true);
  SubPtr on_request = MakeSub("on_request", 2, {"t"}, /*populate_min=*/true);
  SubPtr plain = MakeSub("plain", 3, {"t"});
  for (const SubPtr& s : {follower, on_request, plain}) {
    registry.Insert(s);
    ledger.AddSubscriber(s.get());
  }
  const TopicLedger::WishOutcome none =
      ledger.WantMin(on_request.get(), {}, /*on_request=*/true, registry, nullptr);
  EXPECT_FALSE(none.due);
  EXPECT_TRUE(ledger.MinPushesDue(registry, nullptr).empty());  // nothing moved
  for (const SubPtr& s : {follower, on_request, plain}) ledger.SetVersion(s.get(), "t", 2);
  EXPECT_EQ(ledger.MinPushesDue(registry, nullptr), std::vector<SubPtr>{follower});
  EXPECT_TRUE(ledger.MinPushesDue(registry, nullptr).empty());  // reported once

  // A wish for version 4: the minimum is 2, so nobody is due yet; then it
  // is reached and the wisher is owed its push too.
  const TopicLedger::WishOutcome wish =
      ledger.WantMin(on_request.get(), {{"t", 4}}, std::nullopt, registry, nullptr);
  EXPECT_FALSE(wish.due);
  for (const SubPtr& s : {follower, on_request, plain}) ledger.SetVersion(s.get(), "t", 4);
  EXPECT_EQ(ledger.MinPushesDue(registry, nullptr), (std::vector<SubPtr>{follower, on_request}));
}

TEST(TopicLedgerTest, WishAsksForAnswersFromThoseSentOnewayUpdates) {
  SubscriberRegistry registry;
  TopicLedger ledger;
  SubPtr waiter = MakeSub("waiter", 1, {"t"}, /*populate_min=*/true);
  SubPtr oneway = MakeSub("oneway", 2, {"t"});
  SubPtr behind = MakeSub("behind", 3, {"t"});
  for (const SubPtr& s : {waiter, oneway, behind}) {
    registry.Insert(s);
    ledger.AddSubscriber(s.get());
  }
  // On request, without a wish: nobody reads the minimum now.
  ASSERT_FALSE(ledger.WantMin(waiter.get(), {}, /*on_request=*/true, registry, nullptr).due);
  ledger.SetVersion(waiter.get(), "t", 6);
  ASSERT_FALSE(ledger.SetSentVersion(oneway.get(), "t", 6));
  const TopicLedger::WishOutcome wish =
      ledger.WantMin(waiter.get(), {{"t", 6}}, std::nullopt, registry, nullptr);
  EXPECT_FALSE(wish.due);
  EXPECT_EQ(wish.unacknowledged, std::vector<SubPtr>{oneway});
  // The wish makes the waiter a reader of the minimum: updates of the topic
  // wait for replies now.
  EXPECT_TRUE(ledger.SetSentVersion(oneway.get(), "t", 7));
}

TEST(PushSchedulerTest, RequestsWhileQueuedOrInFlightAreCoalesced) {
  Mutex mu;
  PushScheduler scheduler(/*update_workers=*/2, /*heartbeat_workers=*/1);
  SubPtr sub = MakeSub("a", 1, {"t"});
  MutexLock l(&mu);
  scheduler.ScheduleUpdate(sub);
  scheduler.ScheduleUpdate(sub);  // already queued: nothing more
  std::vector<PushScheduler::Job> jobs;
  ASSERT_TRUE(scheduler.TakeUpdateJobs(&mu, 32, &jobs));
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_TRUE(sub->update.in_flight);
  EXPECT_FALSE(sub->update.queued);
  scheduler.ScheduleUpdate(sub);  // in flight: one follow-up
  scheduler.ScheduleUpdate(sub);
  EXPECT_TRUE(sub->update.again);
  EXPECT_FALSE(sub->update.queued);
  const SteadyTime now = std::chrono::steady_clock::now();
  scheduler.EndUpdateJob(sub, jobs[0].lane, now, 1000);
  EXPECT_FALSE(sub->update.in_flight);
  EXPECT_TRUE(sub->update.queued);
  EXPECT_GE(sub->update.next_due, now + std::chrono::milliseconds(900));
  EXPECT_LE(sub->update.next_due, now + std::chrono::milliseconds(1100));
  jobs.clear();
  ASSERT_TRUE(scheduler.TakeUpdateJobs(&mu, 32, &jobs));
  EXPECT_EQ(jobs.size(), 1u);
  scheduler.Stop();
  scheduler.ScheduleUpdate(sub);  // stopped: nothing is queued
  jobs.clear();
  EXPECT_FALSE(scheduler.TakeUpdateJobs(&mu, 32, &jobs));
}

}  // namespace
}  // namespace ics::statestore
