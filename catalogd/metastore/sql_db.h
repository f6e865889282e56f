// The SQL database layer under the SQL metastore (sql_metastore.h), private
// to the metastore: one interface, two drivers (SQLite: sqlite_db.h;
// PostgreSQL: pg_db.h).
//
//   Connection   one database session plus a cache of prepared statements.
//                Statements are written once for both drivers, with ?1..?n
//                parameters (the PostgreSQL driver sends them as $1..$n).
//   Stmt         a prepared statement leased from the connection's cache:
//                binds, steps, reads columns of the current row; the lease
//                ends (bindings and results cleared) when it goes out of scope.
//   Transaction  BEGIN ... COMMIT, rolled back on destruction unless
//                committed. A write transaction excludes every other writer
//                of the same database from its start (SQLite: BEGIN
//                IMMEDIATE; PostgreSQL: a row lock every writer takes first),
//                so writers are serialized in commit order and every check a
//                writer makes still holds when it commits. A read
//                transaction sees one consistent snapshot.
//
// Every database failure becomes a Status; nothing here throws or aborts.
// Drivers map their codes so that callers see: CORRUPTION for a damaged
// database; INTERNAL for a statement or constraint the code got wrong;
// TIMED_OUT when a statement or lock wait ran past its deadline; IO_ERROR
// for everything else (I/O, full disk, lost connection, busy after the
// timeout, server shutting down).
//
// Thread-safety: NOT thread-safe. A Connection and everything leased from it
// must be used by one thread at a time (the metastore's ConnectionPool hands
// each connection to one caller at a time). Column values returned as
// string_view stay valid only until the next Step() or the end of the lease.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics::catalog::sqldb {

// One prepared statement of a driver, behind a Stmt lease.
class Cursor {
 public:
  virtual ~Cursor() = default;
  // 1-based parameter indexes; a failure is remembered and returned by the
  // next Step().
  virtual void BindText(int idx, std::string_view v) = 0;
  virtual void BindBlob(int idx, std::string_view v) = 0;
  virtual void BindInt(int idx, int64_t v) = 0;
  virtual void BindNull(int idx) = 0;
  // Executes on the first call; true while a row is available.
  virtual Result<bool> Step() = 0;
  // 0-based columns of the current row; NULL reads as "" / 0.
  virtual std::string_view Text(int col) const = 0;
  virtual std::string_view Blob(int col) const = 0;
  virtual int64_t Int(int col) const = 0;
  virtual bool IsNull(int col) const = 0;
  // The lease ended: forget bindings and results.
  virtual void Reset() = 0;
};

class Stmt {
 public:
  explicit Stmt(Cursor* cursor) : cursor_(cursor) {}
  Stmt(Stmt&& other) noexcept : cursor_(other.cursor_) { other.cursor_ = nullptr; }
  Stmt& operator=(Stmt&&) = delete;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt() {
    if (cursor_ != nullptr) cursor_->Reset();
  }

  Stmt& BindText(int idx, std::string_view v) {
    cursor_->BindText(idx, v);
    return *this;
  }
  Stmt& BindBlob(int idx, std::string_view v) {
    cursor_->BindBlob(idx, v);
    return *this;
  }
  Stmt& BindInt(int idx, int64_t v) {
    cursor_->BindInt(idx, v);
    return *this;
  }
  Stmt& BindNull(int idx) {
    cursor_->BindNull(idx);
    return *this;
  }

  // Advances: true if a row is available, false when done.
  [[nodiscard]] Result<bool> Step() { return cursor_->Step(); }
  // Steps to completion, for statements that return no rows.
  [[nodiscard]] Status Run();

  std::string_view Text(int col) const { return cursor_->Text(col); }
  std::string_view Blob(int col) const { return cursor_->Blob(col); }
  int64_t Int(int col) const { return cursor_->Int(col); }
  bool IsNull(int col) const { return cursor_->IsNull(col); }

 private:
  Cursor* cursor_;
};

enum class TxnKind {
  kRead,   // one consistent snapshot over several statements
  kWrite,  // excludes every other writer from BEGIN to COMMIT
};

class Connection {
 public:
  virtual ~Connection() = default;

  // Runs one or more statements that return no rows (DDL, settings).
  [[nodiscard]] virtual Status Exec(std::string_view sql) = 0;
  // Leases the cached prepared statement for `sql` (?1..?n parameters),
  // preparing it on first use. INTERNAL if that statement is leased already.
  virtual Result<Stmt> Prepare(const std::string& sql) = 0;
  // Rows changed by the last INSERT/UPDATE/DELETE.
  virtual int64_t Changes() const = 0;

  [[nodiscard]] virtual Status Begin(TxnKind kind) = 0;
  [[nodiscard]] virtual Status Commit() = 0;
  // Rolls back the open transaction, if any. Failures are logged: there is
  // nothing more a caller could do.
  virtual void RollbackQuietly() = 0;
  virtual bool InTransaction() const = 0;

  // False once the session is unusable (the server went away); the pool
  // then reconnects before handing it out again.
  virtual bool Healthy() const { return true; }
  // Opens a fresh session in place of a broken one (prepared statements are
  // forgotten). NOT_IMPLEMENTED for drivers whose sessions cannot break.
  [[nodiscard]] virtual Status Reconnect() {
    return Status::NotImplemented("this metastore connection cannot reconnect");
  }

  // What the connection is to, for messages: a file path, or user@host:port/db.
  virtual const std::string& name() const = 0;
};

class Transaction {
 public:
  explicit Transaction(Connection* conn) : conn_(conn) {}
  ~Transaction() {
    if (active_) conn_->RollbackQuietly();
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  [[nodiscard]] Status Begin(TxnKind kind);
  [[nodiscard]] Status Commit();

 private:
  Connection* const conn_;
  bool active_ = false;
};

}  // namespace ics::catalog::sqldb
