// A thin RAII layer over the SQLite3 C API, private to the metastore.
//
//   Connection   one sqlite3* handle plus a cache of prepared statements.
//   Stmt         a prepared statement leased from the cache; binds, steps,
//                reads columns; resets itself (and clears bindings) when it
//                goes out of scope, so the next lease starts clean.
//   Transaction  BEGIN [IMMEDIATE] ... COMMIT, rolled back on destruction
//                unless committed.
//
// Every SQLite failure becomes a Status (see SqliteStatus); nothing here
// throws or aborts.
//
// Thread-safety: NOT thread-safe. A Connection and everything leased from it
// must be used by one thread at a time; SqliteMetastore serializes all use
// under its mutex. Column values returned as string_view stay valid only
// until the next Step() or the end of the lease.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/util/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ics::catalog::sqlite {

// Maps an SQLite result code to a Status with `context` and SQLite's message:
// SQLITE_CORRUPT / SQLITE_NOTADB -> CORRUPTION; SQLITE_CONSTRAINT,
// SQLITE_MISUSE, SQLITE_RANGE -> INTERNAL (our statements are wrong or the
// data breaks an invariant the code checks first); everything else (I/O,
// full disk, busy after the timeout, cannot open, read-only, ...) -> IO_ERROR.
Status SqliteStatus(int rc, std::string_view errmsg, std::string_view context);

class Stmt {
 public:
  Stmt(Stmt&& other) noexcept;
  Stmt& operator=(Stmt&&) = delete;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt();

  // Binders take 1-based parameter indexes. A binding error is remembered and
  // returned by the next Step()/Run(). Text and blobs are copied by SQLite.
  Stmt& BindText(int idx, std::string_view v);
  Stmt& BindBlob(int idx, std::string_view v);
  Stmt& BindInt(int idx, int64_t v);
  Stmt& BindNull(int idx);

  // Advances: true if a row is available, false when done.
  [[nodiscard]] Result<bool> Step();
  // Steps to completion, for statements that return no rows.
  [[nodiscard]] Status Run();

  // Column readers (0-based) for the current row. NULL reads as "" / 0.
  std::string_view Text(int col) const;
  std::string_view Blob(int col) const;
  int64_t Int(int col) const;
  bool IsNull(int col) const;

 private:
  friend class Connection;
  Stmt(sqlite3* db, sqlite3_stmt* stmt, const std::string* sql);
  Status Error(int rc) const;

  sqlite3* db_;
  sqlite3_stmt* stmt_;     // owned by the Connection's cache
  const std::string* sql_;  // for error messages; owned by the cache
  int bind_rc_ = 0;        // first failed bind, SQLITE_OK if none
};

class Connection {
 public:
  // Opens (creating if needed) the database file at `path` with extended
  // result codes and a busy timeout. No pragmas or schema: see sqlite_schema.h.
  static Result<std::unique_ptr<Connection>> Open(const std::string& path, int busy_timeout_ms);
  ~Connection();  // finalizes cached statements and closes the handle
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more statements that return no rows (DDL, pragmas).
  [[nodiscard]] Status Exec(std::string_view sql);
  // Leases the cached prepared statement for `sql`, preparing it on first
  // use. INTERNAL if that statement is already leased and mid-step.
  Result<Stmt> Prepare(const std::string& sql);

  int64_t LastInsertRowId() const;
  // Rows changed by the last INSERT/UPDATE/DELETE.
  int Changes() const;
  bool InTransaction() const;
  // Rolls back the open transaction, if any. Failures are logged: there is
  // nothing more a caller could do.
  void RollbackQuietly();
  const std::string& path() const { return path_; }

 private:
  Connection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

  sqlite3* const db_;
  const std::string path_;
  std::unordered_map<std::string, sqlite3_stmt*> stmts_;
};

class Transaction {
 public:
  explicit Transaction(Connection* conn) : conn_(conn) {}
  ~Transaction();  // rolls back unless Commit() succeeded
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // BEGIN IMMEDIATE takes the write lock now (waiting up to the busy timeout)
  // so a writer never fails half-way on lock upgrade; BEGIN DEFERRED is for
  // reads that need one consistent snapshot over several statements.
  enum class Kind { kDeferred, kImmediate };
  [[nodiscard]] Status Begin(Kind kind);
  [[nodiscard]] Status Commit();

 private:
  Connection* const conn_;
  bool active_ = false;
};

}  // namespace ics::catalog::sqlite
