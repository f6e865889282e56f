// Secure by default: plaintext ports bind loopback only unless the operator
// says otherwise; TLS ports may bind anything.
#include <gtest/gtest.h>

#include "StatestoreService.h"
#include "common/rpc/bind_policy.h"
#include "common/rpc/thrift_server.h"

namespace ics {
namespace {

TEST(BindPolicyTest, LoopbackNamesAndAddresses) {
  EXPECT_TRUE(IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackHost("127.1.2.3"));
  EXPECT_TRUE(IsLoopbackHost("::1"));
  EXPECT_TRUE(IsLoopbackHost("localhost"));
  EXPECT_FALSE(IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackHost("::"));
  EXPECT_FALSE(IsLoopbackHost(""));
  EXPECT_FALSE(IsLoopbackHost("10.1.2.3"));
  EXPECT_FALSE(IsLoopbackHost("no-such-host.invalid"));
}

TEST(BindPolicyTest, PlaintextRemoteNeedsTheExplicitFlag) {
  const Status refused = CheckBindAllowed("svc", "0.0.0.0", /*tls=*/false, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("--insecure_allow_plaintext_remote"), std::string::npos);
  EXPECT_FALSE(CheckBindAllowed("svc", "", false, false).ok());
  EXPECT_TRUE(CheckBindAllowed("svc", "0.0.0.0", /*tls=*/true, false).ok());
  EXPECT_TRUE(CheckBindAllowed("svc", "0.0.0.0", false, /*allow_plaintext_remote=*/true).ok());
  EXPECT_TRUE(CheckBindAllowed("svc", "127.0.0.1", false, false).ok());
  EXPECT_EQ(DefaultBindHost(false), "127.0.0.1");
  EXPECT_EQ(DefaultBindHost(true), "0.0.0.0");
}

TEST(BindPolicyTest, ServerDefaultsToLoopbackAndRefusesPlaintextWildcard) {
  ThriftServerOptions o;
  EXPECT_EQ(o.bind_host, "127.0.0.1");
  o.bind_host = "0.0.0.0";
  auto processor = std::make_shared<impala::StatestoreServiceProcessor>(nullptr);
  ThriftServer refused(processor, o);
  const Status s = refused.Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("plaintext"), std::string::npos) << s.message();
  o.security.allow_plaintext_remote = true;
  ThriftServer allowed(processor, o);
  EXPECT_TRUE(allowed.Start().ok());
  EXPECT_GT(allowed.port(), 0);
}

}  // namespace
}  // namespace ics
