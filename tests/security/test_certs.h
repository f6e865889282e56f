// A certificate set made for one test binary (scripts/make_certs.sh) in a
// private temporary directory, removed when the process ends.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "common/rpc/tls.h"
#include "tests/util/temp_dir.h"

namespace ics::testing {

class TestCerts {
 public:
  // Makes the set once per process; fails the test when openssl fails.
  // The set is an object with static storage, so its directory is removed
  // when the process exits normally (a heap object never destroyed left one
  // directory behind per test process).
  static const TestCerts& Get() {
    static const TestCerts certs;
    return certs;
  }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }

  // TLS options of a peer that trusts `ca` (a file name, e.g. "ca.pem") and
  // presents `cert` ("server" = server.pem/server.key; "" = no certificate),
  // requiring client certificates when it serves with `mutual`.
  TlsOptions Options(const std::string& ca, const std::string& cert, bool mutual = false) const {
    TlsOptions o;
    o.ca_certificate_file = File(ca);
    if (!cert.empty()) {
      o.certificate_file = File(cert + ".pem");
      o.private_key_file = File(cert + ".key");
    }
    o.require_client_certificate = mutual;
    return o;
  }
  // The context of Options(...); fails the test (and returns null) when it
  // cannot be made.
  std::shared_ptr<const TlsContext> Context(const std::string& ca, const std::string& cert,
                                            bool mutual = false) const {
    auto c = TlsContext::Create(Options(ca, cert, mutual));
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? *c : nullptr;
  }
  bool ok() const { return ok_; }

 private:
  TestCerts() {
    if (!tmp_.ok()) return;
    dir_ = tmp_.path();
    const std::string cmd = std::string(ICS_MAKE_CERTS) + " " + dir_ + " >/dev/null";
    ok_ = std::system(cmd.c_str()) == 0;
  }
  TempDir tmp_{"ics-certs"};  // the singleton's: removed at exit
  std::string dir_;
  bool ok_ = false;
};

}  // namespace ics::testing
