#include "catalogd/metastore/hms_remote_pool.h"

#include <poll.h>

#include <chrono>

#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

namespace ics::catalog {
namespace {

ThriftClientOptions ClientOptions(const RemoteMetastoreOptions& o) {
  ThriftClientOptions c;
  c.connect_timeout_ms = o.connect_timeout_ms;
  c.send_timeout_ms = o.rpc_timeout_ms;
  c.recv_timeout_ms = o.rpc_timeout_ms;
  c.max_message_bytes = o.max_message_bytes;
  if (o.ssl) c.tls = o.tls;
  return c;
}

// An idle connection has no reply outstanding, so anything readable on it
// (EOF from a server that closed it, an error, stray bytes) means it cannot
// carry another call. poll() with a zero timeout never blocks.
bool IdleConnectionIsBroken(ThriftConnection& conn) {
  if (!conn.is_open()) return false;
  auto buffered = std::dynamic_pointer_cast<apache::thrift::transport::TBufferedTransport>(
      conn.protocol()->getTransport());
  if (!buffered) return false;
  auto socket = std::dynamic_pointer_cast<apache::thrift::transport::TSocket>(
      buffered->getUnderlyingTransport());
  if (!socket) return false;
  pollfd p{};
  p.fd = socket->getSocketFD();
  p.events = POLLIN;
  return ::poll(&p, 1, 0) != 0;
}

}  // namespace

HmsClientPool::HmsClientPool(const RemoteMetastoreOptions& options)
    : opts_(options), client_opts_(ClientOptions(options)) {}

HmsClientPool::~HmsClientPool() { Shutdown(); }

HmsClientPool::Lease::~Lease() {
  if (pool_ != nullptr && client_ != nullptr) pool_->Release(std::move(client_));
}

Result<HmsClientPool::Lease> HmsClientPool::Acquire() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts_.pool_wait_ms);
  std::unique_ptr<HmsClient> client;
  {
    MutexLock l(&mu_);
    while (true) {
      if (shutdown_) {
        return Status::Shutdown("the connection pool to metastore " + opts_.Address() +
                                " is shut down");
      }
      if (!idle_.empty()) {
        client = std::move(idle_.back());
        idle_.pop_back();
        break;
      }
      if (total_ < opts_.pool_size) {
        client = std::make_unique<HmsClient>(opts_.host, opts_.port, client_opts_);
        ++total_;
        ++connections_made_;
        break;
      }
      returned_.WaitUntil(&mu_, deadline);
      if (std::chrono::steady_clock::now() >= deadline && idle_.empty() && !shutdown_ &&
          total_ >= opts_.pool_size) {
        return Status::TimedOut("no free connection to metastore " + opts_.Address() +
                                " within " + std::to_string(opts_.pool_wait_ms) + " ms (all " +
                                std::to_string(opts_.pool_size) + " are busy)");
      }
    }
    in_use_.insert(client.get());
  }
  if (IdleConnectionIsBroken(client->connection())) {
    client->connection().Close();
    MutexLock l(&mu_);
    ++stale_closed_;
  }
  return Lease(this, std::move(client));
}

void HmsClientPool::Release(std::unique_ptr<HmsClient> client) {
  std::unique_ptr<HmsClient> doomed;
  {
    MutexLock l(&mu_);
    in_use_.erase(client.get());
    if (shutdown_) {
      --total_;
      doomed = std::move(client);  // closed outside the lock
    } else {
      idle_.push_back(std::move(client));
    }
  }
  returned_.Signal();
}

void HmsClientPool::Shutdown() {
  std::vector<std::unique_ptr<HmsClient>> idle;
  {
    MutexLock l(&mu_);
    if (shutdown_) return;
    shutdown_ = true;
    idle.swap(idle_);
    total_ -= static_cast<int>(idle.size());
    // Unblocks calls in progress; their owners see a transport error.
    for (HmsClient* c : in_use_) c->connection().Interrupt();
  }
  returned_.Broadcast();
  // `idle` closes its connections when it goes out of scope.
}

HmsPoolStats HmsClientPool::stats() const {
  MutexLock l(&mu_);
  HmsPoolStats s;
  s.connections_made = connections_made_;
  s.stale_closed = stale_closed_;
  s.idle = static_cast<int>(idle_.size());
  s.in_use = static_cast<int>(in_use_.size());
  return s;
}

}  // namespace ics::catalog
