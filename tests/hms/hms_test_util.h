// Test harness for the HMS endpoint: an HmsServer on a loopback port over a
// temporary metastore (the backend the binary links: hms_backend_sqlite.cc
// or hms_backend_postgres.cc) and warehouse, and a raw Hive Metastore client
// built only from the IDL, speaking what Hive clients speak by default
// (TBinaryProtocol over a buffered, unframed socket).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "ThriftHiveMetastore.h"
#include "catalogd/hms/hms_server.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/metastore/metastore.h"
#include "tests/util/core_stack.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::hms::testing {

using ::ics::catalog::testing::CoreStack;

// A new, empty metastore of the backend this test binary was linked with,
// keeping its files under `dir`.
Result<std::unique_ptr<Metastore>> OpenHmsTestMetastore(const std::string& dir);

// Expects `stmt` to throw exception type `ex` whose message contains `substr`.
#define EXPECT_HMS_ERROR(stmt, ex, substr)                                          \
  do {                                                                              \
    try {                                                                           \
      stmt;                                                                         \
      ADD_FAILURE() << "expected " #ex " from " #stmt;                              \
    } catch (const ex& e) {                                                         \
      EXPECT_NE(e.message.find(substr), std::string::npos)                          \
          << #ex " message '" << e.message << "' lacks '" << (substr) << "'";       \
    } catch (const std::exception& e) {                                             \
      ADD_FAILURE() << "expected " #ex " from " #stmt ", got " << typeid(e).name()  \
                    << ": " << e.what();                                            \
    }                                                                               \
  } while (false)

class HmsClient {
 public:
  explicit HmsClient(int port) {
    socket_ = std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", port);
    socket_->setRecvTimeout(30000);
    transport_ = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket_);
    auto protocol = std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport_);
    client_ = std::make_unique<hive::ThriftHiveMetastoreClient>(protocol);
    transport_->open();
  }
  ~HmsClient() {
    try {
      transport_->close();
    } catch (...) {
    }
  }
  hive::ThriftHiveMetastoreClient* operator->() { return client_.get(); }
  hive::ThriftHiveMetastoreClient& operator*() { return *client_; }

 private:
  std::shared_ptr<apache::thrift::transport::TSocket> socket_;
  std::shared_ptr<apache::thrift::transport::TTransport> transport_;
  std::unique_ptr<hive::ThriftHiveMetastoreClient> client_;
};

class HmsEndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    warehouse_ = dir_ + "/warehouse";
    std::filesystem::create_directories(warehouse_);
    auto ms = OpenHmsTestMetastore(dir_);
    ASSERT_TRUE(ms.ok()) << ms.status().ToString();
    metastore_ = std::move(ms).value();
    fs_ = std::make_unique<LocalFileSystem>();
    auto stack = CoreStack::Open(metastore_.get(), fs_.get(), warehouse_);
    ASSERT_TRUE(stack.ok()) << stack.status().ToString();
    stack_ = std::move(stack).value();
    HmsServerOptions opts;
    opts.bind_host = "127.0.0.1";
    opts.port = 0;
    opts.core.warehouse_dir = warehouse_;
    opts.core.max_partitions_per_request = 50;
    opts.core.max_objects_per_request = 40;
    opts.core.max_notification_events = 100;
    server_ = std::make_unique<HmsServer>(stack_->queries(), stack_->core(), opts);
    Status s = server_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_GT(server_->port(), 0);
    client_ = std::make_unique<HmsClient>(server_->port());
  }

  void TearDown() override {
    client_.reset();
    if (server_) server_->Stop();
    server_.reset();
    stack_.reset();
    metastore_.reset();
  }

  hive::ThriftHiveMetastoreClient& hms() { return **client_; }

  static hive::Database Db(const std::string& name) {
    hive::Database db;
    db.name = name;
    db.description = "test database " + name;
    return db;
  }

  // A table with columns id bigint, name string and the given string keys
  // (a key named "year" or "n" is an int).
  static hive::Table Table(const std::string& db, const std::string& name,
                           const std::vector<std::string>& keys = {}) {
    hive::Table t;
    t.dbName = db;
    t.tableName = name;
    t.owner = "alice";
    hive::FieldSchema id;
    id.name = "id";
    id.type = "bigint";
    hive::FieldSchema nm;
    nm.name = "name";
    nm.type = "string";
    t.sd.cols = {id, nm};
    for (const std::string& k : keys) {
      hive::FieldSchema f;
      f.name = k;
      f.type = (k == "year" || k == "n") ? "int" : "string";
      t.partitionKeys.push_back(f);
    }
    return t;
  }

  static hive::Partition Part(const std::string& db, const std::string& table,
                              const std::vector<std::string>& values) {
    hive::Partition p;
    p.dbName = db;
    p.tableName = table;
    p.values = values;
    return p;
  }

  // Event types of the notification log after `after`, in order.
  std::vector<std::string> EventTypesAfter(int64_t after) {
    hive::NotificationEventRequest req;
    req.lastEvent = after;
    hive::NotificationEventResponse resp;
    hms().get_next_notification(resp, req);
    std::vector<std::string> types;
    for (const auto& e : resp.events) types.push_back(e.eventType);
    return types;
  }

  int64_t CurrentEventId() {
    hive::CurrentNotificationEventId id;
    hms().get_current_notificationEventId(id);
    return id.eventId;
  }

  ::ics::testing::TempDir tmp_{"ics_hms"};
  std::string dir_;
  std::string warehouse_;
  std::unique_ptr<Metastore> metastore_;
  std::unique_ptr<FileSystem> fs_;
  std::unique_ptr<CoreStack> stack_;  // the command core the endpoint's changes go through
  std::unique_ptr<HmsServer> server_;
  std::unique_ptr<HmsClient> client_;
};

}  // namespace ics::catalog::hms::testing
