// HTTPS for the debug web server: a server with a certificate answers
// clients that trust its CA and nobody else, refuses plaintext without
// harm to other connections, ends stalled handshakes, keeps every HTTP
// behaviour (Host check, 503 past the cap), and names the bad file when its
// TLS settings do not work. Also the bind policy for plaintext servers.
#include <chrono>
#include <fstream>
#include <thread>

#include <gflags/gflags.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/web/web_flags.h"
#include "common/web/web_server.h"
#include "tests/security/test_certs.h"
#include "tests/util/eventually.h"
#include "tests/web/http_client.h"

namespace ics::web {
namespace {

using Json = nlohmann::ordered_json;
using Millis = std::chrono::milliseconds;
using testing::TestCerts;

const TestCerts& Certs() {
  const TestCerts& c = TestCerts::Get();
  EXPECT_TRUE(c.ok()) << "scripts/make_certs.sh failed";
  return c;
}

WebServerOptions HttpsOptions() {
  WebServerOptions o;
  o.daemon_name = "tlsd";
  o.certificate_file = Certs().File("server.pem");
  o.private_key_file = Certs().File("server.key");
  return o;
}

webtest::HttpRequestOptions TrustingCa(const std::string& ca = "ca.pem") {
  webtest::HttpRequestOptions o;
  o.tls_ca_file = Certs().File(ca);
  return o;
}

// A metric's value from /metrics?json, read without a socket.
double Metric(WebServer* server, const std::string& name) {
  const auto doc = Json::parse(server->Dispatch("GET", "/metrics?json", "").body);
  for (const auto& f : doc["metrics"]) {
    if (f["name"] == name) return f["series"][0]["value"].get<double>();
  }
  return -1;
}

class WebTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<WebServer>(HttpsOptions(), &registry_);
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
  }

  metrics::MetricRegistry registry_;
  std::unique_ptr<WebServer> server_;
  int port_ = 0;
};

TEST_F(WebTlsTest, ServesClientsThatTrustTheCa) {
  auto r = webtest::HttpGet(port_, "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "OK\n");
  // JSON pages and the Prometheus text too; the name check also accepts
  // "localhost" (in the certificate's subjectAltName).
  auto m = webtest::HttpGet(port_, "/metrics", TrustingCa());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_NE(m->body.find("webserver_tls_handshake_failures_total"), std::string::npos);
  webtest::HttpRequestOptions head = TrustingCa();
  head.method = "HEAD";
  auto h = webtest::HttpGet(port_, "/", head);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->status, 200);
  EXPECT_EQ(Metric(server_.get(), "webserver_tls_handshake_failures_total"), 0);
}

TEST_F(WebTlsTest, PlaintextRequestIsRefusedAndTheServerKeepsServing) {
  auto plain = webtest::HttpGet(port_, "/healthz");
  EXPECT_FALSE(plain.ok()) << "plaintext HTTP answered by an HTTPS port: " << plain->status;
  auto raw = webtest::SendRaw(port_, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  EXPECT_EQ(raw->find("HTTP/1."), std::string::npos) << *raw;
  EXPECT_TRUE(::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(Metric(server_.get(), "webserver_tls_handshake_failures_total"), 2); },
      Millis(5000)));
  auto r = webtest::HttpGet(port_, "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(Metric(server_.get(), "webserver_open_connections"), 0); }, Millis(5000)));
}

TEST_F(WebTlsTest, ClientTrustingAnotherCaRefusesTheServer) {
  auto r = webtest::HttpGet(port_, "/healthz", TrustingCa("other-ca.pem"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("handshake"), std::string::npos) << r.status().ToString();
  // And the server still serves those who trust it.
  auto ok = webtest::HttpGet(port_, "/healthz", TrustingCa());
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->status, 200);
}

TEST_F(WebTlsTest, ForeignHostHeaderStillGets421) {
  webtest::HttpRequestOptions o = TrustingCa();
  o.headers = {{"Host", "attacker.example:8080"}};
  auto r = webtest::HttpGet(port_, "/metrics", o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 421);
  EXPECT_NE(r->body.find("attacker.example"), std::string::npos) << r->body;
  o.headers = {{"Host", "localhost:1"}};
  auto fine = webtest::HttpGet(port_, "/healthz", o);
  ASSERT_TRUE(fine.ok()) << fine.status().ToString();
  EXPECT_EQ(fine->status, 200);
}

TEST(WebTlsLifecycleTest, StalledHandshakeIsClosedAfterTheRequestTimeout) {
  metrics::MetricRegistry reg;
  WebServerOptions o = HttpsOptions();
  o.request_timeout_ms = 300;
  WebServer server(o, &reg);
  ASSERT_TRUE(server.Start().ok());
  const auto start = std::chrono::steady_clock::now();
  // Connects and sends nothing (no ClientHello): the server gives up.
  auto out = webtest::SendRaw(server.port(), "", Millis(20000), /*half_close=*/false);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_LT(waited, Millis(10000));
  EXPECT_GE(waited, Millis(250));
  // (The deadline closes the socket before the handshake's handler runs.)
  EXPECT_TRUE(::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(Metric(&server, "webserver_tls_handshake_failures_total"), 1); },
      Millis(5000)));
  auto r = webtest::HttpGet(server.port(), "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
}

TEST(WebTlsLifecycleTest, ConnectionsOverTheCapGet503OverHttps) {
  metrics::MetricRegistry reg;
  WebServerOptions o = HttpsOptions();
  o.max_connections = 1;
  o.request_timeout_ms = 60000;
  WebServer server(o, &reg);
  ASSERT_TRUE(server.Start().ok());
  // A client that never starts its handshake holds the only slot.
  std::thread holder([&] {
    (void)webtest::SendRaw(server.port(), "", Millis(30000), /*half_close=*/false);
  });
  const bool held = ::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(Metric(&server, "webserver_open_connections"), 1); }, Millis(10000));
  EXPECT_TRUE(held);
  if (held) {
    auto r = webtest::HttpGet(server.port(), "/healthz", TrustingCa());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->status, 503);
  }
  server.Stop();  // also ends the holder's connection, without waiting 60 s
  holder.join();
  EXPECT_EQ(Metric(&server, "webserver_open_connections"), 0);
}

// Start()'s error for options `o`, which must fail.
std::string StartError(const WebServerOptions& o) {
  metrics::MetricRegistry reg;
  WebServer server(o, &reg);
  const Status s = server.Start();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument) << s.ToString();
  return s.message();
}

TEST(WebTlsConfigTest, BadSettingsNameTheFile) {
  const std::string cert = Certs().File("server.pem");
  const std::string key = Certs().File("server.key");
  WebServerOptions o;
  o.certificate_file = cert;
  std::string e = StartError(o);
  EXPECT_NE(e.find(cert), std::string::npos) << e;
  EXPECT_NE(e.find("--webserver_private_key_file"), std::string::npos) << e;

  o = {};
  o.private_key_file = key;
  e = StartError(o);
  EXPECT_NE(e.find(key), std::string::npos) << e;
  EXPECT_NE(e.find("--webserver_certificate_file"), std::string::npos) << e;

  o = HttpsOptions();
  o.certificate_file = Certs().File("missing.pem");
  e = StartError(o);
  EXPECT_NE(e.find("missing.pem"), std::string::npos) << e;
  EXPECT_NE(e.find("No such file"), std::string::npos) << e;

  o = HttpsOptions();
  o.private_key_file = Certs().File("missing.key");
  e = StartError(o);
  EXPECT_NE(e.find("missing.key"), std::string::npos) << e;

  // Not PEM.
  const std::string junk = Certs().File("junk.pem");
  std::ofstream(junk) << "not a certificate\n";
  o = HttpsOptions();
  o.certificate_file = junk;
  e = StartError(o);
  EXPECT_NE(e.find("cannot load the certificate " + junk), std::string::npos) << e;
  o = HttpsOptions();
  o.private_key_file = junk;
  e = StartError(o);
  EXPECT_NE(e.find("cannot load the private key " + junk), std::string::npos) << e;

  // A key of another certificate.
  o = HttpsOptions();
  o.private_key_file = Certs().File("catalogd.key");
  e = StartError(o);
  EXPECT_NE(e.find("does not match"), std::string::npos) << e;
  EXPECT_NE(e.find("catalogd.key"), std::string::npos) << e;
  EXPECT_NE(e.find(cert), std::string::npos) << e;

  o = HttpsOptions();
  o.tls_minimum_version = "sslv3";
  e = StartError(o);
  EXPECT_NE(e.find("sslv3"), std::string::npos) << e;
  o = HttpsOptions();
  o.tls_cipher_list = "NO-SUCH-CIPHER";
  e = StartError(o);
  EXPECT_NE(e.find("NO-SUCH-CIPHER"), std::string::npos) << e;
}

TEST(WebTlsConfigTest, MinimumVersionTls13StillServes) {
  metrics::MetricRegistry reg;
  WebServerOptions o = HttpsOptions();
  o.tls_minimum_version = "tlsv1.3";
  WebServer server(o, &reg);
  ASSERT_TRUE(server.Start().ok());
  auto r = webtest::HttpGet(server.port(), "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
}

// The bind policy of the Thrift ports (common/rpc/bind_policy.h): plaintext
// only on loopback unless explicitly allowed; HTTPS anywhere.
TEST(WebTlsConfigTest, PlaintextNeedsLoopbackOrAnExplicitChoice) {
  metrics::MetricRegistry reg;
  WebServerOptions o;
  o.bind_address = "0.0.0.0";
  const std::string e = StartError(o);
  EXPECT_NE(e.find("--insecure_allow_plaintext_remote"), std::string::npos) << e;
  EXPECT_NE(e.find("--webserver_certificate_file"), std::string::npos) << e;

  o.allow_plaintext_remote = true;
  WebServer allowed(o, &reg);
  EXPECT_TRUE(allowed.Start().ok());

  WebServerOptions tls = HttpsOptions();
  tls.bind_address = "0.0.0.0";
  WebServer https(tls, &reg);
  ASSERT_TRUE(https.Start().ok());
  auto r = webtest::HttpGet(https.port(), "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
}

TEST(WebTlsFlagsTest, FlagsFillTheOptionsAndBadFilesFailTheStart) {
  gflags::FlagSaver saver;
  const std::string cert = Certs().File("server.pem");
  const std::string key = Certs().File("server.key");
  gflags::SetCommandLineOption("webserver_port", "0");
  gflags::SetCommandLineOption("webserver_certificate_file", cert.c_str());
  gflags::SetCommandLineOption("webserver_private_key_file", key.c_str());
  const WebServerOptions o = WebServerOptionsFromFlags("flagd");
  EXPECT_EQ(o.certificate_file, cert);
  EXPECT_EQ(o.private_key_file, key);
  // No transport-security flags in this binary: the fixed defaults.
  EXPECT_EQ(o.tls_minimum_version, "tlsv1.2");
  EXPECT_EQ(o.tls_cipher_list, "");
  EXPECT_FALSE(o.allow_plaintext_remote);

  metrics::MetricRegistry reg;
  auto web = StartWebServerFromFlags("flagd", &reg, {});
  ASSERT_TRUE(web.ok()) << web.status().ToString();
  auto r = webtest::HttpGet((*web)->port(), "/healthz", TrustingCa());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  (*web)->Stop();

  const std::string missing = Certs().File("nowhere.pem");
  gflags::SetCommandLineOption("webserver_certificate_file", missing.c_str());
  web = StartWebServerFromFlags("flagd", &reg, {});
  ASSERT_FALSE(web.ok());
  EXPECT_NE(web.status().message().find(missing), std::string::npos) << web.status().ToString();
  EXPECT_NE(web.status().message().find("flagd web server"), std::string::npos)
      << web.status().ToString();
}

}  // namespace
}  // namespace ics::web
