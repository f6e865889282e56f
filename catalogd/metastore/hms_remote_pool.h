// HmsClientPool: a bounded pool of ThriftHiveMetastore client connections
// (TBinaryProtocol over a buffered TCP transport, as Hive clients use) to
// one remote metastore. Private to the remote metastore backend.
//
// At most pool_size connections exist at once; Acquire() hands out an idle
// one (most recently used first) or makes a new one while under the cap,
// and otherwise waits up to pool_wait_ms for one to be returned (TIMED_OUT
// after that). A connection is opened lazily by its first call. Before an
// idle, open connection is handed out it is checked without blocking: if
// the server closed it (or sent bytes nobody asked for), it is closed first,
// so the next call reconnects instead of writing into a dead socket (which
// would make a write's outcome unknown).
//
// Ownership: the pool owns every connection; a Lease borrows one and
// returns it when destroyed. Leases must not outlive the pool.
//
// Shutdown() (idempotent; run by the destructor) fails waiting and later
// Acquire() calls with SHUTDOWN, closes idle connections and interrupts
// calls in progress (their connections then stay dead).
//
// Thread-safety: thread-safe. A Lease belongs to one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include "ThriftHiveMetastore.h"
#include "catalogd/metastore/hms_remote_options.h"
#include "common/rpc/thrift_client.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

using HmsClient = ThriftClient<hive::ThriftHiveMetastoreClient>;

struct HmsPoolStats {
  int64_t connections_made = 0;   // client objects created (each opens lazily)
  int64_t stale_closed = 0;       // idle connections found closed by the server
  int idle = 0;
  int in_use = 0;
};

class HmsClientPool {
 public:
  explicit HmsClientPool(const RemoteMetastoreOptions& options);
  ~HmsClientPool();
  HmsClientPool(const HmsClientPool&) = delete;
  HmsClientPool& operator=(const HmsClientPool&) = delete;

  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), client_(std::move(other.client_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();
    HmsClient& client() { return *client_; }

   private:
    friend class HmsClientPool;
    Lease(HmsClientPool* pool, std::unique_ptr<HmsClient> client)
        : pool_(pool), client_(std::move(client)) {}
    HmsClientPool* pool_;
    std::unique_ptr<HmsClient> client_;
  };

  [[nodiscard]] Result<Lease> Acquire() EXCLUDES(mu_);
  void Shutdown() EXCLUDES(mu_);
  HmsPoolStats stats() const EXCLUDES(mu_);
  const RemoteMetastoreOptions& options() const { return opts_; }

 private:
  void Release(std::unique_ptr<HmsClient> client) EXCLUDES(mu_);

  const RemoteMetastoreOptions opts_;
  const ThriftClientOptions client_opts_;

  mutable Mutex mu_;  // terminal
  CondVar returned_;  // a connection came back (or shutdown)
  bool shutdown_ GUARDED_BY(mu_) = false;
  int total_ GUARDED_BY(mu_) = 0;  // idle + in use
  std::vector<std::unique_ptr<HmsClient>> idle_ GUARDED_BY(mu_);
  std::set<HmsClient*> in_use_ GUARDED_BY(mu_);
  int64_t connections_made_ GUARDED_BY(mu_) = 0;
  int64_t stale_closed_ GUARDED_BY(mu_) = 0;
};

}  // namespace ics::catalog
