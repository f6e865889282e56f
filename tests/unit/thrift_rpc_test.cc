// ThriftServer / ThriftClient over loopback: port 0, bind errors, bad and
// oversized input, timeouts, long-lived connections, clean stop.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "StatestoreService.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"

namespace ics {
namespace {

using impala::StatestoreServiceClient;

class EchoHandler : public impala::StatestoreServiceIf {
 public:
  void RegisterSubscriber(impala::TRegisterSubscriberResponse& resp,
                          const impala::TRegisterSubscriberRequest& req) override {
    if (req.subscriber_id == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(700));
    resp.status.status_code = impala::TErrorCode::OK;
    resp.__set_protocol_version(req.protocol_version);
  }
  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest& req) override {
    resp.status.status_code = impala::TErrorCode::OK;
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
  }
  void RequestTopicUpdate(impala::TRequestTopicUpdateResponse& resp,
                          const impala::TRequestTopicUpdateRequest& req) override {
    resp.status.status_code = impala::TErrorCode::OK;
  }
};

std::unique_ptr<ThriftServer> StartServer(int64_t max_bytes = 1 << 20) {
  ThriftServerOptions opts;
  opts.name = "test-server";
  opts.bind_host = "127.0.0.1";
  opts.max_message_bytes = max_bytes;
  auto server = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreServiceProcessor>(std::make_shared<EchoHandler>()), opts);
  EXPECT_TRUE(server->Start().ok());
  return server;
}

Status Ping(ThriftClient<StatestoreServiceClient>* client) {
  impala::TGetProtocolVersionResponse resp;
  impala::TGetProtocolVersionRequest req;
  Status s = client->Call("GetProtocolVersion",
                          [&](StatestoreServiceClient& c) { c.GetProtocolVersion(resp, req); });
  if (s.ok() && resp.protocol_version != impala::StatestoreServiceVersion::V2) {
    return Status::Internal("wrong protocol version");
  }
  return s;
}

void SendRaw(int port, const std::string& bytes) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  char buf[256];
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  // The server answers garbage by closing the connection (read returns 0).
  EXPECT_LE(read(fd, buf, sizeof(buf)), 0);
  close(fd);
}

TEST(ThriftRpcTest, PortZeroPicksAFreePortAndServes) {
  auto server = StartServer();
  ASSERT_GT(server->port(), 0);
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port());
  EXPECT_TRUE(Ping(&client).ok());
  EXPECT_TRUE(Ping(&client).ok());
}

TEST(ThriftRpcTest, PortInUseIsAClearError) {
  auto server = StartServer();
  ThriftServerOptions opts;
  opts.bind_host = "127.0.0.1";
  opts.port = server->port();
  ThriftServer second(std::make_shared<impala::StatestoreServiceProcessor>(
                          std::make_shared<EchoHandler>()),
                      opts);
  Status s = second.Start();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kNetworkError);
  EXPECT_NE(s.message().find(std::to_string(server->port())), std::string::npos);
}

TEST(ThriftRpcTest, GarbageClosesOnlyThatConnection) {
  auto server = StartServer();
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port());
  ASSERT_TRUE(Ping(&client).ok());
  SendRaw(server->port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  SendRaw(server->port(), std::string("\x80\x01\x00\x01\x7f\xff\xff\xff", 8));
  EXPECT_TRUE(Ping(&client).ok());  // the existing connection is unaffected
  ThriftClient<StatestoreServiceClient> fresh("127.0.0.1", server->port());
  EXPECT_TRUE(Ping(&fresh).ok());
}

TEST(ThriftRpcTest, OversizedRequestIsRejected) {
  auto server = StartServer(/*max_bytes=*/64 << 10);
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port());
  impala::TRegisterSubscriberRequest req;
  req.subscriber_id = std::string(1 << 20, 'x');
  impala::TRegisterSubscriberResponse resp;
  Status s = client.Call("RegisterSubscriber",
                         [&](StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
  EXPECT_FALSE(s.ok());
  // The client reconnects and the server keeps serving.
  Status again = Ping(&client);
  EXPECT_TRUE(again.ok()) << s.ToString() << " then " << again.ToString();
}

TEST(ThriftRpcTest, ManyMessagesOnOneConnectionExceedingTheCapInTotal) {
  auto server = StartServer(/*max_bytes=*/64 << 10);
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port());
  impala::TRegisterSubscriberRequest req;
  req.subscriber_id = std::string(10 << 10, 'y');
  for (int i = 0; i < 40; ++i) {  // 400 KiB in total over one connection
    impala::TRegisterSubscriberResponse resp;
    Status s = client.Call("RegisterSubscriber",
                           [&](StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
    ASSERT_TRUE(s.ok()) << "message " << i << ": " << s.ToString();
  }
}

TEST(ThriftRpcTest, LongLivedConnectionCarriesMoreThanThriftsDefaultMessageCap) {
  // Thrift counts bytes read against a per-transport "max message size"
  // that some transports never reset between messages; a long-lived
  // connection (statestore <-> subscriber) must not die after 100 MB.
  auto server = StartServer(/*max_bytes=*/4 << 20);
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port());
  impala::TRegisterSubscriberRequest req;
  req.subscriber_id = std::string(2 << 20, 'z');
  for (int i = 0; i < 60; ++i) {  // 120 MiB over one connection
    impala::TRegisterSubscriberResponse resp;
    Status s = client.Call("RegisterSubscriber",
                           [&](StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
    ASSERT_TRUE(s.ok()) << "message " << i << ": " << s.ToString();
  }
}

TEST(ThriftRpcTest, ReceiveTimeoutIsReported) {
  auto server = StartServer();
  ThriftClientOptions copts;
  copts.recv_timeout_ms = 200;
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", server->port(), copts);
  impala::TRegisterSubscriberRequest req;
  req.subscriber_id = "slow";
  impala::TRegisterSubscriberResponse resp;
  Status s = client.Call("RegisterSubscriber",
                         [&](StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kTimedOut) << s.ToString();
  EXPECT_FALSE(client.connection().is_open());
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  EXPECT_TRUE(Ping(&client).ok());
}

TEST(ThriftRpcTest, StopIsIdempotentAndRefusesNewCalls) {
  auto server = StartServer();
  const int port = server->port();
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", port);
  ASSERT_TRUE(Ping(&client).ok());
  server->Stop();  // interrupts the open connection too
  server->Stop();
  EXPECT_FALSE(Ping(&client).ok());
  ThriftClient<StatestoreServiceClient> fresh("127.0.0.1", port);
  Status s = Ping(&fresh);
  EXPECT_FALSE(s.ok());
}

TEST(ThriftRpcTest, ConnectFailureIsNetworkError) {
  int port;
  {
    auto server = StartServer();
    port = server->port();
  }
  ThriftClient<StatestoreServiceClient> client("127.0.0.1", port);
  Status s = Ping(&client);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kNetworkError);
}

}  // namespace
}  // namespace ics
