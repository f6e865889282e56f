#include "coordinator-sim/catalog/catalogd_client_pool.h"

#include <utility>

namespace ics::coord {

CatalogdClientPool::CatalogdClientPool(std::string host, int port, ThriftClientOptions options,
                                       int max_idle)
    : host_(std::move(host)),
      port_(port),
      options_(options),
      max_idle_(static_cast<size_t>(max_idle > 0 ? max_idle : 1)) {}

std::unique_ptr<CatalogdClientPool::Client> CatalogdClientPool::Take(bool* reused) {
  {
    MutexLock l(&mu_);
    if (!idle_.empty()) {
      std::unique_ptr<Client> c = std::move(idle_.back());
      idle_.pop_back();
      *reused = true;
      return c;
    }
  }
  *reused = false;
  return std::make_unique<Client>(host_, port_, options_);
}

void CatalogdClientPool::Give(std::unique_ptr<Client> client) {
  MutexLock l(&mu_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(client));
}

Result<impala::TGetPartialCatalogObjectResponse> CatalogdClientPool::GetPartialCatalogObject(
    const impala::TGetPartialCatalogObjectRequest& req) {
  for (int attempt = 0;; ++attempt) {
    bool reused = false;
    std::unique_ptr<Client> client = Take(&reused);
    impala::TGetPartialCatalogObjectResponse resp;
    Status s = client->Call("GetPartialCatalogObject", [&](impala::CatalogServiceClient& c) {
      c.GetPartialCatalogObject(resp, req);
    });
    if (s.ok()) {
      Give(std::move(client));
      return resp;
    }
    if (!(reused && attempt == 0 && s.Is(ErrorCode::kNetworkError))) {
      return s.WithContext("catalogd " + host_ + ":" + std::to_string(port_));
    }
  }
}

}  // namespace ics::coord
