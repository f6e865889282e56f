// A certificate set made for one test binary (scripts/make_certs.sh) in a
// private temporary directory, removed when the process ends.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace ics::testing {

class TestCerts {
 public:
  // Makes the set once per process; fails the test when openssl fails.
  static const TestCerts& Get() {
    static TestCerts* certs = new TestCerts();
    return *certs;
  }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }
  bool ok() const { return ok_; }

 private:
  TestCerts() {
    char tmpl[] = "/tmp/ics-certs-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    const std::string cmd = std::string(ICS_MAKE_CERTS) + " " + dir_ + " >/dev/null";
    ok_ = std::system(cmd.c_str()) == 0;
    static std::string to_remove = dir_;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(to_remove, ec);
    });
  }
  std::string dir_;
  bool ok_ = false;
};

}  // namespace ics::testing
