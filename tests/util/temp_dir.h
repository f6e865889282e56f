// TempDir: a fresh directory under $TMPDIR (or /tmp) for one test, removed
// with everything in it when the object is destroyed.
//
//   ics::testing::TempDir tmp("ics_ddl_test");
//   std::string warehouse = tmp.File("warehouse");
//
// A directory that cannot be created leaves path() empty and ok() false
// (error() says why); nothing is ever removed outside the directory made.
// Header-only and free of gtest, so benchmarks and fuzzers use it too.
//
// Thread-safety: not thread-safe; one owner.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace ics::testing {

class TempDir {
 public:
  // A directory <base>/<prefix>.XXXXXX; `base` "" is $TMPDIR, or /tmp.
  explicit TempDir(std::string_view prefix = "ics_test", std::string base = "") {
    if (base.empty()) {
      const char* env = std::getenv("TMPDIR");
      base = env != nullptr && *env != '\0' ? env : "/tmp";
    }
    std::string tmpl = base + "/" + std::string(prefix) + ".XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) {
      path_ = tmpl;
    } else {
      error_ = "cannot create a temporary directory " + tmpl + ": " + std::strerror(errno);
    }
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty() && !keep_) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool ok() const { return !path_.empty(); }
  // Empty if the directory could not be created.
  const std::string& path() const { return path_; }
  // Leaves the directory in place when this object goes (a failed test's
  // logs, or when asked to keep them).
  void Keep() { keep_ = true; }
  // Why the directory could not be created ("" when ok()).
  const std::string& error() const { return error_; }
  // path() + "/" + name.
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
  std::string error_;
  bool keep_ = false;
};

}  // namespace ics::testing
