#include "catalogd/metastore/sqlite_db.h"

#include <sqlite3.h>

#include <glog/logging.h>

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

// ---- Stmt ----

Stmt::Stmt(sqlite3* db, sqlite3_stmt* stmt, const std::string* sql)
    : db_(db), stmt_(stmt), sql_(sql) {}

Stmt::Stmt(Stmt&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), sql_(other.sql_), bind_rc_(other.bind_rc_) {
  other.stmt_ = nullptr;
}

Stmt::~Stmt() {
  if (stmt_ == nullptr) return;
  // sqlite3_reset repeats the last step's error code; it was reported already.
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Status Stmt::Error(int rc) const {
  return SqliteStatus(rc, sqlite3_errmsg(db_), "sqlite statement '" + *sql_ + "'");
}

Stmt& Stmt::BindText(int idx, std::string_view v) {
  const int rc = sqlite3_bind_text64(stmt_, idx, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Stmt& Stmt::BindBlob(int idx, std::string_view v) {
  // A zero-length blob must still be a blob, not NULL: give SQLite a non-null pointer.
  static const char kEmpty = 0;
  const int rc = sqlite3_bind_blob64(stmt_, idx, v.empty() ? &kEmpty : v.data(), v.size(),
                                     SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Stmt& Stmt::BindInt(int idx, int64_t v) {
  const int rc = sqlite3_bind_int64(stmt_, idx, v);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Stmt& Stmt::BindNull(int idx) {
  const int rc = sqlite3_bind_null(stmt_, idx);
  if (rc != SQLITE_OK && bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

Result<bool> Stmt::Step() {
  if (bind_rc_ != SQLITE_OK) return Error(bind_rc_);
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(rc);
}

Status Stmt::Run() {
  while (true) {
    auto row = Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::OK();
  }
}

std::string_view Stmt::Text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::string_view Stmt::Blob(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

int64_t Stmt::Int(int col) const { return sqlite3_column_int64(stmt_, col); }

bool Stmt::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

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

Connection::~Connection() {
  for (auto& [sql, stmt] : stmts_) sqlite3_finalize(stmt);
  const int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) {
    LOG(WARNING) << "closing metastore database '" << path_ << "': " << sqlite3_errstr(rc);
  }
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

Result<Stmt> Connection::Prepare(const std::string& sql) {
  auto it = stmts_.find(sql);
  if (it == stmts_.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return SqliteStatus(rc, sqlite3_errmsg(db_), "preparing '" + sql + "' on '" + path_ + "'");
    }
    it = stmts_.emplace(sql, stmt).first;
  } else if (sqlite3_stmt_busy(it->second)) {
    return Status::Internal("metastore statement leased twice: '" + sql + "'");
  }
  return Stmt(db_, it->second, &it->first);
}

int64_t Connection::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

int Connection::Changes() const { return sqlite3_changes(db_); }

bool Connection::InTransaction() const { return sqlite3_get_autocommit(db_) == 0; }

void Connection::RollbackQuietly() {
  // After some errors (e.g. SQLITE_FULL, SQLITE_IOERR) SQLite has rolled back
  // already; a second ROLLBACK would only fail.
  if (!InTransaction()) return;
  Status s = Exec("ROLLBACK");
  if (!s.ok()) LOG(WARNING) << "metastore rollback failed: " << s.ToString();
}

// ---- Transaction ----

Transaction::~Transaction() {
  if (active_) conn_->RollbackQuietly();
}

Status Transaction::Begin(Kind kind) {
  ICS_RETURN_IF_ERROR(conn_->Exec(kind == Kind::kImmediate ? "BEGIN IMMEDIATE" : "BEGIN"));
  active_ = true;
  return Status::OK();
}

Status Transaction::Commit() {
  Status s = conn_->Exec("COMMIT");
  if (!s.ok()) return s;  // the destructor rolls back whatever is left open
  active_ = false;
  return Status::OK();
}

}  // namespace ics::catalog::sqlite
