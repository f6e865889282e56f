// StatestoreServer: a Statestore served over Thrift (StatestoreService) on
// one port. This is what statestored runs and what in-process tests create
// (port 0 picks a free port; port() reports it).
//
// Thread-safety: Start/Stop/accessors may be called from any thread; Stop is
// idempotent and also run by the destructor.
#pragma once

#include <memory>
#include <string>

#include "common/rpc/endpoint_options.h"
#include "common/rpc/thrift_server.h"
#include "statestore/statestore.h"

namespace ics::statestore {

// The StatestoreService port (24000 by default). Its `security` is also
// the TLS of the statestore's connections to subscribers (it replaces
// statestore.tls); the largest message it accepts is the broker's own
// statestore.max_message_bytes, the bound of what it sends too.
struct StatestoreServerOptions : EndpointOptions {
  StatestoreServerOptions() { port = 24000; }
  StatestoreOptions statestore;
};

class StatestoreServer {
 public:
  explicit StatestoreServer(StatestoreServerOptions options);
  ~StatestoreServer();

  [[nodiscard]] Status Start();
  void Stop();

  int port() const { return rpc_ ? rpc_->port() : 0; }
  Statestore* statestore() { return statestore_.get(); }
  // The broker's metrics (latency histograms); statestored adds the rest
  // (statestore_web.h) and serves it on /metrics.
  metrics::MetricRegistry* metrics() { return &metrics_; }

 private:
  const StatestoreServerOptions options_;
  metrics::MetricRegistry metrics_;  // declared first: outlives the broker
  std::unique_ptr<Statestore> statestore_;
  std::unique_ptr<ThriftServer> rpc_;
};

}  // namespace ics::statestore
