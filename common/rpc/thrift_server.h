// A Thrift RPC server with the transport Impala uses (buffered, unframed
// TBinaryProtocol over TCP), hardened against hostile peers and stoppable.
//
// Each accepted connection is served by its own thread. What a peer sends is
// never trusted:
//   - every request is decoded under a DecodeBudget (bounded_protocol.h):
//     declared container and string sizes are checked against what is left of
//     max_message_bytes and against max_message_memory_bytes (and the
//     process-wide decode cap) before anything is allocated; struct nesting is
//     bounded by Thrift's recursion limit (64);
//   - every call into the processor is wrapped: any exception (a malformed or
//     over-budget request, std::bad_alloc, ...) is logged and counted, answered
//     with a TApplicationException when the request header was read, and ends
//     only that connection;
//   - a connection waiting for its next request is closed after
//     idle_timeout_ms; once a request has started, all of it must arrive
//     within message_timeout_ms (a slow writer cannot hold a thread);
//   - at most max_connections are served at once. When full, a connection
//     waiting for input is closed to make room — the oldest one that never
//     sent a byte (at least 100 ms old), else the one idle longest between
//     requests (at least min_idle_ms_to_evict) — so a flood of idle
//     connections cannot starve real clients; when none can be evicted, the
//     new one is answered with a TApplicationException ("server busy") and
//     closed.
// With TLS, a connection that cannot be served is closed without a reply
// (a refusal would need a handshake on the accept thread).
// Start() refuses to bind a non-loopback address in plaintext unless
// security.allow_plaintext_remote (bind_policy.h). It binds synchronously, so port 0 yields a free port that port()
// reports. Stop() is idempotent: it stops accepting, interrupts every
// connection, joins every thread and only then returns; the destructor calls
// it. A handler blocked inside the processor is waited for (services wake
// their own waiters before stopping the server).
//
// Thread-safety: Start/Stop/port/stats may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include <thrift/TProcessor.h>

#include "common/rpc/endpoint_options.h"
#include "common/rpc/tls.h"
#include "common/util/mutex.h"
#include "common/util/status.h"

namespace apache::thrift::transport {
class TServerSocket;
}

namespace ics {

namespace metrics {
class MetricRegistry;
}

// The port's settings (endpoint_options.h), the server's name for logs and
// the `server` metric label, and where its counters and gauges labelled
// server=<name> are registered (optional). Aggregate-initialized from a
// server's options: ThriftServerOptions{options, "name", metrics}.
struct ThriftServerOptions : EndpointOptions {
  std::string name = "thrift-server";
  metrics::MetricRegistry* metrics = nullptr;
};

// Totals since Start (all counters are monotonic).
struct ThriftServerStats {
  int64_t connections_accepted = 0;
  int64_t connections_active = 0;
  int64_t connections_refused = 0;   // answered "server busy"
  int64_t connections_evicted = 0;   // idle, closed to make room
  int64_t requests_rejected = 0;     // malformed, over budget, or threw while decoding
  int64_t timeouts = 0;              // idle or message deadline passed
  int64_t tls_handshake_failures = 0;  // TLS handshake failed or timed out
};

class ThriftServer {
 public:
  ThriftServer(std::shared_ptr<apache::thrift::TProcessor> processor, ThriftServerOptions options);
  ~ThriftServer();
  ThriftServer(const ThriftServer&) = delete;
  ThriftServer& operator=(const ThriftServer&) = delete;

  // Binds the port and starts serving in the background. Fails with a clear
  // status when the port cannot be bound (e.g. already in use).
  [[nodiscard]] Status Start() EXCLUDES(mu_);
  // Stops serving and joins every thread. Safe to call more than once.
  void Stop() EXCLUDES(mu_);
  // The bound port (valid after a successful Start).
  int port() const { return port_.load(); }
  const ThriftServerOptions& options() const { return options_; }
  ThriftServerStats stats() const;

  struct Counters;    // thrift_server.cc
  struct Connection;  // thrift_server.cc

 private:
  void AcceptLoop();
  // Makes room for one more connection; false when every slot is busy.
  bool MakeRoom() EXCLUDES(mu_);
  void StartConnection(std::shared_ptr<apache::thrift::transport::TTransport> client)
      EXCLUDES(mu_);
  void ReapFinished() EXCLUDES(mu_);

  const std::shared_ptr<apache::thrift::TProcessor> processor_;
  const ThriftServerOptions options_;
  const std::unique_ptr<Counters> counters_;
  std::atomic<int> port_{0};
  std::atomic<bool> stopping_{false};

  Mutex mu_;
  std::shared_ptr<apache::thrift::transport::TServerSocket> socket_ GUARDED_BY(mu_);
  std::thread accept_thread_ GUARDED_BY(mu_);
  std::list<std::shared_ptr<Connection>> connections_ GUARDED_BY(mu_);
};

}  // namespace ics
