// PartitionNameStream: a GetPartialCatalogObject reply read with the
// partition list streamed as (id, name) equals the generated reader's
// result in every other field, and the names equal the list's.
#include "coordinator-sim/catalog/partition_name_stream.h"

#include <gtest/gtest.h>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

#include "common/rpc/bounded_protocol.h"

namespace ics::coord {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TMemoryBuffer;

// The bytes a server writes for `resp` as the reply to GetPartialCatalogObject.
std::string ReplyBytes(const impala::TGetPartialCatalogObjectResponse& resp) {
  auto buf = std::make_shared<TMemoryBuffer>();
  TBinaryProtocol out(buf);
  impala::CatalogService_GetPartialCatalogObject_result result;
  result.success = resp;
  result.__isset.success = true;
  out.writeMessageBegin("GetPartialCatalogObject", apache::thrift::protocol::T_REPLY, 0);
  result.write(&out);
  out.writeMessageEnd();
  return buf->getBufferAsString();
}

impala::CatalogServiceClient ClientReading(const std::string& bytes) {
  auto buf = std::make_shared<TMemoryBuffer>();
  buf->write(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size()));
  auto proto = std::make_shared<TBinaryProtocol>(buf);
  return impala::CatalogServiceClient(proto, proto);
}

impala::TGetPartialCatalogObjectResponse TableReply(int partitions) {
  impala::TGetPartialCatalogObjectResponse resp;
  resp.__set_lookup_status(impala::CatalogLookupStatus::OK);
  resp.__set_object_version_number(42);
  impala::TPartialTableInfo info;
  // A list one level deeper (the table's columns) must pass untouched.
  info.hms_table.tableName = "t";
  info.hms_table.sd.cols.resize(3);
  for (size_t i = 0; i < 3; ++i) info.hms_table.sd.cols[i].name = "c" + std::to_string(i);
  info.__isset.hms_table = true;
  for (int i = 0; i < partitions; ++i) {
    impala::TPartialPartitionInfo p;
    p.id = 1000 + i;
    p.__set_name("year=" + std::to_string(2000 + i));
    if (i % 2 == 1) {  // fields a names-only reader drops: must not leak into the next one
      p.__set_hms_partition(std::make_shared<hive::Partition>());
      p.hms_partition->values = {"x"};
    }
    info.partitions.push_back(p);
  }
  info.__isset.partitions = true;
  hive::ColumnStatisticsObj cs;
  cs.colName = "c0";
  info.__set_column_stats({cs});
  resp.__set_table_info(info);
  return resp;
}

TEST(PartitionNameStreamTest, StreamsNamesAndReadsTheRestAsTheGeneratedReader) {
  const impala::TGetPartialCatalogObjectResponse sent = TableReply(500);
  const std::string bytes = ReplyBytes(sent);

  impala::TGetPartialCatalogObjectResponse plain;
  ClientReading(bytes).recv_GetPartialCatalogObject(plain);
  ASSERT_EQ(plain.table_info.partitions.size(), 500u);

  impala::TGetPartialCatalogObjectResponse streamed;
  PartitionNames names = {{7, "stale"}};  // cleared first
  impala::CatalogServiceClient client = ClientReading(bytes);
  RecvWithPartitionNames(client, &streamed, &names);

  ASSERT_EQ(names.size(), 500u);
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(names[i].first, plain.table_info.partitions[i].id);
    EXPECT_EQ(names[i].second, plain.table_info.partitions[i].name);
  }
  EXPECT_TRUE(streamed.table_info.partitions.empty());
  plain.table_info.partitions.clear();
  EXPECT_EQ(streamed, plain);  // every other field, the nested column list included
  EXPECT_EQ(streamed.table_info.hms_table.sd.cols.size(), 3u);
}

TEST(PartitionNameStreamTest, ReplyWithoutTableInfoIsReadAsUsual) {
  impala::TGetPartialCatalogObjectResponse sent;
  sent.__set_lookup_status(impala::CatalogLookupStatus::TABLE_NOT_FOUND);
  impala::TPartialDbInfo db;
  db.__set_function_names({"a", "b"});
  sent.__set_db_info(db);
  impala::TGetPartialCatalogObjectResponse streamed;
  PartitionNames names;
  impala::CatalogServiceClient client = ClientReading(ReplyBytes(sent));
  RecvWithPartitionNames(client, &streamed, &names);
  EXPECT_TRUE(names.empty());
  EXPECT_EQ(streamed, sent);
}

TEST(PartitionNameStreamTest, TruncatedListFailsLikeTheGeneratedReader) {
  const std::string bytes = ReplyBytes(TableReply(50));
  for (size_t cut : {bytes.size() / 2, bytes.size() - 3}) {
    impala::TGetPartialCatalogObjectResponse streamed;
    PartitionNames names;
    impala::CatalogServiceClient client = ClientReading(bytes.substr(0, cut));
    EXPECT_ANY_THROW(RecvWithPartitionNames(client, &streamed, &names)) << cut;
  }
}

TEST(PartitionNameStreamTest, KeptNamesAreChargedToTheDecodeBudget) {
  const std::string bytes = ReplyBytes(TableReply(500));
  auto buf = std::make_shared<TMemoryBuffer>();
  buf->write(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size()));
  BoundedProtocol::Options bounds;
  bounds.limits = {1ll << 20, /*max_memory_bytes=*/4096, /*process_wide=*/false};
  bounds.binary_inner = true;
  auto in = std::make_shared<BoundedProtocol>(std::make_shared<TBinaryProtocol>(buf), bounds);
  impala::CatalogServiceClient client(in, in);
  impala::TGetPartialCatalogObjectResponse streamed;
  PartitionNames names;
  // 500 pairs of 40 bytes do not fit 4 KiB: refused before they are kept.
  EXPECT_THROW(RecvWithPartitionNames(client, &streamed, &names),
               apache::thrift::protocol::TProtocolException);
  EXPECT_TRUE(names.empty());
}

}  // namespace
}  // namespace ics::coord
