// StatestoreSubscriber against the real broker (StatestoreServer in process,
// port 0, short intervals): registration, late statestore, restart,
// publishing through callbacks, wait helpers, many subscribers.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/util/unique_id.h"
#include "statestore/statestore_server.h"
#include "statestore/subscriber.h"
#include "tests/subscriber/subscriber_test_util.h"
#include "tests/util/eventually.h"

namespace ics::statestore {
namespace {

using ::ics::testing::Eventually;

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

TEST(SubscriberTest, RegistersAndReceivesUpdatesAndHeartbeats) {
  auto ss = StartStatestore();
  ASSERT_NE(ss, nullptr);
  TopicMirror mirror;
  auto sub = StartSubscriber(SubscriberOptions("coord-1", ss->port()), &mirror);
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_EQ(sub->num_registrations(), 1);
  EXPECT_EQ(*sub->statestore_id(), ss->statestore()->statestore_id());
  const auto subs = ss->statestore()->Subscribers();
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].id, "coord-1");
  EXPECT_EQ(subs[0].registration_id, PrintId(*sub->registration_id()));
  EXPECT_EQ(subs[0].address, "127.0.0.1:" + std::to_string(sub->port()));
  // The first update is full; more (empty) updates follow at the fallback cadence.
  ASSERT_EVENTUALLY_TRUE(mirror.updates() >= 3);
  EXPECT_GE(mirror.full_updates(), 1);
  ASSERT_EVENTUALLY_TRUE(ss->statestore()->Counters().heartbeats_sent >= 3);
  EXPECT_EQ(ss->statestore()->Subscribers()[0].consecutive_heartbeat_failures, 0);
  EXPECT_EQ(sub->num_registrations(), 1);
  sub->Stop();
  ss->Stop();
}

TEST(SubscriberTest, RetriesUntilStatestoreStarts) {
  const int port = FreePort();
  ASSERT_GT(port, 0);
  TopicMirror mirror;
  auto sub = StartSubscriber(SubscriberOptions("late", port), &mirror);
  EXPECT_TRUE(sub->WaitForRegistration(milliseconds(300)).Is(ErrorCode::kTimedOut));
  auto ss = StartStatestore(port);
  ASSERT_NE(ss, nullptr);
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_EQ(sub->num_registrations(), 1);
  ASSERT_EVENTUALLY_TRUE(mirror.updates() >= 1);
}

TEST(SubscriberTest, PublishedEntriesReachAnotherSubscriber) {
  auto ss = StartStatestore();
  ASSERT_NE(ss, nullptr);
  TopicMirror pub_mirror, sub_mirror;
  auto pub = StartSubscriber(SubscriberOptions("catalogd", ss->port()), &pub_mirror);
  auto sub = StartSubscriber(SubscriberOptions("coord", ss->port()), &sub_mirror, true);
  ASSERT_TRUE(pub->WaitForRegistration(milliseconds(5000)).ok());
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());

  pub_mirror.Publish("TABLE:db.t1", "v1");
  pub->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("TABLE:db.t1") == "v1");
  ASSERT_EVENTUALLY_TRUE(pub_mirror.Get("TABLE:db.t1") == "v1");  // the writer sees it too
  const int64_t v1 = TopicVersion(ss.get(), kTopic);
  EXPECT_GE(v1, 1);
  EXPECT_TRUE(sub->WaitForTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  EXPECT_TRUE(pub->WaitForTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  // Both have processed v1, so the minimum reaches it.
  EXPECT_TRUE(sub->WaitForMinSubscriberTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  EXPECT_GE(sub->min_subscriber_topic_version(kTopic), v1);
  // Updates are full until a non-zero version was processed; deltas after.
  const int full_updates = sub_mirror.full_updates();

  pub_mirror.Publish("TABLE:db.t1", "v2");
  pub_mirror.Publish("TABLE:db.t2", "x");
  pub->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("TABLE:db.t1") == "v2" &&
                         sub_mirror.Get("TABLE:db.t2") == "x");

  pub_mirror.Publish("TABLE:db.t1", "", /*deleted=*/true);
  pub->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("TABLE:db.t1") == "<none>");
  EXPECT_EQ(sub_mirror.Get("TABLE:db.t2"), "x");
  EXPECT_EQ(sub_mirror.full_updates(), full_updates);
  EXPECT_EQ(sub->num_registrations(), 1);
}

TEST(SubscriberTest, PublishPushesEntriesOverTheWire) {
  auto ss = StartStatestore();
  ASSERT_NE(ss, nullptr);
  TopicMirror pub_mirror, sub_mirror;
  auto pub = StartSubscriber(SubscriberOptions("pusher", ss->port()), &pub_mirror);
  auto sub = StartSubscriber(SubscriberOptions("reader", ss->port()), &sub_mirror, true);
  ASSERT_TRUE(pub->WaitForRegistration(milliseconds(5000)).ok());
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());

  auto written = pub->Publish({OneEntry(kTopic, "k1", "v1")});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->count(kTopic), 1u);
  const int64_t v1 = written->at(kTopic);
  EXPECT_EQ(v1, TopicVersion(ss.get(), kTopic));
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("k1") == "v1");
  // The version returned is what the minimum must reach for everyone to
  // have the entry.
  EXPECT_TRUE(sub->WaitForMinSubscriberTopicVersion(kTopic, v1, milliseconds(5000)).ok());

  // Refusals come back as errors and write nothing; the connection stays
  // usable.
  auto refused = pub->Publish({OneEntry(kTopic, "k2", "v2"), OneEntry("no-such-topic", "x", "y")});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("unknown topic 'no-such-topic'"), std::string::npos)
      << refused.status().ToString();
  impala::TTopicDelta rebase = OneEntry(kTopic, "k2", "v2");
  rebase.__set_from_version(0);
  EXPECT_TRUE(pub->Publish({rebase}).status().Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(pub->Publish({OneEntry("", "k", "v")}).status().Is(ErrorCode::kInvalidArgument));
  EXPECT_EQ(TopicVersion(ss.get(), kTopic), v1);
  written = pub->Publish({OneEntry(kTopic, "k3", "v3")});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_GT(written->at(kTopic), v1);
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("k3") == "v3");
  EXPECT_EQ(sub_mirror.Get("k2"), "<none>");

  pub->Stop();
  EXPECT_TRUE(pub->Publish({OneEntry(kTopic, "k4", "v4")}).status().Is(ErrorCode::kShutdown));
}

TEST(SubscriberTest, PublishNeedsARegistration) {
  const int port = FreePort();  // no statestore there
  ASSERT_GT(port, 0);
  TopicMirror mirror;
  auto sub = StartSubscriber(SubscriberOptions("unregistered", port), &mirror);
  auto r = sub->Publish({OneEntry(kTopic, "k", "v")});
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not registered"), std::string::npos)
      << r.status().ToString();
  StatestoreSubscriber never_started(SubscriberOptions("never-started", port));
  EXPECT_FALSE(never_started.Publish({OneEntry(kTopic, "k", "v")}).ok());
}

// Whether the statestore took `sub`'s choice of minimum versions on request.
bool MinOnRequest(StatestoreServer* ss, const std::string& id) {
  for (const SubscriberInfo& s : ss->statestore()->Subscribers()) {
    if (s.id != id) continue;
    for (const auto& t : s.topics) {
      if (t.topic == kTopic) return t.min_on_request;
    }
  }
  return false;
}

TEST(SubscriberTest, MinimumOnRequestIsSentOnlyWhenWaitedFor) {
  // No fallback updates during the test: every update is a push.
  StatestoreServerOptions o;
  o.bind_host = "127.0.0.1";
  o.statestore.heartbeat_interval_ms = 100;
  o.statestore.update_frequency_ms = 600000;
  o.statestore.num_update_threads = 4;
  auto ss = std::make_unique<StatestoreServer>(o);
  ASSERT_TRUE(ss->Start().ok());
  TopicMirror pub_mirror, eager_mirror, lazy_mirror;
  auto pub = StartSubscriber(SubscriberOptions("publisher", ss->port()), &pub_mirror);
  auto eager = StartSubscriber(SubscriberOptions("eager", ss->port()), &eager_mirror, true);
  auto lazy = std::make_unique<StatestoreSubscriber>(SubscriberOptions("lazy", ss->port()));
  TopicSubscription t;
  t.topic = kTopic;
  t.populate_min_subscriber_topic_version = true;
  t.min_version_on_request = true;
  t.callback = lazy_mirror.Callback();
  ASSERT_TRUE(lazy->AddTopic(std::move(t)).ok());
  ASSERT_TRUE(lazy->Start().ok());
  for (auto* s : {pub.get(), eager.get(), lazy.get()}) {
    ASSERT_TRUE(s->WaitForRegistration(milliseconds(5000)).ok());
  }
  ASSERT_EVENTUALLY_TRUE(MinOnRequest(ss.get(), "lazy"));
  EXPECT_FALSE(MinOnRequest(ss.get(), "eager"));
  EXPECT_FALSE(MinOnRequest(ss.get(), "publisher"));  // no populate_min topic

  pub_mirror.Publish("k", "v1");
  pub->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(eager_mirror.Get("k") == "v1" && lazy_mirror.Get("k") == "v1" &&
                         pub_mirror.Get("k") == "v1");
  const int64_t v1 = TopicVersion(ss.get(), kTopic);
  // Everyone applied v1: the eager subscriber is pushed the new minimum...
  ASSERT_TRUE(eager->WaitForMinSubscriberTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  const int lazy_updates = lazy_mirror.updates();
  std::this_thread::sleep_for(milliseconds(300));
  // ...the one on request is not, until it waits for it.
  EXPECT_LT(lazy->min_subscriber_topic_version(kTopic), v1);
  EXPECT_EQ(lazy_mirror.updates(), lazy_updates);
  ASSERT_TRUE(lazy->WaitForMinSubscriberTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  EXPECT_EQ(lazy_mirror.updates(), lazy_updates + 1);

  // Waiting for a version not reached yet: sent when the minimum gets there.
  const int64_t v2 = v1 + 1;
  std::atomic<bool> reached{false};
  std::thread waiter([&] {
    reached = lazy->WaitForMinSubscriberTopicVersion(kTopic, v2, milliseconds(10000)).ok();
  });
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_FALSE(reached.load());
  pub_mirror.Publish("k", "v2");
  pub->RequestTopicUpdate();
  waiter.join();
  EXPECT_TRUE(reached.load());
  EXPECT_GE(lazy->min_subscriber_topic_version(kTopic), v2);
  EXPECT_EQ(lazy_mirror.Get("k"), "v2");
  for (auto* s : {pub.get(), eager.get(), lazy.get()}) s->Stop();
  ss->Stop();
}

// Both ways an update travels: a reply asks for the new base; after a
// oneway update the subscriber asks for a resend (RequestTopicUpdate field 7).
TEST(SubscriberTest, PublishedFromVersionResetGetsAFullUpdate) {
  for (const bool oneway : {false, true}) {
    SCOPED_TRACE(oneway ? "oneway updates" : "replied updates");
    auto ss = StartStatestore();
    ASSERT_NE(ss, nullptr);
    TopicMirror mirror;
    auto o = SubscriberOptions("s", ss->port());
    o.accept_oneway_updates = oneway;
    auto sub = StartSubscriber(o, &mirror);
    ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());
    mirror.Publish("k", "v");
    sub->RequestTopicUpdate();
    ASSERT_EVENTUALLY_TRUE(mirror.Get("k") == "v");
    ASSERT_EVENTUALLY_TRUE(sub->last_topic_version(kTopic) >= 1);
    const int full_before = mirror.full_updates();
    // from_version 0 in a publication: the statestore resends the whole topic.
    mirror.ResetBaseNext();
    sub->RequestTopicUpdate();
    ASSERT_EVENTUALLY_TRUE(mirror.full_updates() > full_before);
    EXPECT_EQ(mirror.Get("k"), "v");
    EXPECT_EQ(sub->num_registrations(), 1);
    // A subscriber that does not accept oneway updates (as Impala's) never
    // gets one.
    EXPECT_EQ(ss->statestore()->Counters().oneway_updates_sent > 0, oneway);
    EXPECT_EQ(ss->statestore()->Counters().oneway_resends > 0, oneway);
    sub->Stop();
    ss->Stop();
  }
}

TEST(SubscriberTest, ReRegistersAfterStatestoreRestart) {
  auto ss = StartStatestore();
  ASSERT_NE(ss, nullptr);
  const int port = ss->port();
  TopicMirror pub_mirror, sub_mirror;
  auto pub = StartSubscriber(SubscriberOptions("catalogd", port), &pub_mirror);
  auto sub = StartSubscriber(SubscriberOptions("coord", port), &sub_mirror);
  ASSERT_TRUE(pub->WaitForRegistration(milliseconds(5000)).ok());
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());
  pub_mirror.Publish("k", "v");
  pub->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("k") == "v");
  const auto old_registration = *sub->registration_id();
  const auto old_statestore = ss->statestore()->statestore_id();
  const int full_before = sub_mirror.full_updates();

  ss->Stop();
  ss = StartStatestore(port);
  ASSERT_NE(ss, nullptr);
  // No heartbeats for statestore_timeout_ms: both register again with the
  // new statestore, which knows nothing until the publisher republishes.
  ASSERT_EVENTUALLY_TRUE(sub->num_registrations() == 2 && pub->num_registrations() == 2);
  ASSERT_TRUE(sub->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_NE(*sub->registration_id(), old_registration);
  EXPECT_NE(*sub->statestore_id(), old_statestore);
  EXPECT_EQ(*sub->statestore_id(), ss->statestore()->statestore_id());
  ASSERT_EVENTUALLY_TRUE(sub_mirror.full_updates() > full_before);
  ASSERT_EVENTUALLY_TRUE(sub_mirror.Get("k") == "v");
  const int64_t v = TopicVersion(ss.get(), kTopic);
  EXPECT_GE(v, 1);
  EXPECT_TRUE(sub->WaitForTopicVersion(kTopic, v, milliseconds(5000)).ok());
  EXPECT_EQ(ss->statestore()->Subscribers().size(), 2u);
}

// A statestore and one registered subscriber of it (statestore_timeout_ms a
// minute, statestore_probe_after_ms `probe_after_ms`); then the statestore
// restarted on the same port, knowing nothing of the subscriber.
struct RestartedStatestore {
  std::unique_ptr<StatestoreServer> ss;
  TopicMirror mirror;
  std::unique_ptr<StatestoreSubscriber> sub;
  impala::TUniqueId old_registration;
  Clock::time_point restarted_at;
};
void RestartUnderSubscriber(int probe_after_ms, RestartedStatestore* r) {
  r->ss = StartStatestore();
  ASSERT_NE(r->ss, nullptr);
  const int port = r->ss->port();
  StatestoreSubscriberOptions o = SubscriberOptions("coord", port);
  o.statestore_timeout_ms = 60000;
  o.statestore_probe_after_ms = probe_after_ms;
  r->sub = StartSubscriber(o, &r->mirror);
  ASSERT_TRUE(r->sub->WaitForRegistration(milliseconds(5000)).ok());
  r->old_registration = *r->sub->registration_id();
  r->ss->Stop();
  r->ss = StartStatestore(port);
  ASSERT_NE(r->ss, nullptr);
  r->restarted_at = Clock::now();
}

// With statestore_probe_after_ms, a subscriber that hears no heartbeat asks
// the statestore whether it still knows the registration: a statestore that
// restarted answers no, and the subscriber registers again at once instead
// of after statestore_timeout_ms (here a minute).
TEST(SubscriberTest, ProbeFindsARestartedStatestoreBeforeTheTimeout) {
  RestartedStatestore r;
  ASSERT_NO_FATAL_FAILURE(RestartUnderSubscriber(600, &r));
  ASSERT_TRUE(Eventually([&] { return r.sub->num_registrations() == 2; }, milliseconds(10000)));
  EXPECT_LT(Clock::now() - r.restarted_at, milliseconds(5000));
  ASSERT_TRUE(r.sub->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_NE(*r.sub->registration_id(), r.old_registration);
  EXPECT_EQ(*r.sub->statestore_id(), r.ss->statestore()->statestore_id());
  EXPECT_EQ(r.ss->statestore()->Subscribers().size(), 1u);
}

// Without probes the same restart is noticed only when the timeout passes.
TEST(SubscriberTest, WithoutProbesARestartWaitsForTheTimeout) {
  RestartedStatestore r;
  ASSERT_NO_FATAL_FAILURE(RestartUnderSubscriber(0, &r));
  std::this_thread::sleep_for(milliseconds(2500));
  EXPECT_EQ(r.sub->num_registrations(), 1);
  EXPECT_TRUE(r.ss->statestore()->Subscribers().empty());
}

TEST(SubscriberTest, ManySubscribersRegisterAndStopCleanly) {
  auto ss = StartStatestore();
  ASSERT_NE(ss, nullptr);
  constexpr int kNum = 100;
  std::vector<std::unique_ptr<TopicMirror>> mirrors;
  std::vector<std::unique_ptr<StatestoreSubscriber>> subs;
  for (int i = 0; i < kNum; ++i) {
    mirrors.push_back(std::make_unique<TopicMirror>());
    subs.push_back(StartSubscriber(SubscriberOptions("coord-" + std::to_string(i), ss->port()),
                                   mirrors.back().get()));
  }
  std::set<int> ports;
  for (auto& s : subs) ports.insert(s->port());
  EXPECT_EQ(ports.size(), static_cast<size_t>(kNum));
  for (auto& s : subs) ASSERT_TRUE(s->WaitForRegistration(milliseconds(10000)).ok());
  EXPECT_EQ(ss->statestore()->Subscribers().size(), static_cast<size_t>(kNum));

  mirrors[0]->Publish("k", "v");
  subs[0]->RequestTopicUpdate();
  for (auto& m : mirrors) ASSERT_TRUE(Eventually([&] { return m->Get("k") == "v"; }));

  const auto start = Clock::now();
  for (auto& s : subs) s->Stop();
  subs.clear();
  EXPECT_LT(Clock::now() - start, milliseconds(5000));
  ss->Stop();
}

}  // namespace
}  // namespace ics::statestore
