// MetastoreServiceServer: catalogd's second Thrift port, serving the
// project's own metastore-style services (PartitionService, TableService)
// multiplexed on one socket with Thrift's TMultiplexedProcessor. A client
// wraps its protocol in a TMultiplexedProtocol with the service name (see
// ThriftClientOptions::service_name).
//
// Services are registered before Start(): AddService() takes the Thrift
// processor and an optional stop hook; AddBuiltinServices() registers every
// service catalogd offers (one line per service). Each registered service
// owns its commands (catalogd/ops) through its processor's handler.
//
// Stop() is idempotent (the destructor calls it): it stops the Thrift
// server (joining every connection thread), then runs the stop hooks in
// reverse registration order, then drops the processors.
//
// Thread-safety: AddService/Start/Stop from one thread; port() from any.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/metrics/metrics.h"
#include "common/rpc/endpoint_options.h"
#include "common/rpc/tls.h"
#include "common/util/status.h"

namespace apache::thrift {
class TProcessor;
}
namespace ics {
class ThriftServer;
}

namespace ics::catalog {

namespace ops {
class CatalogQueries;
class CommandCore;
}  // namespace ops
struct CatalogContext;

struct MetastoreServiceOptions : EndpointOptions {
  MetastoreServiceOptions() { port = 26100; }
  // Partition write streams: idle expiry and staging bound (per stream).
  int64_t write_stream_idle_timeout_ms = 5 * 60 * 1000;
  int64_t write_stream_max_staged_bytes = 256ll << 20;
  // Across this server: the bytes all open write streams and in-flight
  // partition batches may stage together (<= 0: no cap), and the number of
  // open write streams (PartitionService; LIMIT_EXCEEDED beyond either).
  int64_t write_streams_max_staged_bytes = 1ll << 30;
  int64_t write_streams_max_open = 1000;
  metrics::MetricRegistry* metrics = nullptr;  // RPC server counters (optional)
};

// What the built-in services run on; owned by CatalogServer and outliving
// this server.
struct MetastoreServiceDeps {
  CatalogContext* ctx = nullptr;
  ops::CommandCore* commands = nullptr;    // every change goes through it
  ops::CatalogQueries* queries = nullptr;  // every read of a stored object
};

class MetastoreServiceServer {
 public:
  explicit MetastoreServiceServer(MetastoreServiceOptions options);
  ~MetastoreServiceServer();
  MetastoreServiceServer(const MetastoreServiceServer&) = delete;
  MetastoreServiceServer& operator=(const MetastoreServiceServer&) = delete;

  // Registers `processor` under `service_name` (what clients put in their
  // TMultiplexedProtocol). INVALID_ARGUMENT for an empty or repeated name,
  // or after Start().
  [[nodiscard]] Status AddService(const std::string& service_name,
                                  std::shared_ptr<apache::thrift::TProcessor> processor,
                                  std::function<void()> on_stop = nullptr);

  // Registers every built-in service (PartitionService, ...).
  [[nodiscard]] Status AddBuiltinServices(const MetastoreServiceDeps& deps);

  // Binds the port and serves in the background.
  [[nodiscard]] Status Start();
  void Stop();

  int port() const;
  std::vector<std::string> service_names() const;
  const MetastoreServiceOptions& options() const { return options_; }

 private:
  struct Service {
    std::string name;
    std::shared_ptr<apache::thrift::TProcessor> processor;
    std::function<void()> on_stop;
  };

  const MetastoreServiceOptions options_;
  std::vector<Service> services_;
  std::unique_ptr<ThriftServer> rpc_;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace ics::catalog
