// A Thrift RPC server with the transport Impala uses (buffered, unframed
// TBinaryProtocol over TCP), bounded and stoppable.
//
// Each accepted connection is served by its own thread (TThreadedServer);
// the number of concurrent connections is capped, idle connections are
// closed after a receive timeout, and every message, string and container is
// bounded by max_message_bytes, so a malformed or oversized request closes
// only that connection. Start() binds synchronously, so port 0 yields a free
// port that port() reports. Stop() is idempotent: it closes the listener,
// interrupts every connection and joins all threads; the destructor calls it.
//
// Thread-safety: Start/Stop/port may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <thrift/TProcessor.h>

#include "common/util/mutex.h"
#include "common/util/status.h"

namespace apache::thrift::server {
class TThreadedServer;
}

namespace ics {

struct ThriftServerOptions {
  std::string name = "thrift-server";  // for logs
  std::string bind_host = "0.0.0.0";
  int port = 0;                        // 0 = pick a free port
  int max_connections = 256;           // further clients wait in the listen backlog
  int64_t max_message_bytes = 256ll << 20;
  int recv_timeout_ms = 10 * 60 * 1000;  // idle connections are closed after this
  int send_timeout_ms = 60 * 1000;
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

 private:
  const std::shared_ptr<apache::thrift::TProcessor> processor_;
  const ThriftServerOptions options_;
  std::atomic<int> port_{0};

  Mutex mu_;
  std::shared_ptr<apache::thrift::server::TThreadedServer> server_ GUARDED_BY(mu_);
  std::thread serve_thread_ GUARDED_BY(mu_);
};

}  // namespace ics
