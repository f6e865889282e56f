// TableService over Thrift: the handler's status mapping and batch-limit
// errors, with the processor on its own in-test server (port 0, loopback).
#include <thrift/TProcessor.h>

#include "TableService.h"
#include "catalogd/mds/table_service_handler.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "tests/mds/table_test_util.h"

namespace ics::catalog::testing {
namespace {

class TableRpcTest : public TableServiceTest {
 protected:
  void SetUp() override {
    TableServiceTest::SetUp();
    ThriftServerOptions o;
    o.name = "table-service-test";
    o.bind_host = "127.0.0.1";
    o.port = 0;
    server_ = std::make_unique<ThriftServer>(mds::MakeTableServiceProcessor(tables_), o);
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<ThriftClient<thrift::TableServiceClient>>("127.0.0.1",
                                                                          server_->port());
  }
  void TearDown() override {
    client_.reset();
    if (server_) server_->Stop();
    server_.reset();
    TableServiceTest::TearDown();
  }

  std::unique_ptr<ThriftServer> server_;
  std::unique_ptr<ThriftClient<thrift::TableServiceClient>> client_;
};

TEST_F(TableRpcTest, CallsAndErrors) {
  MakeDbAndTables("db", {"t"});
  thrift::TGetTableRequest get;
  get.db_name = "db";
  get.table_name = "T";
  thrift::TGetTableResponse got;
  ASSERT_TRUE(client_->Call("GetTable", [&](auto& c) { c.GetTable(got, get); }).ok());
  EXPECT_EQ(got.status.code, TTS::OK);
  ASSERT_TRUE(got.__isset.table);
  EXPECT_EQ(got.table.version_id, "1");

  thrift::TUpdateTableRequest up;
  up.db_name = "db";
  up.table_input = InputFrom(got.table);
  up.table_input.parameters["via"] = "rpc";
  thrift::TUpdateTableResponse upr;
  ASSERT_TRUE(client_->Call("UpdateTable", [&](auto& c) { c.UpdateTable(upr, up); }).ok());
  EXPECT_EQ(upr.status.code, TTS::OK);
  EXPECT_EQ(upr.version_id, "2");
  EXPECT_EQ(upr.catalog_version, catalog_->version());

  get.table_name = "missing";
  ASSERT_TRUE(client_->Call("GetTable", [&](auto& c) { c.GetTable(got, get); }).ok());
  EXPECT_EQ(got.status.code, TTS::NOT_FOUND);
  EXPECT_NE(got.status.message.find("does not exist"), std::string::npos);

  thrift::TBatchDeleteTableRequest del;
  del.db_name = "db";
  del.tables_to_delete.assign(101, "t");
  thrift::TBatchDeleteTableResponse delr;
  ASSERT_TRUE(client_->Call("BatchDeleteTable", [&](auto& c) { c.BatchDeleteTable(delr, del); })
                  .ok());
  EXPECT_EQ(delr.status.code, TTS::RESOURCE_EXHAUSTED);
  ASSERT_TRUE(delr.status.__isset.batch_size_too_large);
  EXPECT_EQ(delr.status.batch_size_too_large.max_batch_size, 100);

  thrift::TSearchTablesRequest search;
  search.__set_search_text("rpc");
  thrift::TSearchTablesResponse sr;
  ASSERT_TRUE(client_->Call("SearchTables", [&](auto& c) { c.SearchTables(sr, search); }).ok());
  EXPECT_EQ(sr.status.code, TTS::OK);
  ASSERT_EQ(sr.tables.size(), 1u);
  EXPECT_EQ(sr.tables[0].table.tableName, "t");

  thrift::TGetColumnStatisticsRequest stats;
  stats.db_name = "db";
  stats.table_name = "t";
  stats.column_names = {"id"};
  thrift::TGetColumnStatisticsResponse str;
  ASSERT_TRUE(
      client_->Call("GetColumnStatistics", [&](auto& c) { c.GetColumnStatistics(str, stats); })
          .ok());
  EXPECT_EQ(str.status.code, TTS::OK);
  ASSERT_EQ(str.errors.size(), 1u);  // no stats yet
  EXPECT_EQ(str.errors[0].error.code, TTS::NOT_FOUND);

  // An unknown protocol version is refused before anything runs.
  get.table_name = "t";
  get.protocol_version = static_cast<thrift::TTableServiceVersion::type>(7);
  ASSERT_TRUE(client_->Call("GetTable", [&](auto& c) { c.GetTable(got, get); }).ok());
  EXPECT_EQ(got.status.code, TTS::INVALID_ARGUMENT);
  up.protocol_version = static_cast<thrift::TTableServiceVersion::type>(0);
  const int64_t before = catalog_->version();
  ASSERT_TRUE(client_->Call("UpdateTable", [&](auto& c) { c.UpdateTable(upr, up); }).ok());
  EXPECT_EQ(upr.status.code, TTS::INVALID_ARGUMENT);
  EXPECT_EQ(catalog_->version(), before);
}

}  // namespace
}  // namespace ics::catalog::testing
