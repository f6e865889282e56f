// The HMS endpoint tests' metastore for hms_test: the embedded SQLite file.
#include "tests/hms/hms_test_util.h"

namespace ics::catalog::hms::testing {

Result<std::unique_ptr<Metastore>> OpenHmsTestMetastore(const std::string& dir) {
  return OpenSqliteMetastore(dir + "/metastore.db");
}

}  // namespace ics::catalog::hms::testing
