// Statestore tombstone GC (a deletion is never lost) and bad input (unknown
// topics, malformed and oversized frames from either side). Same fixture as
// statestore_protocol_test.cc.
#include <set>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using impala::TErrorCode;
using impala::TTopicDelta;

class StatestoreNoGcTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.tombstone_retention_ms = 600000;  // tombstones stay for the whole test
    return o;
  }
};

TEST_F(StatestoreNoGcTest, FullUpdatesOmitTombstonesDeltasCarryThem) {
  FakeSubscriber* skipper =
      NewSubscriber("skipper", {TopicReg("t")}, true,
                    [](FakeSubscriber* sub) { sub->SetUpdateReply(UpdateReply::kSkip); });
  ASSERT_NE(skipper, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("a", "1"), Item("b", "1")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "a", kWait));
  p->Publish("t", {Tombstone("a")});
  ASSERT_TRUE(o->WaitForKeyGone("t", "a", kWait));
  bool delta_had_tombstone = false;
  for (const auto& u : o->Updates("t")) delta_had_tombstone |= ContainsItem(u.delta, "a", true);
  EXPECT_TRUE(delta_had_tombstone);

  FakeSubscriber* late = NewSubscriber("late", {TopicReg("t")});
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(late->WaitForUpdates("t", 1, kWait));
  const size_t n = skipper->UpdateCount("t");
  ASSERT_TRUE(skipper->WaitForUpdates("t", n + 2, kWait));
  // The newcomer's first update and the skipper's latest are full updates.
  for (const auto& full : {late->Updates("t").front().delta, skipper->Updates("t").back().delta}) {
    EXPECT_FALSE(full.is_delta);
    EXPECT_EQ(KeysOf(full), "b ");
  }
  for (const auto& t : broker()->Topics()) {
    if (t.name == "t") EXPECT_EQ(t.num_tombstones, 1);
  }
}

// ===========================================================================
// Tombstone GC never loses a deletion.
// ===========================================================================
class StatestoreTombstoneTest : public BrokerTest {};

TEST_F(StatestoreTombstoneTest, DeletionSurvivesGcForHoldersAndStaleBases) {
  FakeSubscriber* holder = NewSubscriber("holder", {TopicReg("t")});
  ASSERT_NE(holder, nullptr);
  FakeSubscriber* stale = NewSubscriber("stale", {TopicReg("t")});
  ASSERT_NE(stale, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(holder->WaitForKey("t", "k", kWait)) << holder->Describe();
  ASSERT_TRUE(stale->WaitForKey("t", "k", kWait)) << stale->Describe();
  const int64_t v_key = holder->TopicVersion("t");
  ASSERT_GE(v_key, 1);

  // 'stale' stops processing while it still holds the key; the key is deleted.
  stale->SetUpdateReply(UpdateReply::kSkip);
  p->Publish("t", {Tombstone("k")});
  ASSERT_TRUE(holder->WaitForKeyGone("t", "k", kWait)) << holder->Describe();
  // The holder learned it from a delta carrying the tombstone.
  bool saw_tombstone = false;
  for (const auto& u : holder->Updates("t")) {
    saw_tombstone |= u.delta.is_delta && ContainsItem(u.delta, "k", true);
  }
  EXPECT_TRUE(saw_tombstone);
  // Several GC opportunities (retention 100 ms, cadence 200 ms) pass.
  const size_t n = holder->UpdateCount("t");
  ASSERT_TRUE(holder->WaitForUpdates("t", n + 5, kWait));
  // 'stale' resumes: it must learn of the deletion, by a tombstone in a delta
  // or by a full update without the key.
  stale->SetUpdateReply(UpdateReply::kNormal);
  EXPECT_TRUE(stale->WaitForKeyGone("t", "k", kWait)) << stale->Describe();
  EXPECT_EQ(stale->ChainErrors("t"), 0);

  // Everyone has processed the deletion: GC collects the tombstone.
  ASSERT_TRUE(Eventually(
      [&] {
        if (broker()->Counters().tombstones_collected < 1) return false;
        for (const auto& t : broker()->Topics()) {
          if (t.name == "t") return t.num_tombstones == 0;
        }
        return false;
      },
      kWait))
      << "tombstone never collected";

  // The holder goes back to a base from before the deletion (as after a
  // local state loss): the tombstone is gone, so it must get a full update.
  const size_t before = holder->UpdateCount("t");
  ASSERT_TRUE(holder->RewindTo("t", v_key));
  ASSERT_TRUE(holder->WaitForUpdates("t", before + 2, kWait)) << holder->Describe();
  EXPECT_TRUE(holder->WaitForKeyGone("t", "k", kWait)) << holder->Describe();
  const auto after = holder->Updates("t")[before + 1].delta;
  EXPECT_TRUE(!after.is_delta || ContainsItem(after, "k", true))
      << "delta from a base below the GC'd tombstone: from=" << after.from_version
      << " to=" << after.to_version << " keys=" << KeysOf(after);

  // A newcomer gets a full update without the key and without tombstones.
  FakeSubscriber* late = NewSubscriber("late", {TopicReg("t")});
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(late->WaitForUpdates("t", 1, kWait));
  const auto first = late->Updates("t")[0].delta;
  EXPECT_FALSE(first.is_delta);
  EXPECT_TRUE(first.topic_entries.empty()) << KeysOf(first);
}

TEST_F(StatestoreTombstoneTest, StaleBaseRequestedByFromVersionAfterGc) {
  FakeSubscriber* s = NewSubscriber("s", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v"), Item("keep", "1")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(s->WaitForKey("t", "k", kWait));
  const int64_t v_key = s->TopicVersion("t");
  p->Publish("t", {Tombstone("k")});
  ASSERT_TRUE(s->WaitForKeyGone("t", "k", kWait));
  ASSERT_TRUE(Eventually([&] { return broker()->Counters().tombstones_collected >= 1; }, kWait));
  // Ask to be sent everything after v_key, i.e. a base from before the
  // deletion whose tombstone is gone.
  const size_t before = s->UpdateCount("t");
  ASSERT_TRUE(s->RewindTo("t", v_key));
  ASSERT_TRUE(s->WaitForUpdates("t", before + 2, kWait)) << s->Describe();
  EXPECT_TRUE(s->WaitForKeyGone("t", "k", kWait)) << s->Describe();
  EXPECT_TRUE(s->HasKey("t", "keep")) << s->Describe();
}

// ===========================================================================
// Bad input.
// ===========================================================================
class StatestoreBadInputTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.max_message_bytes = 1 << 20;
    return o;
  }
};

TEST_F(StatestoreBadInputTest, PublicationToUnknownTopicIsIgnored) {
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(b, nullptr);
  FakeSubscriber* a = NewSubscriber("a", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("no-such-topic", {Item("x", "1")});
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(a, nullptr);
  const impala::TUniqueId a_id = *a->registration_id();
  EXPECT_TRUE(b->WaitForKey("t", "k", kWait)) << b->Describe();
  const size_t n = a->UpdateCount("t");
  ASSERT_TRUE(a->WaitForUpdates("t", n + 2, kWait)) << a->Describe();
  EXPECT_TRUE(*a->registration_id() == a_id);
  EXPECT_EQ(CountRegistrations("a"), 1);
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
  for (const auto& t : broker()->Topics()) EXPECT_NE(t.name, "no-such-topic");
  // A later subscriber of that topic finds it empty.
  FakeSubscriber* c = NewSubscriber("c", {TopicReg("no-such-topic")});
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->WaitForUpdates("no-such-topic", 1, kWait));
  EXPECT_TRUE(c->Updates("no-such-topic")[0].delta.topic_entries.empty());
}

TEST_F(StatestoreBadInputTest, MalformedSubscriberRepliesDoNotDisturbOthers) {
  FakeSubscriber* a = NewSubscriber("a", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "v")});
  });
  ASSERT_NE(a, nullptr);
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(b->WaitForKey("t", "k1", kWait));

  auto reply_header = [](const std::string& method) {
    return RawThrift().I32(0x80010002u).Str(method).I32(0);  // REPLY
  };
  std::vector<std::unique_ptr<RawResponder>> evil;
  // Bytes that are not Thrift at all.
  evil.push_back(
      std::make_unique<RawResponder>([](const std::string&) { return std::string(512, '\xff'); }));
  // A reply whose status.error_msgs claims 2^31-1 elements.
  evil.push_back(std::make_unique<RawResponder>([&](const std::string& m) {
    return reply_header(m).Field(12, 0).Field(12, 1).Field(15, 2).I8(11).I32(0x7fffffffu).bytes();
  }));
  // A reply with a 2 GB string.
  evil.push_back(std::make_unique<RawResponder>([&](const std::string& m) {
    return reply_header(m)
        .Field(12, 0)
        .Field(12, 1)
        .Field(15, 2)
        .I8(11)
        .I32(1)
        .I32(0x7ffffff0u)
        .Raw("abc")
        .bytes();
  }));
  // A reply that ends half-way.
  evil.push_back(std::make_unique<RawResponder>(
      [&](const std::string& m) { return reply_header(m).Field(12, 0).Field(12, 1).bytes(); }));
  for (size_t i = 0; i < evil.size(); ++i) {
    ASSERT_TRUE(evil[i]->Start());
    impala::TRegisterSubscriberRequest req;
    req.subscriber_id = "evil" + std::to_string(i);
    req.subscriber_location.hostname = "127.0.0.1";
    req.subscriber_location.port = evil[i]->port();
    req.topic_registrations = {TopicReg("t")};
    impala::TRegisterSubscriberResponse resp;
    ASSERT_TRUE(CallStatestore("127.0.0.1", port_, [&](impala::StatestoreServiceClient& c) {
      c.RegisterSubscriber(resp, req);
    }));
    ASSERT_EQ(resp.status.status_code, TErrorCode::OK);
  }
  // Every broken subscriber is called, fails its heartbeats and is removed.
  for (size_t i = 0; i < evil.size(); ++i) {
    const std::string id = "evil" + std::to_string(i);
    EXPECT_TRUE(Eventually([&] { return evil[i]->calls() >= 2 && !IsRegistered(id); }, kWait))
        << id << " calls=" << evil[i]->calls() << " registered=" << IsRegistered(id);
  }
  // The well-behaved ones never noticed.
  for (FakeSubscriber* s : {a, b}) {
    const size_t hb = s->HeartbeatCount();
    const size_t up = s->UpdateCount("t");
    EXPECT_TRUE(s->WaitForHeartbeats(hb + 3, kWait)) << s->Describe();
    EXPECT_TRUE(s->WaitForUpdates("t", up + 2, kWait)) << s->Describe();
  }
  a->Publish("t", {Item("k2", "v")});
  EXPECT_TRUE(b->WaitForKey("t", "k2", kWait)) << b->Describe();
  EXPECT_EQ(a->registration_count(), 1);
  EXPECT_EQ(b->registration_count(), 1);
  EXPECT_TRUE(IsRegistered("a") && IsRegistered("b"));
  for (auto& e : evil) e->Stop();
}

TEST_F(StatestoreBadInputTest, MalformedAndOversizedInputDoesNotDisturbSubscribers) {
  FakeSubscriber* a = NewSubscriber("a", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "v")});
  });
  ASSERT_NE(a, nullptr);
  FakeSubscriber* b = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(b->WaitForKey("t", "k1", kWait));
  const impala::TUniqueId a_id = *a->registration_id();
  const impala::TUniqueId b_id = *b->registration_id();

  // A connection that sends half a message and stays open meanwhile.
  int half_open = ConnectLoopback(port_);
  ASSERT_GE(half_open, 0);
  const std::string partial = RawThrift().CallHeader("RegisterSubscriber").bytes();
  ASSERT_GT(send(half_open, partial.data(), partial.size(), MSG_NOSIGNAL), 0);

  std::string garbage_bytes(4096, '\0');
  for (size_t i = 0; i < garbage_bytes.size(); ++i) {
    garbage_bytes[i] = static_cast<char>((i * 131 + 7) & 0xff);
  }
  const std::string garbage = garbage_bytes;
  const std::string huge_name = RawThrift().I32(0x80010001u).I32(0x7ffffff0u).Raw("Reg").bytes();
  const std::string oversized_string = RawThrift()
                                           .CallHeader("RegisterSubscriber")
                                           .Field(12, 1)     // params
                                           .Field(11, 2)     // subscriber_id
                                           .I32(100u << 20)  // claims 100 MB
                                           .Raw(std::string(2 << 20, 'x'))
                                           .bytes();
  const std::string huge_list = RawThrift()
                                    .CallHeader("RegisterSubscriber")
                                    .Field(12, 1)
                                    .Field(15, 4)  // topic_registrations
                                    .I8(12)
                                    .I32(0x7fffffffu)
                                    .bytes();
  const std::string truncated =
      RawThrift().CallHeader("GetProtocolVersion").Field(12, 1).Field(8, 1).bytes();  // ends
                                                                                      // mid-field
  const std::string unknown_method = RawThrift().CallHeader("NoSuchMethod").I8(0).bytes();
  const std::string bad_version = RawThrift().I32(0x80020001u).Str("GetProtocolVersion").bytes();
  for (const std::string* input : {&garbage, &huge_name, &oversized_string, &huge_list, &truncated,
                                   &unknown_method, &bad_version}) {
    EXPECT_TRUE(SendRawAndDrain(port_, *input));
  }

  // The service still answers.
  impala::TGetProtocolVersionRequest req;
  impala::TGetProtocolVersionResponse resp;
  std::string error;
  ASSERT_TRUE(CallStatestore(
      "127.0.0.1", port_,
      [&](impala::StatestoreServiceClient& c) { c.GetProtocolVersion(resp, req); }, &error))
      << error;
  EXPECT_EQ(resp.status.status_code, TErrorCode::OK);

  // Registered subscribers are undisturbed: same registrations, heartbeats
  // and updates keep flowing, and publications still propagate.
  for (FakeSubscriber* s : {a, b}) {
    const size_t hb = s->HeartbeatCount();
    const size_t up = s->UpdateCount("t");
    EXPECT_TRUE(s->WaitForHeartbeats(hb + 3, kWait)) << s->Describe();
    EXPECT_TRUE(s->WaitForUpdates("t", up + 2, kWait)) << s->Describe();
  }
  a->Publish("t", {Item("k2", "v")});
  EXPECT_TRUE(b->WaitForKey("t", "k2", kWait)) << b->Describe();
  EXPECT_TRUE(*a->registration_id() == a_id);
  EXPECT_TRUE(*b->registration_id() == b_id);
  EXPECT_EQ(CountRegistrations("a"), 1);
  EXPECT_EQ(CountRegistrations("b"), 1);
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
  EXPECT_EQ(broker()->Subscribers().size(), 2u);
  close(half_open);
}

}  // namespace
}  // namespace ics::sstest
