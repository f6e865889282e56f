// MiniCluster: statestore + catalogd + N coordinators in one process, all on
// free loopback ports with a temp data dir, for in-process cluster tests and
// benchmarks (the one cluster they all build; num_coordinators = 0 gives a
// bare statestore + catalogd for tests that subscribe their own local
// catalogs). Everything is stopped and the temp dir removed by the
// destructor.
#pragma once

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "catalogd/service/catalog_server.h"
#include "coordinator-sim/coordinator.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "statestore/statestore_server.h"
#include "tests/util/eventually.h"
#include "tests/util/free_port.h"
#include "tests/util/temp_dir.h"

namespace ics::testing {

struct MiniClusterOptions {
  int num_coordinators = 2;
  bool full_replica = false;  // coordinators' local catalog mode
  int heartbeat_ms = 200;
  int update_frequency_ms = 1000;
  // Coordinators' bound on waiting for their first catalog update.
  int wait_for_catalog_timeout_ms = 30000;
  // Start() brings up the statestore and the coordinators only (catalogd's
  // port is reserved): the coordinators have no catalog until StartCatalogd().
  bool defer_catalogd = false;
  // Last word on each daemon's options, after the cluster's own settings
  // (ports, data dir, the values above): e.g. catalogd's event polling
  // interval, or per-coordinator ids and modes.
  std::function<void(catalog::CatalogServerOptions*)> tune_catalogd;
  std::function<void(int index, coord::CoordinatorOptions*)> tune_coordinator;
};

class MiniCluster {
 public:
  explicit MiniCluster(MiniClusterOptions o = {}) : opts_(o), dir_(tmp_.path()) {}
  ~MiniCluster() {
    for (auto& c : coords_) c->Stop();
    if (catalogd_) catalogd_->Stop();
    if (statestore_) statestore_->Stop();
  }

  Status Start() {
    statestore::StatestoreServerOptions so;
    so.bind_host = "127.0.0.1";
    so.port = 0;
    so.statestore.heartbeat_interval_ms = opts_.heartbeat_ms;
    so.statestore.update_frequency_ms = opts_.update_frequency_ms;
    statestore_ = std::make_unique<statestore::StatestoreServer>(so);
    ICS_RETURN_IF_ERROR(statestore_->Start());
    if (opts_.defer_catalogd) {
      catalogd_port_ = UnusedLoopbackPort();
      if (catalogd_port_ == 0) return Status::IoError("no free port for catalogd");
    } else {
      ICS_RETURN_IF_ERROR(StartCatalogd());
    }
    for (int i = 0; i < opts_.num_coordinators; ++i) {
      coord::CoordinatorOptions co;
      co.id = "coordinator-" + std::to_string(i);
      co.port = 0;
      co.subscriber_port = 0;
      co.statestore_port = statestore_->port();
      co.catalogd_port = catalogd_port_;
      co.use_local_catalog = !opts_.full_replica;
      co.sync_ddl_timeout_ms = 20000;
      co.wait_for_catalog_timeout_ms = opts_.wait_for_catalog_timeout_ms;
      if (opts_.tune_coordinator) opts_.tune_coordinator(i, &co);
      auto c = std::make_unique<coord::Coordinator>(co);
      ICS_RETURN_IF_ERROR(c->Start());
      coords_.push_back(std::move(c));
    }
    return opts_.defer_catalogd ? Status::OK() : WaitForInitialCatalog();
  }

  // Waits until every coordinator has applied catalogd's first topic update.
  // Coordinators refuse (or hold, up to wait_for_catalog_timeout_ms)
  // statements until then, so this only makes tests that need every
  // coordinator ready deterministic.
  Status WaitForInitialCatalog(int timeout_ms = 30000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (size_t i = 0; i < coords_.size(); ++i) {
      while (coords_[i]->topic_catalog_version() <= 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          return Status::TimedOut("coordinator " + std::to_string(i) +
                                  " received no catalog topic update within " +
                                  std::to_string(timeout_ms) + " ms");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    return Status::OK();
  }

  Status StartCatalogd() {
    catalog::CatalogServerOptions co;
    co.bind_host = "127.0.0.1";
    co.port = catalogd_port_;
    co.subscriber_port = 0;
    co.data_dir = dir_ + "/catalogd";
    co.statestore_port = statestore_->port();
    co.publisher.mode = catalog::TopicMode::kMixed;
    co.sync_ddl_timeout_ms = 20000;
    if (opts_.tune_catalogd) opts_.tune_catalogd(&co);
    catalogd_ = std::make_unique<catalog::CatalogServer>(co);
    ICS_RETURN_IF_ERROR(catalogd_->Start());
    catalogd_port_ = catalogd_->port();  // a restart reuses the port coordinators know
    return Status::OK();
  }

  // Stops catalogd and starts a new one on the same port and data dir.
  Status RestartCatalogd() {
    catalogd_->Stop();
    catalogd_.reset();
    return StartCatalogd();
  }

  // Runs one statement on coordinator `i` with a session kept per coordinator.
  Result<coord::StatementResult> Exec(int i, const std::string& sql) {
    if (sessions_.size() < coords_.size()) sessions_.resize(coords_.size());
    return coords_[i]->executor()->Execute(sql, &sessions_[i]);
  }

  int num_coordinators() const { return static_cast<int>(coords_.size()); }
  coord::Coordinator* coordinator(int i) { return coords_[i].get(); }
  catalog::CatalogServer* catalogd() { return catalogd_.get(); }
  statestore::StatestoreServer* statestore() { return statestore_.get(); }
  const std::string& dir() const { return dir_; }

 private:
  const MiniClusterOptions opts_;
  TempDir tmp_{"ics-minicluster"};  // removed after every server member is gone
  std::string dir_;
  int catalogd_port_ = 0;
  std::unique_ptr<statestore::StatestoreServer> statestore_;
  std::unique_ptr<catalog::CatalogServer> catalogd_;
  std::vector<std::unique_ptr<coord::Coordinator>> coords_;
  std::vector<coord::SessionState> sessions_;
};

}  // namespace ics::testing
