// CatalogdHmsTest: a catalogd (CatalogServer, in process) serving its HMS
// endpoint, CatalogService and metastore services on free loopback ports,
// with an HMS client on the endpoint. Its event processor polls once a
// minute, so a change that shows within a test did not come from a poll.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "catalogd/service/catalog_server.h"
#include "tests/hms/hms_test_util.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::hms::testing {

class CatalogdHmsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    CatalogServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.statestore_port = -1;
    o.metastore_service_port = 0;
    o.hms_port = 0;
    o.data_dir = dir_;
    o.hms_event_polling_interval_ms = 60000;
    server_ = std::make_unique<CatalogServer>(o);
    Status s = server_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    hms_ = std::make_unique<HmsClient>(server_->hms_port());
  }

  void TearDown() override {
    hms_.reset();
    server_.reset();
  }

  ::ics::testing::TempDir tmp_{"ics_hms_cd"};
  std::string dir_;
  std::unique_ptr<CatalogServer> server_;
  std::unique_ptr<HmsClient> hms_;
};

}  // namespace ics::catalog::hms::testing
