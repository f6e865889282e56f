// Helpers for the remote metastore tests: InProcessHms, a real HMS endpoint
// (catalogd/hms HmsServer, on catalogd's command core) on a loopback port
// over its own SQLite file, which the remote backend under test talks to; and Same(), which compares two
// Thrift objects and prints both when they differ.
//
// Thread-safety: InProcessHms is driven from the test's main thread.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "catalogd/hms/hms_server.h"
#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "tests/util/core_stack.h"
#include "tests/util/rooted_file_system.h"

namespace ics::catalog::testing {

class InProcessHms {
 public:
  // The store lives at <dir>/hms-metastore.db. The endpoint's core keeps
  // directories below <dir>/hms-root (a location "/w/t" is
  // <dir>/hms-root/w/t), so that the made-up locations of the tests'
  // objects stay inside the test's directory; its warehouse is
  // /hms-warehouse there.
  explicit InProcessHms(std::string dir) : dir_(std::move(dir)), fs_(dir_ + "/hms-root") {}
  ~InProcessHms() { Stop(); }

  // Opens the store (once) and starts serving on `port` (0 = a free port).
  [[nodiscard]] Status Start(int port = 0) {
    if (!store_) {
      ICS_ASSIGN_OR_RETURN(store_, OpenSqliteMetastore(dir_ + "/hms-metastore.db"));
    }
    hms::HmsServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = port;
    o.core.warehouse_dir = "/hms-warehouse";
    // A new core per start: its catalog starts from the store, as catalogd's.
    stack_.reset();
    ICS_ASSIGN_OR_RETURN(stack_, CoreStack::Open(store_.get(), &fs_, o.core.warehouse_dir));
    server_ = std::make_unique<hms::HmsServer>(stack_->queries(), stack_->core(), o);
    ICS_RETURN_IF_ERROR(server_->Start());
    port_ = server_->port();
    return Status::OK();
  }
  // Stops serving (connections are closed); the store stays.
  void Stop() {
    if (server_) server_->Stop();
    server_.reset();
    stack_.reset();
  }
  // A new server on the same port over the same store.
  [[nodiscard]] Status Restart() {
    Stop();
    return Start(port_);
  }

  int port() const { return port_; }
  // The endpoint's own store: the truth the remote backend is checked against.
  Metastore* store() { return store_.get(); }

  // Client options for the remote backend: short backoff so failure tests
  // stay quick; timeouts long enough for a loaded CI machine.
  RemoteMetastoreOptions ClientOptions() const {
    RemoteMetastoreOptions o;
    o.host = "127.0.0.1";
    o.port = port_;
    o.retry_backoff_ms = 5;
    o.connect_timeout_ms = 5000;
    o.rpc_timeout_ms = 30000;
    return o;
  }

 private:
  const std::string dir_;
  std::unique_ptr<Metastore> store_;
  RootedFileSystem fs_;
  std::unique_ptr<CoreStack> stack_;
  std::unique_ptr<hms::HmsServer> server_;
  int port_ = 0;
};

// Whether two Thrift objects are equal; prints both otherwise.
template <typename T>
::testing::AssertionResult Same(const T& got, const T& want) {
  if (got == want) return ::testing::AssertionSuccess();
  std::ostringstream g, w;
  got.printTo(g);
  want.printTo(w);
  return ::testing::AssertionFailure() << "\n got: " << g.str() << "\nwant: " << w.str();
}

}  // namespace ics::catalog::testing
