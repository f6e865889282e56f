// HttpTransport (internal to common/web): the Boost.Beast HTTP/1.1 listener
// behind WebServer. It owns an io_context, a listening socket and the
// connection sessions, and hands every complete request to a dispatch
// function. With TLS options (WebServerOptions::tls()) every connection is a
// TLS stream (web_tls.h); one session implementation serves both kinds. See
// web_server.h for the limits, bind policy and lifecycle it implements.
//
// Thread-safety: Start/Stop must not race each other (WebServer serializes
// them); port() may be called from any thread. `dispatch` runs on the
// transport's threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/util/status.h"
#include "common/web/web_server.h"

namespace ics::web {

class HttpTransport {
 public:
  using DispatchFn = std::function<WebResponse(const std::string& method,
                                               const std::string& target,
                                               const std::string& accept)>;

  // `open_connections` counts the live sessions and `tls_handshake_failures`
  // the TLS handshakes that failed or timed out (shared so a metric callback
  // may read them after the transport is gone).
  HttpTransport(const WebServerOptions& options, DispatchFn dispatch,
                std::shared_ptr<std::atomic<int>> open_connections,
                std::shared_ptr<std::atomic<int64_t>> tls_handshake_failures);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  [[nodiscard]] Status Start();
  void Stop();  // idempotent
  int port() const { return port_.load(); }

  struct State;  // Asio objects (defined in the .cc so Beast stays out of headers)

 private:
  const WebServerOptions options_;
  const DispatchFn dispatch_;
  const std::shared_ptr<std::atomic<int>> open_connections_;
  const std::shared_ptr<std::atomic<int64_t>> tls_handshake_failures_;
  std::atomic<int> port_{0};
  std::unique_ptr<State> state_;
  std::vector<std::thread> threads_;
};

}  // namespace ics::web
