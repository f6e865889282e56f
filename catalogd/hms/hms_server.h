// HmsServer: the Hive Metastore Thrift endpoint (ThriftHiveMetastore) on its
// own port, over the command core. It speaks what Hive Metastore clients speak by
// default: TBinaryProtocol over an unframed (buffered) socket transport, the
// transport of common/rpc/thrift_server.h.
//
// Owns its HmsCore, handler and Thrift server; borrows the core's read side
// and the command core (catalogd/ops) every change goes through, so a
// change is in the catalog when its call returns (both must outlive it).
// Start() binds synchronously (port 0 = a free port, see port()); Stop() is
// idempotent and also run by the destructor.
//
// Thread-safety: Start/Stop from one thread; port() from any thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "catalogd/hms/hms_core.h"
#include "common/metrics/metrics.h"
#include "common/rpc/endpoint_options.h"
#include "common/rpc/tls.h"
#include "common/util/status.h"

namespace ics {
class ThriftServer;
}

namespace ics::catalog::hms {

class HmsHandler;

// The port (9083 by default, as the Hive Metastore's) and the core's options.
struct HmsServerOptions : EndpointOptions {
  HmsServerOptions() { port = 9083; }
  HmsCoreOptions core;
  metrics::MetricRegistry* metrics = nullptr;  // RPC server counters (optional)
};

class HmsServer {
 public:
  HmsServer(ops::CatalogQueries* reads, ops::CommandCore* commands, HmsServerOptions options);
  ~HmsServer();
  HmsServer(const HmsServer&) = delete;
  HmsServer& operator=(const HmsServer&) = delete;

  [[nodiscard]] Status Start();
  void Stop();
  // The bound port (after a successful Start), else 0.
  int port() const;

 private:
  const HmsServerOptions opts_;
  HmsCore core_;
  std::shared_ptr<HmsHandler> handler_;
  std::unique_ptr<ThriftServer> server_;
};

}  // namespace ics::catalog::hms
