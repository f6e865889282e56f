#include "common/rpc/thrift_server.h"

#include <glog/logging.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>

namespace ics {

using apache::thrift::TConfiguration;
using apache::thrift::protocol::TBinaryProtocolFactory;
using apache::thrift::server::TThreadedServer;
using apache::thrift::transport::TServerSocket;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransportException;

namespace {

// Buffers of 64 KiB per direction: Thrift's default of 512 bytes turns a
// large response (a partial fetch, a topic update) into hundreds of send()
// calls. The bytes on the wire are the same.
constexpr uint32_t kTransportBufferBytes = 64u << 10;

class LargeBufferedTransportFactory : public apache::thrift::transport::TTransportFactory {
 public:
  std::shared_ptr<apache::thrift::transport::TTransport> getTransport(
      std::shared_ptr<apache::thrift::transport::TTransport> trans) override {
    return std::make_shared<apache::thrift::transport::TBufferedTransport>(
        trans, kTransportBufferBytes, kTransportBufferBytes);
  }
};

// A server socket that (a) can be bound before the server loop starts, so
// the caller learns the port and bind errors synchronously, and (b) gives
// every accepted connection the message-size configuration.
class BoundedServerSocket : public TServerSocket {
 public:
  BoundedServerSocket(const std::string& host, int port, std::shared_ptr<TConfiguration> config)
      : TServerSocket(host, port), config_(std::move(config)) {}

  void listen() override {
    if (listening_) return;
    TServerSocket::listen();
    listening_ = true;
  }

 protected:
  std::shared_ptr<TSocket> createSocket(THRIFT_SOCKET client) override {
    auto sock = TServerSocket::createSocket(client);
    sock->setConfiguration(config_);
    return sock;
  }

 private:
  const std::shared_ptr<TConfiguration> config_;
  bool listening_ = false;
};

}  // namespace

ThriftServer::ThriftServer(std::shared_ptr<apache::thrift::TProcessor> processor,
                           ThriftServerOptions options)
    : processor_(std::move(processor)), options_(std::move(options)) {}

ThriftServer::~ThriftServer() { Stop(); }

Status ThriftServer::Start() {
  MutexLock l(&mu_);
  if (server_ != nullptr) return Status::Internal(options_.name + " already started");
  const int limit = static_cast<int>(std::min<int64_t>(options_.max_message_bytes, INT32_MAX));
  auto config = std::make_shared<TConfiguration>(limit, limit);
  auto socket = std::make_shared<BoundedServerSocket>(options_.bind_host, options_.port, config);
  socket->setRecvTimeout(options_.recv_timeout_ms);
  socket->setSendTimeout(options_.send_timeout_ms);
  try {
    socket->listen();
  } catch (const TTransportException& e) {
    return Status::NetworkError(options_.name + ": cannot listen on " + options_.bind_host + ":" +
                                std::to_string(options_.port) + ": " + e.what());
  }
  port_ = socket->getPort();
  auto protocol = std::make_shared<TBinaryProtocolFactory>(limit, limit, /*strict_read=*/false,
                                                           /*strict_write=*/true);
  auto server = std::make_shared<TThreadedServer>(
      processor_, socket, std::make_shared<LargeBufferedTransportFactory>(), protocol);
  server->setConcurrentClientLimit(options_.max_connections);
  server_ = server;
  serve_thread_ = std::thread([server, name = options_.name] {
    try {
      server->serve();
    } catch (const std::exception& e) {
      LOG(ERROR) << name << ": server loop ended with error: " << e.what();
    }
  });
  LOG(INFO) << options_.name << " listening on " << options_.bind_host << ":" << port_.load();
  return Status::OK();
}

void ThriftServer::Stop() {
  std::shared_ptr<TThreadedServer> server;
  std::thread thread;
  {
    MutexLock l(&mu_);
    server = std::move(server_);
    thread = std::move(serve_thread_);
  }
  if (server == nullptr) return;
  server->stop();
  if (thread.joinable()) thread.join();
  LOG(INFO) << options_.name << " stopped";
}

}  // namespace ics
