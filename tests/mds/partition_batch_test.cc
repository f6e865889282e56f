// PartitionService batch writes: create / update / delete, their limits and
// errors, atomicity, and one batch = one catalog version on the topic.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <thread>

#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/codec/topic_value.h"
#include "tests/catalog/catalog_test_util.h"
#include "tests/mds/partition_test_util.h"

namespace ics::catalog::mds::testing {
namespace {

using thrift::TMetastorePartition;

std::vector<TMetastorePartition> Parts(int n, int year = 2024) {
  std::vector<TMetastorePartition> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(Part({std::to_string(year), "r" + std::to_string(i), "2024-01-01"}));
  }
  return out;
}

TEST_F(PartitionServiceTest, CreateMakesPartitionsInOneVersion) {
  MakeSalesTable();
  const int64_t before = catalog_->version();
  auto r = svc_->BatchCreate(CreateReq("sales", "t", Parts(3)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->catalog_version, before + 1);
  EXPECT_EQ(catalog_->version(), before + 1);
  ASSERT_EQ(r->partitions.size(), 3u);
  const std::string dir = root_ + "/warehouse/sales.db/t/year=2024/region=r0/dt=2024-01-01";
  EXPECT_EQ(r->partitions[0].storage_descriptor.location_uri, dir);
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_GT(r->partitions[0].create_time, 0);
  EXPECT_EQ(r->partitions[0].fields.size(), 1u);  // the table's data column
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 3u);
  EXPECT_EQ(ListAll("sales", "t", "").size(), 3u);
  auto t = catalog_->GetTable("sales", "t");
  EXPECT_EQ(t->partitions.size(), 3u);
  EXPECT_EQ(t->version, before + 1);
}

TEST_F(PartitionServiceTest, CreateTakesStorageFieldsAndParameters) {
  MakeSalesTable();
  TMetastorePartition p = Part({"2024", "eu", "2024-02-03"});
  thrift::TPartitionStorageDescriptor sd;
  sd.__set_location_uri("file://" + root_ + "/elsewhere/p1");
  sd.__set_input_format("org.apache.hadoop.hive.ql.io.orc.OrcInputFormat");
  thrift::TPartitionSerDeInfo serde;
  serde.__set_serialization_library("org.apache.hadoop.hive.ql.io.orc.OrcSerde");
  sd.__set_serde_info(serde);
  p.__set_storage_descriptor(sd);
  p.__set_parameters({{"owner", "etl"}});
  thrift::TPartitionFieldSchema f;
  f.name = "Amount";
  f.type = "DECIMAL(10,2)";
  p.__set_fields({f});
  auto r = svc_->BatchCreate(CreateReq("sales", "t", {p}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const TMetastorePartition& got = r->partitions[0];
  EXPECT_EQ(got.storage_descriptor.location_uri, root_ + "/elsewhere/p1");
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/elsewhere/p1"));
  EXPECT_EQ(got.storage_descriptor.input_format, "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat");
  EXPECT_EQ(got.storage_descriptor.serde_info.serialization_library,
            "org.apache.hadoop.hive.ql.io.orc.OrcSerde");
  EXPECT_EQ(got.parameters.at("owner"), "etl");
  ASSERT_EQ(got.fields.size(), 1u);
  EXPECT_EQ(got.fields[0].name, "amount");
  EXPECT_EQ(got.fields[0].type, "decimal(10,2)");
  // What List returns is what the metastore holds.
  auto listed = List("sales", "t", "region = 'eu'");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->partitions.size(), 1u);
  EXPECT_EQ(listed->partitions[0].parameters.at("owner"), "etl");
  EXPECT_EQ(listed->partitions[0].storage_descriptor.location_uri, root_ + "/elsewhere/p1");
}

TEST_F(PartitionServiceTest, ExistingPartitionsFailOrAreSkipped) {
  MakeSalesTable();
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", Parts(2))).ok());
  // r1 exists, r2 is new: without skip nothing is written.
  std::vector<TMetastorePartition> mixed = {Part({"2024", "r1", "2024-01-01"}),
                                            Part({"2024", "r2", "2024-01-01"})};
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("sales", "t", mixed)), ErrorCode::kAlreadyExists);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 2u);
  // With skip, only r2 is created; the response lists only it.
  auto r = svc_->BatchCreate(CreateReq("sales", "t", mixed, /*skip_existing=*/true));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->partitions.size(), 1u);
  EXPECT_EQ(r->partitions[0].values[1], "r2");
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 3u);
  // All existing with skip: a no-op, no new version.
  const int64_t v = catalog_->version();
  auto none = svc_->BatchCreate(CreateReq("sales", "t", mixed, true));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->partitions.empty());
  EXPECT_EQ(none->catalog_version, v);
  EXPECT_EQ(catalog_->version(), v);
  // Values are canonicalized before the check: 0002024 is 2024.
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("sales", "t", {Part({"0002024", "r1", "2024-01-01"})})),
                   ErrorCode::kAlreadyExists);
}

TEST_F(PartitionServiceTest, BatchLimitIs900) {
  MakeSalesTable();
  auto over = svc_->BatchCreate(CreateReq("sales", "t", Parts(901)));
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(over.status().message().find("at most 900"), std::string::npos);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);
  auto at = svc_->BatchCreate(CreateReq("sales", "t", Parts(900)));
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  EXPECT_EQ(at->partitions.size(), 900u);
  thrift::TBatchDeletePartitionsRequest del;
  del.table = TableName("sales", "t");
  for (int i = 0; i < 901; ++i) del.partition_values.push_back({"2024", "r" + std::to_string(i), "2024-01-01"});
  EXPECT_MDS_FAILS(svc_->BatchDelete(del), ErrorCode::kLimitExceeded);
  thrift::TBatchUpdatePartitionsRequest upd;
  upd.table = TableName("sales", "t");
  upd.updates.resize(901);
  EXPECT_MDS_FAILS(svc_->BatchUpdate(upd), ErrorCode::kLimitExceeded);
  // Empty batches are an error too.
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("sales", "t", {})), ErrorCode::kInvalidArgument);
}

TEST_F(PartitionServiceTest, FieldLimits) {
  MakeSalesTable();
  auto expect_invalid = [&](TMetastorePartition p, const std::string& text) {
    auto r = svc_->BatchCreate(CreateReq("sales", "t", {Part({"2024", "ok", "2024-01-01"}), p}));
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument) << r.status().ToString();
    EXPECT_NE(r.status().message().find(text), std::string::npos) << r.status().ToString();
  };
  expect_invalid(Part({"2024", std::string(1025, 'x'), "2024-01-01"}),
                 "value #2 is longer than 1024 characters");
  TMetastorePartition params = Part({"2024", "a", "2024-01-01"});
  params.__set_parameters({{"k", std::string(10 * 1024, 'v')}});
  expect_invalid(params, "parameters is longer than 10240 bytes");
  TMetastorePartition serde = Part({"2024", "a", "2024-01-01"});
  serde.__isset.storage_descriptor = true;
  serde.storage_descriptor.__isset.serde_info = true;
  serde.storage_descriptor.serde_info.__set_name(std::string(257, 's'));
  expect_invalid(serde, "SerDe name is longer than 256 characters");
  TMetastorePartition lib = Part({"2024", "a", "2024-01-01"});
  lib.__isset.storage_descriptor = true;
  lib.storage_descriptor.__isset.serde_info = true;
  lib.storage_descriptor.serde_info.__set_serialization_library(std::string(257, 's'));
  expect_invalid(lib, "SerDe serialization library is longer than 256");
  TMetastorePartition fmt = Part({"2024", "a", "2024-01-01"});
  fmt.__isset.storage_descriptor = true;
  fmt.storage_descriptor.__set_input_format(std::string(129, 'f'));
  expect_invalid(fmt, "input format is longer than 128 characters");
  fmt.storage_descriptor.__set_input_format("x");
  fmt.storage_descriptor.__set_output_format(std::string(129, 'f'));
  expect_invalid(fmt, "output format is longer than 128 characters");
  TMetastorePartition field = Part({"2024", "a", "2024-01-01"});
  thrift::TPartitionFieldSchema f;
  f.name = std::string(1025, 'c');
  f.type = "int";
  field.__set_fields({f});
  expect_invalid(field, "field name is longer than 1024 characters");
  f.name = "c";
  f.type = "int" + std::string(1022, ' ');
  field.__set_fields({f});
  expect_invalid(field, "is longer than 1024 characters");
  f.type = "no_such_type";
  field.__set_fields({f});
  expect_invalid(field, "no_such_type");
  expect_invalid(Part({"2024", "a"}), "needs 3 value(s)");
  expect_invalid(Part({"twenty", "a", "2024-01-01"}), "Invalid value 'twenty' for partition key 'year'");
  expect_invalid(Part({"2024", "a", "2024-02-30"}), "expected a date");
  expect_invalid(Part({}), "a partition needs its values");
  expect_invalid(Part({"2024", "ok", "2024-01-01"}), "appears more than once in the batch");
  // Nothing of any of these batches was written.
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);
  // 1024 characters is fine (with a location of its own: a directory name
  // that long would be over the file system's limit).
  TMetastorePartition longest = Part({"2024", std::string(1024, 'x'), "2024-01-01"});
  longest.__isset.storage_descriptor = true;
  longest.storage_descriptor.__set_location_uri(root_ + "/longest");
  auto ok = svc_->BatchCreate(CreateReq("sales", "t", {longest}));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
}

TEST_F(PartitionServiceTest, TableErrors) {
  MakeSalesTable();
  CreateTable("sales", "flat", {});
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("nodb", "t", Parts(1))), ErrorCode::kNotFound);
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("sales", "missing", Parts(1))), ErrorCode::kNotFound);
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("sales", "flat", Parts(1))), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(svc_->BatchCreate(CreateReq("bad.name", "t", Parts(1))), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(List("sales", "flat", ""), ErrorCode::kInvalidArgument);
  EXPECT_MDS_FAILS(List("sales", "missing", ""), ErrorCode::kNotFound);
  auto bad_version = CreateReq("sales", "t", Parts(1));
  bad_version.protocol_version = static_cast<thrift::TPartitionServiceVersion::type>(7);
  EXPECT_MDS_FAILS(svc_->BatchCreate(bad_version), ErrorCode::kInvalidArgument);
  // Upper-case names are normalized.
  EXPECT_TRUE(svc_->BatchCreate(CreateReq("SALES", "T", Parts(1))).ok());
}

TEST_F(PartitionServiceTest, DirectoryFailureLeavesNothing) {
  MakeSalesTable();
  fs_.FailCreate("region=r2");
  auto r = svc_->BatchCreate(CreateReq("sales", "t", Parts(4)));
  const int64_t v = catalog_->version();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);  // the txn was undone
  EXPECT_EQ(catalog_->version(), v);
  EXPECT_TRUE(ListAll("sales", "t", "").empty());
  fs_.FailCreate("");
  EXPECT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", Parts(4))).ok());
}

TEST_F(PartitionServiceTest, UpdateWithFieldMask) {
  MakeSalesTable();
  TMetastorePartition p = Part({"2024", "eu", "2024-01-01"});
  p.__set_parameters({{"a", "1"}});
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", {p, Part({"2024", "us", "2024-01-01"})})).ok());
  const std::string old_loc = root_ + "/warehouse/sales.db/t/year=2024/region=eu/dt=2024-01-01";

  // Only parameters: the location stays.
  thrift::TBatchUpdatePartitionsRequest req;
  req.table = TableName("sales", "t");
  thrift::TPartitionUpdate u;
  u.partition = Part({"2024", "eu", "2024-01-01"});
  u.partition.__set_parameters({{"b", "2"}});
  u.partition.__isset.storage_descriptor = true;
  u.partition.storage_descriptor.__set_location_uri(root_ + "/moved");
  u.__set_update_mask({"parameters"});
  req.updates = {u};
  const int64_t v = catalog_->version();
  auto r = svc_->BatchUpdate(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->catalog_version, v + 1);
  ASSERT_EQ(r->partitions.size(), 1u);
  EXPECT_EQ(r->partitions[0].parameters.count("a"), 0u);
  EXPECT_EQ(r->partitions[0].parameters.at("b"), "2");
  EXPECT_EQ(r->partitions[0].storage_descriptor.location_uri, old_loc);

  // Only the location: parameters stay; the new directory is created.
  req.updates[0].__set_update_mask({"storage_descriptor.location_uri"});
  r = svc_->BatchUpdate(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->partitions[0].storage_descriptor.location_uri, root_ + "/moved");
  EXPECT_EQ(r->partitions[0].parameters.at("b"), "2");
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/moved"));
  auto listed = List("sales", "t", "region = 'eu'");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->partitions[0].storage_descriptor.location_uri, root_ + "/moved");

  // Unknown mask path, missing partition (with a valid one in the same
  // batch): nothing changes.
  req.updates[0].__set_update_mask({"storage_descriptor.bogus"});
  EXPECT_MDS_FAILS(svc_->BatchUpdate(req), ErrorCode::kInvalidArgument);
  thrift::TPartitionUpdate ok_update;
  ok_update.partition = Part({"2024", "us", "2024-01-01"});
  ok_update.partition.__set_parameters({{"c", "3"}});
  ok_update.__set_update_mask({"parameters"});
  thrift::TPartitionUpdate missing;
  missing.partition = Part({"2024", "nowhere", "2024-01-01"});
  req.updates = {ok_update, missing};
  EXPECT_MDS_FAILS(svc_->BatchUpdate(req), ErrorCode::kNotFound);
  auto us = List("sales", "t", "region = 'us'");
  ASSERT_TRUE(us.ok());
  EXPECT_EQ(us->partitions[0].parameters.count("c"), 0u);
}

TEST_F(PartitionServiceTest, DeleteIsAtomic) {
  MakeSalesTable();
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", Parts(5))).ok());
  thrift::TBatchDeletePartitionsRequest del;
  del.table = TableName("sales", "t");
  del.partition_values = {{"2024", "r0", "2024-01-01"}, {"2024", "gone", "2024-01-01"}};
  EXPECT_MDS_FAILS(svc_->BatchDelete(del), ErrorCode::kNotFound);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 5u);
  del.partition_values = {{"2024", "r0", "2024-01-01"}, {"2024", "r3", "2024-01-01"}};
  const int64_t v = catalog_->version();
  auto r = svc_->BatchDelete(del);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->catalog_version, v + 1);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 3u);
  EXPECT_FALSE(std::filesystem::exists(root_ + "/warehouse/sales.db/t/year=2024/region=r0"
                                       "/dt=2024-01-01"));  // a managed table's data goes too
  EXPECT_EQ(ListAll("sales", "t", "").size(), 3u);
  del.partition_values = {{"2024", "r1", "2024-01-01"}, {"2024", "r1", "2024-01-01"}};
  EXPECT_MDS_FAILS(svc_->BatchDelete(del), ErrorCode::kInvalidArgument);  // listed twice
}

TEST_F(PartitionServiceTest, ConcurrentBatchesAndListings) {
  MakeSalesTable();
  constexpr int kThreads = 4, kBatches = 10, kPerBatch = 5;
  std::vector<std::thread> writers;
  std::vector<std::vector<int64_t>> versions(kThreads);
  std::atomic<int> failures{0};
  for (int w = 0; w < kThreads; ++w) {
    writers.emplace_back([&, w] {
      for (int b = 0; b < kBatches; ++b) {
        std::vector<TMetastorePartition> parts;
        for (int i = 0; i < kPerBatch; ++i) {
          parts.push_back(Part({std::to_string(2000 + w), "b" + std::to_string(b * kPerBatch + i),
                                "2024-01-01"}));
        }
        auto r = svc_->BatchCreate(CreateReq("sales", "t", parts));
        if (!r.ok()) {
          ++failures;
          continue;
        }
        versions[w].push_back(r->catalog_version);
      }
    });
  }
  // Listings meanwhile see whole batches only: a multiple of kPerBatch.
  std::thread reader([&] {
    for (int i = 0; i < 30; ++i) {
      auto r = List("sales", "t", "year >= 2000", 10000);
      if (!r.ok() || r->partitions.size() % kPerBatch != 0) ++failures;
    }
  });
  for (auto& t : writers) t.join();
  reader.join();
  EXPECT_EQ(failures.load(), 0);
  std::set<int64_t> distinct;
  for (const auto& v : versions) distinct.insert(v.begin(), v.end());
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kThreads * kBatches));  // one version each
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), static_cast<size_t>(kThreads * kBatches * kPerBatch));
  EXPECT_EQ(ListAll("sales", "t", "").size(), static_cast<size_t>(kThreads * kBatches * kPerBatch));
}

impala::TTopicDelta Update(int64_t from, bool is_delta) {
  return catalog::testing::TopicUpdate(from, from, is_delta);
}

TEST_F(PartitionServiceTest, OneBatchIsOneVersionOnTheTopic) {
  MakeSalesTable();
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", Parts(1))).ok());
  CatalogTopicPublisher pub(catalog_.get(), {TopicMode::kMixed, false});
  std::vector<impala::TTopicDelta> out;
  pub.OnTopicUpdate(Update(0, false), &out);  // the first, full publication
  ASSERT_EQ(out.size(), 1u);
  const int64_t before = catalog_->version();

  auto r = svc_->BatchCreate(CreateReq("sales", "t", Parts(4, 2025)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->catalog_version, before + 1);
  out.clear();
  pub.OnTopicUpdate(Update(10, true), &out);
  ASSERT_EQ(out.size(), 1u);
  int partitions = 0, tables = 0;
  for (const auto& e : out[0].topic_entries) {
    if (e.deleted) continue;
    impala::TCatalogObject obj;
    ASSERT_TRUE(DecodeTopicValue(e.value, false, &obj).ok()) << e.key;
    if (obj.type == impala::TCatalogObjectType::CATALOG) {
      EXPECT_EQ(obj.catalog_version, before + 1);
      continue;
    }
    EXPECT_EQ(obj.catalog_version, before + 1) << e.key;  // every object of the batch
    if (obj.type == impala::TCatalogObjectType::HDFS_PARTITION) ++partitions;
    if (obj.type == impala::TCatalogObjectType::TABLE && e.key.rfind("1:", 0) == 0) ++tables;
  }
  EXPECT_EQ(partitions, 4);
  EXPECT_EQ(tables, 1);
  EXPECT_EQ(pub.last_published_version(), before + 1);

  // A delete publishes the dropped partitions as deletions, again in one version.
  thrift::TBatchDeletePartitionsRequest del;
  del.table = TableName("sales", "t");
  del.partition_values = {{"2025", "r0", "2024-01-01"}, {"2025", "r1", "2024-01-01"}};
  auto d = svc_->BatchDelete(del);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->catalog_version, before + 2);
  out.clear();
  pub.OnTopicUpdate(Update(15, true), &out);
  ASSERT_EQ(out.size(), 1u);
  int deleted = 0;
  for (const auto& e : out[0].topic_entries) {
    // (mixed mode: each deletion as a "1:" and a "2:" entry)
    if (e.deleted && e.key.rfind("1:HDFS_PARTITION", 0) == 0) ++deleted;
  }
  EXPECT_EQ(deleted, 2);
}

}  // namespace
}  // namespace ics::catalog::mds::testing
