// Publications pushed with RequestTopicUpdate field 5: written at once and
// fanned out, all or none, under the same ownership rules as a reply's
// publications, only for the identity that registered, and transient
// entries still die with their registration.
#include <gtest/gtest.h>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using Type = impala::TStatestoreSubscriberType;

constexpr char kTopic[] = "pushed";
constexpr char kCatalog[] = "catalog-update";

impala::TTopicDelta Delta(const std::string& topic, std::vector<impala::TTopicItem> items) {
  impala::TTopicDelta d;
  d.topic_name = topic;
  d.is_delta = true;
  d.topic_entries = std::move(items);
  return d;
}

impala::TRequestTopicUpdateRequest Push(const impala::TUniqueId& id,
                                        std::vector<impala::TTopicDelta> deltas,
                                        const std::string& token = "") {
  impala::TRequestTopicUpdateRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.registration_id = id;
  req.__set_topic_updates(std::move(deltas));
  if (!token.empty()) req.__set_auth_token(token);
  return req;
}

int64_t TopicVersion(statestore::Statestore* ss, const std::string& topic) {
  for (const auto& t : ss->Topics()) {
    if (t.name == topic) return t.last_version;
  }
  return -1;
}

TEST_F(BrokerTest, PushedEntriesReachEverySubscriberAndReturnTheirVersion) {
  FakeSubscriber* pub = NewSubscriber("pub", {TopicReg(kTopic)});
  FakeSubscriber* r1 = NewSubscriber("r1", {TopicReg(kTopic)});
  FakeSubscriber* r2 = NewSubscriber("r2", {TopicReg(kTopic, false, "keep/")});
  ASSERT_NE(pub, nullptr);
  ASSERT_NE(r1, nullptr);
  ASSERT_NE(r2, nullptr);
  std::map<std::string, int64_t> versions;
  Status s = broker()->RequestTopicUpdate(
      Push(*pub->registration_id(), {Delta(kTopic, {Item("keep/a", "1"), Item("drop/b", "2")})}),
      "", &versions);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(versions.count(kTopic), 1u);
  EXPECT_EQ(versions[kTopic], TopicVersion(broker(), kTopic));
  EXPECT_GE(versions[kTopic], 2);
  EXPECT_TRUE(r1->WaitForKey(kTopic, "keep/a", kWait));
  EXPECT_TRUE(r1->WaitForKey(kTopic, "drop/b", kWait));
  EXPECT_TRUE(r2->WaitForKey(kTopic, "keep/a", kWait));
  EXPECT_FALSE(r2->HasKey(kTopic, "drop/b"));  // its filter still applies
  // The publisher gets its own entries back like everyone else.
  EXPECT_TRUE(pub->WaitForKey(kTopic, "keep/a", kWait));

  // Deletions and clears are pushed the same way.
  ASSERT_TRUE(broker()
                  ->RequestTopicUpdate(Push(*pub->registration_id(),
                                            {Delta(kTopic, {Tombstone("drop/b")})}))
                  .ok());
  EXPECT_TRUE(r1->WaitForKeyGone(kTopic, "drop/b", kWait));
  impala::TTopicDelta clear = Delta(kTopic, {Item("after-clear", "x")});
  clear.__set_clear_topic_entries(true);
  ASSERT_TRUE(broker()->RequestTopicUpdate(Push(*pub->registration_id(), {clear})).ok());
  EXPECT_TRUE(r1->WaitForKey(kTopic, "after-clear", kWait));
  EXPECT_TRUE(r1->WaitForKeyGone(kTopic, "keep/a", kWait));
}

TEST_F(BrokerTest, APushIsAllOrNothing) {
  FakeSubscriber* pub = NewSubscriber("pub", {TopicReg(kTopic)});
  FakeSubscriber* reader = NewSubscriber("reader", {TopicReg(kTopic)});
  ASSERT_NE(pub, nullptr);
  ASSERT_NE(reader, nullptr);
  const impala::TUniqueId id = *pub->registration_id();
  const int64_t before = TopicVersion(broker(), kTopic);

  Status s = broker()->RequestTopicUpdate(
      Push(id, {Delta(kTopic, {Item("a", "1")}), Delta("no-such-topic", {Item("b", "2")})}));
  EXPECT_TRUE(s.Is(ErrorCode::kNotFound)) << s.ToString();
  impala::TTopicDelta rebase = Delta(kTopic, {Item("a", "1")});
  rebase.__set_from_version(0);
  s = broker()->RequestTopicUpdate(Push(id, {rebase}));
  EXPECT_TRUE(s.Is(ErrorCode::kInvalidArgument)) << s.ToString();
  EXPECT_NE(s.message().find("from_version"), std::string::npos) << s.ToString();
  // A coordinator may not write the catalog topic, and that refusal takes
  // the other delta of the call with it.
  FakeSubscriber* coord = NewSubscriber("coord", {TopicReg(kCatalog), TopicReg(kTopic)});
  ASSERT_NE(coord, nullptr);
  s = broker()->RequestTopicUpdate(Push(*coord->registration_id(),
                                        {Delta(kTopic, {Item("a", "1")}),
                                         Delta(kCatalog, {Item("TABLE:db.t", "forged")})}));
  EXPECT_TRUE(s.Is(ErrorCode::kInvalidArgument)) << s.ToString();
  EXPECT_EQ(broker()->Counters().publications_refused, 1);
  impala::TUniqueId unknown = id;
  unknown.lo ^= 1;
  EXPECT_TRUE(broker()->RequestTopicUpdate(Push(unknown, {Delta(kTopic, {Item("a", "1")})}))
                  .Is(ErrorCode::kNotFound));

  EXPECT_EQ(TopicVersion(broker(), kTopic), before);
  const size_t seen = reader->UpdateCount(kTopic);
  ASSERT_TRUE(reader->WaitUntil([&] { return reader->UpdateCount(kTopic) > seen + 2; }, kWait));
  EXPECT_FALSE(reader->HasKey(kTopic, "a"));
  EXPECT_FALSE(reader->HasKey(kCatalog, "TABLE:db.t"));
}

TEST_F(BrokerTest, TransientPushedEntriesDieWithTheirRegistration) {
  FakeSubscriber* pub = NewSubscriber("pub", {TopicReg(kTopic, /*transient=*/true)});
  FakeSubscriber* reader = NewSubscriber("reader", {TopicReg(kTopic)});
  ASSERT_NE(pub, nullptr);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(broker()
                  ->RequestTopicUpdate(Push(*pub->registration_id(),
                                            {Delta(kTopic, {Item("member", "here")})}))
                  .ok());
  ASSERT_TRUE(reader->WaitForKey(kTopic, "member", kWait));
  pub->Stop();  // fails its heartbeats and is unregistered
  EXPECT_TRUE(reader->WaitForKeyGone(kTopic, "member", kWait));
}

impala::TRegisterSubscriberRequest Registration(const std::string& id, Type::type type,
                                                const std::string& token = "") {
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = id;
  req.subscriber_location.hostname = "127.0.0.1";
  req.subscriber_location.port = 1;  // nothing listens: only the registration counts
  req.__set_subscriber_type(type);
  impala::TTopicRegistration t;
  t.topic_name = kTopic;
  req.topic_registrations.push_back(t);
  t.topic_name = kCatalog;
  req.topic_registrations.push_back(t);
  if (!token.empty()) req.__set_auth_token(token);
  return req;
}

TEST(PublishIdentityTest, OnlyTheRegisteringIdentityMayPush) {
  constexpr char kCoordSecret[] = "fedcba9876543210-coord";
  constexpr char kOtherSecret[] = "0123456789abcdef-other";
  statestore::StatestoreOptions o = FastOptions();
  auto tokens = statestore::ParseSubscriberTokens(std::string("coord ") + kCoordSecret +
                                                  "\nother " + kOtherSecret + "\n");
  ASSERT_TRUE(tokens.ok()) << tokens.status().ToString();
  o.tokens = *tokens;
  statestore::Statestore ss(o);
  ASSERT_TRUE(ss.Start().ok());
  auto by_token = ss.RegisterSubscriber(Registration("t", Type::COORDINATOR, kCoordSecret), "");
  ASSERT_TRUE(by_token.ok()) << by_token.status().ToString();
  auto by_cert = ss.RegisterSubscriber(Registration("c", Type::COORDINATOR), "CN=coord-a");
  ASSERT_TRUE(by_cert.ok()) << by_cert.status().ToString();
  const std::vector<impala::TTopicDelta> one = {Delta(kTopic, {Item("k", "v")})};

  EXPECT_FALSE(ss.RequestTopicUpdate(Push(*by_token, one)).ok());  // no token
  EXPECT_FALSE(ss.RequestTopicUpdate(Push(*by_token, one, kOtherSecret)).ok());
  EXPECT_FALSE(ss.RequestTopicUpdate(Push(*by_token, one, kCoordSecret), "CN=coord-a").ok());
  EXPECT_FALSE(ss.RequestTopicUpdate(Push(*by_cert, one), "CN=coord-b").ok());
  EXPECT_FALSE(ss.RequestTopicUpdate(Push(*by_cert, one, kCoordSecret)).ok());
  EXPECT_EQ(TopicVersion(&ss, kTopic), 0);
  EXPECT_TRUE(ss.RequestTopicUpdate(Push(*by_token, one, kCoordSecret)).ok());
  EXPECT_TRUE(ss.RequestTopicUpdate(Push(*by_cert, one), "CN=coord-a").ok());
  EXPECT_EQ(TopicVersion(&ss, kTopic), 2);
  ss.Shutdown();
}

TEST(PublishIdentityTest, AStandbyTakesNoPushes) {
  statestore::StatestoreOptions o = FastOptions();
  o.start_as_standby = true;
  statestore::Statestore ss(o);
  ASSERT_TRUE(ss.Start().ok());
  auto cat = ss.RegisterSubscriber(Registration("cat", Type::CATALOGD), "");
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  const std::vector<impala::TTopicDelta> one = {Delta(kCatalog, {Item("TABLE:db.t", "v")})};
  Status s = ss.RequestTopicUpdate(Push(*cat, one));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("standby"), std::string::npos) << s.ToString();
  ss.SetActive(true, 1);
  EXPECT_TRUE(ss.RequestTopicUpdate(Push(*cat, one)).ok());
  EXPECT_EQ(TopicVersion(&ss, kCatalog), 1);
  ss.Shutdown();
}

}  // namespace
}  // namespace ics::sstest
