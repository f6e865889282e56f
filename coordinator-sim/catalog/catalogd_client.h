// CatalogdClient: a coordinator's connections to catalogd's CatalogService,
// one pool shared by the statement threads (DDL, UpdateCatalog, REFRESH)
// and the on-demand catalog's metadata fetches.
//
// A call takes an idle connection (or opens a new one), runs the RPC and
// gives the connection back; at most max_idle connections are kept. A
// connection whose call failed is dropped, not reused. Each RPC names its
// retry rule:
//   kRetryOnStaleConnection  safe to repeat: a read, a write that changes
//                            nothing when repeated (REFRESH, INVALIDATE,
//                            UpdateCatalog's re-listing) or one that carries
//                            a request id catalogd records with its change
//                            (ExecDdl: exactly once). A transport error on a
//                            reused connection (catalogd restarted, idle
//                            socket closed) is retried once on a fresh one;
//   kNoRetry                 a write that may have taken effect: an error
//                            is returned as it is.
//
// catalogd HA: SetAddress() points the pool at the newly designated active
// catalogd (the coordinator's subscriber calls it); connections to the old
// one are not reused, and calls in flight to it are abandoned (their
// sockets shut down): a paused or replaced catalogd does not hold a
// statement for the length of its pause. Such a call fails with a transport
// error, which CallActive repeats on the new active when its rule allows. CallActive() follows failovers for one call: when the
// answer is CATALOG_IN_STANDBY_MODE (refused unexecuted), or the connection
// could not be opened (nothing sent), or a call safe to repeat lost its
// reply, it waits for the next designation (or a moment, for a catalogd
// still taking over) and calls again, for at most `failover_wait_ms`. A
// kNoRetry call whose reply was lost is never repeated.
//
// Thread-safety: thread-safe. No RPC runs under mu_; SetAddress interrupts
// connections in flight under it (mu_ before a connection's own lock, never
// after).
#pragma once

#include <chrono>
#include <map>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "CatalogService.h"
#include "common/rpc/thrift_client.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "coordinator-sim/catalog/partition_name_stream.h"

namespace ics::coord {

enum class CatalogdRetry { kRetryOnStaleConnection, kNoRetry };

// The connection settings: send and receive timeouts of `rpc_timeout_ms`,
// replies up to 1 GiB (a capped partial fetch of 1M file descriptors is
// ~400 MB), TLS when `tls` is set.
ThriftClientOptions CatalogdClientOptions(int rpc_timeout_ms,
                                          std::shared_ptr<const TlsContext> tls);

class CatalogdClient {
 public:
  // failover_wait_ms: CallActive's bound (0: calls are not repeated).
  CatalogdClient(std::string host, int port, ThriftClientOptions options, int max_idle,
                 int failover_wait_ms = 0);
  CatalogdClient(const CatalogdClient&) = delete;
  CatalogdClient& operator=(const CatalogdClient&) = delete;

  // Runs `fn(impala::CatalogServiceClient&)` as RPC `name`; errors carry
  // catalogd's address.
  template <typename Fn>
  [[nodiscard]] Status Call(const char* name, CatalogdRetry retry, Fn&& fn) EXCLUDES(mu_) {
    bool sent = false;
    return CallOnce(name, retry, fn, &sent);
  }

  // Call(), then `outcome()` (the response's status), following catalogd
  // failovers as described above.
  template <typename Fn, typename Outcome>
  [[nodiscard]] Status CallActive(const char* name, CatalogdRetry retry, Fn&& fn, Outcome&& outcome)
      EXCLUDES(mu_) {
    const auto deadline = std::chrono::steady_clock::now() + failover_wait_;
    while (true) {
      const int64_t generation = address_generation();
      bool sent = false;
      Status s = CallOnce(name, retry, fn, &sent);
      if (s.ok()) s = outcome();
      const bool refused = s.Is(ErrorCode::kCatalogInStandbyMode);
      const bool unsent_or_read = s.Is(ErrorCode::kNetworkError) &&
                                  (!sent || retry == CatalogdRetry::kRetryOnStaleConnection);
      if (failover_wait_.count() <= 0 || !(refused || unsent_or_read)) return s;
      if (std::chrono::steady_clock::now() >= deadline) {
        return s.WithContext("no active catalogd answered within " +
                             std::to_string(failover_wait_.count()) + " ms");
      }
      WaitForAddressChange(generation, deadline);
    }
  }

  // Points new calls at host:port (a newly designated active catalogd).
  // With `designation` (its designation version, which grows across the
  // statestored HA pair) an announcement older than one already followed is
  // ignored: the two statestores' subscribers both report designations, in
  // any order.
  void SetAddress(std::string host, int port, int64_t designation = 0) EXCLUDES(mu_);
  std::string address() const EXCLUDES(mu_);
  // Incremented by every SetAddress.
  int64_t address_generation() const EXCLUDES(mu_);

  // A read (kRetryOnStaleConnection).
  // With `partition_names`: the reply's table_info.partitions are read as
  // (id, name) pairs into it and left empty in the response (for a table
  // fetched with want_partition_names and no partition metadata; see
  // partition_name_stream.h).
  Result<impala::TGetPartialCatalogObjectResponse> GetPartialCatalogObject(
      const impala::TGetPartialCatalogObjectRequest& req,
      PartitionNames* partition_names = nullptr) EXCLUDES(mu_);

 private:
  using Client = ThriftClient<impala::CatalogServiceClient>;
  struct Pooled {
    std::unique_ptr<Client> client;
    int64_t generation = 0;  // the address it was opened to
    std::string address;
  };

  template <typename Fn>
  [[nodiscard]] Status CallOnce(const char* name, CatalogdRetry retry, Fn& fn, bool* sent)
      EXCLUDES(mu_) {
    for (int attempt = 0;; ++attempt) {
      bool reused = false;
      Pooled p = Take(&reused);
      *sent = false;
      Status s = p.client->connection().Open();
      if (s.ok()) {
        *sent = true;
        Busy(p, true);
        s = p.client->Call(name, fn);
        Busy(p, false);
      }
      if (s.ok()) {
        Give(std::move(p));
        return s;
      }
      if (!(retry == CatalogdRetry::kRetryOnStaleConnection && reused && attempt == 0 &&
            s.Is(ErrorCode::kNetworkError))) {
        return s.WithContext("catalogd " + p.address);
      }
    }
  }
  Pooled Take(bool* reused) EXCLUDES(mu_);
  // Marks `p` as running a call (SetAddress interrupts it) or done.
  void Busy(const Pooled& p, bool busy) EXCLUDES(mu_);
  void Give(Pooled client) EXCLUDES(mu_);
  // Waits until the address generation moves past `generation`, for at
  // most 100 ms and never beyond `deadline`.
  void WaitForAddressChange(int64_t generation, std::chrono::steady_clock::time_point deadline)
      EXCLUDES(mu_);

  // Constant after construction.
  const ThriftClientOptions options_;
  const size_t max_idle_;
  const std::chrono::milliseconds failover_wait_;

  mutable Mutex mu_;  // terminal
  CondVar address_cv_;
  std::string host_ GUARDED_BY(mu_);
  int port_ GUARDED_BY(mu_);
  int64_t generation_ GUARDED_BY(mu_) = 0;
  int64_t designation_ GUARDED_BY(mu_) = 0;  // of the address followed (0: none given)
  std::vector<Pooled> idle_ GUARDED_BY(mu_);
  // Connections running a call, with the address generation they were
  // opened to.
  std::map<Client*, int64_t> busy_ GUARDED_BY(mu_);
};

}  // namespace ics::coord
