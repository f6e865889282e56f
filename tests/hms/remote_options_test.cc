// The remote metastore URI: thrift://host:port[?key=value&...].
#include <gtest/gtest.h>

#include "catalogd/metastore/hms_remote_options.h"

namespace ics::catalog {
namespace {

TEST(RemoteMetastoreUriTest, HostAndPort) {
  auto o = ParseThriftMetastoreUri("thrift://metastore.example:9999");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->host, "metastore.example");
  EXPECT_EQ(o->port, 9999);
  EXPECT_EQ(o->Address(), "metastore.example:9999");
  EXPECT_EQ(o->pool_size, RemoteMetastoreOptions{}.pool_size);  // defaults kept
}

TEST(RemoteMetastoreUriTest, DefaultPortTrailingSlashAndIpv6) {
  auto o = ParseThriftMetastoreUri("thrift://10.0.0.1/");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->host, "10.0.0.1");
  EXPECT_EQ(o->port, kDefaultHmsPort);
  auto v6 = ParseThriftMetastoreUri("thrift://[::1]:9083");
  ASSERT_TRUE(v6.ok()) << v6.status().ToString();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->Address(), "[::1]:9083");
}

TEST(RemoteMetastoreUriTest, Parameters) {
  auto o = ParseThriftMetastoreUri(
      "thrift://h:1?pool_size=3&connect_timeout_ms=100&rpc_timeout_ms=2000&pool_wait_ms=0"
      "&retries=0&retry_backoff_ms=5");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->pool_size, 3);
  EXPECT_EQ(o->connect_timeout_ms, 100);
  EXPECT_EQ(o->rpc_timeout_ms, 2000);
  EXPECT_EQ(o->pool_wait_ms, 0);
  EXPECT_EQ(o->retries, 0);
  EXPECT_EQ(o->retry_backoff_ms, 5);
}

TEST(RemoteMetastoreUriTest, SchemeDetection) {
  EXPECT_TRUE(IsThriftMetastoreUri("thrift://h:1"));
  EXPECT_FALSE(IsThriftMetastoreUri("sqlite:/tmp/x.db"));
  EXPECT_FALSE(IsThriftMetastoreUri("thrift:/h:1"));
}

TEST(RemoteMetastoreUriTest, BadUrisNameTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"http://h:1", "scheme"},
      {"thrift://", "host is empty"},
      {"thrift://:9083", "host is empty"},
      {"thrift://h:", "empty port"},
      {"thrift://h:0", "out of range"},
      {"thrift://h:65536", "out of range"},
      {"thrift://h:12x", "not an integer"},
      {"thrift://h:1/db", "path"},
      {"thrift://u@h:1", "user info"},
      {"thrift://[::1", "unterminated"},
      {"thrift://[::1]x", "after ']'"},
      {"thrift://h a:1", "invalid character"},
      {"thrift://h:1?pool_size=0", "out of range"},
      {"thrift://h:1?pool_size", "no value"},
      {"thrift://h:1?colour=blue", "unknown metastore URI parameter 'colour'"},
      {"thrift://h:1?retries=-1", "out of range"},
      {"thrift://h:1?rpc_timeout_ms=", "not an integer"},
  };
  for (const auto& [uri, why] : cases) {
    auto o = ParseThriftMetastoreUri(uri);
    ASSERT_FALSE(o.ok()) << uri;
    EXPECT_EQ(o.status().code(), ErrorCode::kInvalidArgument) << uri;
    EXPECT_NE(o.status().message().find(why), std::string::npos)
        << uri << ": " << o.status().ToString();
    EXPECT_NE(o.status().message().find(uri), std::string::npos) << o.status().ToString();
  }
}

}  // namespace
}  // namespace ics::catalog
