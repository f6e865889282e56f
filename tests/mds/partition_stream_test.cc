// PartitionService write streams: open / append / commit / abort, counts,
// skip_existing semantics, all-or-nothing commits, expiry and bounds.
#include <gtest/gtest.h>

#include <atomic>
#include <limits>

#include "tests/mds/partition_test_util.h"

namespace ics::catalog::mds::testing {
namespace {

using thrift::TMetastorePartition;

class PartitionStreamTest : public PartitionServiceTest {
 protected:
  void SetUp() override {
    stream_options_.now_ms = [this] { return now_ms_.load(); };
    stream_options_.idle_timeout_ms = 1000;
    stream_options_.max_staged_bytes = 200 * 1024;
    stream_options_.max_streams = 3;
    PartitionServiceTest::SetUp();
    MakeSalesTable();
  }

  Result<std::string> Open(bool skip = false, const std::string& table = "t") {
    thrift::TOpenWriteStreamRequest req;
    req.table = TableName("sales", table);
    req.__set_skip_existing_partitions(skip);
    ICS_ASSIGN_OR_RETURN(auto resp, svc_->OpenWriteStream(req));
    EXPECT_EQ(resp.idle_timeout_ms, 1000);
    return resp.stream_id;
  }

  Result<int64_t> Append(const std::string& id, std::vector<TMetastorePartition> parts,
                         bool skip = false) {
    thrift::TAppendWriteStreamRequest req;
    req.stream_id = id;
    req.partitions = std::move(parts);
    req.__set_skip_existing_partitions(skip);
    ICS_ASSIGN_OR_RETURN(auto resp, svc_->AppendWriteStream(req));
    return resp.total_partitions_streamed_count;
  }

  Result<thrift::TCommitWriteStreamResponse> Commit(const std::string& id) {
    thrift::TCommitWriteStreamRequest req;
    req.stream_id = id;
    return svc_->CommitWriteStream(req);
  }

  Status Abort(const std::string& id) {
    thrift::TAbortWriteStreamRequest req;
    req.stream_id = id;
    return svc_->AbortWriteStream(req).status();
  }

  static std::vector<TMetastorePartition> Batch(int from, int n) {
    std::vector<TMetastorePartition> out;
    for (int i = from; i < from + n; ++i) out.push_back(Part({"2024", "r" + std::to_string(i), "2024-01-01"}));
    return out;
  }

  std::atomic<int64_t> now_ms_{1000000};
};

TEST_F(PartitionStreamTest, CommitCreatesEverythingInOneVersion) {
  auto id = Open();
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(*Append(*id, Batch(0, 3)), 3);
  EXPECT_EQ(*Append(*id, Batch(3, 4)), 7);
  EXPECT_EQ(*Append(*id, {}), 7);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);  // nothing before the commit
  const int64_t v = catalog_->version();
  auto c = Commit(*id);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->total_partitions_streamed_count, 7);
  EXPECT_EQ(c->total_partitions_inserted_count, 7);
  EXPECT_EQ(c->catalog_version, v + 1);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 7u);
  // The stream ended with the commit.
  EXPECT_MDS_FAILS(Commit(*id), ErrorCode::kNotFound);
  EXPECT_MDS_FAILS(Append(*id, Batch(10, 1)), ErrorCode::kNotFound);
}

TEST_F(PartitionStreamTest, MoreThanOneBatchLimitInOneCommit) {
  auto id = Open();
  ASSERT_TRUE(id.ok());
  // 1000 partitions in small appends: over the 900 of one batch call, fine
  // for a stream (bounded by bytes instead).
  for (int i = 0; i < 1000; i += 100) ASSERT_TRUE(Append(*id, Batch(i, 100)).ok()) << i;
  auto c = Commit(*id);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->total_partitions_inserted_count, 1000);
}

TEST_F(PartitionStreamTest, SkipExistingOrFailWithNothingWritten) {
  ASSERT_TRUE(svc_->BatchCreate(CreateReq("sales", "t", Batch(0, 2))).ok());
  auto strict = Open(false);
  ASSERT_TRUE(strict.ok());
  ASSERT_TRUE(Append(*strict, Batch(1, 3)).ok());  // r1 exists
  EXPECT_MDS_FAILS(Commit(*strict), ErrorCode::kAlreadyExists);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 2u);

  auto skip = Open(true);
  ASSERT_TRUE(skip.ok());
  // Every request of a skipping stream must say so.
  EXPECT_FALSE(Append(*skip, Batch(1, 3), /*skip=*/false).ok());
  ASSERT_TRUE(Append(*skip, Batch(1, 3), true).ok());
  auto c = Commit(*skip);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->total_partitions_streamed_count, 3);
  EXPECT_EQ(c->total_partitions_inserted_count, 2);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 4u);
}

TEST_F(PartitionStreamTest, AbortDropsStagedPartitions) {
  auto id = Open();
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(Append(*id, Batch(0, 5)).ok());
  const int64_t v = catalog_->version();
  ASSERT_TRUE(Abort(*id).ok());
  EXPECT_EQ(catalog_->version(), v);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);
  EXPECT_EQ(Abort(*id).code(), ErrorCode::kNotFound);
  EXPECT_MDS_FAILS(Commit(*id), ErrorCode::kNotFound);
}

TEST_F(PartitionStreamTest, IdleStreamsExpire) {
  auto id = Open();
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(Append(*id, Batch(0, 1)).ok());
  now_ms_ += 900;
  ASSERT_TRUE(Append(*id, Batch(1, 1)).ok());  // a call keeps it alive
  now_ms_ += 900;
  ASSERT_TRUE(Append(*id, Batch(2, 1)).ok());
  now_ms_ += 1001;
  auto r = Commit(*id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kCancelled);  // ABORTED on the wire
  EXPECT_NE(r.status().message().find("expired"), std::string::npos);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);
  EXPECT_EQ(partitions_->streams()->open_streams(), 0u);
}

TEST_F(PartitionStreamTest, Bounds) {
  // At most 3 open streams.
  auto a = Open(), b = Open(), c = Open();
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(Open().status().code(), ErrorCode::kLimitExceeded);
  ASSERT_TRUE(Abort(*c).ok());
  // Staged bytes are bounded; an append over the bound stages nothing and
  // the stream stays usable.
  std::vector<TMetastorePartition> big;
  for (int i = 0; i < 60; ++i) {
    TMetastorePartition p = Part({"2024", "b" + std::to_string(i), "2024-01-01"});
    p.__set_parameters({{"blob", std::string(4000, 'x')}});
    big.push_back(p);
  }
  auto over = Append(*a, big);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(*Append(*a, Batch(0, 2)), 2);
  // Invalid partitions are refused at append time.
  EXPECT_EQ(Append(*a, {Part({"2024", std::string(1025, 'v'), "2024-01-01"})}).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(*Append(*a, {}), 2);
  // Opening needs a partitioned table that exists.
  CreateTable("sales", "flat", {});
  EXPECT_EQ(Open(false, "flat").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(Open(false, "missing").status().code(), ErrorCode::kNotFound);
  // Values are checked at commit against the table: a bad one fails it all.
  ASSERT_TRUE(Append(*b, {Part({"2024", "ok", "2024-01-01"}), Part({"x", "bad", "2024-01-01"})}).ok());
  EXPECT_MDS_FAILS(Commit(*b), ErrorCode::kInvalidArgument);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);
}

// Partitions of about `bytes` each (a parameter blob), named n<from>...
std::vector<TMetastorePartition> Sized(int from, int n, size_t bytes) {
  std::vector<TMetastorePartition> out;
  for (int i = from; i < from + n; ++i) {
    TMetastorePartition p = Part({"2024", "n" + std::to_string(i), "2024-01-01"});
    p.__set_parameters({{"blob", std::string(bytes, 'x')}});
    out.push_back(p);
  }
  return out;
}

class StreamBudgetTest : public PartitionStreamTest {
 protected:
  void SetUp() override {
    // Each stream may stage 200 KiB, but all of them together only 300 KiB.
    max_staged_bytes_total_ = 300 * 1024;
    PartitionStreamTest::SetUp();
  }
};

TEST_F(StreamBudgetTest, StreamsTogetherAreBoundedByTheServerCap) {
  auto a = Open(), b = Open();
  ASSERT_TRUE(a.ok() && b.ok());
  // About 170 KB each: within the per-stream bound, but two pass the total.
  ASSERT_TRUE(Append(*a, Sized(0, 18, 9 * 1024)).ok());
  const int64_t used = partitions_->staging_budget().used_bytes();
  EXPECT_GT(used, 18 * 9 * 1024);
  auto over = Append(*b, Sized(100, 18, 9 * 1024));
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(over.status().message().find("--metastore_write_streams_max_staged_bytes"),
            std::string::npos)
      << over.status().ToString();
  EXPECT_EQ(partitions_->staging_budget().used_bytes(), used);  // nothing of it staged
  EXPECT_EQ(*Append(*b, {}), 0);
  // A batch request is charged too while it runs.
  thrift::TBatchCreatePartitionsRequest batch;
  batch.table = TableName("sales", "t");
  batch.partitions = Sized(200, 18, 9 * 1024);
  EXPECT_MDS_FAILS(svc_->BatchCreate(batch), ErrorCode::kLimitExceeded);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 0u);

  // Aborting a frees its bytes: b now fits, and its commit releases them.
  ASSERT_TRUE(Abort(*a).ok());
  EXPECT_EQ(partitions_->staging_budget().used_bytes(), 0);
  ASSERT_TRUE(Append(*b, Sized(100, 18, 9 * 1024)).ok());
  ASSERT_TRUE(Commit(*b).ok());
  EXPECT_EQ(partitions_->staging_budget().used_bytes(), 0);
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 18u);
  batch.partitions = Sized(200, 2, 10);
  EXPECT_TRUE(svc_->BatchCreate(batch).ok());
  EXPECT_EQ(partitions_->staging_budget().used_bytes(), 0);
  EXPECT_GE(partitions_->staging_budget().rejected(), 2);
}

TEST_F(StreamBudgetTest, ExpiredStreamsGiveTheirBytesBack) {
  auto a = Open();
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(Append(*a, Sized(0, 18, 9 * 1024)).ok());
  EXPECT_GT(partitions_->staging_budget().used_bytes(), 0);
  now_ms_ += 5000;  // past the idle timeout
  auto b = Open();  // sweeps
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(partitions_->staging_budget().used_bytes(), 0);
}

TEST(StagingBudgetTest, ReservationsAreCountedAndReleased) {
  StagingBudget budget(100);
  {
    auto r = budget.Reserve(60, "w1");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(budget.used_bytes(), 60);
    auto refused = budget.Reserve(41, "w2");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(refused.status().message().find("w2"), std::string::npos);
    StagingReservation moved = std::move(r).value();
    EXPECT_TRUE(moved.Grow(&budget, 40, "w1").ok());
    EXPECT_EQ(budget.used_bytes(), 100);
    EXPECT_FALSE(moved.Grow(&budget, 1, "w1").ok());
    EXPECT_EQ(moved.bytes(), 100);
  }
  EXPECT_EQ(budget.used_bytes(), 0);
  EXPECT_EQ(budget.peak_bytes(), 100);
  StagingBudget unlimited(0);
  auto huge = unlimited.Reserve(std::numeric_limits<int64_t>::max(), "w");
  ASSERT_TRUE(huge.ok());
  StagingReservation h = std::move(huge).value();
  EXPECT_TRUE(h.Grow(&unlimited, 10, "w").ok());  // saturates, no overflow
}

TEST_F(PartitionStreamTest, AppendSizeLimitPerMessage) {
  WriteStreamOptions o;
  o.max_append_bytes = 1000;
  WriteStreamManager m(o);
  auto id = m.Open("d", "t", false);
  ASSERT_TRUE(id.ok());
  std::vector<PartitionInput> parts;  // the stream manager stages domain values
  for (int i = 0; i < 20; ++i) parts.push_back(PartitionInput{{std::string(100, 'v')}, {}, {}, {}});
  auto r = m.Append(*id, parts, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("at most 1000 bytes"), std::string::npos);
}

}  // namespace
}  // namespace ics::catalog::mds::testing
