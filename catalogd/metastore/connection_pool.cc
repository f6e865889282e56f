#include "catalogd/metastore/connection_pool.h"

#include <utility>

namespace ics::catalog::sqldb {

ConnectionPool::ConnectionPool(std::unique_ptr<Connection> first, Factory factory, int size,
                               std::chrono::milliseconds acquire_timeout)
    : factory_(std::move(factory)), size_(size < 1 ? 1 : size), acquire_timeout_(acquire_timeout) {
  if (first != nullptr) {
    MutexLock l(&mu_);
    idle_.push_back(std::move(first));
    opened_ = 1;
  }
}

ConnectionPool::Lease::~Lease() {
  if (pool_ != nullptr && conn_ != nullptr) pool_->Release(std::move(conn_));
}

void ConnectionPool::Release(std::unique_ptr<Connection> conn) {
  // A lease may end inside a failed transaction; never hand that state on.
  if (conn->InTransaction()) conn->RollbackQuietly();
  MutexLock l(&mu_);
  idle_.push_back(std::move(conn));
  cv_.Signal();
}

Result<ConnectionPool::Lease> ConnectionPool::Acquire() {
  std::unique_ptr<Connection> conn;
  bool open_new = false;
  {
    MutexLock l(&mu_);
    const auto deadline = std::chrono::steady_clock::now() + acquire_timeout_;
    while (idle_.empty() && opened_ >= size_) {
      if (!cv_.WaitUntil(&mu_, deadline) && idle_.empty() && opened_ >= size_) {
        return Status::TimedOut("all " + std::to_string(size_) +
                                " metastore connections are busy (waited " +
                                std::to_string(acquire_timeout_.count()) + " ms)");
      }
    }
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++opened_;  // reserved: opened below, outside the lock
      open_new = true;
    }
  }
  if (open_new) {
    Result<std::unique_ptr<Connection>> opened = factory_();
    if (!opened.ok()) {
      MutexLock l(&mu_);
      --opened_;
      cv_.Signal();
      return opened.status();
    }
    conn = std::move(opened).value();
  }
  if (!conn->Healthy()) {
    Status s = conn->Reconnect();
    if (!s.ok()) {
      Release(std::move(conn));  // kept (still broken): the next Acquire tries again
      return s;
    }
  }
  return Lease(this, std::move(conn));
}

}  // namespace ics::catalog::sqldb
