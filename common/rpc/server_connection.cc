#include "common/rpc/server_connection.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>

#include <glog/logging.h>
#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TTransportException.h>
#include <thrift/transport/TVirtualTransport.h>

#include "common/metrics/metrics.h"
#include "common/rpc/bounded_protocol.h"
#include "common/rpc/peer.h"
#include "common/rpc/request_barrier.h"
#include "common/rpc/tls.h"

namespace ics {

using apache::thrift::TApplicationException;
using apache::thrift::TConfiguration;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportException;

int64_t SteadyNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void ThriftServer::Connection::Shutdown() {
  MutexLock l(&fd_mu);
  if (!closed) ::shutdown(socket->getSocketFD(), SHUT_RDWR);
}

void ThriftServer::Connection::CloseSocket() {
  MutexLock l(&fd_mu);
  closed = true;
  try {
    socket->close();
  } catch (const std::exception&) {
    // The socket is gone either way.
  }
}

namespace {

// 64 KiB per direction: Thrift's default of 512 bytes turns a large response
// into hundreds of send() calls. The bytes on the wire are the same.
constexpr uint32_t kTransportBufferBytes = 64u << 10;

// The socket under the buffered transport: enforces the idle and message
// deadlines (see server_connection.h), polling the socket in short slices.
class DeadlineTransport
    : public apache::thrift::transport::TVirtualTransport<DeadlineTransport> {
 public:
  DeadlineTransport(std::shared_ptr<TSocket> socket, ThriftServer::Connection* conn,
                    const ThriftServerOptions& options)
      : socket_(std::move(socket)),
        tls_(dynamic_cast<TlsSocket*>(socket_.get())),
        conn_(conn),
        options_(options),
        slice_ms_(std::clamp(std::min(options.idle_timeout_ms, options.message_timeout_ms) / 4, 10,
                             1000)) {
    if (tls_ == nullptr) socket_->setRecvTimeout(slice_ms_);
  }

  // Called before each request is awaited. With bytes of the next request
  // already buffered, its message deadline starts now.
  void StartWaiting(bool input_buffered) {
    const int64_t now = SteadyNowMs();
    if (input_buffered) {
      StartMessage(now);
    } else {
      conn_->idle_since_ms = now;
      conn_->idle = true;
    }
  }

  uint32_t read(uint8_t* buf, uint32_t len) {
    const uint32_t n = tls_ == nullptr ? ReadPlain(buf, len) : ReadTls(buf, len);
    if (n > 0 && conn_->idle) StartMessage(SteadyNowMs());
    return n;
  }
  void write(const uint8_t* buf, uint32_t len) { socket_->write(buf, len); }
  void flush() override { socket_->flush(); }
  bool isOpen() const override { return socket_->isOpen(); }
  bool peek() override { return socket_->peek(); }
  void open() override { socket_->open(); }
  void close() override { socket_->close(); }

 private:
  // Plaintext: one blocking recv per read, bounded by SO_RCVTIMEO of one
  // slice (set in the constructor), checking the deadlines between slices.
  // Shutdown() wakes it (recv returns end of stream). One system call per
  // read where a poll, TSocket's own poll and a recv would be three.
  uint32_t ReadPlain(uint8_t* buf, uint32_t len) {
    const int fd = socket_->getSocketFD();
    for (;;) {
      CheckDeadline();
      const ssize_t n = ::recv(fd, buf, len, 0);
      if (n >= 0) return static_cast<uint32_t>(n);
      const int err = errno;
      if (err == EAGAIN || err == EWOULDBLOCK || err == EINTR) continue;
      if (err == ECONNRESET || err == ENOTCONN) return 0;
      throw TTransportException(TTransportException::UNKNOWN,
                                std::string("recv failed: ") + std::strerror(err));
    }
  }

  // TLS: wait for input in slices, checking the deadlines between them; the
  // read itself then does not block on an empty socket. Shutdown() and the
  // server's interrupt wake the poll (the socket becomes readable at end of
  // stream).
  uint32_t ReadTls(uint8_t* buf, uint32_t len) {
    while (!WaitReadable()) CheckDeadline();
    CheckDeadline();
    return socket_->read(buf, len);
  }

  // True when the socket has input (or an error/end) within one slice.
  bool WaitReadable() const {
    if (tls_ != nullptr && tls_->HasBufferedPlaintext()) return true;
    pollfd p{};
    p.fd = socket_->getSocketFD();
    p.events = POLLIN;
    const int ret = ::poll(&p, 1, slice_ms_);
    if (ret < 0 && errno != EINTR) {
      throw TTransportException(TTransportException::UNKNOWN,
                                std::string("poll failed: ") + std::strerror(errno));
    }
    return ret > 0;
  }

  void StartMessage(int64_t now) {
    message_start_ms_ = now;
    conn_->active_once = true;
    conn_->idle = false;
  }
  void CheckDeadline() const {
    const int64_t now = SteadyNowMs();
    if (conn_->idle) {
      if (now - conn_->idle_since_ms >= options_.idle_timeout_ms) {
        throw TTransportException(TTransportException::TIMED_OUT,
                                  "no request for " + std::to_string(options_.idle_timeout_ms) +
                                      " ms");
      }
    } else if (now - message_start_ms_ >= options_.message_timeout_ms) {
      throw TTransportException(TTransportException::TIMED_OUT,
                                "request not complete " +
                                    std::to_string(options_.message_timeout_ms) +
                                    " ms after its first byte");
    }
  }

  const std::shared_ptr<TSocket> socket_;
  TlsSocket* const tls_;  // socket_ when the connection speaks TLS
  ThriftServer::Connection* const conn_;
  const ThriftServerOptions& options_;
  const int slice_ms_;
  int64_t message_start_ms_ = 0;
};

// A buffered transport that can tell whether input is already buffered.
class ServerBufferedTransport : public TBufferedTransport {
 public:
  using TBufferedTransport::TBufferedTransport;
  bool HasBufferedInput() const { return rBase_ < rBound_; }
};

// Logs the first rejections of a server, then one in a thousand: a flood of
// garbage must not flood the log.
bool ShouldLog(int64_t count) { return count <= 100 || count % 1000 == 0; }

class ConnectionServer {
 public:
  ConnectionServer(const std::shared_ptr<apache::thrift::TProcessor>& processor,
                   const ThriftServerOptions& options, ThriftServer::Counters& counters,
                   ThriftServer::Connection& conn)
      : processor_(processor), options_(options), counters_(counters) {
    const int limit = static_cast<int>(std::min<int64_t>(options.max_message_bytes, INT32_MAX));
    auto config = std::make_shared<TConfiguration>(limit, limit);
    deadline_ = std::make_shared<DeadlineTransport>(conn.socket, &conn, options);
    buffered_ = std::make_shared<ServerBufferedTransport>(deadline_, kTransportBufferBytes,
                                                          kTransportBufferBytes, config);
    // The inner protocol reads only message names itself (every other string
    // is streamed by BoundedProtocol), so its string limit is the name limit.
    auto binary = std::make_shared<TBinaryProtocol>(buffered_, kMaxMessageNameBytes, limit,
                                                    /*strict_read=*/false, /*strict_write=*/true);
    BoundedProtocol::Options bounds;
    bounds.limits = {options.max_message_bytes, options.max_message_memory_bytes};
    bounds.binary_inner = true;
    bounds.hold_until_reset = true;
    in_ = std::make_shared<BoundedProtocol>(binary, bounds);
    out_ = std::make_shared<TBinaryProtocol>(buffered_);
    try {
      peer_ = conn.socket->getSocketInfo();
      // "host:port" ("[v6]:port") for handlers and the audit log.
      const std::string host = conn.socket->getPeerAddress();
      const std::string port = std::to_string(conn.socket->getPeerPort());
      peer_info_.address =
          host.find(':') == std::string::npos ? host + ":" + port : "[" + host + "]:" + port;
    } catch (const std::exception&) {
      peer_ = "unknown peer";
    }
    if (const auto* tls = dynamic_cast<const TlsSocket*>(conn.socket.get())) {
      peer_info_.tls = true;
      peer_info_.identity = tls->peer_identity();
    }
  }

  void Run() {
    PeerScope scope(&peer_info_);
    for (;;) {
      deadline_->StartWaiting(buffered_->HasBufferedInput());
      const RequestResult r = ProcessGuarded(*processor_, in_, out_, options_.name);
      switch (r.outcome) {
        case RequestOutcome::kServed:
          continue;
        case RequestOutcome::kFinished:
          return;
        case RequestOutcome::kTimedOut:
          counters_.timeouts->Increment();
          VLOG(1) << options_.name << ": closing " << peer_ << ": " << r.error;
          return;
        case RequestOutcome::kPeerGone:
          if (r.mid_request) {
            counters_.rejected->Increment();  // a truncated request
            VLOG(1) << options_.name << ": " << peer_ << " closed during " << in_->message_name();
          }
          return;
        case RequestOutcome::kRejected:
          counters_.rejected->Increment();
          if (ShouldLog(counters_.rejected->value())) {
            const std::string& m = in_->message_name();
            LOG(WARNING) << options_.name << ": rejected request " << (m.empty() ? "(no header)" : m)
                         << " from " << peer_ << ": " << r.error;
          }
          return;
      }
    }
  }

 private:
  const std::shared_ptr<apache::thrift::TProcessor>& processor_;
  const ThriftServerOptions& options_;
  ThriftServer::Counters& counters_;
  std::shared_ptr<DeadlineTransport> deadline_;
  std::shared_ptr<ServerBufferedTransport> buffered_;
  std::shared_ptr<BoundedProtocol> in_;
  std::shared_ptr<TProtocol> out_;
  std::string peer_;
  PeerInfo peer_info_;
};

// The TLS handshake of an accepted connection, before any request: at most
// min(message_timeout_ms, 10 s) for each step, so a peer that stalls
// mid-handshake (or speaks plaintext) holds its thread briefly. False when
// it failed (counted and logged); the connection is then closed.
bool Handshake(const ThriftServerOptions& options, ThriftServer::Counters& counters,
               ThriftServer::Connection& conn) {
  auto* tls = dynamic_cast<TlsSocket*>(conn.socket.get());
  if (tls == nullptr) return true;
  try {
    tls->setRecvTimeout(std::min(options.message_timeout_ms, 10 * 1000));
    tls->Handshake();
    // Afterwards a read that waits for the rest of a TLS record waits at
    // most the message deadline (checked again between reads).
    tls->setRecvTimeout(options.message_timeout_ms);
    conn.idle_since_ms = SteadyNowMs();
    return true;
  } catch (const std::exception& e) {
    counters.handshake_failures->Increment();
    if (ShouldLog(counters.handshake_failures->value())) {
      std::string peer = "unknown peer";
      try {
        peer = conn.socket->getSocketInfo();
      } catch (const std::exception&) {
      }
      LOG(WARNING) << options.name << ": TLS handshake with " << peer << " failed: " << e.what();
    }
    return false;
  }
}

}  // namespace

void ServeConnection(const std::shared_ptr<apache::thrift::TProcessor>& processor,
                     const ThriftServerOptions& options, ThriftServer::Counters& counters,
                     ThriftServer::Connection& conn) {
  try {
    if (!Handshake(options, counters, conn)) return;
    ConnectionServer server(processor, options, counters, conn);
    server.Run();
  } catch (const std::exception& e) {
    LOG(WARNING) << options.name << ": connection ended with error: " << e.what();
  } catch (...) {
    LOG(WARNING) << options.name << ": connection ended with an unknown exception";
  }
}

void RefuseConnection(const std::shared_ptr<TSocket>& socket, const std::string& message) {
  try {
    socket->setSendTimeout(200);
    auto buffered = std::make_shared<TBufferedTransport>(socket);
    TBinaryProtocol out(buffered);
    out.writeMessageBegin("", apache::thrift::protocol::T_EXCEPTION, 0);
    TApplicationException(TApplicationException::UNKNOWN, message).write(&out);
    out.writeMessageEnd();
    buffered->flush();
    const int fd = socket->getSocketFD();
    ::shutdown(fd, SHUT_WR);
    // Read what the peer already sent, so closing sends FIN rather than a
    // reset that could discard the refusal before the peer reads it.
    char sink[4096];
    for (int i = 0; i < 16 && ::recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; ++i) {
    }
    socket->close();
  } catch (const std::exception&) {
    // Best effort: the connection is dropped either way.
  }
}

}  // namespace ics
