// The DDL tests' metastore for ddl_postgres_test: the PostgreSQL metastore,
// a fresh database on the run's PostgreSQL server per test, so every DDL
// test also runs against the production store.
#include <libpq-fe.h>

#include "catalogd/metastore/pg_metastore.h"
#include "tests/ddl/ddl_test_util.h"
#include "tests/external/metastore_backends.h"

namespace ics::catalog::testing {
namespace {

class PostgresBackend final : public DdlTestBackend {
 public:
  PostgresBackend(std::unique_ptr<Metastore> ms, std::string uri)
      : ms_(std::move(ms)), uri_(std::move(uri)) {}
  Metastore* metastore() override { return ms_.get(); }
  Result<std::unique_ptr<Metastore>> OpenAnother() override { return OpenPostgresMetastore(uri_); }
  Status RawSql(const std::string& sql) override {
    PGconn* conn = PQconnectdb(uri_.c_str());
    Status s;
    if (PQstatus(conn) != CONNECTION_OK) {
      s = Status::IoError(std::string("raw sql: ") + PQerrorMessage(conn));
    } else {
      PGresult* r = PQexec(conn, sql.c_str());
      const ExecStatusType st = PQresultStatus(r);
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        s = Status::IoError(std::string("raw sql: ") + PQresultErrorMessage(r));
      }
      PQclear(r);
    }
    PQfinish(conn);
    return s;
  }

 private:
  std::unique_ptr<Metastore> ms_;
  const std::string uri_;
};

}  // namespace

Result<std::unique_ptr<DdlTestBackend>> OpenDdlTestBackend(const std::string& dir) {
  ICS_ASSIGN_OR_RETURN(std::string uri, external::FreshPostgresDatabase());
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<Metastore> ms, OpenPostgresMetastore(uri));
  return std::unique_ptr<DdlTestBackend>(new PostgresBackend(std::move(ms), uri));
}

}  // namespace ics::catalog::testing
