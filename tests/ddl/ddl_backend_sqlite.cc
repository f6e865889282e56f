// The DDL tests' metastore for ddl_test: the embedded SQLite file.
#include <sqlite3.h>

#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

class SqliteBackend final : public DdlTestBackend {
 public:
  SqliteBackend(std::unique_ptr<Metastore> ms, std::string path)
      : ms_(std::move(ms)), path_(std::move(path)) {}
  Metastore* metastore() override { return ms_.get(); }
  Result<std::unique_ptr<Metastore>> OpenAnother() override { return OpenSqliteMetastore(path_); }
  Status RawSql(const std::string& sql) override {
    sqlite3* db = nullptr;
    if (sqlite3_open(path_.c_str(), &db) != SQLITE_OK) {
      sqlite3_close(db);
      return Status::IoError("cannot open " + path_);
    }
    sqlite3_busy_timeout(db, 10000);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    Status s = rc == SQLITE_OK ? Status::OK()
                               : Status::IoError(std::string("raw sql: ") + (err ? err : "?"));
    sqlite3_free(err);
    sqlite3_close(db);
    return s;
  }

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
