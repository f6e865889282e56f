// The DDL tests' metastore for ddl_test: the embedded SQLite file.
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

class SqliteBackend final : public DdlTestBackend {
 public:
  explicit SqliteBackend(std::unique_ptr<Metastore> ms) : ms_(std::move(ms)) {}
  Metastore* metastore() override { return ms_.get(); }

 private:
  std::unique_ptr<Metastore> ms_;
};

}  // namespace

Result<std::unique_ptr<DdlTestBackend>> OpenDdlTestBackend(const std::string& dir) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<Metastore> ms, OpenSqliteMetastore(dir + "/metastore.db"));
  return std::unique_ptr<DdlTestBackend>(new SqliteBackend(std::move(ms)));
}

}  // namespace ics::catalog::testing
