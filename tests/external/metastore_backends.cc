#include "tests/external/metastore_backends.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "catalogd/metastore/pg_metastore.h"

namespace ics::external {

std::vector<MetastoreBackend> AllMetastoreBackends() {
  return {MetastoreBackend::kSqlite, MetastoreBackend::kPostgres};
}

std::string MetastoreBackendName(const ::testing::TestParamInfo<MetastoreBackend>& info) {
  return info.param == MetastoreBackend::kSqlite ? "Sqlite" : "Postgres";
}

Result<PostgresServer*> SharedPostgresServer() {
  // Stopped and its directory removed at exit (a crashed test's server dies
  // with it, PDEATHSIG).
  static std::unique_ptr<PostgresServer> server;
  static Status start_error;
  if (server == nullptr && start_error.ok()) {
    auto s = std::make_unique<PostgresServer>();
    start_error = s->Start();
    if (start_error.ok()) server = std::move(s);
  }
  if (!start_error.ok()) return start_error.WithContext("the tests' PostgreSQL server");
  if (!server->running()) ICS_RETURN_IF_ERROR(server->Start());
  return server.get();
}

Result<std::string> FreshPostgresDatabase() {
  static int next = 0;
  const std::string name = "ms_" + std::to_string(::getpid()) + "_" + std::to_string(next++);
  // The run's shared server (ctest fixture "postgres"), when there is one.
  if (const char* dir = std::getenv("ICS_TEST_POSTGRES_DIR"); dir != nullptr && *dir != 0) {
    std::ifstream in(std::string(dir) + "/uri_base");
    std::string base;
    if (!std::getline(in, base) || base.empty()) {
      return Status::IoError(std::string("ICS_TEST_POSTGRES_DIR=") + dir +
                             " has no uri_base: did the postgres_fixture_start test run?");
    }
    ICS_RETURN_IF_ERROR(CreatePostgresDatabase(base + "postgres", name));
    return base + name;
  }
  ICS_ASSIGN_OR_RETURN(PostgresServer * server, SharedPostgresServer());
  return server->CreateDatabase(name);
}

Result<std::string> FreshMetastoreUri(MetastoreBackend backend, const std::string& dir) {
  if (backend == MetastoreBackend::kSqlite) return "sqlite:" + dir + "/metastore.db";
  return FreshPostgresDatabase();
}

Result<std::unique_ptr<catalog::Metastore>> OpenFreshMetastore(MetastoreBackend backend,
                                                               const std::string& dir) {
  ICS_ASSIGN_OR_RETURN(std::string uri, FreshMetastoreUri(backend, dir));
  if (backend == MetastoreBackend::kSqlite) {
    return catalog::OpenSqliteMetastore(uri.substr(std::string("sqlite:").size()));
  }
  return catalog::OpenPostgresMetastore(uri);
}

}  // namespace ics::external
