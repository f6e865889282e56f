#include "catalogd/metastore/pg_db.h"

#include <libpq-fe.h>

#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include <glog/logging.h>

namespace ics::catalog::pg {
namespace {

// Type oids of the columns the metastore reads (pg_type; stable across releases).
constexpr Oid kBoolOid = 16;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;

int64_t BigEndian(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  // Sign-extend the narrower integer types.
  const int shift = 64 - 8 * bytes;
  return shift == 0 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << shift) >> shift;
}

std::string Trimmed(const char* msg) {
  std::string s = msg != nullptr ? msg : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::string PgPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      out.push_back('$');
      continue;
    }
    out.push_back(c);
  }
  return out;
}

// ---- Cursor: one prepared statement of the session ----

class Connection::Cursor final : public sqldb::Cursor {
 public:
  Cursor(Connection* owner, std::string name, std::string sql)
      : owner_(owner), name_(std::move(name)), sql_(std::move(sql)) {}
  ~Cursor() override { Clear(); }

  bool busy() const { return leased_; }
  void Lease() { leased_ = true; }

  void BindText(int idx, std::string_view v) override { Set(idx, std::string(v), 1); }
  void BindBlob(int idx, std::string_view v) override { Set(idx, std::string(v), 1); }
  void BindInt(int idx, int64_t v) override { Set(idx, std::to_string(v), 0); }
  void BindNull(int idx) override {
    if (!Grow(idx)) return;
    values_[idx - 1].reset();
  }

  Result<bool> Step() override {
    if (!bind_error_.empty()) return Status::Internal(bind_error_ + " in '" + sql_ + "'");
    if (result_ == nullptr) {
      std::vector<const char*> ptrs(values_.size(), nullptr);
      std::vector<int> lengths(values_.size(), 0);
      for (size_t i = 0; i < values_.size(); ++i) {
        if (values_[i]) {
          ptrs[i] = values_[i]->c_str();
          lengths[i] = static_cast<int>(values_[i]->size());
        }
      }
      result_ = PQexecPrepared(owner_->conn_, name_.c_str(), static_cast<int>(values_.size()),
                               ptrs.data(), lengths.data(), formats_.data(), /*resultFormat=*/1);
      ICS_RETURN_IF_ERROR(owner_->Check(result_, "statement '" + sql_ + "'"));
      row_ = -1;
      rows_ = PQntuples(result_);
      const char* tuples = PQcmdTuples(result_);
      owner_->changes_ = (tuples != nullptr && *tuples != 0) ? std::atoll(tuples) : 0;
    }
    ++row_;
    return row_ < rows_;
  }

  std::string_view Text(int col) const override { return Value(col); }
  std::string_view Blob(int col) const override { return Value(col); }
  int64_t Int(int col) const override {
    std::string_view v = Value(col);
    if (v.empty()) return 0;
    switch (PQftype(result_, col)) {
      case kInt8Oid:
        return v.size() == 8 ? BigEndian(v.data(), 8) : 0;
      case kInt4Oid:
        return v.size() == 4 ? BigEndian(v.data(), 4) : 0;
      case kInt2Oid:
        return v.size() == 2 ? BigEndian(v.data(), 2) : 0;
      case kBoolOid:
        return v[0] != 0 ? 1 : 0;
      default:
        return 0;
    }
  }
  bool IsNull(int col) const override {
    return !OnRow() || col >= PQnfields(result_) || PQgetisnull(result_, row_, col) != 0;
  }

  void Reset() override {
    Clear();
    values_.clear();
    formats_.clear();
    bind_error_.clear();
    leased_ = false;
  }

 private:
  bool OnRow() const { return result_ != nullptr && row_ >= 0 && row_ < rows_; }
  std::string_view Value(int col) const {
    if (IsNull(col)) return {};
    return {PQgetvalue(result_, row_, col), static_cast<size_t>(PQgetlength(result_, row_, col))};
  }
  bool Grow(int idx) {
    if (idx < 1 || idx > 1000) {
      if (bind_error_.empty())
        bind_error_ = "parameter index " + std::to_string(idx) + " out of range";
      return false;
    }
    if (values_.size() < static_cast<size_t>(idx)) {
      values_.resize(idx);
      formats_.resize(idx, 0);
    }
    return true;
  }
  void Set(int idx, std::string v, int format) {
    if (!Grow(idx)) return;
    values_[idx - 1] = std::move(v);
    formats_[idx - 1] = format;
  }
  void Clear() {
    if (result_ != nullptr) PQclear(result_);
    result_ = nullptr;
    row_ = -1;
    rows_ = 0;
  }

  Connection* const owner_;
  const std::string name_;  // server-side prepared statement name
  const std::string sql_;
  std::vector<std::optional<std::string>> values_;
  std::vector<int> formats_;  // 0 text, 1 binary
  std::string bind_error_;
  PGresult* result_ = nullptr;
  int row_ = -1;
  int rows_ = 0;
  bool leased_ = false;
};

// ---- Connection ----

Connection::Connection(PgOptions options) : options_(std::move(options)) {}

Connection::~Connection() { Close(); }

void Connection::Close() {
  stmts_.clear();  // before the session: results belong to it
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
}

Result<std::unique_ptr<Connection>> Connection::Open(const PgOptions& options) {
  std::unique_ptr<Connection> c(new Connection(options));
  ICS_RETURN_IF_ERROR(c->Connect());
  return c;
}

Status Connection::Connect() {
  Close();
  broken_ = false;
  next_statement_ = 0;
  conn_ = PQconnectdb(options_.conninfo.c_str());
  if (conn_ == nullptr) {
    broken_ = true;
    return Status::IoError("cannot connect to the PostgreSQL metastore " + options_.display +
                           ": out of memory");
  }
  if (PQstatus(conn_) != CONNECTION_OK) {
    broken_ = true;
    return Status::IoError("cannot connect to the PostgreSQL metastore " + options_.display + ": " +
                           Trimmed(PQerrorMessage(conn_)));
  }
  const std::string ms = std::to_string(options_.statement_timeout_ms);
  // Bounds on the server side; idle transactions left by a client that
  // vanished are ended by the server too.
  return Exec("SET statement_timeout = " + ms + "; SET lock_timeout = " + ms +
              "; SET idle_in_transaction_session_timeout = " +
              std::to_string(options_.statement_timeout_ms * 4) +
              "; SET client_min_messages = warning; SET synchronous_commit = on");
}

Status Connection::Reconnect() {
  Status s = Connect();
  if (!s.ok()) return s;
  LOG(INFO) << "reconnected to the PostgreSQL metastore " << options_.display;
  return Status::OK();
}

bool Connection::Healthy() const {
  return !broken_ && conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK;
}

Status Connection::Check(PGresult* res, const std::string& what) {
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Status::OK();
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  const std::string code = state != nullptr ? state : "";
  std::string msg = res != nullptr ? Trimmed(PQresultErrorMessage(res)) : "";
  if (msg.empty()) msg = Trimmed(PQerrorMessage(conn_));
  const bool lost = PQstatus(conn_) != CONNECTION_OK || code.rfind("08", 0) == 0 ||
                    code == "57P01" || code == "57P02" || code == "57P03";
  if (lost) broken_ = true;
  msg = "PostgreSQL metastore " + options_.display + ", " + what + ": " + msg +
        (code.empty() ? "" : " (SQLSTATE " + code + ")");
  if (lost) return Status::IoError(msg + "; the connection is lost and will be reopened");
  if (code == "57014" || code == "55P03") return Status::TimedOut(msg);
  if (code == "XX001" || code == "XX002") return Status::Corruption(msg);
  if (code.rfind("23", 0) == 0 || code.rfind("42", 0) == 0 || code.rfind("22", 0) == 0) {
    return Status::Internal(msg);
  }
  return Status::IoError(msg);
}

Status Connection::NotConnected() const {
  return Status::IoError("PostgreSQL metastore " + options_.display + ": not connected");
}

Status Connection::Exec(std::string_view sql) {
  if (!Healthy()) return NotConnected();
  const std::string text(sql);
  PGresult* res = PQexec(conn_, text.c_str());
  Status s = Check(res, "'" + text.substr(0, 60) + "'");
  PQclear(res);
  return s;
}

Result<sqldb::Stmt> Connection::Prepare(const std::string& sql) {
  if (!Healthy()) return NotConnected();
  auto it = stmts_.find(sql);
  if (it == stmts_.end()) {
    const std::string name = "ics_" + std::to_string(next_statement_++);
    PGresult* res = PQprepare(conn_, name.c_str(), PgPlaceholders(sql).c_str(), 0, nullptr);
    Status s = Check(res, "preparing '" + sql + "'");
    PQclear(res);
    ICS_RETURN_IF_ERROR(s);
    it = stmts_.emplace(sql, std::make_unique<Cursor>(this, name, sql)).first;
  } else if (it->second->busy()) {
    return Status::Internal("metastore statement leased twice: '" + sql + "'");
  }
  it->second->Lease();
  return sqldb::Stmt(it->second.get());
}

Status Connection::Begin(sqldb::TxnKind kind) {
  if (kind == sqldb::TxnKind::kRead) return Exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  ICS_RETURN_IF_ERROR(Exec("BEGIN ISOLATION LEVEL READ COMMITTED"));
  // Every writer takes this row lock first: writers run one at a time, in
  // the order they got it, which is their commit order (sql_metastore.h).
  Status s = Exec("SELECT last_id FROM notification_sequence FOR UPDATE");
  if (!s.ok()) RollbackQuietly();
  return s;
}

Status Connection::Commit() {
  if (!Healthy()) return NotConnected();
  PGresult* res = PQexec(conn_, "COMMIT");
  Status s = Check(res, "COMMIT");
  // COMMIT of a failed transaction "succeeds" as a ROLLBACK.
  if (s.ok() && std::strcmp(PQcmdStatus(res), "COMMIT") != 0) {
    s = Status::IoError("PostgreSQL metastore " + options_.display +
                        ": the transaction was rolled back by the server");
  }
  PQclear(res);
  if (!s.ok() && broken_) {
    // The server may or may not have committed: the caller re-reads (metastore.h).
    return s.WithContext("outcome of COMMIT unknown");
  }
  return s;
}

void Connection::RollbackQuietly() {
  if (!InTransaction()) return;
  PGresult* res = PQexec(conn_, "ROLLBACK");
  Status s = Check(res, "ROLLBACK");
  PQclear(res);
  if (!s.ok()) LOG(WARNING) << "metastore rollback failed: " << s.ToString();
}

bool Connection::InTransaction() const {
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) return false;
  const PGTransactionStatusType t = PQtransactionStatus(conn_);
  return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

}  // namespace ics::catalog::pg
