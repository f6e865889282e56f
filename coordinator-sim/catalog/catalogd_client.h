// CatalogdClient: a coordinator's connections to catalogd's CatalogService,
// one pool shared by the statement threads (DDL, UpdateCatalog, REFRESH)
// and the on-demand catalog's metadata fetches.
//
// A call takes an idle connection (or opens a new one), runs the RPC and
// gives the connection back; at most max_idle connections are kept. A
// connection whose call failed is dropped, not reused. Each RPC names its
// retry rule:
//   kRetryOnStaleConnection  a read, safe to repeat: a transport error on a
//                            reused connection (catalogd restarted, idle
//                            socket closed) is retried once on a fresh one;
//   kNoRetry                 a write: it may have taken effect, so an error
//                            is returned as it is.
//
// Thread-safety: thread-safe. mu_ is terminal (no RPC runs under it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "CatalogService.h"
#include "common/rpc/thrift_client.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::coord {

enum class CatalogdRetry { kRetryOnStaleConnection, kNoRetry };

// The connection settings: send and receive timeouts of `rpc_timeout_ms`,
// replies up to 1 GiB (a capped partial fetch of 1M file descriptors is
// ~400 MB), TLS when `tls` is set.
ThriftClientOptions CatalogdClientOptions(int rpc_timeout_ms,
                                          std::shared_ptr<const TlsContext> tls);

class CatalogdClient {
 public:
  CatalogdClient(std::string host, int port, ThriftClientOptions options, int max_idle);
  CatalogdClient(const CatalogdClient&) = delete;
  CatalogdClient& operator=(const CatalogdClient&) = delete;

  // Runs `fn(impala::CatalogServiceClient&)` as RPC `name`; errors carry
  // catalogd's address.
  template <typename Fn>
  [[nodiscard]] Status Call(const char* name, CatalogdRetry retry, Fn&& fn) EXCLUDES(mu_) {
    for (int attempt = 0;; ++attempt) {
      bool reused = false;
      std::unique_ptr<Client> client = Take(&reused);
      Status s = client->Call(name, fn);
      if (s.ok()) {
        Give(std::move(client));
        return s;
      }
      if (!(retry == CatalogdRetry::kRetryOnStaleConnection && reused && attempt == 0 &&
            s.Is(ErrorCode::kNetworkError))) {
        return s.WithContext("catalogd " + host_ + ":" + std::to_string(port_));
      }
    }
  }

  // A read (kRetryOnStaleConnection).
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
