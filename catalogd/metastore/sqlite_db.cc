#include "catalogd/metastore/sqlite_db.h"

#include <sqlite3.h>

#include <glog/logging.h>

#include "catalogd/metastore/sqlite_checkpointer.h"

namespace ics::catalog::sqlite {

Status SqliteStatus(int rc, std::string_view errmsg, std::string_view context) {
  std::string msg = std::string(context) + ": " + std::string(errmsg) + " (sqlite code " +
                    std::to_string(rc) + ")";
  switch (rc & 0xFF) {  // primary code of an extended one
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(std::move(msg));
    case SQLITE_CONSTRAINT:
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
      return Status::Internal(std::move(msg));
    default:
      return Status::IoError(std::move(msg));
  }
}

// ---- Cursor: one cached prepared statement ----

class Connection::Cursor final : public sqldb::Cursor {
 public:
  Cursor(sqlite3* db, sqlite3_stmt* stmt, std::string sql)
      : db_(db), stmt_(stmt), sql_(std::move(sql)) {}
  ~Cursor() override { sqlite3_finalize(stmt_); }

  bool busy() const { return leased_; }
  void Lease() { leased_ = true; }

  void BindText(int idx, std::string_view v) override {
    Remember(sqlite3_bind_text64(stmt_, idx, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void BindBlob(int idx, std::string_view v) override {
    // A zero-length blob must still be a blob, not NULL: give SQLite a non-null pointer.
    static const char kEmpty = 0;
    Remember(sqlite3_bind_blob64(stmt_, idx, v.empty() ? &kEmpty : v.data(), v.size(),
                                 SQLITE_TRANSIENT));
  }
  void BindInt(int idx, int64_t v) override { Remember(sqlite3_bind_int64(stmt_, idx, v)); }
  void BindNull(int idx) override { Remember(sqlite3_bind_null(stmt_, idx)); }

  Result<bool> Step() override {
    if (bind_rc_ != SQLITE_OK) return Error(bind_rc_);
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return Error(rc);
  }

  std::string_view Text(int col) const override {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    if (p == nullptr) return {};
    return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
  }
  std::string_view Blob(int col) const override {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
    if (p == nullptr) return {};
    return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
  }
  int64_t Int(int col) const override { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const override { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

  void Reset() override {
    // sqlite3_reset repeats the last step's error code; it was reported already.
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    bind_rc_ = SQLITE_OK;
    leased_ = false;
  }

 private:
  void Remember(int rc) {
    if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  }
  Status Error(int rc) const {
    return SqliteStatus(rc, sqlite3_errmsg(db_), "sqlite statement '" + sql_ + "'");
  }

  sqlite3* const db_;
  sqlite3_stmt* const stmt_;
  const std::string sql_;
  int bind_rc_ = SQLITE_OK;  // first failed bind
  bool leased_ = false;
};

// ---- Connection ----

Result<std::unique_ptr<Connection>> Connection::Open(const std::string& path,
                                                     int busy_timeout_ms) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    Status s = SqliteStatus(rc, db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc),
                            "cannot open metastore database '" + path + "'");
    sqlite3_close(db);  // a handle is returned even on most failures; null is a no-op
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  return std::unique_ptr<Connection>(new Connection(db, path));
}

Connection::Connection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Connection::~Connection() {
  checkpointer_.reset();  // its hook points at it; no commit comes after this
  stmts_.clear();  // finalizes every statement before the handle closes
  const int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) {
    LOG(WARNING) << "closing metastore database '" << path_ << "': " << sqlite3_errstr(rc);
  }
}

Status Connection::CheckpointInBackground(int threshold_pages) {
  if (checkpointer_ != nullptr) return Status::OK();
  ICS_ASSIGN_OR_RETURN(checkpointer_, WalCheckpointer::Start(path_, db_, threshold_pages));
  return Status::OK();
}

Status Connection::Exec(std::string_view sql) {
  const std::string text(sql);
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (rc == SQLITE_OK) return Status::OK();
  Status s = SqliteStatus(rc, err != nullptr ? err : sqlite3_errmsg(db_),
                          "sqlite '" + text.substr(0, 60) + "' on '" + path_ + "'");
  sqlite3_free(err);
  return s;
}

Result<sqldb::Stmt> Connection::Prepare(const std::string& sql) {
  auto it = stmts_.find(sql);
  if (it == stmts_.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return SqliteStatus(rc, sqlite3_errmsg(db_), "preparing '" + sql + "' on '" + path_ + "'");
    }
    it = stmts_.emplace(sql, std::make_unique<Cursor>(db_, stmt, sql)).first;
  } else if (it->second->busy()) {
    return Status::Internal("metastore statement leased twice: '" + sql + "'");
  }
  it->second->Lease();
  return sqldb::Stmt(it->second.get());
}

int64_t Connection::Changes() const { return sqlite3_changes(db_); }

bool Connection::InTransaction() const { return sqlite3_get_autocommit(db_) == 0; }

Status Connection::Begin(sqldb::TxnKind kind) {
  return Exec(kind == sqldb::TxnKind::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
}

Status Connection::Commit() { return Exec("COMMIT"); }

void Connection::RollbackQuietly() {
  // After some errors (e.g. SQLITE_FULL, SQLITE_IOERR) SQLite has rolled back
  // already; a second ROLLBACK would only fail.
  if (!InTransaction()) return;
  Status s = Exec("ROLLBACK");
  if (!s.ok()) LOG(WARNING) << "metastore rollback failed: " << s.ToString();
}

}  // namespace ics::catalog::sqlite
