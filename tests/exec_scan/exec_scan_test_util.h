// Helpers shared by the ExecScan* tests.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace ics::coord::testing {

// A fresh directory removed (with its contents) on destruction.
class ScopedTempDir {
 public:
  ScopedTempDir() {
    std::string tmpl = ::testing::TempDir() + "exec_scan_XXXXXX";
    char* p = ::mkdtemp(tmpl.data());
    EXPECT_NE(p, nullptr);
    path_ = tmpl;
  }
  ~ScopedTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace ics::coord::testing

#define ASSERT_RESULT_OK(expr)                                 \
  do {                                                    \
    const auto& _st = (expr);                             \
    ASSERT_TRUE(_st.ok()) << _st.status().ToString();     \
  } while (false)
