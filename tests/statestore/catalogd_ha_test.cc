// catalogd HA in the statestore: the designation rules (CatalogdHa) alone,
// and the broker with fake subscribers built from the Impala IDL only:
// registration replies and UpdateCatalogd calls carry the designation, the
// role passes to the standby when the active stops answering, and only the
// active catalogd may write the catalog topic.
#include <gtest/gtest.h>

#include "statestore/catalogd_ha.h"
#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using statestore::CatalogdHa;
using statestore::CatalogdHaOptions;
using Type = impala::TStatestoreSubscriberType;
using TimePoint = CatalogdHa::TimePoint;

constexpr char kCatalog[] = "catalog-update";

impala::TCatalogRegistration Reg(int port, int64_t started, bool force = false) {
  impala::TCatalogRegistration r;
  r.protocol = impala::CatalogServiceVersion::V2;
  r.address.hostname = "127.0.0.1";
  r.address.port = port;
  r.__set_enable_catalogd_ha(true);
  r.__set_force_catalogd_active(force);
  r.__set_registration_time(started);
  return r;
}

TEST(CatalogdHaRules, FirstDesignationWaitsForTheSecondCandidate) {
  CatalogdHa ha(CatalogdHaOptions{Millis(1000)});
  const TimePoint t0 = TimePoint() + Millis(5000);
  ha.AddCandidate("b", "rb", Reg(2, 20), t0);
  EXPECT_FALSE(ha.Evaluate(t0 + Millis(10)));
  EXPECT_FALSE(ha.active().has_value());
  // The second one arrives: the one that started first wins at once.
  ha.AddCandidate("a", "ra", Reg(1, 10), t0 + Millis(100));
  ASSERT_TRUE(ha.Evaluate(t0 + Millis(100)));
  EXPECT_EQ(ha.active()->subscriber_id, "a");
  EXPECT_EQ(ha.active()->version, 1);
  EXPECT_FALSE(ha.Evaluate(t0 + Millis(200)));  // stable
}

TEST(CatalogdHaRules, LoneCandidateIsDesignatedAfterTheWait) {
  CatalogdHa ha(CatalogdHaOptions{Millis(1000)});
  const TimePoint t0 = TimePoint() + Millis(5000);
  ha.AddCandidate("a", "ra", Reg(1, 10), t0);
  EXPECT_FALSE(ha.Evaluate(t0 + Millis(999)));
  ASSERT_TRUE(ha.Evaluate(t0 + Millis(1000)));
  EXPECT_EQ(ha.active()->subscriber_id, "a");
}

TEST(CatalogdHaRules, FailoverAndNoFlipFlop) {
  CatalogdHa ha(CatalogdHaOptions{Millis(0)});
  const TimePoint t = TimePoint() + Millis(5000);
  ha.AddCandidate("a", "ra", Reg(1, 10), t);
  ha.AddCandidate("b", "rb", Reg(2, 20), t);
  ASSERT_TRUE(ha.Evaluate(t));
  ASSERT_EQ(ha.active()->subscriber_id, "a");
  ha.MarkFailed("a");
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
  EXPECT_EQ(ha.active()->version, 2);
  // "a" answers again (or registers again): "b" keeps the role.
  ha.MarkHealthy("a");
  EXPECT_FALSE(ha.Evaluate(t));
  ha.AddCandidate("a", "ra2", Reg(1, 30), t);
  EXPECT_FALSE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
  // The active going away hands the role back.
  ha.RemoveCandidate("b", "rb");
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "a");
  EXPECT_EQ(ha.active()->registration.registration_time, 30);
}

TEST(CatalogdHaRules, ForcedCandidatePreemptsAndStaleRemovalIsIgnored) {
  CatalogdHa ha(CatalogdHaOptions{Millis(0)});
  const TimePoint t = TimePoint() + Millis(5000);
  ha.AddCandidate("a", "ra", Reg(1, 10), t);
  ha.AddCandidate("b", "rb", Reg(2, 20), t);
  ASSERT_TRUE(ha.Evaluate(t));
  ASSERT_EQ(ha.active()->subscriber_id, "a");
  ha.AddCandidate("b", "rb2", Reg(2, 40, /*force=*/true), t);
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
  // The end of b's earlier registration does not remove the new one.
  ha.RemoveCandidate("b", "rb");
  EXPECT_TRUE(ha.IsCandidateId("b"));
  EXPECT_FALSE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
  // Nobody healthy: the designation stays where it is.
  ha.MarkFailed("a");
  ha.MarkFailed("b");
  EXPECT_FALSE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
}

// Designation versions grow across activations of either statestore: the
// activation version in the high bits, the designations of that activation
// in the low ones. Becoming the standby forgets the designation; the next
// activation names the peer's choice (its heartbeats) at once, above every
// earlier version, and a recovered former choice does not take it back.
TEST(CatalogdHaRules, VersionsContinueAcrossActivations) {
  CatalogdHa ha(CatalogdHaOptions{Millis(60000)});  // a wait that must not apply
  const TimePoint t = TimePoint() + Millis(5000);
  ha.BeginActivation(100);
  ha.AddCandidate("a", "ra", Reg(1, 10), t);
  ha.AddCandidate("b", "rb", Reg(2, 20), t);
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "a");
  const int64_t first = ha.active()->version;
  EXPECT_EQ(first, (int64_t{100} << CatalogdHa::kSeqBits) | 1);
  ha.MarkFailed("a");
  ASSERT_TRUE(ha.Evaluate(t));
  const int64_t second = ha.active()->version;
  EXPECT_EQ(second, first + 1);

  ha.EndActivation();  // standby: designates nobody
  EXPECT_FALSE(ha.active().has_value());
  ha.FollowPeer(5, "127.0.0.1", 2);   // the peer designated "b"...
  ha.FollowPeer(3, "127.0.0.1", 1);   // ...an older heartbeat is ignored
  EXPECT_EQ(ha.followed_version(), 5);
  ha.MarkHealthy("a");
  ha.BeginActivation(200);
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->subscriber_id, "b");
  EXPECT_EQ(ha.active()->version, (int64_t{200} << CatalogdHa::kSeqBits) | 1);
  EXPECT_GT(ha.active()->version, second);
  EXPECT_FALSE(ha.Evaluate(t));  // stable: "a" does not take it back
  EXPECT_EQ(ha.changes(), 3);

  // An activation version out of range (a hostile peer's) is clamped: the
  // designation version stays positive and still grows.
  ha.BeginActivation(INT64_MAX);
  ASSERT_TRUE(ha.Evaluate(t));
  EXPECT_EQ(ha.active()->version, (CatalogdHa::kMaxActivation << CatalogdHa::kSeqBits) | 1);
  EXPECT_GT(ha.active()->version, (int64_t{200} << CatalogdHa::kSeqBits) | 1);
}

class CatalogdHaBroker : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    statestore::StatestoreOptions o = FastOptions();
    o.catalogd_ha.preemption_wait = Millis(5000);
    o.active_catalogd_probe_interval_ms = 50;
    o.active_catalogd_max_missed_heartbeats = 2;
    return o;
  }
};

FakeSubscriber* StartHaSubscriber(std::vector<std::unique_ptr<FakeSubscriber>>* subs, int port,
                                  const std::string& id, std::optional<Type::type> type,
                                  std::optional<impala::TCatalogRegistration> reg,
                                  std::vector<impala::TTopicRegistration> topics) {
  FakeSubscriberOptions o;
  o.id = id;
  o.subscriber_type = type;
  o.topics = std::move(topics);
  o.statestore_port = port;
  o.subscribe_catalogd_change = true;
  o.catalogd_registration = std::move(reg);
  subs->push_back(std::make_unique<FakeSubscriber>(o));
  FakeSubscriber* sub = subs->back().get();
  std::string error;
  if (!sub->Start(&error) || !sub->RegisterOk(&error)) {
    ADD_FAILURE() << id << ": " << error;
    return nullptr;
  }
  return sub;
}

// The last designation a fake was told by UpdateCatalogd (0: none).
// The designation's count within its statestore's activation (the low bits
// of its version, statestore/catalogd_ha.h).
int64_t Seq(int64_t version) { return version & ((int64_t{1} << CatalogdHa::kSeqBits) - 1); }

int64_t LastCatalogdVersion(const FakeSubscriber& s, int* port) {
  int64_t v = 0;
  for (const auto& u : s.CatalogdUpdates()) {
    if (!u.statestored_role && u.catalogd_version > v && u.catalogd) {
      v = u.catalogd_version;
      *port = u.catalogd->address.port;
    }
  }
  return v;
}

// A coordinator (subscribed with `coord_topic`) and two HA catalogds,
// catalogd-a then catalogd-b, whose CatalogService ports are made-up numbers
// (26001, 26002: the broker only passes them on). False, with a test
// failure, if one did not start.
struct HaTrio {
  FakeSubscriber* coord = nullptr;
  FakeSubscriber* a = nullptr;
  FakeSubscriber* b = nullptr;
};
bool StartTrio(std::vector<std::unique_ptr<FakeSubscriber>>* subs, int port,
               impala::TTopicRegistration coord_topic, HaTrio* out) {
  out->coord = StartHaSubscriber(subs, port, "coordinator", Type::COORDINATOR, std::nullopt,
                                 {std::move(coord_topic)});
  out->a = StartHaSubscriber(subs, port, "catalogd-a", Type::CATALOGD, Reg(26001, 100),
                             {TopicReg(kCatalog, false, "!")});
  out->b = StartHaSubscriber(subs, port, "catalogd-b", Type::CATALOGD, Reg(26002, 200),
                             {TopicReg(kCatalog, false, "!")});
  return out->coord != nullptr && out->a != nullptr && out->b != nullptr;
}

TEST_F(CatalogdHaBroker, DesignationIsAnnouncedAndFailsOver) {
  HaTrio trio;
  ASSERT_TRUE(StartTrio(&subs_, port_, TopicReg(kCatalog, true), &trio));
  FakeSubscriber* coord = trio.coord;
  FakeSubscriber* a = trio.a;
  FakeSubscriber* b = trio.b;
  // Two candidates end the wait: catalogd-a (started first) is active, and
  // everybody who asked (the catalogds too) is told with UpdateCatalogd.
  int port = 0;
  ASSERT_TRUE(coord->WaitUntil([&] { return Seq(LastCatalogdVersion(*coord, &port)) == 1; }, kWait));
  EXPECT_EQ(port, 26001);
  ASSERT_TRUE(b->WaitUntil([&] { return Seq(LastCatalogdVersion(*b, &port)) == 1; }, kWait));
  ASSERT_TRUE(a->WaitUntil([&] { return Seq(LastCatalogdVersion(*a, &port)) == 1; }, kWait));
  EXPECT_EQ(broker()->active_catalogd()->subscriber_id, "catalogd-a");

  // A later registration gets the designation in its reply.
  FakeSubscriber* late = StartHaSubscriber(&subs_, port_, "late", Type::COORDINATOR, std::nullopt,
                                           {TopicReg(kCatalog, true)});
  ASSERT_NE(late, nullptr);
  const impala::TRegisterSubscriberResponse reply = late->LastRegistration();
  ASSERT_TRUE(reply.__isset.catalogd_registration);
  EXPECT_EQ(reply.catalogd_registration.address.port, 26001);
  EXPECT_EQ(Seq(reply.catalogd_version), 1);
  EXPECT_TRUE(reply.statestore_is_active);

  // Only the active catalogd writes the catalog topic.
  b->Publish(kCatalog, {Item("1:TABLE:db.t", "from-standby")});
  ASSERT_TRUE(Eventually([&] { return broker()->Counters().publications_refused >= 1; }, kWait));
  a->Publish(kCatalog, {Item("1:TABLE:db.t", "from-active")});
  ASSERT_TRUE(coord->WaitForKey(kCatalog, "1:TABLE:db.t", kWait));
  EXPECT_EQ(coord->Entries(kCatalog).at("1:TABLE:db.t"), "from-active");

  // The active stops answering (refused connections, like kill -9): after
  // two missed probes the role passes to catalogd-b, version 2.
  const auto stopped_at = Clock::now();
  a->Stop();
  ASSERT_TRUE(coord->WaitUntil([&] { return Seq(LastCatalogdVersion(*coord, &port)) == 2; }, kWait));
  EXPECT_EQ(port, 26002);
  std::cout << "statestore failover: active catalogd stopped -> UpdateCatalogd at a coordinator "
            << static_cast<int>(SecondsSince(stopped_at) * 1000) << " ms\n";
  ASSERT_TRUE(b->WaitUntil([&] { return Seq(LastCatalogdVersion(*b, &port)) == 2; }, kWait));
  EXPECT_EQ(broker()->Counters().catalogd_designations, 2);
  b->Publish(kCatalog, {Item("1:TABLE:db.t", "from-new-active")});
  ASSERT_TRUE(coord->WaitUntil(
      [&] {
        auto e = coord->Entries(kCatalog);
        return e.count("1:TABLE:db.t") != 0 && e.at("1:TABLE:db.t") == "from-new-active";
      },
      kWait));
}

// The topic's minimum (what SYNC_DDL waits on) counts the designated active
// catalogd and not the standby, as Impala's statestore does: a standby that
// acknowledges no update does not hold it back, and once the active is gone
// and the other designated, the minimum follows the new active at once (not
// only when the dead one's registration fails).
TEST_F(CatalogdHaBroker, MinimumCountsTheActiveCatalogdOnly) {
  HaTrio trio;
  ASSERT_TRUE(StartTrio(&subs_, port_, TopicReg(kCatalog, false, "", true), &trio));
  FakeSubscriber* coord = trio.coord;
  FakeSubscriber* a = trio.a;
  FakeSubscriber* b = trio.b;
  int port = 0;
  ASSERT_TRUE(coord->WaitUntil([&] { return Seq(LastCatalogdVersion(*coord, &port)) == 1; }, kWait));
  ASSERT_EQ(port, 26001);
  b->SetUpdateReply(UpdateReply::kSkip);  // the standby acknowledges nothing
  a->Publish(kCatalog, {Item("1:TABLE:db.t", "v1")});
  ASSERT_TRUE(coord->WaitForKey(kCatalog, "1:TABLE:db.t", kWait));
  ASSERT_TRUE(Eventually([&] { return broker()->MinSubscriberTopicVersion(kCatalog) >= 1; }, kWait))
      << "the minimum is held back by the standby catalogd";
  EXPECT_TRUE(coord->WaitUntil([&] { return coord->LastMinVersion(kCatalog) >= 1; }, kWait));

  // The active goes; catalogd-b is designated and writes.
  a->Stop();
  ASSERT_TRUE(coord->WaitUntil([&] { return Seq(LastCatalogdVersion(*coord, &port)) == 2; }, kWait));
  b->SetUpdateReply(UpdateReply::kNormal);
  b->Publish(kCatalog, {Item("1:TABLE:db.u", "v2")});
  ASSERT_TRUE(coord->WaitForKey(kCatalog, "1:TABLE:db.u", kWait));
  const int64_t v = coord->TopicVersion(kCatalog);
  ASSERT_TRUE(Eventually([&] { return broker()->MinSubscriberTopicVersion(kCatalog) >= v; }, kWait));
}

class StandbyBroker : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    statestore::StatestoreOptions o = FastOptions();
    o.start_as_standby = true;
    o.catalogd_ha.preemption_wait = Millis(0);
    return o;
  }
};

// statestored HA, the broker's side: a standby registers and heartbeats but
// sends no updates and designates no catalogd; once active it tells every
// subscriber with UpdateStatestoredRole (carrying the designation) and
// updates flow.
TEST_F(StandbyBroker, ActivationIsAnnouncedWithUpdateStatestoredRole) {
  FakeSubscriber* coord = StartHaSubscriber(&subs_, port_, "coordinator", Type::COORDINATOR,
                                            std::nullopt, {TopicReg(kCatalog, true)});
  FakeSubscriber* cat = StartHaSubscriber(&subs_, port_, "catalogd-a", Type::CATALOGD,
                                          Reg(26001, 100), {TopicReg(kCatalog, false, "!")});
  ASSERT_NE(coord, nullptr);
  ASSERT_NE(cat, nullptr);
  EXPECT_FALSE(coord->LastRegistration().statestore_is_active);
  EXPECT_FALSE(coord->LastRegistration().__isset.catalogd_registration);
  ASSERT_TRUE(coord->WaitForHeartbeats(3, kWait));
  EXPECT_EQ(coord->UpdateCalls(), 0);
  EXPECT_FALSE(broker()->active_catalogd().has_value());

  broker()->FollowPeerCatalogd(0, "127.0.0.1", 26001);
  broker()->SetActive(true, 12345);
  auto role_update = [&]() -> std::optional<RecordedCatalogdUpdate> {
    for (const auto& u : coord->CatalogdUpdates()) {
      if (u.statestored_role) return u;
    }
    return std::nullopt;
  };
  ASSERT_TRUE(coord->WaitUntil([&] { return role_update().has_value(); }, kWait));
  const RecordedCatalogdUpdate u = *role_update();
  ASSERT_TRUE(u.catalogd.has_value());
  EXPECT_EQ(u.catalogd->address.port, 26001);
  EXPECT_EQ(u.catalogd_version, (int64_t{12345} << CatalogdHa::kSeqBits) | 1);
  cat->Publish(kCatalog, {Item("1:TABLE:db.t", "v")});
  ASSERT_TRUE(coord->WaitForKey(kCatalog, "1:TABLE:db.t", kWait));
  EXPECT_EQ(broker()->Counters().activations, 1);
  EXPECT_GE(broker()->Counters().role_updates_sent, 2);

  // Standby again (the peer took over): it forgets its designation, and a
  // registration with it gets none, not a stale one.
  broker()->SetActive(false, 0);
  EXPECT_FALSE(broker()->active_catalogd().has_value());
  FakeSubscriber* late = StartHaSubscriber(&subs_, port_, "late", Type::COORDINATOR,
                                           std::nullopt, {TopicReg(kCatalog, true)});
  ASSERT_NE(late, nullptr);
  EXPECT_FALSE(late->LastRegistration().__isset.catalogd_registration);
  EXPECT_FALSE(late->LastRegistration().__isset.catalogd_version);
  // Active again, later: its designation is above every earlier one.
  broker()->SetActive(true, 23456);
  ASSERT_TRUE(broker()->active_catalogd().has_value());
  EXPECT_EQ(broker()->active_catalogd()->version, (int64_t{23456} << CatalogdHa::kSeqBits) | 1);
}

TEST_F(CatalogdHaBroker, InvalidCatalogdAddressIsRefusedAtRegistration) {
  impala::TCatalogRegistration bad = Reg(0, 1);
  FakeSubscriberOptions o;
  o.id = "catalogd-bad";
  o.subscriber_type = Type::CATALOGD;
  o.topics = {TopicReg(kCatalog, false, "!")};
  o.statestore_port = port_;
  o.catalogd_registration = bad;
  subs_.push_back(std::make_unique<FakeSubscriber>(o));
  ASSERT_TRUE(subs_.back()->Start());
  const impala::TRegisterSubscriberResponse r = subs_.back()->Register();
  EXPECT_NE(r.status.status_code, impala::TErrorCode::OK);
  ASSERT_FALSE(r.status.error_msgs.empty());
  EXPECT_NE(r.status.error_msgs[0].find("invalid port 0"), std::string::npos)
      << r.status.error_msgs[0];
  EXPECT_FALSE(broker()->active_catalogd().has_value());
}

}  // namespace
}  // namespace ics::sstest
