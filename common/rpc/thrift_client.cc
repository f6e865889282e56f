#include "common/rpc/thrift_client.h"

#include <algorithm>

#include <sys/socket.h>

#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include "common/rpc/bounded_protocol.h"

namespace ics {

using apache::thrift::TApplicationException;
using apache::thrift::TConfiguration;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransportException;

ThriftConnection::ThriftConnection(std::string host, int port, ThriftClientOptions options)
    : host_(std::move(host)), port_(port), options_(options) {
  recv_timeout_ms_ = options_.recv_timeout_ms;
  Rebuild();
}

void ThriftConnection::Rebuild() {
  const int limit = static_cast<int>(std::min<int64_t>(options_.max_message_bytes, INT32_MAX));
  auto config = std::make_shared<TConfiguration>(limit, limit);
  std::shared_ptr<TSocket> sock;
  if (options_.tls != nullptr) {
    sock = options_.tls->ClientSocket(host_, port_, config);
  } else {
    sock = std::make_shared<TSocket>(host_, port_, config);
  }
  sock->setConnTimeout(options_.connect_timeout_ms);
  sock->setSendTimeout(options_.send_timeout_ms);
  sock->setRecvTimeout(recv_timeout_ms_);
  sock->setNoDelay(true);
  socket_ = sock;
  // 64 KiB per direction, as the server side (see thrift_server.cc). The
  // size limits live in the socket and the protocol.
  transport_ = std::make_shared<TBufferedTransport>(socket_, 64u << 10, 64u << 10, config);
  auto binary = std::make_shared<TBinaryProtocol>(transport_, kMaxMessageNameBytes, limit,
                                                  /*strict_read=*/false, /*strict_write=*/true);
  // Replies are decoded under a budget too: a server is a peer like any other.
  BoundedProtocol::Options bounds;
  bounds.limits = {options_.max_message_bytes,
                   std::max<int64_t>(1ll << 30, 4 * options_.max_message_bytes),
                   /*process_wide=*/false};
  bounds.binary_inner = true;
  protocol_ = std::make_shared<BoundedProtocol>(binary, bounds);
}

ThriftConnection::~ThriftConnection() { Close(); }

Status ThriftConnection::Open() {
  if (interrupted_) {
    Close();
    return Status::Shutdown("connection to " + host_ + ":" + std::to_string(port_) +
                            " was interrupted");
  }
  if (transport_->isOpen()) return Status::OK();
  try {
    transport_->open();
    MutexLock l(&fd_mu_);
    fd_ = std::static_pointer_cast<TSocket>(socket_)->getSocketFD();
    // An Interrupt() during the connect found no descriptor to shut down.
    if (interrupted_) ::shutdown(fd_, SHUT_RDWR);
    return Status::OK();
  } catch (const TTransportException& e) {
    return Status::NetworkError("cannot connect to " + host_ + ":" + std::to_string(port_) +
                                ": " + e.what());
  }
}

void ThriftConnection::Close() {
  {
    MutexLock l(&fd_mu_);
    fd_ = -1;
    try {
      if (transport_ && transport_->isOpen()) transport_->close();
    } catch (const std::exception&) {
      // Closing a broken socket may throw; the connection is gone either way.
    }
  }
  // A failed call can leave unsent bytes in the buffered transport; a fresh
  // transport guarantees the next connection starts clean.
  Rebuild();
}

bool ThriftConnection::is_open() const { return transport_->isOpen(); }

void ThriftConnection::SetRecvTimeout(int ms) {
  recv_timeout_ms_ = ms;
  std::static_pointer_cast<TSocket>(socket_)->setRecvTimeout(ms);
}

void ThriftConnection::Interrupt() {
  interrupted_ = true;
  MutexLock l(&fd_mu_);
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

int ThriftConnection::fd() const {
  MutexLock l(&fd_mu_);
  return fd_;
}

Status ThriftConnection::MapException(const std::exception& e, const char* rpc_name) {
  const std::string where = std::string(rpc_name) + " to " + host_ + ":" + std::to_string(port_);
  if (const auto* te = dynamic_cast<const TTransportException*>(&e)) {
    Close();
    if (te->getType() == TTransportException::TIMED_OUT) {
      return Status::TimedOut(where + " timed out: " + te->what());
    }
    return Status::NetworkError(where + " failed: " + te->what());
  }
  if (dynamic_cast<const TProtocolException*>(&e) != nullptr) {
    Close();  // the stream position is unknown now
    return Status::Corruption(where + " got a malformed reply: " + e.what());
  }
  if (dynamic_cast<const TApplicationException*>(&e) != nullptr) {
    // A server that rejects a request it could not read (or refuses the
    // connection when busy) closes the connection after this reply.
    Close();
    return Status::General(where + " failed on the server: " + e.what());
  }
  Close();
  return Status::General(where + " failed: " + e.what());
}

}  // namespace ics
