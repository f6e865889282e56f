// Raw SQL on a metastore's SQLite file, bypassing the metastore: for tests
// that plant what an older build or a broken writer would leave.
//
// Thread-safety: stateless; each call opens its own connection.
#pragma once

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <string>

#include "common/util/result.h"

namespace ics::catalog::testing {

// Runs `sql` on the file; the first column of the last row it returned
// ("" if none), or IO_ERROR with SQLite's message.
inline Result<std::string> ExecSqliteFile(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    return Status::IoError("cannot open " + path);
  }
  sqlite3_busy_timeout(db, 10000);
  std::string last;
  char* err = nullptr;
  const int rc = sqlite3_exec(
      db, sql.c_str(),
      [](void* out, int n, char** vals, char**) {
        if (n > 0 && vals[0] != nullptr) *static_cast<std::string*>(out) = vals[0];
        return 0;
      },
      &last, &err);
  const std::string msg = err != nullptr ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  if (rc != SQLITE_OK) return Status::IoError("raw sql '" + sql + "': " + msg);
  return last;
}

// ExecSqliteFile that must succeed (a test failure otherwise).
inline std::string RawSql(const std::string& path, const std::string& sql) {
  Result<std::string> r = ExecSqliteFile(path, sql);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : "";
}

}  // namespace ics::catalog::testing
