// HmsServer: the Hive Metastore Thrift endpoint (ThriftHiveMetastore) on its
// own port, over a Metastore. It speaks what Hive Metastore clients speak by
// default: TBinaryProtocol over an unframed (buffered) socket transport, the
// transport of common/rpc/thrift_server.h.
//
// Owns its HmsCore, handler and Thrift server; borrows the Metastore, the
// FileSystem and the command core (all must outlive it). Database and table
// changes, partition adds, drops and alters, and column statistics go
// through the command core (catalogd/ops), so they are in the catalog when
// the call returns. The other writes (functions, rename_partition) still go
// to the metastore given here: catalogd passes its
// undecorated metastore, so they are external changes for its event
// processor, and an after_write hook that waits until the processor has
// applied each of them (read-your-writes across catalogd's services). Start() binds synchronously (port 0 = a free port, see port());
// Stop() is idempotent and also run by the destructor.
//
// Thread-safety: Start/Stop from one thread; port() from any thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "catalogd/hms/hms_core.h"
#include "common/metrics/metrics.h"
#include "common/rpc/tls.h"
#include "common/util/operation_log.h"
#include "common/util/status.h"

namespace ics {
class ThriftServer;
}

namespace ics::catalog::hms {

class HmsHandler;

struct HmsServerOptions {
  std::string bind_host = "127.0.0.1";
  int port = 9083;
  RpcSecurity security;  // TLS and the bind policy (common/rpc/tls.h)
  int max_connections = 256;
  int64_t max_message_bytes = 256ll << 20;
  HmsCoreOptions core;
  metrics::MetricRegistry* metrics = nullptr;  // RPC server counters (optional)
  // Where writes are recorded (optional; catalogd's operation log, which
  // feeds /operations and the audit log). Must outlive the server.
  OperationLog* operations = nullptr;
  // Run after every successful write, before its reply (hms_handler.h):
  // catalogd waits there until its event processor applied the write.
  // Empty: writes reply at once.
  std::function<Status()> after_write;
};

class HmsServer {
 public:
  HmsServer(Metastore* metastore, FileSystem* fs, ops::CommandCore* commands,
            HmsServerOptions options);
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
