// The remote metastore under concurrency and server failures: many threads
// share a small pool; the HMS endpoint restarting (pooled connections go
// stale; reads and writes reconnect); the endpoint gone (clear errors, no
// hang), then back.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "tests/hms/remote_test_util.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

class RemoteRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hms_ = std::make_unique<InProcessHms>(dir_.path());
    ASSERT_OK(hms_->Start());
  }

  std::unique_ptr<HmsRemoteMetastore> Open(RemoteMetastoreOptions o) {
    auto ms = OpenRemoteMetastore(o);
    EXPECT_TRUE(ms.ok()) << ms.status().ToString();
    return ms.ok() ? std::move(ms).value() : nullptr;
  }

  TempDir dir_;
  std::unique_ptr<InProcessHms> hms_;
};

TEST_F(RemoteRestartTest, ConcurrentCallsShareABoundedPool) {
  RemoteMetastoreOptions o = hms_->ClientOptions();
  o.pool_size = 3;
  auto ms = Open(o);
  ASSERT_NE(ms, nullptr);
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d"))})));
  constexpr int kThreads = 8;
  constexpr int kPartitions = 15;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const std::string t = "t" + std::to_string(i);
      auto check = [&](const Status& s) {
        if (!s.ok()) {
          ++failures;
          ADD_FAILURE() << t << ": " << s.ToString();
        }
      };
      check(ms->Commit(Txn({CreateTableOp(MakeTable("d", t, {"k"}))})).status());
      for (int p = 0; p < kPartitions; ++p) {
        check(ms->Commit(Txn({AddPartitionOp(MakePartition("d", t, {std::to_string(p)}))}))
                  .status());
        check(ms->GetTable("d", t).status());
        check(ms->GetAllTables("d").status());
      }
      auto parts = ms->GetPartitions("d", t);
      check(parts.status());
      if (parts.ok()) EXPECT_EQ(parts->size(), static_cast<size_t>(kPartitions));
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(ms->GetAllTables("d")->size(), static_cast<size_t>(kThreads));
  const HmsPoolStats stats = ms->pool_stats();
  EXPECT_LE(stats.connections_made, 3);
  EXPECT_EQ(stats.in_use, 0);
  EXPECT_EQ(hms_->store()->GetPartitions("d", "t0")->size(), static_cast<size_t>(kPartitions));
}

TEST_F(RemoteRestartTest, ServerRestartIsSeamlessForReadsAndWrites) {
  RemoteMetastoreOptions o = hms_->ClientOptions();
  o.pool_size = 4;
  auto ms = Open(o);
  ASSERT_NE(ms, nullptr);
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d"))})));
  // Open several pooled connections.
  std::vector<std::thread> warm;
  for (int i = 0; i < 4; ++i) {
    warm.emplace_back([&] {
      for (int j = 0; j < 20; ++j) EXPECT_TRUE(ms->GetAllDatabases().ok());
    });
  }
  for (auto& th : warm) th.join();
  ASSERT_GE(ms->pool_stats().idle, 1);

  ASSERT_OK(hms_->Restart());
  // Every pooled connection is dead now. A write must not be sent into one
  // (its outcome would be unknown): stale connections are detected first.
  for (int i = 0; i < 6; ++i) {
    auto r = ms->Commit(Txn({CreateDbOp(MakeDb("after" + std::to_string(i)))}));
    ASSERT_OK(r);
  }
  ASSERT_OK(ms->GetDatabase("after5"));
  EXPECT_GE(ms->pool_stats().stale_closed, 1);
  EXPECT_EQ(ms->GetAllDatabases()->size(), 7u);
}

TEST_F(RemoteRestartTest, ServerGoneGivesClearErrorsThenRecovers) {
  RemoteMetastoreOptions o = hms_->ClientOptions();
  o.retries = 2;
  auto ms = Open(o);
  ASSERT_NE(ms, nullptr);
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d"))})));
  const int port = hms_->port();
  hms_->Stop();

  auto read = ms->GetDatabase("d");
  ASSERT_ERROR(read, ErrorCode::kNetworkError);
  EXPECT_NE(read.status().message().find("127.0.0.1:" + std::to_string(port)), std::string::npos)
      << read.status().ToString();
  EXPECT_NE(read.status().message().find("3 attempt(s)"), std::string::npos)
      << read.status().ToString();
  auto write = ms->Commit(Txn({CreateDbOp(MakeDb("e"))}));
  ASSERT_ERROR(write, ErrorCode::kNetworkError);
  EXPECT_NE(write.status().message().find("nothing applied"), std::string::npos)
      << write.status().ToString();
  auto opened = OpenRemoteMetastore(o);
  ASSERT_ERROR(opened, ErrorCode::kNetworkError);
  EXPECT_NE(opened.status().message().find("cannot use the remote metastore"), std::string::npos)
      << opened.status().ToString();

  ASSERT_OK(hms_->Start(port));
  ASSERT_OK(ms->GetDatabase("d"));
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("e"))})));
  ASSERT_OK(hms_->store()->GetDatabase("e"));
}

}  // namespace
}  // namespace ics::catalog
