// ThriftServer against hostile peers over loopback: container and string
// bombs answered with an error (memory untouched), slow writers cut off by
// the request deadline, idle connection floods evicted, a full server
// refusing clearly, and an ordinary client served after each of them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "StatestoreService.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "tests/hardening/raw_socket.h"

namespace ics {
namespace {

using impala::StatestoreServiceClient;
using Clock = std::chrono::steady_clock;

class Handler : public impala::StatestoreServiceNull {
 public:
  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest&) override {
    resp.status.status_code = impala::TErrorCode::OK;
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
  }
};

std::unique_ptr<ThriftServer> StartServer(ThriftServerOptions o) {
  o.name = "hardening-server";
  o.bind_host = "127.0.0.1";
  auto server = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreServiceProcessor>(std::make_shared<Handler>()), o);
  EXPECT_TRUE(server->Start().ok());
  return server;
}

Status Ping(int port) {
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", port);
  impala::TGetProtocolVersionResponse resp;
  impala::TGetProtocolVersionRequest req;
  return client.Call("GetProtocolVersion",
                     [&](StatestoreServiceClient& c) { c.GetProtocolVersion(resp, req); });
}

std::string Be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// A RegisterSubscriber call whose request struct declares, at field 3
// (topic_registrations, a list of structs), 2^30-1 elements, then ends.
std::string ContainerBomb() {
  std::string m = Be32(0x80010001u) + Be32(18) + "RegisterSubscriber" + Be32(7);
  m += std::string("\x0c\x00\x01", 3);                 // arg 1: struct
  m += std::string("\x0f\x00\x03", 3) + "\x0c" + Be32(0x3fffffffu);  // list<struct>
  return m;
}

int64_t RssBytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

TEST(ThriftHardeningTest, ContainerBombIsAnsweredWithAnErrorAndTheServerKeepsServing) {
  auto server = StartServer({});
  const int fd = hostile::ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(hostile::SendAll(fd, ContainerBomb()));
  const std::string reply = hostile::ReadUntilClosed(fd);
  close(fd);
  // A T_EXCEPTION reply for seqid 7 that names the limit.
  ASSERT_GE(reply.size(), 8u);
  EXPECT_EQ(static_cast<uint8_t>(reply[3]), 3);  // T_EXCEPTION
  EXPECT_NE(reply.find("rejected the request"), std::string::npos) << reply;
  EXPECT_NE(reply.find("list of 1073741823"), std::string::npos) << reply;
  EXPECT_EQ(server->stats().requests_rejected, 1);
  EXPECT_TRUE(Ping(server->port()).ok());
}

TEST(ThriftHardeningTest, StringBombAllocatesOnlyWhatArrives) {
  ThriftServerOptions o;
  o.message_timeout_ms = 500;
  auto server = StartServer(o);
  const int64_t rss_before = RssBytes();
  const int fd = hostile::ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  // subscriber_id (field 2, a string) declared 200 MiB; 1 KiB follows.
  std::string m = Be32(0x80010001u) + Be32(18) + "RegisterSubscriber" + Be32(1);
  m += std::string("\x0c\x00\x01", 3) + std::string("\x0b\x00\x02", 3) + Be32(200u << 20);
  m += std::string(1024, 'x');
  ASSERT_TRUE(hostile::SendAll(fd, m));
  const auto start = Clock::now();
  hostile::ReadUntilClosed(fd);  // closed by the request deadline
  const auto waited = Clock::now() - start;
  close(fd);
  EXPECT_LT(waited, std::chrono::seconds(5));
  EXPECT_LT(RssBytes() - rss_before, 64ll << 20);
  EXPECT_EQ(server->stats().timeouts, 1);
  EXPECT_TRUE(Ping(server->port()).ok());
}

TEST(ThriftHardeningTest, SlowWriterIsCutOffByTheRequestDeadline) {
  ThriftServerOptions o;
  o.message_timeout_ms = 600;
  auto server = StartServer(o);
  const int fd = hostile::ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  // One byte of a valid request every 100 ms: each read succeeds, the whole
  // request never completes.
  const std::string header = Be32(0x80010001u) + Be32(18) + "GetProtocolVersion";
  const auto start = Clock::now();
  bool closed = false;
  for (char c : header) {
    if (send(fd, &c, 1, MSG_NOSIGNAL) != 1) {
      closed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (!closed) hostile::ReadUntilClosed(fd);
  close(fd);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(server->stats().timeouts, 1);
  EXPECT_TRUE(Ping(server->port()).ok());
}

TEST(ThriftHardeningTest, IdleConnectionFloodIsEvictedForRealClients) {
  ThriftServerOptions o;
  o.max_connections = 8;
  o.min_idle_ms_to_evict = 100;
  auto server = StartServer(o);
  // 40 clients that each made one call and then hold their connection idle
  // (connections that never send a byte are held back by the kernel:
  // Thrift's listener uses TCP_DEFER_ACCEPT).
  std::vector<std::unique_ptr<ThriftClient<StatestoreServiceClient>>> idle;
  for (int i = 0; i < 40; ++i) {
    idle.push_back(std::make_unique<ThriftClient<StatestoreServiceClient>>("127.0.0.1",
                                                                         server->port()));
    impala::TGetProtocolVersionResponse resp;
    (void)idle.back()->Call("GetProtocolVersion", [&](StatestoreServiceClient& c) {
      c.GetProtocolVersion(resp, impala::TGetProtocolVersionRequest());
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(Ping(server->port()).ok()) << i;
  const ThriftServerStats st = server->stats();
  EXPECT_GT(st.connections_evicted, 0) << "accepted " << st.connections_accepted << " refused "
                                       << st.connections_refused << " active "
                                       << st.connections_active << " timeouts " << st.timeouts;
  EXPECT_LE(st.connections_active, 8);
}

TEST(ThriftHardeningTest, FullServerRefusesWithAClearError) {
  ThriftServerOptions o;
  o.max_connections = 2;
  o.message_timeout_ms = 5000;
  auto server = StartServer(o);
  // Two connections in the middle of a request: busy, not evictable.
  std::vector<int> busy;
  for (int i = 0; i < 2; ++i) {
    const int fd = hostile::ConnectLoopback(server->port());
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(hostile::SendAll(fd, Be32(0x80010001u)));
    busy.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Status s = Ping(server->port());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("busy"), std::string::npos) << s.ToString();
  EXPECT_EQ(server->stats().connections_refused, 1);
  for (int fd : busy) close(fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(Ping(server->port()).ok());
}

TEST(ThriftHardeningTest, IdleConnectionsAreClosedAfterTheIdleTimeout) {
  ThriftServerOptions o;
  o.idle_timeout_ms = 300;
  auto server = StartServer(o);
  const int fd = hostile::ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  const auto start = Clock::now();
  hostile::ReadUntilClosed(fd);
  close(fd);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(server->stats().timeouts, 1);
}

TEST(ThriftHardeningTest, StopJoinsConnectionsInTheMiddleOfARequest) {
  auto server = StartServer({});
  const int fd = hostile::ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(hostile::SendAll(fd, Be32(0x80010001u)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto start = Clock::now();
  server->Stop();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  close(fd);
}

}  // namespace
}  // namespace ics
