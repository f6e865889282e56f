// TableService on catalogd's real metastore service port: an in-process
// CatalogServer (port 0, no statestore), tables created through
// CatalogService.ExecDdl, TableService reached with a multiplexed client.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "CatalogService.h"
#include "TableService.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using TTS = thrift::TMetastoreServiceErrorCode;

class TableServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_.path();
    ASSERT_FALSE(root_.empty());
    CatalogServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.data_dir = root_;
    o.statestore_port = -1;
    o.metastore_service_port = 0;
    server_ = std::make_unique<CatalogServer>(o);
    ASSERT_TRUE(server_->Start().ok());
    ASSERT_GT(server_->metastore_service_port(), 0);
    ThriftClientOptions co;
    co.service_name = "TableService";
    tables_ = std::make_unique<ThriftClient<thrift::TableServiceClient>>(
        "127.0.0.1", server_->metastore_service_port(), co);
  }

  void TearDown() override {
    tables_.reset();
    server_.reset();
  }

  void CreateTable(const std::string& name) {
    ThriftClient<impala::CatalogServiceClient> client("127.0.0.1", server_->port());
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_TABLE;
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = "default";
    p.table_name.table_name = name;
    impala::TColumn id;
    id.columnName = "id";
    id.columnType = *ParseHiveType("int");
    p.columns = {id};
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.owner = "alice";
    impala::TDdlExecResponse resp;
    ASSERT_TRUE(client.Call("ExecDdl", [&](auto& c) { c.ExecDdl(resp, r); }).ok());
    ASSERT_EQ(resp.result.status.status_code, impala::TErrorCode::OK);
  }

  ::ics::testing::TempDir tmp_{"ics_table_server"};
  std::string root_;
  std::unique_ptr<CatalogServer> server_;
  std::unique_ptr<ThriftClient<thrift::TableServiceClient>> tables_;
};

TEST_F(TableServerTest, UpdateVersionsAndSearchOverTheMetastoreServicePort) {
  CreateTable("events");
  thrift::TGetTableRequest get;
  get.db_name = "default";
  get.table_name = "events";
  thrift::TGetTableResponse got;
  ASSERT_TRUE(tables_->Call("GetTable", [&](auto& c) { c.GetTable(got, get); }).ok());
  ASSERT_EQ(got.status.code, TTS::OK);

  const int64_t before = server_->catalog()->version();
  thrift::TUpdateTableRequest up;
  up.db_name = "default";
  up.table_input.name = "events";
  up.table_input.__set_sd(got.table.table.sd);
  up.table_input.__set_parameters({{"source", "kafka"}});
  thrift::TUpdateTableResponse upr;
  ASSERT_TRUE(tables_->Call("UpdateTable", [&](auto& c) { c.UpdateTable(upr, up); }).ok());
  ASSERT_EQ(upr.status.code, TTS::OK) << upr.status.message;
  EXPECT_EQ(upr.version_id, "2");
  EXPECT_EQ(upr.catalog_version, before + 1);
  EXPECT_EQ(server_->catalog()->GetTable("default", "events")->hms.parameters.at("source"),
            "kafka");

  thrift::TGetTableVersionsRequest vr;
  vr.db_name = "default";
  vr.table_name = "events";
  thrift::TGetTableVersionsResponse versions;
  ASSERT_TRUE(
      tables_->Call("GetTableVersions", [&](auto& c) { c.GetTableVersions(versions, vr); }).ok());
  ASSERT_EQ(versions.status.code, TTS::OK);
  ASSERT_EQ(versions.table_versions.size(), 2u);
  EXPECT_EQ(versions.table_versions[1].version_id, "1");

  thrift::TSearchTablesRequest sr;
  sr.__set_search_text("kafka");
  thrift::TSearchTablesResponse found;
  ASSERT_TRUE(tables_->Call("SearchTables", [&](auto& c) { c.SearchTables(found, sr); }).ok());
  ASSERT_EQ(found.status.code, TTS::OK);
  ASSERT_EQ(found.tables.size(), 1u);
  EXPECT_EQ(found.tables[0].table.tableName, "events");

  thrift::TBatchDeleteTableRequest del;
  del.db_name = "default";
  del.tables_to_delete = {"events", "ghost"};
  thrift::TBatchDeleteTableResponse delr;
  ASSERT_TRUE(tables_->Call("BatchDeleteTable", [&](auto& c) { c.BatchDeleteTable(delr, del); })
                  .ok());
  ASSERT_EQ(delr.status.code, TTS::OK);
  ASSERT_EQ(delr.errors.size(), 1u);
  EXPECT_EQ(delr.errors[0].table_name, "ghost");
  EXPECT_EQ(server_->catalog()->GetTable("default", "events"), nullptr);
}

}  // namespace
}  // namespace ics::catalog
