// TLS on a ThriftServer and ThriftClient over loopback: the refusal matrix
// (plaintext vs TLS, missing or untrusted client certificate, wrong CA,
// protocol version), the peer identity handlers see, and that a stalled
// handshake neither wedges the server nor outlives its deadline.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>

#include <gtest/gtest.h>

#include "StatestoreService.h"
#include "common/rpc/peer.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/rpc/tls.h"
#include "tests/security/test_certs.h"
#include "tests/util/eventually.h"

namespace ics {
namespace {

using impala::StatestoreServiceClient;
using testing::TestCerts;

// Answers GetProtocolVersion and remembers who asked.
class PeerRecorder : public impala::StatestoreServiceIf {
 public:
  void RegisterSubscriber(impala::TRegisterSubscriberResponse& resp,
                          const impala::TRegisterSubscriberRequest&) override {
    resp.status.status_code = impala::TErrorCode::OK;
  }
  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest&) override {
    std::lock_guard<std::mutex> l(mu_);
    last_ = CurrentPeer();
    resp.status.status_code = impala::TErrorCode::OK;
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
  }
  void RequestTopicUpdate(impala::TRequestTopicUpdateResponse& resp,
                          const impala::TRequestTopicUpdateRequest&) override {
    resp.status.status_code = impala::TErrorCode::OK;
  }
  PeerInfo last() {
    std::lock_guard<std::mutex> l(mu_);
    return last_;
  }

 private:
  std::mutex mu_;
  PeerInfo last_;
};

std::shared_ptr<const TlsContext> Context(TlsOptions o) {
  auto c = TlsContext::Create(o);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? *c : nullptr;
}

TlsOptions ServerOptions(bool mtls) { return TestCerts::Get().Options("ca.pem", "server", mtls); }

// A client that trusts `ca` and presents `cert` (empty: none).
std::shared_ptr<const TlsContext> ClientContext(const std::string& ca, const std::string& cert) {
  return TestCerts::Get().Context(ca, cert);
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(TestCerts::Get().ok()) << "openssl failed"; }

  void StartServer(std::shared_ptr<const TlsContext> tls, int message_timeout_ms = 30000) {
    ThriftServerOptions o;
    o.name = "tls-test";
    o.security.tls = std::move(tls);
    o.message_timeout_ms = message_timeout_ms;
    recorder_ = std::make_shared<PeerRecorder>();
    server_ = std::make_unique<ThriftServer>(
        std::make_shared<impala::StatestoreServiceProcessor>(recorder_), o);
    ASSERT_TRUE(server_->Start().ok());
  }

  Status Ping(std::shared_ptr<const TlsContext> tls, const std::string& host = "127.0.0.1") {
    ThriftClientOptions o;
    o.tls = std::move(tls);
    o.recv_timeout_ms = o.send_timeout_ms = 5000;
    ThriftClient<StatestoreServiceClient> client(host, server_->port(), o);
    impala::TGetProtocolVersionResponse resp;
    return client.Call("GetProtocolVersion", [&](StatestoreServiceClient& c) {
      c.GetProtocolVersion(resp, impala::TGetProtocolVersionRequest());
    });
  }

  std::shared_ptr<PeerRecorder> recorder_;
  std::unique_ptr<ThriftServer> server_;
};

TEST_F(TlsTest, TlsClientIsServedAndSeesAnEncryptedPeerWithoutIdentity) {
  StartServer(Context(ServerOptions(false)));
  ASSERT_TRUE(Ping(ClientContext("ca.pem", "")).ok());
  const PeerInfo peer = recorder_->last();
  EXPECT_TRUE(peer.tls);
  EXPECT_EQ(peer.identity, "");
  EXPECT_NE(peer.address, "");
  // The certificate names localhost too.
  EXPECT_TRUE(Ping(ClientContext("ca.pem", ""), "localhost").ok());
}

TEST_F(TlsTest, PlaintextClientIsRefusedAndTheServerKeepsServing) {
  StartServer(Context(ServerOptions(false)));
  const Status s = Ping(nullptr);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Ping(ClientContext("ca.pem", "")).ok());
  // The server counts a failed handshake on its connection thread, which
  // may finish after the client has seen its side fail.
  EXPECT_TRUE(::ics::testing::Eventually(
      [&] { return server_->stats().tls_handshake_failures >= 1; }, std::chrono::seconds(10)))
      << server_->stats().tls_handshake_failures;
}

TEST_F(TlsTest, TlsClientToPlaintextServerFails) {
  StartServer(nullptr);
  EXPECT_FALSE(Ping(ClientContext("ca.pem", "")).ok());
  EXPECT_TRUE(Ping(nullptr).ok());
}

TEST_F(TlsTest, ClientThatTrustsAnotherCaRefusesTheServer) {
  StartServer(Context(ServerOptions(false)));
  const Status s = Ping(ClientContext("other-ca.pem", ""));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("certificate"), std::string::npos) << s.message();
}

TEST_F(TlsTest, MutualTlsRefusesClientsWithoutATrustedCertificate) {
  StartServer(Context(ServerOptions(true)));
  EXPECT_FALSE(Ping(ClientContext("ca.pem", "")).ok());       // no certificate
  EXPECT_FALSE(Ping(ClientContext("ca.pem", "other")).ok());  // signed by another CA
  // The server counts a failed handshake on its connection thread, which
  // may finish after the client has seen its side fail.
  EXPECT_TRUE(::ics::testing::Eventually(
      [&] { return server_->stats().tls_handshake_failures >= 2; }, std::chrono::seconds(10)))
      << server_->stats().tls_handshake_failures;
  ASSERT_TRUE(Ping(ClientContext("ca.pem", "client")).ok());
  const PeerInfo peer = recorder_->last();
  EXPECT_TRUE(peer.tls);
  EXPECT_EQ(peer.identity, "CN=ics-client");
  ASSERT_TRUE(Ping(ClientContext("ca.pem", "server")).ok());  // a daemon's own certificate
  EXPECT_EQ(recorder_->last().identity, "CN=ics-daemon");
}

TEST_F(TlsTest, MinimumVersionRefusesOlderProtocols) {
  TlsOptions o = ServerOptions(false);
  o.minimum_version = "tlsv1.3";
  StartServer(Context(o));
  const std::string base = "openssl s_client -connect 127.0.0.1:" +
                           std::to_string(server_->port()) + " -CAfile " +
                           TestCerts::Get().File("ca.pem") + " </dev/null >/dev/null 2>&1";
  EXPECT_NE(std::system((base + " -tls1_2").c_str()), 0);
  EXPECT_EQ(std::system((base + " -tls1_3").c_str()), 0);
}

TEST_F(TlsTest, BadFilesAreNamedInTheError) {
  const TestCerts& certs = TestCerts::Get();
  TlsOptions o = ServerOptions(false);
  o.private_key_file = certs.File("client.key");  // not server.pem's key
  auto c = TlsContext::Create(o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("client.key"), std::string::npos) << c.status().message();
  EXPECT_NE(c.status().message().find("does not match"), std::string::npos) << c.status().message();
  o = ServerOptions(false);
  o.certificate_file = certs.File("missing.pem");
  c = TlsContext::Create(o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("missing.pem"), std::string::npos);
  o = ServerOptions(false);
  o.minimum_version = "sslv3";
  EXPECT_FALSE(TlsContext::Create(o).ok());
  o = ServerOptions(true);
  o.ca_certificate_file.clear();
  EXPECT_FALSE(TlsContext::Create(o).ok());
}

TEST_F(TlsTest, ClientOnlyContextCannotServe) {
  ThriftServerOptions o;
  o.security.tls = ClientContext("ca.pem", "");
  ThriftServer server(std::make_shared<impala::StatestoreServiceProcessor>(
                          std::make_shared<PeerRecorder>()),
                      o);
  EXPECT_FALSE(server.Start().ok());
}

// A peer that connects and sends half a ClientHello (or nothing) is closed
// once the handshake deadline passes; others are served meanwhile.
TEST_F(TlsTest, StalledHandshakeIsClosedAfterItsDeadline) {
  StartServer(Context(ServerOptions(false)), /*message_timeout_ms=*/600);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server_->port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const unsigned char partial_hello[] = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01};
  ASSERT_EQ(write(fd, partial_hello, sizeof(partial_hello)),
            static_cast<ssize_t>(sizeof(partial_hello)));
  EXPECT_TRUE(Ping(ClientContext("ca.pem", "")).ok());
  timeval tv{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  const auto start = std::chrono::steady_clock::now();
  char buf[64];
  EXPECT_LE(read(fd, buf, sizeof(buf)), 0);  // closed by the server
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  close(fd);
  // The server counts a failed handshake on its connection thread, which
  // may finish after the client has seen its side fail.
  EXPECT_TRUE(::ics::testing::Eventually(
      [&] { return server_->stats().tls_handshake_failures >= 1; }, std::chrono::seconds(10)))
      << server_->stats().tls_handshake_failures;
}

}  // namespace
}  // namespace ics
