// ConnectionPool: a bounded set of database sessions (sql_db.h) shared by
// the SQL metastore's callers, each handed to one caller at a time.
//
// Sessions are opened on demand, up to `size`; Acquire() waits up to the
// acquire timeout for a free one and then fails with TIMED_OUT ("all N
// metastore connections are busy"). A session that reports itself unhealthy
// (the server restarted or the network dropped) is reconnected before it is
// handed out again; if that fails, Acquire() returns the failure (IO_ERROR)
// and the next Acquire() tries again, so the metastore recovers by itself
// once the server is back.
//
// Thread-safety: thread-safe. A Lease must not outlive the pool.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/metastore/sql_db.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog::sqldb {

class ConnectionPool {
 public:
  using Factory = std::function<Result<std::unique_ptr<Connection>>()>;

  // `first` (may be null) is an open session to start with; `factory` opens
  // more. size >= 1.
  ConnectionPool(std::unique_ptr<Connection> first, Factory factory, int size,
                 std::chrono::milliseconds acquire_timeout);
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), conn_(std::move(other.conn_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    Connection* get() const { return conn_.get(); }
    Connection* operator->() const { return conn_.get(); }

   private:
    friend class ConnectionPool;
    Lease(ConnectionPool* pool, std::unique_ptr<Connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    ConnectionPool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  // A healthy session for the caller alone, until the lease ends.
  Result<Lease> Acquire() EXCLUDES(mu_);

  int size() const { return size_; }

 private:
  void Release(std::unique_ptr<Connection> conn) EXCLUDES(mu_);

  const Factory factory_;
  const int size_;
  const std::chrono::milliseconds acquire_timeout_;
  Mutex mu_;
  CondVar cv_;
  std::vector<std::unique_ptr<Connection>> idle_ GUARDED_BY(mu_);
  int opened_ GUARDED_BY(mu_) = 0;  // sessions idle, leased or being opened
};

}  // namespace ics::catalog::sqldb
