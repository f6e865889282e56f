// A Thrift client connection with the transport Impala uses (buffered,
// unframed TBinaryProtocol over TCP), with connect/send/receive timeouts and
// a bound on response sizes.
//
// ThriftClient<C> owns one connection and a generated client C (e.g.
// impala::CatalogServiceClient). Call() runs one RPC and converts every
// Thrift exception into a Status (NETWORK_ERROR, TIMED_OUT, or the
// application error); after a transport error the connection is closed and
// the next Call() reconnects. Calls are not retried here: only the caller
// knows whether an RPC is idempotent.
//
// With options.service_name set, every call goes through a
// TMultiplexedProtocol with that name, for servers that multiplex several
// services on one port (TMultiplexedProcessor).
//
// With options.tls the connection speaks TLS (tls.h); the handshake runs on
// the first call, within the receive timeout.
//
// Thread-safety: not thread-safe; use one client per thread or guard it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <thrift/Thrift.h>
#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/protocol/TProtocol.h>
#include <thrift/transport/TTransport.h>

#include "common/rpc/tls.h"
#include "common/util/mutex.h"
#include "common/util/status.h"

namespace ics {

struct ThriftClientOptions {
  int connect_timeout_ms = 5000;
  int send_timeout_ms = 60000;
  int recv_timeout_ms = 60000;
  int64_t max_message_bytes = 256ll << 20;
  std::string service_name;  // non-empty: multiplexed service name
  // Non-null: the connection speaks TLS, verifies the server's certificate
  // and name, and presents the context's certificate when it has one.
  std::shared_ptr<const TlsContext> tls;
};

// The type-independent part: socket, transport, protocol, and error mapping.
class ThriftConnection {
 public:
  ThriftConnection(std::string host, int port, ThriftClientOptions options);
  ~ThriftConnection();
  ThriftConnection(const ThriftConnection&) = delete;
  ThriftConnection& operator=(const ThriftConnection&) = delete;

  // Opens the socket if it is not open.
  [[nodiscard]] Status Open() EXCLUDES(fd_mu_);
  void Close() EXCLUDES(fd_mu_);
  bool is_open() const;

  // The open socket's descriptor, to poll for a reply; -1 when closed.
  // Only for poll(): reading or writing it would desynchronise the stream.
  int fd() const EXCLUDES(fd_mu_);

  // Changes the receive timeout of the open (or next) socket.
  void SetRecvTimeout(int ms);

  // Unblocks an RPC in progress on another thread by shutting the socket
  // down (the owner thread then sees a transport error and closes it), and
  // makes every later Open() fail: an interrupted connection stays dead.
  // The only member that may be called concurrently with Call().
  void Interrupt() EXCLUDES(fd_mu_);

  // The current protocol; replaced (with a fresh transport) by Close().
  const std::shared_ptr<apache::thrift::protocol::TProtocol>& protocol() const { return protocol_; }
  const std::string& host() const { return host_; }
  int port() const { return port_; }
  const ThriftClientOptions& options() const { return options_; }

  // Maps a Thrift exception thrown by an RPC to a Status and closes the
  // connection when the transport may be out of sync.
  Status MapException(const std::exception& e, const char* rpc_name);

 private:
  void Rebuild();

  const std::string host_;
  const int port_;
  const ThriftClientOptions options_;
  std::shared_ptr<apache::thrift::transport::TTransport> socket_;
  std::shared_ptr<apache::thrift::transport::TTransport> transport_;
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol_;
  int recv_timeout_ms_ = 0;
  // The open socket, for Interrupt(). fd_mu_ makes Interrupt()'s shutdown
  // and Close()'s close mutually exclusive, so a reused descriptor number is
  // never shut down. Terminal lock.
  mutable Mutex fd_mu_;
  int fd_ GUARDED_BY(fd_mu_) = -1;
  std::atomic<bool> interrupted_{false};
};

template <typename ClientT>
class ThriftClient {
 public:
  ThriftClient(std::string host, int port, ThriftClientOptions options = {})
      : conn_(std::move(host), port, options),
        protocol_(conn_.protocol()),
        client_(std::make_unique<ClientT>(ClientProtocol())) {}

  // Runs `fn(ClientT&)` (which performs one RPC); opens the connection first.
  template <typename Fn>
  [[nodiscard]] Status Call(const char* rpc_name, Fn&& fn) {
    Status s = conn_.Open();
    if (!s.ok()) return s;
    if (conn_.protocol() != protocol_) {  // the connection was rebuilt
      protocol_ = conn_.protocol();
      client_ = std::make_unique<ClientT>(ClientProtocol());
    }
    try {
      fn(*client_);
      return Status::OK();
    } catch (const std::exception& e) {
      return conn_.MapException(e, rpc_name);
    }
  }

  // Runs `fn(ClientT&)` on the connection as it is, without opening it:
  // the second half of an exchange whose first half was a Call() (say, a
  // generated recv_X after a send_X). Fails if the connection closed or was
  // rebuilt since, because the reply can only come on the one that sent.
  template <typename Fn>
  [[nodiscard]] Status Continue(const char* rpc_name, Fn&& fn) {
    if (!conn_.is_open() || conn_.protocol() != protocol_) {
      return Status::NetworkError(std::string(rpc_name) + " to " + conn_.host() + ":" +
                                  std::to_string(conn_.port()) +
                                  ": the connection closed before the reply");
    }
    try {
      fn(*client_);
      return Status::OK();
    } catch (const std::exception& e) {
      return conn_.MapException(e, rpc_name);
    }
  }

  ThriftConnection& connection() { return conn_; }

 private:
  // The protocol client_ speaks: protocol_, wrapped when multiplexed.
  std::shared_ptr<apache::thrift::protocol::TProtocol> ClientProtocol() const {
    const std::string& service = conn_.options().service_name;
    if (service.empty()) return protocol_;
    return std::make_shared<apache::thrift::protocol::TMultiplexedProtocol>(protocol_, service);
  }

  ThriftConnection conn_;
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol_;  // the connection's protocol
  std::unique_ptr<ClientT> client_;
};

}  // namespace ics
