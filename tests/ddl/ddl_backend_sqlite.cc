// The DDL tests' metastore for ddl_test: the embedded SQLite file.
#include "tests/ddl/ddl_test_util.h"
#include "tests/metastore/sqlite_raw.h"

namespace ics::catalog::testing {
namespace {

class SqliteBackend final : public DdlTestBackend {
 public:
  SqliteBackend(std::unique_ptr<Metastore> ms, std::string path)
      : ms_(std::move(ms)), path_(std::move(path)) {}
  Metastore* metastore() override { return ms_.get(); }
  Result<std::unique_ptr<Metastore>> OpenAnother() override { return OpenSqliteMetastore(path_); }
  Status RawSql(const std::string& sql) override { return ExecSqliteFile(path_, sql).status(); }

 private:
  std::unique_ptr<Metastore> ms_;
  const std::string path_;
};

}  // namespace

Result<std::unique_ptr<DdlTestBackend>> OpenDdlTestBackend(const std::string& dir) {
  const std::string path = dir + "/metastore.db";
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<Metastore> ms, OpenSqliteMetastore(path));
  return std::unique_ptr<DdlTestBackend>(new SqliteBackend(std::move(ms), path));
}

}  // namespace ics::catalog::testing
