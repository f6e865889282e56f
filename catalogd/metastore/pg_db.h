// The PostgreSQL driver of the SQL database layer (sql_db.h), over libpq,
// private to the metastore.
//
// Statements are prepared once per session (?N becomes $N) and run with
// parameters only: texts and blobs are sent in binary form with their
// lengths, integers as decimal text; results come back in binary form.
//
// Transactions: a write transaction is BEGIN (READ COMMITTED) followed by a
// row lock on notification_sequence, which every writer takes first, so
// writers are serialized from their BEGIN and each statement after the lock
// sees every earlier commit; a read transaction is REPEATABLE READ READ ONLY
// (one snapshot).
//
// Timeouts: connect_timeout for the connection; statement_timeout and
// lock_timeout on the session bound every statement and lock wait on the
// server (TIMED_OUT); TCP keepalives and tcp_user_timeout bound a dead
// server or network on the client side (IO_ERROR). A session whose server
// went away reports itself unhealthy and is reopened by the pool.
//
// Error mapping by SQLSTATE: 08 (connection), 57P01..57P03 (shutdown,
// crash, starting up), 53 (resources), 40 (serialization, deadlock) ->
// IO_ERROR; 57014 (statement timeout) and 55P03 (lock timeout) ->
// TIMED_OUT; XX001/XX002 (data corrupted) -> CORRUPTION; 23 (constraints),
// 42 (syntax, undefined objects), 22 (data) -> INTERNAL: the code checks
// its preconditions first, so one of these means a bug.
//
// Thread-safety: as sql_db.h: one thread at a time per connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "catalogd/metastore/sql_db.h"
#include "common/util/result.h"

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace ics::catalog::pg {

// What OpenPostgresMetastore was given, parsed (see pg_metastore.h).
struct PgOptions {
  std::string conninfo;  // for libpq: the URI without this project's own parameters
  std::string display;   // user@host:port/dbname, for messages (never the password)
  int pool_size = 8;
  int statement_timeout_ms = 30000;
  int acquire_timeout_ms = 30000;
};

class Connection final : public sqldb::Connection {
 public:
  // Connects and applies the session settings; IO_ERROR (with libpq's
  // reason) if the server cannot be reached or refuses.
  static Result<std::unique_ptr<Connection>> Open(const PgOptions& options);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  [[nodiscard]] Status Exec(std::string_view sql) override;
  Result<sqldb::Stmt> Prepare(const std::string& sql) override;
  int64_t Changes() const override { return changes_; }
  [[nodiscard]] Status Begin(sqldb::TxnKind kind) override;
  [[nodiscard]] Status Commit() override;
  void RollbackQuietly() override;
  bool InTransaction() const override;
  bool Healthy() const override;
  [[nodiscard]] Status Reconnect() override;
  const std::string& name() const override { return options_.display; }

  class Cursor;  // pg_db.cc

 private:
  explicit Connection(PgOptions options);
  [[nodiscard]] Status Connect();
  void Close();
  // OK for a successful result; otherwise the mapped error (see above),
  // marking the session broken when the server or network is gone.
  [[nodiscard]] Status Check(PGresult* res, const std::string& what);
  Status NotConnected() const;

  const PgOptions options_;
  PGconn* conn_ = nullptr;
  bool broken_ = false;
  int64_t changes_ = 0;
  int next_statement_ = 0;
  std::unordered_map<std::string, std::unique_ptr<Cursor>> stmts_;
};

// ?1..?n -> $1..$n outside quoted text (the drivers share one statement text).
std::string PgPlaceholders(std::string_view sql);

}  // namespace ics::catalog::pg
