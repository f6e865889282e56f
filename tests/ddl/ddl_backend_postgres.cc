// The DDL tests' metastore for ddl_postgres_test: the PostgreSQL metastore,
// a fresh database on the run's PostgreSQL server per test, so every DDL
// test also runs against the production store.
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
  Status RawSql(const std::string& sql) override { return external::ExecPostgres(uri_, sql); }


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
