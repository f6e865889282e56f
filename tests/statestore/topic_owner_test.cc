// Topic ownership: only catalogd writes catalog-update; a foreign
// publisher's entries and clear_topic_entries are dropped and counted; a
// registration cannot be taken over by another identity.
#include <gtest/gtest.h>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using statestore::TopicWriterPolicy;
using Type = impala::TStatestoreSubscriberType;

constexpr char kCatalog[] = "catalog-update";

TEST_F(BrokerTest, ForeignPublisherCannotWriteOrClearTheCatalogTopic) {
  FakeSubscriber* catalogd =
      NewSubscriber("catalogd", {TopicReg(kCatalog)}, true, {}, Type::CATALOGD);
  FakeSubscriber* intruder = NewSubscriber("intruder", {TopicReg(kCatalog)});
  FakeSubscriber* reader = NewSubscriber("reader", {TopicReg(kCatalog)});
  ASSERT_NE(catalogd, nullptr);
  ASSERT_NE(intruder, nullptr);
  ASSERT_NE(reader, nullptr);
  catalogd->Publish(kCatalog, {Item("TABLE:db.t", "real")});
  ASSERT_TRUE(reader->WaitUntil([&] { return reader->HasKey(kCatalog, "TABLE:db.t"); }, kWait));

  intruder->Publish(kCatalog, {Item("TABLE:db.evil", "forged")}, /*clear_topic_entries=*/true);
  ASSERT_TRUE(Eventually([&] { return broker()->Counters().publications_refused >= 1; }, kWait));
  // Later updates still carry catalogd's entry and never the forged one.
  const size_t seen = reader->UpdateCount(kCatalog);
  ASSERT_TRUE(reader->WaitUntil([&] { return reader->UpdateCount(kCatalog) > seen + 2; }, kWait));
  EXPECT_TRUE(reader->HasKey(kCatalog, "TABLE:db.t"));
  EXPECT_FALSE(reader->HasKey(kCatalog, "TABLE:db.evil"));
  // Other topics stay open to every writer.
  FakeSubscriber* other = NewSubscriber("other", {TopicReg("open-topic")});
  FakeSubscriber* other_reader = NewSubscriber("other-reader", {TopicReg("open-topic")});
  ASSERT_NE(other, nullptr);
  ASSERT_NE(other_reader, nullptr);
  other->Publish("open-topic", {Item("k", "v")});
  EXPECT_TRUE(other_reader->WaitUntil([&] { return other_reader->HasKey("open-topic", "k"); },
                                      kWait));
}

impala::TRegisterSubscriberRequest Request(const std::string& id, int port, Type::type type) {
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = id;
  req.subscriber_location.hostname = "127.0.0.1";
  req.subscriber_location.port = port;
  req.__set_subscriber_type(type);
  return req;
}

TEST(TopicOwnerTest, RegistrationsAreBoundToTheirIdentity) {
  statestore::StatestoreOptions o = FastOptions();
  o.writers.catalogd_identity = "CN=catalogd";
  statestore::Statestore ss(o);
  ASSERT_TRUE(ss.Start().ok());
  // Nothing listens on port 1: updates fail, registration state is what counts.
  EXPECT_TRUE(ss.RegisterSubscriber(Request("coord", 1, Type::COORDINATOR), "CN=coord-a").ok());
  const auto takeover = ss.RegisterSubscriber(Request("coord", 1, Type::COORDINATOR), "CN=b");
  EXPECT_FALSE(takeover.ok());
  EXPECT_TRUE(ss.RegisterSubscriber(Request("coord", 1, Type::COORDINATOR), "CN=coord-a").ok());
  const auto fake_catalogd = ss.RegisterSubscriber(Request("cat", 1, Type::CATALOGD), "CN=coord-a");
  ASSERT_FALSE(fake_catalogd.ok());
  EXPECT_NE(fake_catalogd.status().message().find("catalogd identity"), std::string::npos);
  EXPECT_TRUE(ss.RegisterSubscriber(Request("cat", 1, Type::CATALOGD), "CN=catalogd").ok());
  EXPECT_EQ(ss.Counters().registrations_refused, 2);
  ss.Shutdown();
}

TEST(TopicOwnerTest, PolicyAndRuleParsing) {
  TopicWriterPolicy p;
  EXPECT_TRUE(p.MayWrite(kCatalog, Type::CATALOGD, ""));
  EXPECT_FALSE(p.MayWrite(kCatalog, Type::COORDINATOR, ""));
  EXPECT_TRUE(p.MayWrite("anything", Type::COORDINATOR, ""));
  p.catalogd_identity = "CN=catalogd,O=ex";
  EXPECT_FALSE(p.MayWrite(kCatalog, Type::CATALOGD, "CN=other"));
  EXPECT_TRUE(p.MayWrite(kCatalog, Type::CATALOGD, "CN=catalogd,O=ex"));

  auto rules = statestore::ParseTopicWriters("admission=CN=admissiond,O=ex;;impala-membership=CN=m");
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  EXPECT_EQ(rules->at("admission"), "CN=admissiond,O=ex");
  EXPECT_EQ(rules->at("impala-membership"), "CN=m");
  p.writers = *rules;
  EXPECT_TRUE(p.MayWrite("admission", Type::COORDINATOR, "CN=admissiond,O=ex"));
  EXPECT_FALSE(p.MayWrite("admission", Type::COORDINATOR, "CN=m"));
  EXPECT_FALSE(statestore::ParseTopicWriters("noequals").ok());
  EXPECT_FALSE(statestore::ParseTopicWriters("=CN=x").ok());
  EXPECT_FALSE(statestore::ParseTopicWriters("t=").ok());
  EXPECT_FALSE(statestore::ParseTopicWriters("t=a;t=b").ok());
  EXPECT_FALSE(statestore::ParseTopicWriters("catalog-update=CN=x").ok());
}

}  // namespace
}  // namespace ics::sstest
