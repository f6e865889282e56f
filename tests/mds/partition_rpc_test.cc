// PartitionService over the wire: an in-process catalogd (CatalogServer on
// port 0, no statestore) and raw Thrift clients built from the IDL alone,
// speaking to the multiplexed metastore service port.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "CatalogService.h"
#include "PartitionService.h"
#include "catalogd/mds/partition_service_handler.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::mds {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TMultiplexedProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;
using thrift::TMetastoreServiceErrorCode;

class PartitionRpcTest : public ::testing::Test {
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
    ASSERT_NE(server_->metastore_service_port(), server_->port());
    CreatePartitionedTable();
  }

  void TearDown() override { server_.reset(); }

  // default.p partitioned by (year int, region string), through ExecDdl.
  void CreatePartitionedTable() {
    ThriftClient<impala::CatalogServiceClient> client("127.0.0.1", server_->port());
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_TABLE;
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = "default";
    p.table_name.table_name = "p";
    impala::TColumn id, year, region;
    id.columnName = "id";
    id.columnType = *ParseHiveType("int");
    year.columnName = "year";
    year.columnType = *ParseHiveType("int");
    region.columnName = "region";
    region.columnType = *ParseHiveType("string");
    p.columns = {id};
    p.__set_partition_columns({year, region});
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.owner = "alice";
    impala::TDdlExecResponse resp;
    ASSERT_TRUE(client.Call("ExecDdl", [&](auto& c) { c.ExecDdl(resp, r); }).ok());
    ASSERT_EQ(resp.result.status.status_code, impala::TErrorCode::OK);
  }

  static thrift::TPartitionTableName Table() {
    thrift::TPartitionTableName t;
    t.db_name = "default";
    t.table_name = "p";
    return t;
  }

  static thrift::TMetastorePartition Part(int year, const std::string& region) {
    thrift::TMetastorePartition p;
    p.values = {std::to_string(year), region};
    return p;
  }

  ThriftClientOptions Multiplexed(const std::string& service = "PartitionService") {
    ThriftClientOptions o;
    o.service_name = service;
    return o;
  }

  ::ics::testing::TempDir tmp_{"ics_mds_rpc"};
  std::string root_;
  std::unique_ptr<CatalogServer> server_;
};

TEST_F(PartitionRpcTest, EveryCallOverTheMultiplexedPort) {
  ThriftClient<thrift::PartitionServiceClient> client("127.0.0.1", server_->metastore_service_port(),
                                                      Multiplexed());
  thrift::TBatchCreatePartitionsRequest create;
  create.table = Table();
  for (int y = 2020; y < 2025; ++y) create.partitions.push_back(Part(y, "eu"));
  thrift::TBatchCreatePartitionsResponse created;
  ASSERT_TRUE(client.Call("Create", [&](auto& c) { c.BatchCreatePartitions(created, create); }).ok());
  ASSERT_EQ(created.status.code, TMetastoreServiceErrorCode::OK) << created.status.message;
  EXPECT_EQ(created.partitions.size(), 5u);
  EXPECT_EQ(created.catalog_version, server_->catalog()->version());

  thrift::TListPartitionsRequest list;
  list.table = Table();
  list.__set_filter("year >= 2022");
  list.__set_page_size(2);
  thrift::TListPartitionsResponse page;
  ASSERT_TRUE(client.Call("List", [&](auto& c) { c.ListPartitions(page, list); }).ok());
  ASSERT_EQ(page.status.code, TMetastoreServiceErrorCode::OK) << page.status.message;
  EXPECT_EQ(page.partitions.size(), 2u);
  EXPECT_TRUE(page.__isset.next_page_token);

  thrift::TBatchUpdatePartitionsRequest update;
  update.table = Table();
  thrift::TPartitionUpdate u;
  u.partition = Part(2020, "eu");
  u.partition.__set_parameters({{"k", "v"}});
  u.__set_update_mask({"parameters"});
  update.updates = {u};
  thrift::TBatchUpdatePartitionsResponse updated;
  ASSERT_TRUE(client.Call("Update", [&](auto& c) { c.BatchUpdatePartitions(updated, update); }).ok());
  ASSERT_EQ(updated.status.code, TMetastoreServiceErrorCode::OK) << updated.status.message;
  EXPECT_EQ(updated.partitions[0].parameters.at("k"), "v");

  thrift::TBatchDeletePartitionsRequest del;
  del.table = Table();
  del.partition_values = {{"2020", "eu"}};
  thrift::TBatchDeletePartitionsResponse deleted;
  ASSERT_TRUE(client.Call("Delete", [&](auto& c) { c.BatchDeletePartitions(deleted, del); }).ok());
  ASSERT_EQ(deleted.status.code, TMetastoreServiceErrorCode::OK) << deleted.status.message;

  thrift::TOpenWriteStreamRequest open;
  open.table = Table();
  thrift::TOpenWriteStreamResponse opened;
  ASSERT_TRUE(client.Call("Open", [&](auto& c) { c.OpenWriteStream(opened, open); }).ok());
  ASSERT_EQ(opened.status.code, TMetastoreServiceErrorCode::OK) << opened.status.message;
  thrift::TAppendWriteStreamRequest append;
  append.stream_id = opened.stream_id;
  append.partitions = {Part(2030, "us"), Part(2031, "us")};
  thrift::TAppendWriteStreamResponse appended;
  ASSERT_TRUE(client.Call("Append", [&](auto& c) { c.AppendWriteStream(appended, append); }).ok());
  EXPECT_EQ(appended.total_partitions_streamed_count, 2);
  thrift::TCommitWriteStreamRequest commit;
  commit.stream_id = opened.stream_id;
  thrift::TCommitWriteStreamResponse committed;
  ASSERT_TRUE(client.Call("Commit", [&](auto& c) { c.CommitWriteStream(committed, commit); }).ok());
  ASSERT_EQ(committed.status.code, TMetastoreServiceErrorCode::OK) << committed.status.message;
  EXPECT_EQ(committed.total_partitions_inserted_count, 2);
  thrift::TAbortWriteStreamRequest abort;
  abort.stream_id = opened.stream_id;
  thrift::TAbortWriteStreamResponse aborted;
  ASSERT_TRUE(client.Call("Abort", [&](auto& c) { c.AbortWriteStream(aborted, abort); }).ok());
  EXPECT_EQ(aborted.status.code, TMetastoreServiceErrorCode::NOT_FOUND);

  thrift::TCreatePartitionIndexRequest ci;
  ci.table = Table();
  ci.index_name = "by_year";
  ci.keys = {"year"};
  thrift::TCreatePartitionIndexResponse cir;
  ASSERT_TRUE(client.Call("CreateIndex", [&](auto& c) { c.CreatePartitionIndex(cir, ci); }).ok());
  ASSERT_EQ(cir.status.code, TMetastoreServiceErrorCode::OK) << cir.status.message;
  thrift::TGetPartitionIndexesRequest gi;
  gi.table = Table();
  thrift::TGetPartitionIndexesResponse gir;
  ASSERT_TRUE(client.Call("GetIndexes", [&](auto& c) { c.GetPartitionIndexes(gir, gi); }).ok());
  ASSERT_EQ(gir.indexes.size(), 1u);
  EXPECT_EQ(gir.indexes[0].index_name, "by_year");
  thrift::TDeletePartitionIndexRequest di;
  di.table = Table();
  di.index_name = "nope";
  thrift::TDeletePartitionIndexResponse dir;
  ASSERT_TRUE(client.Call("DeleteIndex", [&](auto& c) { c.DeletePartitionIndex(dir, di); }).ok());
  EXPECT_EQ(dir.status.code, TMetastoreServiceErrorCode::NOT_FOUND);
}

TEST_F(PartitionRpcTest, ErrorsAreStructured) {
  ThriftClient<thrift::PartitionServiceClient> client("127.0.0.1", server_->metastore_service_port(),
                                                      Multiplexed());
  thrift::TBatchCreatePartitionsRequest create;
  create.table = Table();
  for (int i = 0; i < 901; ++i) create.partitions.push_back(Part(i, "x"));
  thrift::TBatchCreatePartitionsResponse resp;
  ASSERT_TRUE(client.Call("Create", [&](auto& c) { c.BatchCreatePartitions(resp, create); }).ok());
  EXPECT_EQ(resp.status.code, TMetastoreServiceErrorCode::RESOURCE_EXHAUSTED);
  ASSERT_TRUE(resp.status.__isset.batch_size_too_large);
  EXPECT_EQ(resp.status.batch_size_too_large.max_batch_size, 900);
  EXPECT_FALSE(resp.status.batch_size_too_large.error_message.empty());
  EXPECT_TRUE(resp.partitions.empty());

  create.partitions = {Part(1, "x")};
  resp = {};
  ASSERT_TRUE(client.Call("Create", [&](auto& c) { c.BatchCreatePartitions(resp, create); }).ok());
  ASSERT_EQ(resp.status.code, TMetastoreServiceErrorCode::OK);
  resp = {};  // Thrift reads leave absent optional fields as they were
  ASSERT_TRUE(client.Call("Create", [&](auto& c) { c.BatchCreatePartitions(resp, create); }).ok());
  EXPECT_EQ(resp.status.code, TMetastoreServiceErrorCode::ALREADY_EXISTS);
  EXPECT_FALSE(resp.status.__isset.batch_size_too_large);
  EXPECT_NE(resp.status.message.find("already exists"), std::string::npos);

  thrift::TListPartitionsRequest list;
  list.table = Table();
  list.__set_filter("year = = 1");
  thrift::TListPartitionsResponse page;
  ASSERT_TRUE(client.Call("List", [&](auto& c) { c.ListPartitions(page, list); }).ok());
  EXPECT_EQ(page.status.code, TMetastoreServiceErrorCode::INVALID_ARGUMENT);
  EXPECT_NE(page.status.message.find("at position 7"), std::string::npos);
  list.table.table_name = "missing";
  ASSERT_TRUE(client.Call("List", [&](auto& c) { c.ListPartitions(page, list); }).ok());
  EXPECT_EQ(page.status.code, TMetastoreServiceErrorCode::NOT_FOUND);
}

TEST_F(PartitionRpcTest, RawMultiplexedClientAndUnknownService) {
  // Built by hand from the generated client: socket, buffered transport,
  // binary protocol, multiplexed with the service name.
  auto socket = std::make_shared<TSocket>("127.0.0.1", server_->metastore_service_port());
  socket->setRecvTimeout(10000);
  auto transport = std::make_shared<TBufferedTransport>(socket);
  auto protocol = std::make_shared<TBinaryProtocol>(transport);
  transport->open();
  thrift::PartitionServiceClient raw(std::make_shared<TMultiplexedProtocol>(protocol, "PartitionService"));
  thrift::TListPartitionsRequest list;
  list.table = Table();
  thrift::TListPartitionsResponse page;
  raw.ListPartitions(page, list);
  EXPECT_EQ(page.status.code, TMetastoreServiceErrorCode::OK);

  // A service name nobody registered gets an application exception, and
  // the server keeps serving.
  thrift::PartitionServiceClient wrong(std::make_shared<TMultiplexedProtocol>(protocol, "NoSuchService"));
  EXPECT_THROW(wrong.ListPartitions(page, list), apache::thrift::TApplicationException);
  transport->close();

  // A plain (non-multiplexed) call is refused too, without harm.
  ThriftClient<thrift::PartitionServiceClient> plain("127.0.0.1", server_->metastore_service_port());
  Status s = plain.Call("List", [&](auto& c) { c.ListPartitions(page, list); });
  EXPECT_FALSE(s.ok());

  ThriftClient<thrift::PartitionServiceClient> good("127.0.0.1", server_->metastore_service_port(),
                                                    Multiplexed());
  ASSERT_TRUE(good.Call("List", [&](auto& c) { c.ListPartitions(page, list); }).ok());
  EXPECT_EQ(page.status.code, TMetastoreServiceErrorCode::OK);
}

TEST_F(PartitionRpcTest, GarbageFrameClosesOnlyThatConnection) {
  auto socket = std::make_shared<TSocket>("127.0.0.1", server_->metastore_service_port());
  socket->open();
  const uint8_t junk[] = {0x80, 0x01, 0x00, 0x01, 0x7f, 0xff, 0xff, 0xff, 'x', 'y', 'z'};
  socket->write(junk, sizeof(junk));
  socket->close();
  ThriftClient<thrift::PartitionServiceClient> client("127.0.0.1", server_->metastore_service_port(),
                                                      Multiplexed());
  thrift::TListPartitionsRequest list;
  list.table = Table();
  thrift::TListPartitionsResponse page;
  ASSERT_TRUE(client.Call("List", [&](auto& c) { c.ListPartitions(page, list); }).ok());
  EXPECT_EQ(page.status.code, TMetastoreServiceErrorCode::OK);
}

TEST(PartitionServiceStatusTest, CodesMapToTheWire) {
  using C = TMetastoreServiceErrorCode;
  EXPECT_EQ(ToServiceStatus(Status::OK()).code, C::OK);
  EXPECT_EQ(ToServiceStatus(Status::InvalidArgument("x")).code, C::INVALID_ARGUMENT);
  EXPECT_EQ(ToServiceStatus(Status::NotFound("x")).code, C::NOT_FOUND);
  EXPECT_EQ(ToServiceStatus(Status::AlreadyExists("x")).code, C::ALREADY_EXISTS);
  EXPECT_EQ(ToServiceStatus(Status::LimitExceeded("x")).code, C::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ToServiceStatus(Status(ErrorCode::kRecoverableError, "x")).code, C::FAILED_PRECONDITION);
  EXPECT_EQ(ToServiceStatus(Status(ErrorCode::kCancelled, "x")).code, C::ABORTED);
  EXPECT_EQ(ToServiceStatus(Status::NotImplemented("x")).code, C::NOT_IMPLEMENTED);
  EXPECT_EQ(ToServiceStatus(Status::Shutdown("x")).code, C::UNAVAILABLE);
  EXPECT_EQ(ToServiceStatus(Status::IoError("disk")).code, C::INTERNAL);
  EXPECT_EQ(ToServiceStatus(Status::IoError("disk")).message, "disk");
}

}  // namespace
}  // namespace ics::catalog::mds
