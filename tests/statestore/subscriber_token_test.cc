// Token identities (statestore/subscriber_tokens.h): parsing the table,
// identifying registrations, refusing missing or unknown tokens, a token
// name as the catalogd identity, and the subscriber library presenting its
// token over the wire.
#include <gtest/gtest.h>

#include "common/rpc/auth_token.h"
#include "statestore/statestore_server.h"
#include "statestore/subscriber.h"
#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

using statestore::ParseSubscriberTokens;
using statestore::SubscriberTokens;
using Type = impala::TStatestoreSubscriberType;

constexpr char kCatSecret[] = "0123456789abcdef-catalogd";
constexpr char kCoordSecret[] = "fedcba9876543210-coord";

SubscriberTokens Table() {
  auto t = ParseSubscriberTokens(std::string("# name secret\n\ncatalogd ") + kCatSecret +
                                 "\n  coord\t" + kCoordSecret + "  \r\n");
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : SubscriberTokens{};
}

TEST(SubscriberTokenTest, TableParsing) {
  const SubscriberTokens t = Table();
  ASSERT_EQ(t.entries.size(), 2u);
  EXPECT_EQ(t.entries[0].name, "catalogd");
  EXPECT_EQ(t.entries[1].secret, kCoordSecret);
  EXPECT_TRUE(ParseSubscriberTokens("").ok());
  for (const char* bad : {"catalogd short", "bad/name 0123456789abcdef", "a 0123456789abcdef x",
                          "a 0123456789abcdef\na 0123456789abcdeg",
                          "a 0123456789abcdef\nb 0123456789abcdef", "lonely"}) {
    auto r = ParseSubscriberTokens(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) EXPECT_NE(r.status().message().find("line"), std::string::npos) << bad;
  }
  // No secret is echoed in an error.
  auto dup = ParseSubscriberTokens("a 0123456789abcdef\nb 0123456789abcdef");
  EXPECT_EQ(dup.status().message().find("0123456789abcdef"), std::string::npos);
  EXPECT_FALSE(ValidAuthToken("short"));
  EXPECT_FALSE(ValidAuthToken("0123456789 abcdef"));
  EXPECT_TRUE(ValidAuthToken(kCatSecret));
}

TEST(SubscriberTokenTest, IdentifyPrefersCertificatesAndRefusesUnknownTokens) {
  const SubscriberTokens t = Table();
  EXPECT_EQ(*t.Identify("s", "CN=x", ""), "CN=x");
  EXPECT_EQ(*t.Identify("s", "", kCoordSecret), "token:coord");
  EXPECT_FALSE(t.Identify("s", "", "").ok());
  EXPECT_FALSE(t.Identify("s", "", "0123456789abcdef-catalogX").ok());
  // Without a table, tokens are ignored.
  EXPECT_EQ(*SubscriberTokens{}.Identify("s", "", kCatSecret), "");
}

impala::TRegisterSubscriberRequest Request(const std::string& id, Type::type type,
                                           const std::string& token) {
  impala::TRegisterSubscriberRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.subscriber_id = id;
  req.subscriber_location.hostname = "127.0.0.1";
  req.subscriber_location.port = 1;  // nothing listens: registration state is what counts
  req.__set_subscriber_type(type);
  if (!token.empty()) req.__set_auth_token(token);
  return req;
}

TEST(SubscriberTokenTest, TokenNamesAreIdentitiesForOwnershipAndTakeover) {
  statestore::StatestoreOptions o = FastOptions();
  o.tokens = Table();
  o.writers.catalogd_identity = "token:catalogd";
  statestore::Statestore ss(o);
  ASSERT_TRUE(ss.Start().ok());
  EXPECT_FALSE(ss.RegisterSubscriber(Request("anon", Type::COORDINATOR, ""), "").ok());
  EXPECT_FALSE(ss.RegisterSubscriber(Request("cat", Type::CATALOGD, kCoordSecret), "").ok());
  EXPECT_TRUE(ss.RegisterSubscriber(Request("cat", Type::CATALOGD, kCatSecret), "").ok());
  EXPECT_TRUE(ss.RegisterSubscriber(Request("c1", Type::COORDINATOR, kCoordSecret), "").ok());
  // The coordinator's id cannot be taken over by the holder of another token.
  EXPECT_FALSE(ss.RegisterSubscriber(Request("c1", Type::COORDINATOR, kCatSecret), "").ok());
  EXPECT_EQ(ss.Counters().registrations_refused, 3);
  ss.Shutdown();
}

TEST(SubscriberTokenTest, TheSubscriberLibraryPresentsItsToken) {
  statestore::StatestoreServerOptions so;
  so.bind_host = "127.0.0.1";
  so.port = 0;
  so.statestore = FastOptions();
  so.statestore.tokens = Table();
  statestore::StatestoreServer server(so);
  ASSERT_TRUE(server.Start().ok());
  auto subscriber = [&](const std::string& id, const std::string& token) {
    statestore::StatestoreSubscriberOptions o;
    o.subscriber_id = id;
    o.statestore_port = server.port();
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.advertised_host = "127.0.0.1";
    o.security.statestore_auth_token = token;
    return std::make_unique<statestore::StatestoreSubscriber>(o);
  };
  auto good = subscriber("good", kCoordSecret);
  ASSERT_TRUE(good->Start().ok());
  EXPECT_TRUE(good->WaitForRegistration(std::chrono::seconds(10)).ok());
  auto bad = subscriber("bad", "0123456789abcdef-wrong");
  (void)bad->Start();  // may fail at once or keep retrying: never registered
  EXPECT_FALSE(bad->WaitForRegistration(std::chrono::milliseconds(1000)).ok());
  EXPECT_GE(server.statestore()->Counters().registrations_refused, 1);
  bad->Stop();
  good->Stop();
  server.Stop();
}

}  // namespace
}  // namespace ics::sstest
