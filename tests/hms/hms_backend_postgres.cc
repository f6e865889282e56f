// The HMS endpoint tests' metastore for hms_postgres_test: PostgreSQL, a
// fresh database on the run's server per test.
#include "tests/external/metastore_backends.h"
#include "tests/hms/hms_test_util.h"

namespace ics::catalog::hms::testing {

Result<std::unique_ptr<Metastore>> OpenHmsTestMetastore(const std::string& dir) {
  return external::OpenFreshMetastore(external::MetastoreBackend::kPostgres, dir);
}

}  // namespace ics::catalog::hms::testing
