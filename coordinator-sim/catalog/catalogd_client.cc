#include "coordinator-sim/catalog/catalogd_client.h"

#include <utility>

namespace ics::coord {

ThriftClientOptions CatalogdClientOptions(int rpc_timeout_ms,
                                          std::shared_ptr<const TlsContext> tls) {
  ThriftClientOptions c;
  c.send_timeout_ms = rpc_timeout_ms;
  c.recv_timeout_ms = rpc_timeout_ms;
  c.max_message_bytes = 1ll << 30;
  c.tls = std::move(tls);
  return c;
}

CatalogdClient::CatalogdClient(std::string host, int port, ThriftClientOptions options,
                               int max_idle)
    : host_(std::move(host)),
      port_(port),
      options_(options),
      max_idle_(static_cast<size_t>(max_idle > 0 ? max_idle : 1)) {}

std::unique_ptr<CatalogdClient::Client> CatalogdClient::Take(bool* reused) {
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

void CatalogdClient::Give(std::unique_ptr<Client> client) {
  MutexLock l(&mu_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(client));
}

Result<impala::TGetPartialCatalogObjectResponse> CatalogdClient::GetPartialCatalogObject(
    const impala::TGetPartialCatalogObjectRequest& req) {
  impala::TGetPartialCatalogObjectResponse resp;
  ICS_RETURN_IF_ERROR(
      Call("GetPartialCatalogObject", CatalogdRetry::kRetryOnStaleConnection,
           [&](impala::CatalogServiceClient& c) { c.GetPartialCatalogObject(resp, req); }));
  return resp;
}

}  // namespace ics::coord
