// One accepted connection of a ThriftServer: its transports, its read
// deadlines, and the loop that hands its requests to the processor behind an
// exception barrier. Internal to common/rpc (thrift_server.cc).
//
// Deadlines: between requests the connection is "idle" and may wait up to
// idle_timeout_ms for the next one; the first byte of a request starts its
// message deadline, and the rest of it must arrive within
// message_timeout_ms. The connection polls its socket in short slices
// (a quarter of the shorter deadline, at most 1 s), so both deadlines are
// checked at least every slice and before every read.
//
// Thread-safety: a ServerConnection is used by its connection thread; the
// ThriftServer's accept thread reads its activity (idle and since when) and
// may Shutdown() it from another thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <thrift/TProcessor.h>
#include <thrift/transport/TSocket.h>

#include "common/rpc/thrift_server.h"
#include "common/util/mutex.h"

namespace ics {

namespace metrics {
class Counter;
class Gauge;
}  // namespace metrics

// The server's counters (registered on its MetricRegistry).
struct ThriftServer::Counters {
  metrics::Counter* accepted = nullptr;
  metrics::Counter* refused = nullptr;
  metrics::Counter* evicted = nullptr;
  metrics::Counter* rejected = nullptr;
  metrics::Counter* timeouts = nullptr;
  metrics::Counter* handshake_failures = nullptr;
  metrics::Gauge* active = nullptr;
  std::unique_ptr<metrics::MetricRegistry> own_registry;  // when none was given
};

// Milliseconds on the steady clock.
int64_t SteadyNowMs();

struct ThriftServer::Connection {
  explicit Connection(std::shared_ptr<apache::thrift::transport::TSocket> s) : socket(std::move(s)) {}

  // Interrupts a blocked read or write (the connection thread then ends).
  void Shutdown() EXCLUDES(fd_mu);
  // Closes the socket; called once by the connection thread when done.
  void CloseSocket() EXCLUDES(fd_mu);

  const std::shared_ptr<apache::thrift::transport::TSocket> socket;
  std::thread thread;                       // set by the server under its mu_
  std::atomic<bool> done{false};            // the thread has finished
  std::atomic<bool> idle{true};             // waiting for the next request
  std::atomic<bool> active_once{false};     // some request byte has arrived
  std::atomic<int64_t> idle_since_ms{0};
  bool evicted = false;                     // guarded by the server's mu_

  Mutex fd_mu;  // serializes Shutdown() with CloseSocket(): no shutdown of a reused fd
  bool closed GUARDED_BY(fd_mu) = false;
};

// Serves requests on `conn` until the peer closes, a deadline passes, a
// request is rejected, or the server stops. Never throws.
void ServeConnection(const std::shared_ptr<apache::thrift::TProcessor>& processor,
                     const ThriftServerOptions& options, ThriftServer::Counters& counters,
                     ThriftServer::Connection& conn);

// Tells a connection the server cannot take that it is busy (a
// TApplicationException a Thrift client raises for its first call) and
// closes it. Never throws; never blocks for more than a few hundred ms.
void RefuseConnection(const std::shared_ptr<apache::thrift::transport::TSocket>& socket,
                      const std::string& message);

}  // namespace ics
