// The SQLite driver of the SQL database layer (sql_db.h), private to the
// metastore: one sqlite3* handle with a cache of prepared statements.
//
// Transactions: a write transaction is BEGIN IMMEDIATE (the file's write
// lock is taken at BEGIN, waiting up to the busy timeout, so a writer never
// fails half-way on lock upgrade); a read transaction is a deferred BEGIN.
//
// Error mapping (SqliteStatus): SQLITE_CORRUPT / SQLITE_NOTADB ->
// CORRUPTION; SQLITE_CONSTRAINT, SQLITE_MISUSE, SQLITE_RANGE -> INTERNAL;
// everything else (I/O, full disk, busy after the timeout, cannot open,
// read-only, ...) -> IO_ERROR.
//
// Thread-safety: as sql_db.h: one thread at a time per connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "catalogd/metastore/sql_db.h"
#include "common/util/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ics::catalog::sqlite {

Status SqliteStatus(int rc, std::string_view errmsg, std::string_view context);

class WalCheckpointer;  // sqlite_checkpointer.h

class Connection final : public sqldb::Connection {
 public:
  // Opens (creating if needed) the database file at `path` with extended
  // result codes and a busy timeout. No pragmas or schema: see sqlite_schema.h.
  static Result<std::unique_ptr<Connection>> Open(const std::string& path, int busy_timeout_ms);
  ~Connection() override;  // finalizes cached statements and closes the handle

  // From now on WAL checkpoints run on a thread of their own, requested by
  // the commits that leave the WAL at `threshold_pages` or more, instead of
  // inside those commits (sqlite_checkpointer.h). Call once, in WAL mode.
  [[nodiscard]] Status CheckpointInBackground(int threshold_pages);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  [[nodiscard]] Status Exec(std::string_view sql) override;
  Result<sqldb::Stmt> Prepare(const std::string& sql) override;
  int64_t Changes() const override;
  [[nodiscard]] Status Begin(sqldb::TxnKind kind) override;
  [[nodiscard]] Status Commit() override;
  void RollbackQuietly() override;
  bool InTransaction() const override;
  const std::string& name() const override { return path_; }

  class Cursor;  // sqlite_db.cc

 private:
  Connection(sqlite3* db, std::string path);

  sqlite3* const db_;
  const std::string path_;
  std::unordered_map<std::string, std::unique_ptr<Cursor>> stmts_;
  std::unique_ptr<WalCheckpointer> checkpointer_;  // stopped before the handle closes
};

}  // namespace ics::catalog::sqlite
