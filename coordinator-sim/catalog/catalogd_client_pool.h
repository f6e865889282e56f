// CatalogdClientPool: connections from a coordinator to catalogd's
// CatalogService, shared by the threads that resolve metadata.
//
// A call takes an idle connection (or opens a new one), runs the RPC and
// gives the connection back; at most max_idle connections are kept. A
// connection that failed is dropped, not reused. A transport error on a
// reused connection (catalogd restarted, idle socket closed) is retried once
// on a fresh connection: GetPartialCatalogObject is a read, safe to repeat.
//
// Thread-safety: thread-safe. mu_ is terminal (no RPC runs under it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "CatalogService.h"
#include "common/rpc/thrift_client.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::coord {

class CatalogdClientPool {
 public:
  CatalogdClientPool(std::string host, int port, ThriftClientOptions options, int max_idle);
  CatalogdClientPool(const CatalogdClientPool&) = delete;
  CatalogdClientPool& operator=(const CatalogdClientPool&) = delete;

  Result<impala::TGetPartialCatalogObjectResponse> GetPartialCatalogObject(
      const impala::TGetPartialCatalogObjectRequest& req) EXCLUDES(mu_);

 private:
  using Client = ThriftClient<impala::CatalogServiceClient>;

  std::unique_ptr<Client> Take(bool* reused) EXCLUDES(mu_);
  void Give(std::unique_ptr<Client> client) EXCLUDES(mu_);

  // Constant after construction.
  const std::string host_;
  const int port_;
  const ThriftClientOptions options_;
  const size_t max_idle_;

  Mutex mu_;  // terminal
  std::vector<std::unique_ptr<Client>> idle_ GUARDED_BY(mu_);
};

}  // namespace ics::coord
