// The subscriber's components on their own, without RPCs or threads of
// their own: ProcessedVersions (processed and minimum versions, the minimum
// wishes and what a new registration resends) and SubscriberSession (what a
// registration resets, which updates it admits and keeps, what the
// background thread is given to do, what a oneway update's answer resends).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>

#include "statestore/processed_versions.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {
namespace {

using Action = SubscriberSession::Action;

TEST(ProcessedVersionsTest, VersionsStartAtZeroAndResetOnRegistration) {
  ProcessedVersions v;
  v.AddTopic("t", false, false);
  EXPECT_TRUE(v.Has("t"));
  EXPECT_FALSE(v.Has("u"));
  EXPECT_EQ(v.version("t"), 0);
  EXPECT_EQ(v.version("u"), 0);
  v.SetVersion("t", 7);
  v.SetMinVersion("t", 5);
  EXPECT_EQ(v.version("t"), 7);
  EXPECT_EQ(v.min_version("t"), 5);
  v.ResetForRegistration();
  EXPECT_EQ(v.version("t"), 0);
  EXPECT_EQ(v.min_version("t"), 0);
  EXPECT_FALSE(v.HasUnsent());  // no topic takes its minimum on request
}

TEST(ProcessedVersionsTest, WishesOnlyForOnRequestTopicsAndOnlyWhenHigher) {
  ProcessedVersions v;
  v.AddTopic("plain", false, false);
  v.AddTopic("req", true, true);
  EXPECT_FALSE(v.WantMin("plain", 3));
  EXPECT_FALSE(v.WantMin("unknown", 3));
  EXPECT_TRUE(v.WantMin("req", 3));
  EXPECT_FALSE(v.WantMin("req", 3));  // as high a wish is pending
  EXPECT_FALSE(v.WantMin("req", 2));
  EXPECT_TRUE(v.WantMin("req", 4));
  EXPECT_TRUE(v.HasUnsent());
  ProcessedVersions::Wishes w = v.TakeUnsent();
  EXPECT_FALSE(w.on_request);  // the choice goes with a registration
  EXPECT_EQ(w.wanted, (std::map<std::string, int64_t>{{"req", 4}}));
  EXPECT_FALSE(v.HasUnsent());
  // Already received: no wish.
  v.SetMinVersion("req", 9);
  EXPECT_FALSE(v.WantMin("req", 9));
}

TEST(ProcessedVersionsTest, NewRegistrationResendsChoiceAndUnmetWishes) {
  ProcessedVersions v;
  v.AddTopic("a", true, true);
  v.AddTopic("b", true, false);  // on request, without populating the minimum
  ASSERT_TRUE(v.WantMin("a", 5));
  ASSERT_TRUE(v.WantMin("b", 6));
  (void)v.TakeUnsent();
  v.ResetForRegistration();
  ASSERT_TRUE(v.HasUnsent());
  ProcessedVersions::Wishes w = v.TakeUnsent();
  EXPECT_TRUE(w.on_request);
  EXPECT_EQ(w.wanted, (std::map<std::string, int64_t>{{"a", 5}, {"b", 6}}));
  // A wish the minimum received has met is forgotten.
  v.SetMinVersion("a", 5);
  v.ResetForRegistration();
  v.SetMinVersion("a", 5);
  w = v.TakeUnsent();
  EXPECT_EQ(w.wanted, (std::map<std::string, int64_t>{{"b", 6}}));
}

impala::TUniqueId Id(int64_t hi, int64_t lo) {
  impala::TUniqueId id;
  id.hi = hi;
  id.lo = lo;
  return id;
}

impala::TRegisterSubscriberResponse Registered(const impala::TUniqueId& registration,
                                               const impala::TUniqueId& statestore) {
  impala::TRegisterSubscriberResponse resp;
  resp.__set_registration_id(registration);
  resp.__set_statestore_id(statestore);
  return resp;
}

class SubscriberSessionTest : public ::testing::Test {
 protected:
  SubscriberSessionTest() {
    options_.subscriber_id = "s";
    TopicSubscription t;
    t.topic = "t";
    session_.AddTopic(t);
  }
  // Registers as `registration` with statestore (1, 1).
  void Register(const impala::TUniqueId& registration) {
    ASSERT_TRUE(session_.BeginRegistration());
    session_.EndRegistration(Status::OK(), Registered(registration, Id(1, 1)));
  }
  impala::TUpdateStateRequest Update(const impala::TUniqueId& registration) {
    impala::TUpdateStateRequest req;
    req.__set_registration_id(registration);
    req.__set_statestore_id(Id(1, 1));
    return req;
  }

  StatestoreSubscriberOptions options_;
  SubscriberSession session_{&options_};
};

TEST_F(SubscriberSessionTest, UpdatesOfAnEarlierRegistrationAreNotKept) {
  session_.MarkStarted();
  Register(Id(2, 2));
  SubscriberSession::Admission a = session_.AdmitUpdate(Update(Id(2, 2)));
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_FALSE(a.skip);
  const std::string topic = "t";
  session_.CommitUpdate(a.generation, {{&topic, 10}}, {{&topic, 4}});
  EXPECT_EQ(session_.last_topic_version("t"), 10);
  EXPECT_EQ(session_.min_subscriber_topic_version("t"), 4);

  // A registration while callbacks ran: their versions are dropped.
  Register(Id(3, 3));
  EXPECT_EQ(session_.last_topic_version("t"), 0);
  session_.CommitUpdate(a.generation, {{&topic, 11}}, {});
  EXPECT_EQ(session_.last_topic_version("t"), 0);
  // An update for the old registration is refused.
  EXPECT_FALSE(session_.AdmitUpdate(Update(Id(2, 2))).status.ok());
  EXPECT_EQ(session_.num_registrations(), 2);
}

TEST_F(SubscriberSessionTest, RequestFromAnotherStatestoreDropsTheRegistration) {
  Register(Id(2, 2));
  const impala::TUniqueId other = Id(9, 9);
  EXPECT_FALSE(session_.CheckRequestIds("UpdateCatalogd", nullptr, &other).ok());
  EXPECT_FALSE(session_.is_registered());
  SubscriberSession::Timers timers;
  EXPECT_EQ(session_.NextWork(&timers).action, Action::kRegister);
}

TEST_F(SubscriberSessionTest, UpdateRequestsAreMergedAndDroppedByRegistration) {
  session_.RequestTopicUpdate();  // not registered: nothing to do
  Register(Id(2, 2));
  session_.RequestTopicUpdate();
  session_.RequestTopicUpdate();
  SubscriberSession::Timers timers;
  SubscriberSession::Work w = session_.NextWork(&timers);
  EXPECT_EQ(w.action, Action::kRequestUpdate);
  EXPECT_EQ(w.registration_id, Id(2, 2));
  session_.RpcDone();
  // Merged: the second request asked for nothing more. The idle connection
  // is closed when its time comes.
  timers.close_idle_at = SubscriberSession::Clock::now();
  EXPECT_EQ(session_.NextWork(&timers).action, Action::kCloseIdle);
  EXPECT_FALSE(timers.close_idle_at.has_value());

  session_.RequestTopicUpdate();
  Register(Id(3, 3));  // the first update follows registration anyway
  timers.close_idle_at = SubscriberSession::Clock::now();
  EXPECT_EQ(session_.NextWork(&timers).action, Action::kCloseIdle);
}

TEST_F(SubscriberSessionTest, OnewayResendsOnlyForTheCurrentRegistration) {
  Register(Id(2, 2));
  const std::string topic = "t";
  session_.CommitUpdate(session_.num_registrations(), {{&topic, 3}}, {});
  std::map<std::string, impala::TTopicDelta> deltas;
  deltas["t"].__set_to_version(5);
  deltas["not-subscribed"].__set_to_version(5);
  auto resends = session_.ResendsAfter(Id(2, 2), deltas);
  ASSERT_TRUE(resends.has_value());
  ASSERT_EQ(resends->size(), 1u);
  EXPECT_EQ((*resends)[0].topic_name, "t");
  EXPECT_EQ((*resends)[0].from_version, 3);
  EXPECT_EQ((*resends)[0].rejected_to_version, 5);
  EXPECT_FALSE(session_.ResendsAfter(Id(7, 7), deltas).has_value());
  deltas["t"].__set_to_version(3);  // applied: nothing to resend
  EXPECT_TRUE(session_.ResendsAfter(Id(2, 2), deltas)->empty());
}

TEST_F(SubscriberSessionTest, SendsOnlyAsTheCurrentRegistrationOfAStartedSession) {
  EXPECT_TRUE(session_.RegistrationForSend(nullptr).status().Is(ErrorCode::kRecoverableError));
  session_.MarkStarted();
  Register(Id(2, 2));
  auto id = session_.RegistrationForSend(nullptr);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, Id(2, 2));
  const impala::TUniqueId old = Id(1, 5);
  EXPECT_FALSE(session_.RegistrationForSend(&old).ok());
  session_.DropUnknownRegistration(old);  // not ours any more: kept
  EXPECT_TRUE(session_.is_registered());
  session_.DropUnknownRegistration(Id(2, 2));
  EXPECT_FALSE(session_.is_registered());
}

TEST_F(SubscriberSessionTest, StopWakesWaitersAndIsIdempotent) {
  // Not started: no background thread to wait for.
  EXPECT_TRUE(session_.Stop([] { FAIL() << "no RPC to interrupt"; }));
  EXPECT_FALSE(session_.Stop([] {}));
  EXPECT_TRUE(session_.WaitForRegistration(std::chrono::seconds(5)).Is(ErrorCode::kShutdown));
  SubscriberSession::Timers timers;
  EXPECT_EQ(session_.NextWork(&timers).action, Action::kStop);
  EXPECT_FALSE(session_.BeginRegistration());
}

}  // namespace
}  // namespace ics::statestore
