// Statestore protocol tests: an in-process StatestoreServer (port 0, short
// timings) driven by FakeSubscribers built from the IDL alone.
//
// This file: StatestoreProtocolTest, what Impala's own statestore tests
// check. statestore_broker_test.cc: registration errors, RequestTopicUpdate,
// pushes, limits, timeouts, shutdown, tombstone GC and bad input.
#include <set>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using impala::TErrorCode;
using impala::TTopicDelta;

// ===========================================================================
// What Impala's own statestore tests check.
// ===========================================================================
class StatestoreProtocolTest : public BrokerTest {};

TEST_F(StatestoreProtocolTest, ReRegistrationGetsDistinctIds) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  const impala::TUniqueId id1 = *s->registration_id();
  ASSERT_TRUE(s->RegisterOk());
  const impala::TUniqueId id2 = *s->registration_id();
  ASSERT_TRUE(s->RegisterOk());
  const impala::TUniqueId id3 = *s->registration_id();
  EXPECT_FALSE(id1 == id2);
  EXPECT_FALSE(id2 == id3);
  EXPECT_FALSE(id1 == id3);
  // Registering an existing id replaces the old registration.
  EXPECT_EQ(CountRegistrations("sub"), 1);
  EXPECT_TRUE(s->WaitUntil([&] { return HasRegistrationId(s->Updates("t"), id3); }, kWait))
      << s->Describe();
}

TEST_F(StatestoreProtocolTest, HeartbeatsArrive) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForHeartbeats(3, kWait)) << s->Describe();
  const impala::TUniqueId id = *s->registration_id();
  for (const auto& hb : s->Heartbeats()) {
    if (hb.registration_id) EXPECT_TRUE(*hb.registration_id == id);
  }
}

TEST_F(StatestoreProtocolTest, PublishedEntryAppearsInNextUpdateThenEmptyDelta) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});  // answered to the first update
  });
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 3, kWait)) << s->Describe();
  auto u = s->Updates("t");
  // 1st: the empty topic, full.
  EXPECT_FALSE(u[0].delta.is_delta);
  EXPECT_TRUE(u[0].delta.topic_entries.empty()) << KeysOf(u[0].delta);
  // 2nd: carries the entry published in the 1st response (version 1). Still
  // full: the processed version was 0.
  ASSERT_EQ(u[1].delta.topic_entries.size(), 1u) << KeysOf(u[1].delta);
  EXPECT_EQ(u[1].delta.topic_entries[0].key, "k");
  EXPECT_EQ(u[1].delta.topic_entries[0].value, "v");
  EXPECT_FALSE(u[1].delta.topic_entries[0].deleted);
  EXPECT_FALSE(u[1].delta.is_delta);
  ASSERT_TRUE(u[1].delta.__isset.to_version);
  EXPECT_EQ(u[1].delta.to_version, 1);
  // 3rd: an empty delta from the processed version.
  EXPECT_TRUE(u[2].delta.is_delta);
  EXPECT_TRUE(u[2].delta.topic_entries.empty()) << KeysOf(u[2].delta);
  EXPECT_EQ(u[2].delta.from_version, 1);
  EXPECT_EQ(u[2].delta.to_version, 1);
  EXPECT_EQ(s->ChainErrors("t"), 0);
}

TEST_F(StatestoreProtocolTest, FilterPrefixGivesEmptyDeltasWithAdvancingVersions) {
  FakeSubscriber* f = NewSubscriber("filtered", {TopicReg("t", false, "b:")});
  ASSERT_NE(f, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("a:1", "x")});
  });
  ASSERT_NE(p, nullptr);
  // The topic advances to version 1; the filtered subscriber follows with
  // empty updates.
  ASSERT_TRUE(f->WaitForVersion("t", 1, kWait)) << f->Describe();
  EXPECT_TRUE(f->Entries("t").empty());
  p->Publish("t", {Item("a:2", "x"), Item("b:1", "y"), Item("a:3", "x")});
  ASSERT_TRUE(f->WaitForKey("t", "b:1", kWait)) << f->Describe();
  ASSERT_TRUE(f->WaitForVersion("t", 4, kWait)) << f->Describe();
  // More empty deltas at the cadence, at the topic's version.
  const size_t n = f->UpdateCount("t");
  ASSERT_TRUE(f->WaitForUpdates("t", n + 2, kWait)) << f->Describe();

  bool saw_empty_advancing = false;
  int64_t last_to = -1;
  for (const auto& u : f->Updates("t")) {
    for (const auto& item : u.delta.topic_entries) {
      EXPECT_EQ(item.key.rfind("b:", 0), 0u) << "unfiltered key " << item.key;
    }
    ASSERT_TRUE(u.delta.__isset.to_version);
    EXPECT_GE(u.delta.to_version, last_to) << "to_version went backwards";
    if (u.delta.topic_entries.empty() && u.delta.to_version > std::max<int64_t>(last_to, 0)) {
      saw_empty_advancing = true;
    }
    last_to = u.delta.to_version;
  }
  EXPECT_TRUE(saw_empty_advancing) << "no empty update advanced the version";
  EXPECT_EQ(last_to, 4);
  EXPECT_EQ(f->Entries("t"), (std::map<std::string, std::string>{{"b:1", "y"}}));
  EXPECT_EQ(f->ChainErrors("t"), 0);
}

TEST_F(StatestoreProtocolTest, UpdatesStayFullUntilNonZeroVersionProcessed) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 3, kWait)) << s->Describe();
  for (const auto& u : s->Updates("t")) {
    EXPECT_FALSE(u.delta.is_delta) << "delta while the topic is empty";
    EXPECT_EQ(u.delta.to_version, 0);
  }
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(s->WaitForKey("t", "k", kWait)) << s->Describe();
  const size_t n = s->UpdateCount("t");
  ASSERT_TRUE(s->WaitForUpdates("t", n + 2, kWait)) << s->Describe();
  // is_delta exactly when the previously processed version is non-zero.
  int64_t processed = 0;
  bool saw_delta = false;
  for (const auto& u : s->Updates("t")) {
    EXPECT_EQ(u.delta.is_delta, processed > 0)
        << "processed=" << processed << " from=" << u.delta.from_version
        << " to=" << u.delta.to_version;
    if (u.delta.is_delta) EXPECT_EQ(u.delta.from_version, processed);
    saw_delta |= u.delta.is_delta;
    processed = u.delta.to_version;
  }
  EXPECT_TRUE(saw_delta);
}

TEST_F(StatestoreProtocolTest, AlwaysSkippingSubscriberKeepsGettingFullUpdates) {
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->WaitForKey("t", "k", kWait)) << p->Describe();
  FakeSubscriber* s = NewSubscriber("skipper", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->SetUpdateReply(UpdateReply::kSkip);
  });
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 5, kWait)) << s->Describe();
  for (const auto& u : s->Updates("t")) {
    EXPECT_FALSE(u.delta.is_delta);
    EXPECT_TRUE(ContainsItem(u.delta, "k", false)) << KeysOf(u.delta);
  }
  EXPECT_EQ(broker()->MinSubscriberTopicVersion("t"), 0);
  // Skipping is not a failure.
  EXPECT_TRUE(IsRegistered("skipper"));
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
}

TEST_F(StatestoreProtocolTest, KilledSubscriberIsRemovedInTime) {
  FakeSubscriber* victim =
      NewSubscriber("victim", {TopicReg("t", /*transient=*/true)}, true,
                    [](FakeSubscriber* sub) { sub->Publish("t", {Item("vk", "v")}); });
  ASSERT_NE(victim, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "vk", kWait)) << o->Describe();

  const auto killed_at = Clock::now();
  victim->Stop();  // connections now refused
  ASSERT_TRUE(Eventually([&] { return !IsRegistered("victim"); }, kWait))
      << "killed subscriber still registered after " << SecondsSince(killed_at) << "s";
  // 3 missed heartbeats at 100 ms: well under 3 s even on a busy machine.
  EXPECT_LT(SecondsSince(killed_at), 3.0);
  EXPECT_GE(broker()->Counters().subscribers_failed, 1);
  EXPECT_TRUE(o->WaitForKeyGone("t", "vk", kWait)) << o->Describe();
  EXPECT_TRUE(IsRegistered("observer"));
}

TEST_F(StatestoreProtocolTest, HungHeartbeatCausesFailure) {
  FakeSubscriber* s = NewSubscriber("hung", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 1, kWait));
  ASSERT_TRUE(s->WaitForHeartbeats(1, kWait));
  s->SetHangHeartbeats(true);
  const auto hung_at = Clock::now();
  // 3 x (500 ms timeout + 100 ms interval) ~ 1.8 s.
  EXPECT_TRUE(Eventually([&] { return !IsRegistered("hung"); }, Millis(8000)))
      << "hung subscriber not failed after " << SecondsSince(hung_at) << "s; " << s->Describe();
  EXPECT_GE(broker()->Counters().subscribers_failed, 1);
  s->SetHangHeartbeats(false);
}

TEST_F(StatestoreProtocolTest, OccasionalSlowHeartbeatIsNotAFailure) {
  FakeSubscriber* s = NewSubscriber("slow", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  const impala::TUniqueId id = *s->registration_id();
  ASSERT_TRUE(s->WaitForHeartbeats(2, kWait));
  // One slow heartbeat within the timeout, then one beyond it (a single miss).
  s->DelayNextHeartbeats(1, Millis(300));
  size_t n = s->HeartbeatCount();
  ASSERT_TRUE(s->WaitForHeartbeats(n + 4, kWait)) << s->Describe();
  s->DelayNextHeartbeats(1, Millis(800));
  n = s->HeartbeatCount();
  ASSERT_TRUE(s->WaitForHeartbeats(n + 6, kWait)) << s->Describe();
  const size_t updates = s->UpdateCount("t");
  ASSERT_TRUE(s->WaitForUpdates("t", updates + 2, kWait)) << s->Describe();

  EXPECT_TRUE(IsRegistered("slow"));
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
  EXPECT_EQ(s->registration_count(), 1);
  const auto all = s->Updates("t");
  ASSERT_TRUE(all.back().registration_id.has_value());
  EXPECT_TRUE(*all.back().registration_id == id);
}

TEST_F(StatestoreProtocolTest, TransientEntriesGoPersistentStayWhenPublisherFails) {
  auto topics = [] { return std::vector{TopicReg("persistent"), TopicReg("transient", true)}; };
  FakeSubscriber* p = NewSubscriber("publisher", topics(), true, [](FakeSubscriber* sub) {
    sub->Publish("persistent", {Item("pk", "1")});
    sub->Publish("transient", {Item("tk", "1")});
  });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", topics());
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("persistent", "pk", kWait)) << o->Describe();
  ASSERT_TRUE(o->WaitForKey("transient", "tk", kWait)) << o->Describe();

  p->Stop();
  ASSERT_TRUE(o->WaitForKeyGone("transient", "tk", kWait)) << o->Describe();
  const size_t n = o->UpdateCount("persistent");
  ASSERT_TRUE(o->WaitForUpdates("persistent", n + 2, kWait));
  EXPECT_TRUE(o->HasKey("persistent", "pk")) << o->Describe();

  // A newcomer gets the persistent entry and neither the transient one nor
  // its tombstone (full updates carry no tombstones).
  FakeSubscriber* late = NewSubscriber("late", topics());
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(late->WaitForUpdates("persistent", 1, kWait));
  ASSERT_TRUE(late->WaitForUpdates("transient", 1, kWait));
  const auto pu = late->Updates("persistent")[0].delta;
  const auto tu = late->Updates("transient")[0].delta;
  EXPECT_FALSE(pu.is_delta);
  EXPECT_TRUE(ContainsItem(pu, "pk", false)) << KeysOf(pu);
  EXPECT_FALSE(tu.is_delta);
  EXPECT_TRUE(tu.topic_entries.empty()) << KeysOf(tu);
}

TEST_F(StatestoreProtocolTest, ClearTopicEntries) {
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "1"), Item("k2", "2")});
  });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "k2", kWait)) << o->Describe();

  using Map = std::map<std::string, std::string>;
  p->Publish("t", {Item("k3", "3")}, /*clear_topic_entries=*/true);
  EXPECT_TRUE(o->WaitUntil(
      [&] {
        return o->Entries("t") == Map{{"k3", "3"}};
      },
      kWait))
      << o->Describe();
  EXPECT_TRUE(p->WaitUntil(
      [&] {
        return p->Entries("t") == Map{{"k3", "3"}};
      },
      kWait))
      << p->Describe();

  p->Publish("t", {}, /*clear_topic_entries=*/true);
  EXPECT_TRUE(
      o->WaitUntil([&] { return o->Entries("t").empty() && o->UpdateCount("t") > 0; }, kWait))
      << o->Describe();
  FakeSubscriber* late = NewSubscriber("late", {TopicReg("t")});
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(late->WaitForUpdates("t", 1, kWait));
  EXPECT_TRUE(late->Updates("t")[0].delta.topic_entries.empty())
      << KeysOf(late->Updates("t")[0].delta);
}

TEST_F(StatestoreProtocolTest, AfterAnEmptyClearUpdatesBecomeDeltasAgain) {
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k1", "1")});
  });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "k1", kWait));
  p->Publish("t", {}, /*clear_topic_entries=*/true);
  ASSERT_TRUE(o->WaitForKeyGone("t", "k1", kWait)) << o->Describe();
  // The observer has processed the (empty) topic at a non-zero version; it
  // needs no further full updates: later ones are (empty) deltas.
  const size_t n = o->UpdateCount("t");
  ASSERT_TRUE(o->WaitForUpdates("t", n + 4, kWait)) << o->Describe();
  const auto u = o->Updates("t");
  int full_after = 0;
  for (size_t i = n + 1; i < u.size(); ++i) full_after += u[i].delta.is_delta ? 0 : 1;
  EXPECT_EQ(full_after, 0) << "every update after an empty clear is a full update (to_version "
                           << u.back().delta.to_version << ")";
}

TEST_F(StatestoreProtocolTest, ReRegistrationAfterFailureResumesUpdates) {
  FakeSubscriber* s = NewSubscriber("sub", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(s->WaitForKey("t", "k", kWait));
  const impala::TUniqueId old_id = *s->registration_id();
  s->SetHangHeartbeats(true);
  ASSERT_TRUE(Eventually([&] { return !IsRegistered("sub"); }, Millis(8000))) << s->Describe();
  s->SetHangHeartbeats(false);

  ASSERT_TRUE(s->RegisterOk());
  const impala::TUniqueId new_id = *s->registration_id();
  EXPECT_FALSE(old_id == new_id);
  ASSERT_TRUE(s->WaitUntil([&] { return HasRegistrationId(s->Updates("t"), new_id); }, kWait))
      << s->Describe();
  // The first update of the new registration is full and has the entry.
  for (const auto& u : s->Updates("t")) {
    if (u.registration_id && *u.registration_id == new_id) {
      EXPECT_FALSE(u.delta.is_delta);
      EXPECT_TRUE(ContainsItem(u.delta, "k", false)) << KeysOf(u.delta);
      break;
    }
  }
  EXPECT_TRUE(s->WaitUntil(
      [&] {
        for (const auto& hb : s->Heartbeats()) {
          if (hb.registration_id && *hb.registration_id == new_id) return true;
        }
        return false;
      },
      kWait));
  const size_t n = s->UpdateCount("t");
  EXPECT_TRUE(s->WaitForUpdates("t", n + 2, kWait)) << s->Describe();
  EXPECT_TRUE(IsRegistered("sub"));
}

TEST_F(StatestoreProtocolTest, MinSubscriberTopicVersionHeldDownByStraggler) {
  auto reg = [](bool want) { return std::vector{TopicReg("t", false, "", want)}; };
  FakeSubscriber* c = NewSubscriber("straggler", reg(true), true, [](FakeSubscriber* sub) {
    sub->SetUpdateReply(UpdateReply::kSkip);
  });
  ASSERT_NE(c, nullptr);
  FakeSubscriber* a = NewSubscriber(
      "a", reg(true), true, [](FakeSubscriber* sub) { sub->Publish("t", {Item("k1", "1")}); });
  ASSERT_NE(a, nullptr);
  FakeSubscriber* b = NewSubscriber("b", reg(true));
  ASSERT_NE(b, nullptr);
  FakeSubscriber* d = NewSubscriber("no-min", reg(false));
  ASSERT_NE(d, nullptr);
  ASSERT_TRUE(b->WaitForKey("t", "k1", kWait)) << b->Describe();
  a->Publish("t", {Item("k2", "2")});
  ASSERT_TRUE(b->WaitForKey("t", "k2", kWait)) << b->Describe();
  ASSERT_TRUE(a->WaitForVersion("t", 2, kWait)) << a->Describe();
  for (FakeSubscriber* s : {a, b}) {
    const size_t n = s->UpdateCount("t");
    ASSERT_TRUE(s->WaitForUpdates("t", n + 3, kWait)) << s->Describe();
  }
  // The straggler has processed nothing, so the minimum stays 0.
  EXPECT_EQ(broker()->MinSubscriberTopicVersion("t"), 0);
  for (FakeSubscriber* s : {a, b, c}) {
    for (const auto& u : s->Updates("t")) {
      ASSERT_TRUE(u.delta.__isset.min_subscriber_topic_version) << s->id() << " asked for it";
      EXPECT_EQ(u.delta.min_subscriber_topic_version, 0) << s->id();
    }
  }

  // The straggler catches up: the minimum reaches the topic's version.
  c->SetUpdateReply(UpdateReply::kNormal);
  EXPECT_TRUE(a->WaitUntil([&] { return a->LastMinVersion("t") >= 2; }, kWait)) << a->Describe();
  EXPECT_TRUE(b->WaitUntil([&] { return b->LastMinVersion("t") >= 2; }, kWait)) << b->Describe();
  EXPECT_EQ(broker()->MinSubscriberTopicVersion("t"), 2);
  // Never above what the receiver itself had processed (its delta base).
  for (FakeSubscriber* s : {a, b, c}) {
    for (const auto& u : s->Updates("t")) {
      if (u.delta.is_delta && u.delta.__isset.min_subscriber_topic_version) {
        EXPECT_LE(u.delta.min_subscriber_topic_version, u.delta.from_version) << s->id();
      }
    }
  }
  // Only registrations that asked for it get the field.
  ASSERT_GT(d->UpdateCount("t"), 0u);
  for (const auto& u : d->Updates("t")) {
    EXPECT_FALSE(u.delta.__isset.min_subscriber_topic_version);
  }
}

TEST_F(StatestoreProtocolTest, SkippedAndFailedRepliesApplyNothing) {
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  // 's' has a publication queued but answers skipped=true, then errors; both
  // replies carry the publication, which must not be applied.
  FakeSubscriber* s = NewSubscriber("s", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->SetUpdateReply(UpdateReply::kSkip);
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForUpdates("t", 3, kWait)) << s->Describe();
  s->SetUpdateReply(UpdateReply::kError);
  const size_t n = s->UpdateCount("t");
  ASSERT_TRUE(s->WaitForUpdates("t", n + 3, kWait)) << s->Describe();
  const size_t m = o->UpdateCount("t");
  ASSERT_TRUE(o->WaitForUpdates("t", m + 1, kWait));
  EXPECT_FALSE(o->HasKey("t", "k")) << "publication in a skipped/error reply was applied";
  for (const auto& t : broker()->Topics()) {
    if (t.name == "t") EXPECT_EQ(t.last_version, 0);
  }
  // Neither advanced the subscriber's version: every update was full.
  for (const auto& u : s->Updates("t")) EXPECT_FALSE(u.delta.is_delta);
  // Neither is a failure.
  EXPECT_TRUE(IsRegistered("s"));
  EXPECT_EQ(broker()->Counters().subscribers_failed, 0);
  // Answered normally, the publication is applied once.
  s->SetUpdateReply(UpdateReply::kNormal);
  EXPECT_TRUE(o->WaitForKey("t", "k", kWait)) << o->Describe();
  EXPECT_TRUE(o->WaitForVersion("t", 1, kWait));
  for (const auto& t : broker()->Topics()) {
    if (t.name == "t") EXPECT_EQ(t.last_version, 1);
  }
}

TEST_F(StatestoreProtocolTest, FromVersionZeroForcesFullResend) {
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "v")});
  });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* s = NewSubscriber("s", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->WaitForKey("t", "k", kWait));
  size_t n = s->UpdateCount("t");
  ASSERT_TRUE(s->WaitForUpdates("t", n + 1, kWait));
  ASSERT_TRUE(s->Updates("t").back().delta.is_delta);
  n = s->UpdateCount("t");
  s->RequestFromVersion("t", 0);
  ASSERT_TRUE(s->WaitForUpdates("t", n + 2, kWait)) << s->Describe();
  const auto resent = s->Updates("t")[n + 1].delta;
  EXPECT_FALSE(resent.is_delta);
  EXPECT_TRUE(ContainsItem(resent, "k", false)) << KeysOf(resent);
  EXPECT_EQ(s->ChainErrors("t"), 0);
}

TEST_F(StatestoreProtocolTest, EveryWriteTakesAVersionAndRewritesMoveTheKey) {
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  FakeSubscriber* p = NewSubscriber("publisher", {TopicReg("t")}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("a", "1"), Item("b", "1"), Item("c", "1")});
  });
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(o->WaitForVersion("t", 3, kWait)) << o->Describe();
  auto find_update = [&](int64_t to) -> std::optional<TTopicDelta> {
    for (const auto& u : o->Updates("t")) {
      if (u.delta.to_version == to && !u.delta.topic_entries.empty()) return u.delta;
    }
    return std::nullopt;
  };
  auto keys = [](const TTopicDelta& d) {
    std::vector<std::string> out;
    for (const auto& i : d.topic_entries)
      out.push_back(i.key + "=" + i.value + (i.deleted ? "-" : ""));
    return out;
  };
  auto u3 = find_update(3);
  ASSERT_TRUE(u3.has_value());
  EXPECT_EQ(keys(*u3), (std::vector<std::string>{"a=1", "b=1", "c=1"}));  // version order

  p->Publish("t", {Item("a", "2")});
  ASSERT_TRUE(o->WaitForVersion("t", 4, kWait)) << o->Describe();
  auto u4 = find_update(4);
  ASSERT_TRUE(u4.has_value());
  EXPECT_TRUE(u4->is_delta);
  EXPECT_EQ(u4->from_version, 3);
  EXPECT_EQ(keys(*u4), (std::vector<std::string>{"a=2"}));

  p->Publish("t", {Tombstone("b")});
  ASSERT_TRUE(o->WaitForVersion("t", 5, kWait)) << o->Describe();
  auto u5 = find_update(5);
  ASSERT_TRUE(u5.has_value());
  ASSERT_EQ(u5->topic_entries.size(), 1u) << KeysOf(*u5);
  EXPECT_EQ(u5->topic_entries[0].key, "b");
  EXPECT_TRUE(u5->topic_entries[0].deleted);

  // The same key twice in one publication: two versions, one entry.
  p->Publish("t", {Item("a", "3"), Item("a", "4")});
  ASSERT_TRUE(o->WaitForVersion("t", 7, kWait)) << o->Describe();
  auto u7 = find_update(7);
  ASSERT_TRUE(u7.has_value());
  EXPECT_EQ(keys(*u7), (std::vector<std::string>{"a=4"}));

  // A newcomer: a full update in version order (c@3, a@7), no tombstone.
  FakeSubscriber* late = NewSubscriber("late", {TopicReg("t")});
  ASSERT_NE(late, nullptr);
  ASSERT_TRUE(late->WaitForUpdates("t", 1, kWait));
  const auto full = late->Updates("t")[0].delta;
  EXPECT_FALSE(full.is_delta);
  EXPECT_EQ(full.to_version, 7);
  EXPECT_EQ(keys(full), (std::vector<std::string>{"c=1", "a=4"}));
}

TEST_F(StatestoreProtocolTest, ReRegistrationRemovesTransientEntriesOfOldRegistration) {
  FakeSubscriber* p =
      NewSubscriber("publisher", {TopicReg("t", true)}, true,
                    [](FakeSubscriber* sub) { sub->Publish("t", {Item("tk", "v")}); });
  ASSERT_NE(p, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "tk", kWait)) << o->Describe();
  ASSERT_TRUE(p->RegisterOk());
  EXPECT_TRUE(o->WaitForKeyGone("t", "tk", kWait)) << o->Describe();
  EXPECT_EQ(CountRegistrations("publisher"), 1);
}

TEST_F(StatestoreProtocolTest, TransientEntryRewrittenByAnotherSurvivesWriterFailure) {
  FakeSubscriber* p1 = NewSubscriber("p1", {TopicReg("t", true)}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "1")});
  });
  ASSERT_NE(p1, nullptr);
  FakeSubscriber* o = NewSubscriber("observer", {TopicReg("t")});
  ASSERT_NE(o, nullptr);
  ASSERT_TRUE(o->WaitForKey("t", "k", kWait));
  FakeSubscriber* p2 = NewSubscriber("p2", {TopicReg("t", true)}, true, [](FakeSubscriber* sub) {
    sub->Publish("t", {Item("k", "2")});
  });
  ASSERT_NE(p2, nullptr);
  ASSERT_TRUE(o->WaitUntil([&] { return o->Entries("t")["k"] == "2"; }, kWait)) << o->Describe();

  p1->Stop();
  ASSERT_TRUE(Eventually([&] { return !IsRegistered("p1"); }, kWait));
  const size_t n = o->UpdateCount("t");
  ASSERT_TRUE(o->WaitForUpdates("t", n + 3, kWait));
  EXPECT_EQ(o->Entries("t")["k"], "2") << "p2's rewrite was removed with p1";

  p2->Stop();
  EXPECT_TRUE(o->WaitForKeyGone("t", "k", kWait)) << o->Describe();
}

TEST_F(StatestoreProtocolTest, MinVersionAdvancesWhenStragglerFails) {
  FakeSubscriber* c =
      NewSubscriber("straggler", {TopicReg("t", false, "", true)}, true,
                    [](FakeSubscriber* sub) { sub->SetUpdateReply(UpdateReply::kSkip); });
  ASSERT_NE(c, nullptr);
  FakeSubscriber* a =
      NewSubscriber("a", {TopicReg("t", false, "", true)}, true,
                    [](FakeSubscriber* sub) { sub->Publish("t", {Item("k", "v")}); });
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->WaitForVersion("t", 1, kWait));
  const size_t n = a->UpdateCount("t");
  ASSERT_TRUE(a->WaitForUpdates("t", n + 3, kWait));
  EXPECT_EQ(a->LastMinVersion("t"), 0);
  c->Stop();
  EXPECT_TRUE(a->WaitUntil([&] { return a->LastMinVersion("t") >= 1; }, kWait)) << a->Describe();
  EXPECT_EQ(broker()->MinSubscriberTopicVersion("t"), 1);
}
}  // namespace
}  // namespace ics::sstest
