#include "coordinator-sim/catalog/catalogd_client.h"

#include <algorithm>
#include <utility>

#include "common/rpc/status_convert.h"

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
                               int max_idle, int failover_wait_ms)
    : options_(options),
      max_idle_(static_cast<size_t>(max_idle > 0 ? max_idle : 1)),
      failover_wait_(std::max(0, failover_wait_ms)),
      host_(std::move(host)),
      port_(port) {}

CatalogdClient::Pooled CatalogdClient::Take(bool* reused) {
  Pooled p;
  {
    MutexLock l(&mu_);
    if (!idle_.empty()) {
      p = std::move(idle_.back());
      idle_.pop_back();
      *reused = true;
      return p;
    }
    p.generation = generation_;
    p.address = host_ + ":" + std::to_string(port_);
    p.client = std::make_unique<Client>(host_, port_, options_);
  }
  *reused = false;
  return p;
}

void CatalogdClient::Busy(const Pooled& p, bool busy) {
  MutexLock l(&mu_);
  if (busy) {
    busy_[p.client.get()] = p.generation;
  } else {
    busy_.erase(p.client.get());
  }
}

void CatalogdClient::Give(Pooled p) {
  MutexLock l(&mu_);
  if (p.generation == generation_ && idle_.size() < max_idle_) idle_.push_back(std::move(p));
}

void CatalogdClient::SetAddress(std::string host, int port, int64_t designation) {
  std::vector<Pooled> dropped;
  MutexLock l(&mu_);
  if (designation != 0) {
    if (designation <= designation_) return;  // an older announcement, from either statestore
    designation_ = designation;
  }
  if (host == host_ && port == port_) return;
  host_ = std::move(host);
  port_ = port;
  ++generation_;
  dropped.swap(idle_);  // closed when this returns (no RPC runs on idle connections)
  // Calls in flight to the catalogd that is no longer the active one are
  // abandoned: each fails with a transport error, and CallActive repeats it
  // on the new active where the call's rule allows.
  for (const auto& [client, generation] : busy_) {
    if (generation != generation_) client->connection().Interrupt();
  }
  address_cv_.Broadcast();
}

std::string CatalogdClient::address() const {
  MutexLock l(&mu_);
  return host_ + ":" + std::to_string(port_);
}

int64_t CatalogdClient::address_generation() const {
  MutexLock l(&mu_);
  return generation_;
}

void CatalogdClient::WaitForAddressChange(int64_t generation,
                                          std::chrono::steady_clock::time_point deadline) {
  const auto until =
      std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
  MutexLock l(&mu_);
  while (generation_ == generation && std::chrono::steady_clock::now() < until) {
    address_cv_.WaitFor(&mu_, until - std::chrono::steady_clock::now());
  }
}

Result<impala::TGetPartialCatalogObjectResponse> CatalogdClient::GetPartialCatalogObject(
    const impala::TGetPartialCatalogObjectRequest& req, PartitionNames* partition_names) {
  impala::TGetPartialCatalogObjectResponse resp;
  // A standby's refusal is followed to the active catalogd; other error
  // statuses are the caller's to read.
  Status s = CallActive(
      "GetPartialCatalogObject", CatalogdRetry::kRetryOnStaleConnection,
      [&](impala::CatalogServiceClient& c) {
        if (partition_names == nullptr) {
          c.GetPartialCatalogObject(resp, req);
          return;
        }
        c.send_GetPartialCatalogObject(req);
        RecvWithPartitionNames(c, &resp, partition_names);
      },
      [&]() -> Status {
        if (resp.status.status_code == impala::TErrorCode::CATALOG_IN_STANDBY_MODE) {
          return FromTStatus(resp.status);
        }
        return Status::OK();
      });
  ICS_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace ics::coord
