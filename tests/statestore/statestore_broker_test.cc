// Statestore broker tests beyond Impala's own checks: registration errors,
// RequestTopicUpdate, prompt pushes, limits, timeouts and shutdown. Same
// fixture as statestore_protocol_test.cc; GC and bad input are in
// statestore_gc_input_test.cc.
#include <set>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using impala::TErrorCode;
using impala::TTopicDelta;

// ===========================================================================
// Registration errors, GetProtocolVersion, RequestTopicUpdate.
// ===========================================================================
class StatestoreRegistrationTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.update_frequency_ms = 10000;  // so prompt updates are not the cadence
    return o;
  }

  impala::TRegisterSubscriberRequest Request(const std::string& id) {
    impala::TRegisterSubscriberRequest req;
    req.protocol_version = impala::StatestoreServiceVersion::V2;
    req.subscriber_id = id;
    req.subscriber_location.hostname = "127.0.0.1";
    req.subscriber_location.port = 1;  // nobody listens; fine for a refused registration
    req.topic_registrations = {TopicReg("t")};
    return req;
  }

  impala::TRegisterSubscriberResponse RegisterRaw(const impala::TRegisterSubscriberRequest& req) {
    impala::TRegisterSubscriberResponse resp;
    std::string error;
    EXPECT_TRUE(CallStatestore(
        "127.0.0.1", port_,
        [&](impala::StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); }, &error))
        << error;
    return resp;
  }

  impala::TRequestTopicUpdateResponse RequestUpdate(const impala::TUniqueId& id) {
    impala::TRequestTopicUpdateRequest req;
    req.protocol_version = impala::StatestoreServiceVersion::V2;
    req.registration_id = id;
    impala::TRequestTopicUpdateResponse resp;
    std::string error;
    EXPECT_TRUE(CallStatestore(
        "127.0.0.1", port_,
        [&](impala::StatestoreServiceClient& c) { c.RequestTopicUpdate(resp, req); }, &error))
        << error;
    return resp;
  }
};

TEST_F(StatestoreRegistrationTest, EmptySubscriberIdIsRejected) {
  auto resp = RegisterRaw(Request(""));
  EXPECT_NE(resp.status.status_code, TErrorCode::OK);
  EXPECT_TRUE(broker()->Subscribers().empty());
}

TEST_F(StatestoreRegistrationTest, ProtocolV1GetsIncompatibleProtocol) {
  auto req = Request("old");
  req.protocol_version = impala::StatestoreServiceVersion::V1;
  auto resp = RegisterRaw(req);
  EXPECT_EQ(static_cast<int>(resp.status.status_code), 158);  // STATESTORE_INCOMPATIBLE_PROTOCOL
  EXPECT_FALSE(IsRegistered("old"));
}

TEST_F(StatestoreRegistrationTest, GetProtocolVersion) {
  impala::TGetProtocolVersionRequest req;
  impala::TGetProtocolVersionResponse resp;
  std::string error;
  ASSERT_TRUE(CallStatestore(
      "127.0.0.1", port_,
      [&](impala::StatestoreServiceClient& c) { c.GetProtocolVersion(resp, req); }, &error))
      << error;
  EXPECT_EQ(resp.status.status_code, TErrorCode::OK);
  EXPECT_EQ(resp.protocol_version, impala::StatestoreServiceVersion::V2);
  if (resp.__isset.statestore_id) EXPECT_TRUE(resp.statestore_id == broker()->statestore_id());
  // A registration reports the same statestore id.
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")}, false);
  ASSERT_NE(s, nullptr);
  auto reg = s->Register();
  ASSERT_EQ(reg.status.status_code, TErrorCode::OK);
  if (reg.__isset.statestore_id) EXPECT_TRUE(reg.statestore_id == broker()->statestore_id());
}

TEST_F(StatestoreRegistrationTest, RequestTopicUpdateWithUnknownIdIsAnError) {
  impala::TUniqueId bogus;
  bogus.hi = 0x1234;
  bogus.lo = 0x5678;
  auto resp = RequestUpdate(bogus);
  EXPECT_NE(resp.status.status_code, TErrorCode::OK);
}

TEST_F(StatestoreRegistrationTest, RequestTopicUpdateSendsAnUpdatePromptly) {
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  // The registration's first update comes right away, not at the cadence.
  ASSERT_TRUE(s->WaitForUpdates("t", 1, Millis(2000))) << s->Describe();
  ASSERT_TRUE(o->WaitForUpdates("t", 1, Millis(2000))) << o->Describe();
  const size_t n = s->UpdateCount("t");
  s->Publish("t", {Item("k", "v")});
  const auto asked_at = Clock::now();
  auto resp = RequestUpdate(*s->registration_id());
  EXPECT_EQ(resp.status.status_code, TErrorCode::OK);
  // An update arrives well before the 10 s cadence; what was published in
  // its reply reaches the other subscriber promptly too.
  EXPECT_TRUE(s->WaitForUpdates("t", n + 1, Millis(2000))) << s->Describe();
  EXPECT_TRUE(o->WaitForKey("t", "k", Millis(2000))) << o->Describe();
  EXPECT_LT(SecondsSince(asked_at), 2.5);
}

TEST_F(StatestoreRegistrationTest, RequestTopicUpdateCoalescesWhileInFlight) {
  FakeSubscriber* s = NewSubscriber("s", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 1, Millis(2000)));
  const int64_t n = s->UpdateCalls();
  s->SetHangUpdates(true);
  EXPECT_EQ(RequestUpdate(*s->registration_id()).status.status_code, TErrorCode::OK);
  ASSERT_TRUE(s->WaitUntil([&] { return s->UpdateCalls() >= n + 1; }, Millis(2000)));
  for (int i = 0; i < 20; ++i) RequestUpdate(*s->registration_id());
  // While one update hangs, no second one is sent.
  size_t hb = s->HeartbeatCount();
  ASSERT_TRUE(s->WaitForHeartbeats(hb + 3, kWait));
  EXPECT_EQ(s->UpdateCalls(), n + 1);
  s->SetHangUpdates(false);
  // The 20 requests coalesce into (at most a couple of) follow-ups.
  ASSERT_TRUE(s->WaitUntil([&] { return s->UpdateCalls() >= n + 2; }, Millis(2000)));
  hb = s->HeartbeatCount();
  ASSERT_TRUE(s->WaitForHeartbeats(hb + 5, kWait));
  EXPECT_LE(s->UpdateCalls(), n + 3);
  EXPECT_EQ(s->MaxConcurrentUpdates(), 1);
}

// ===========================================================================
// Prompt pushes with a slow fallback cadence.
// ===========================================================================
class StatestorePushTest : public StatestoreRegistrationTest {};

TEST_F(StatestorePushTest, PublicationReachesOtherSubscriberPromptly) {
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(b->WaitForUpdates("t", 1, Millis(2000))) << b->Describe();
  // A hung subscriber of the same topic must not delay anyone.
  FakeSubscriber* hung = NewSubscriber("hung", {TopicReg("t")});
  ASSERT_NE(hung, nullptr);
  hung->SetHangUpdates(true);

  // Published in the reply to A's first update.
  FakeSubscriber* a = NewSubscriber("a", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "v")});
  });
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(b->WaitForKey("t", "k1", Millis(2000))) << b->Describe();
  auto published = a->LastPublishTime();
  ASSERT_TRUE(published.has_value());
  EXPECT_LT(SecondsSince(*published), 2.0);

  // Published in the reply to an update A asked for (A has had the update
  // carrying its own entry, so nothing else is due for 10 s).
  ASSERT_TRUE(a->WaitForKey("t", "k1", Millis(2000))) << a->Describe();
  a->Publish("t", {Item("k2", "v")});
  RequestUpdate(*a->registration_id());
  ASSERT_TRUE(b->WaitForKey("t", "k2", Millis(2000))) << b->Describe();
  published = a->LastPublishTime();
  ASSERT_TRUE(published.has_value());
  EXPECT_LT(SecondsSince(*published), 2.0);
  hung->SetHangUpdates(false);
}

TEST_F(StatestorePushTest, MinVersionPushedOnceEverySubscriberProcessedIt) {
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t", false, "", true)});
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(b->WaitForUpdates("t", 1, Millis(2000))) << b->Describe();
  const auto start = Clock::now();
  FakeSubscriber* a =
      NewSubscriber("a", {TopicReg("t", false, "", true)}, true,
                    [](FakeSubscriber* sub) { sub->Publish("t", {Item("k", "v")}); });
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(b->WaitForVersion("t", 1, Millis(2000))) << b->Describe();
  ASSERT_TRUE(a->WaitForVersion("t", 1, Millis(2000))) << a->Describe();
  // Both processed version 1: the new minimum is pushed, not left for the
  // 10 s cadence.
  EXPECT_TRUE(a->WaitUntil([&] { return a->LastMinVersion("t") >= 1; }, Millis(2000)))
      << a->Describe();
  EXPECT_TRUE(b->WaitUntil([&] { return b->LastMinVersion("t") >= 1; }, Millis(2000)))
      << b->Describe();
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(a->LastMinVersion("t"), 1);
  EXPECT_EQ(b->LastMinVersion("t"), 1);
}

// A worker sends several healthy subscribers' updates before it reads the
// replies. One of them that answered before and now hangs must hold back
// neither the others' replies (a publisher's among them) nor their next
// updates: with two workers and a 10 s update timeout, three publications in
// a row each reach every other subscriber well within the timeout.
class StatestoreBatchTest : public StatestoreRegistrationTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.num_update_threads = 2;
    o.update_timeout_ms = 10000;
    o.update_frequency_ms = 60000;
    return o;
  }
};

TEST_F(StatestoreBatchTest, HungSubscriberInABatchDelaysNobody) {
  std::vector<FakeSubscriber*> healthy;
  for (int i = 0; i < 5; ++i) {
    healthy.push_back(NewSubscriber("h" + std::to_string(i), {TopicReg("t")}));
    ASSERT_NE(healthy.back(), nullptr);
  }
  FakeSubscriber* hung = NewSubscriber("hung", {TopicReg("t")});
  ASSERT_NE(hung, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")});
  ASSERT_NE(p, nullptr);
  for (FakeSubscriber* s : healthy) ASSERT_TRUE(s->WaitForUpdates("t", 1, kWait)) << s->Describe();
  ASSERT_TRUE(hung->WaitForUpdates("t", 1, kWait)) << hung->Describe();
  ASSERT_TRUE(p->WaitForUpdates("t", 1, kWait)) << p->Describe();
  hung->SetHangUpdates(true);

  const auto start = Clock::now();
  for (int round = 0; round < 3; ++round) {
    const std::string key = "k" + std::to_string(round);
    p->Publish("t", {Item(key, "v")});
    EXPECT_EQ(RequestUpdate(*p->registration_id()).status.status_code, TErrorCode::OK);
    for (FakeSubscriber* s : healthy) {
      EXPECT_TRUE(s->WaitForKey("t", key, Millis(2000))) << key << "\n" << s->Describe();
    }
  }
  EXPECT_LT(SecondsSince(start), 6.0) << "publications waited for the hung subscriber";
  hung->SetHangUpdates(false);
}

// ===========================================================================
// Limits, timeouts and shutdown.
// ===========================================================================
class StatestoreLimitTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.max_subscribers = 2;
    return o;
  }
};

TEST_F(StatestoreLimitTest, SubscriberLimitStillAllowsReRegistration) {
  FakeSubscriber* a = NewSubscriber("a", {TopicReg("t")});
  ASSERT_NE(a, nullptr);
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(b, nullptr);
  FakeSubscriber* c = NewSubscriber("c", {TopicReg("t")}, false);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->Register().status.status_code, TErrorCode::OK);
  EXPECT_FALSE(IsRegistered("c"));
  // Replacing an existing registration does not need a free slot.
  std::string error;
  EXPECT_TRUE(a->RegisterOk(&error)) << error;
  EXPECT_EQ(CountRegistrations("a"), 1);
  // A slot frees up when a subscriber fails.
  b->Stop();
  ASSERT_TRUE(Eventually([&] { return !IsRegistered("b"); }, kWait));
  EXPECT_TRUE(c->RegisterOk(&error)) << error;
}

class StatestoreTimeoutTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.update_timeout_ms = 800;
    return o;
  }
};

TEST_F(StatestoreTimeoutTest, UpdateBeyondTimeoutIsRetriedAndConverges) {
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "v")});
  });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* s = NewSubscriber("slow", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForKey("t", "k1", kWait));
  const int64_t failures = broker()->Counters().update_failures;
  s->SetUpdateDelay(Millis(1500));
  const int64_t n = s->UpdateCalls();
  ASSERT_TRUE(s->WaitUntil([&] { return s->UpdateCalls() >= n + 1; }, kWait));
  p->Publish("t", {Item("k2", "v")});
  ASSERT_TRUE(Eventually([&] { return broker()->Counters().update_failures > failures; }, kWait))
      << "no update timed out";
  s->SetUpdateDelay(Millis(0));
  // Not failed (heartbeats are fine), and it converges on the topic.
  EXPECT_TRUE(s->WaitForKey("t", "k2", kWait)) << s->Describe();
  EXPECT_TRUE(s->WaitForVersion("t", p->TopicVersion("t"), kWait)) << s->Describe();
  EXPECT_TRUE(IsRegistered("slow"));
  EXPECT_EQ(s->registration_count(), 1);
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
}

class StatestoreShutdownTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.update_timeout_ms = 30000;
    o.heartbeat_timeout_ms = 30000;
    return o;
  }
};

TEST_F(StatestoreShutdownTest, StopIsPromptWhileRpcsHang) {
  FakeSubscriber* s = NewSubscriber("hung", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->SetHangUpdates(true);
    sub->SetHangHeartbeats(true);
  });
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(
      s->WaitUntil([&] { return s->UpdateCalls() >= 1 && s->HeartbeatCount() >= 1; }, kWait))
      << s->Describe();
  const auto start = Clock::now();
  server_->Stop();
  EXPECT_LT(SecondsSince(start), 3.0) << "Stop waited for hung RPCs";
  server_->Stop();  // idempotent
}

TEST_F(StatestoreShutdownTest, StopIsPromptWithIdleAndHalfSentClientConnections) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  int idle = ConnectLoopback(port_);
  ASSERT_GE(idle, 0);
  int partial = ConnectLoopback(port_);
  ASSERT_GE(partial, 0);
  const std::string half = RawThrift().CallHeader("RegisterSubscriber").Field(12, 1).bytes();
  ASSERT_GT(send(partial, half.data(), half.size(), MSG_NOSIGNAL), 0);
  // A client that finished one call and keeps its connection open.
  impala::TGetProtocolVersionResponse resp;
  ASSERT_TRUE(CallStatestore("127.0.0.1", port_, [&](impala::StatestoreServiceClient& c) {
    c.GetProtocolVersion(resp, impala::TGetProtocolVersionRequest());
    const auto start = Clock::now();
    server_->Stop();
    EXPECT_LT(SecondsSince(start), 3.0) << "Stop waited for open client connections";
  }));
  close(idle);
  close(partial);
}

}  // namespace
}  // namespace ics::sstest
