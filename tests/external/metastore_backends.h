// The metastore backends a parameterized suite runs against: the embedded
// SQLite file and PostgreSQL (the server the ctest run shares, or a private
// one this process starts on first use; each call gets a database of its
// own).
//
//   INSTANTIATE_TEST_SUITE_P(Backends, MySuite, ::testing::ValuesIn(AllMetastoreBackends()),
//                            MetastoreBackendName);
//   auto uri = FreshMetastoreUri(GetParam(), tmp.path());   // for --metastore
//   auto ms = OpenFreshMetastore(GetParam(), tmp.path());   // an open Metastore
//
// Thread-safety: call from the test's main thread (the server is started
// there, see external_process.h on PDEATHSIG).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalogd/metastore/metastore.h"
#include "common/util/result.h"
#include "tests/external/postgres_server.h"

namespace ics::external {

enum class MetastoreBackend { kSqlite, kPostgres };

std::vector<MetastoreBackend> AllMetastoreBackends();
// "Sqlite" / "Postgres", as gtest parameter names.
std::string MetastoreBackendName(const ::testing::TestParamInfo<MetastoreBackend>& info);

// A --metastore value for a new, empty metastore: sqlite:<dir>/metastore.db,
// or a new database on this process's PostgreSQL server.
Result<std::string> FreshMetastoreUri(MetastoreBackend backend, const std::string& dir);
Result<std::unique_ptr<catalog::Metastore>> OpenFreshMetastore(MetastoreBackend backend,
                                                               const std::string& dir);

// A new database on the run's shared server (the ctest fixture, found
// through $ICS_TEST_POSTGRES_DIR) or, without one, on this process's
// server; its URI.
Result<std::string> FreshPostgresDatabase();

// This process's own PostgreSQL server, started on first use: for tests
// that stop and restart the server. The status says why it cannot run.
Result<PostgresServer*> SharedPostgresServer();

}  // namespace ics::external
