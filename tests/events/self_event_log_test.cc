// SelfEventLog: the ranges of own commits, and the barrier that closes the
// window between a commit becoming visible and its range being recorded.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "catalogd/events/self_event_log.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using Kind = MetastoreOp::Kind;

// The real SQLite metastore whose Commit can be held after it committed
// (the moment the events are visible in the log but not yet recorded).
class HoldingMetastore final : public Metastore {
 public:
  explicit HoldingMetastore(Metastore* real) : real_(real) {}
  Result<std::vector<std::string>> GetAllDatabases() override { return real_->GetAllDatabases(); }
  Result<hive::Database> GetDatabase(const std::string& db) override {
    return real_->GetDatabase(db);
  }
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override {
    return real_->GetAllTables(db);
  }
  Result<hive::Table> GetTable(const std::string& db, const std::string& t) override {
    return real_->GetTable(db, t);
  }
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& t) override {
    return real_->GetPartitions(db, t);
  }
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& t, const std::vector<std::string>& n) override {
    return real_->GetPartitionsByNames(db, t, n);
  }
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override {
    return real_->GetFunctions(db);
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& t) override {
    return real_->GetTableColumnStats(db, t);
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& t, const std::string& p) override {
    return real_->GetPartitionColumnStats(db, t, p);
  }
  Result<int64_t> Commit(const MetastoreTxn& txn) override {
    Result<int64_t> r = real_->Commit(txn);
    std::unique_lock<std::mutex> l(mu_);
    committed_ = true;
    cv_.notify_all();
    cv_.wait(l, [&] { return released_; });
    return r;
  }
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after, int max) override {
    return real_->GetNextNotifications(after, max);
  }
  Result<int64_t> CurrentNotificationEventId() override {
    return real_->CurrentNotificationEventId();
  }

  void WaitCommitted() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return committed_; });
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  Metastore* const real_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool committed_ = false;
  bool released_ = false;
};

class SelfEventLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    auto ms = OpenSqliteMetastore(dir_ + "/m.db");
    ASSERT_TRUE(ms.ok()) << ms.status().ToString();
    real_ = std::move(ms).value();
  }
  void TearDown() override { real_.reset(); }

  static MetastoreTxn CreateDbs(const std::vector<std::string>& names) {
    MetastoreTxn txn;
    for (const std::string& n : names) {
      MetastoreOp op;
      op.kind = Kind::kCreateDatabase;
      op.database.name = n;
      txn.ops.push_back(op);
    }
    return txn;
  }

  ::ics::testing::TempDir tmp_{"ics-self-events"};
  std::string dir_;
  std::unique_ptr<Metastore> real_;
};

TEST_F(SelfEventLogTest, RecordsTheContiguousRangeOfEachCommit) {
  SelfEventLog log;
  SelfRecordingMetastore ms(real_.get(), &log);
  // Not recording yet: nothing is kept.
  ASSERT_TRUE(ms.Commit(CreateDbs({"a"})).ok());
  EXPECT_EQ(log.num_ranges(), 0u);
  log.SetRecording(true);
  Result<int64_t> last = ms.Commit(CreateDbs({"b", "c", "d"}));
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(*last, 4);
  // An external commit in between.
  ASSERT_TRUE(real_->Commit(CreateDbs({"x"})).ok());
  ASSERT_TRUE(ms.Commit(CreateDbs({"e"})).ok());
  EXPECT_FALSE(log.IsSelf(1));  // before recording
  EXPECT_TRUE(log.IsSelf(2));
  EXPECT_TRUE(log.IsSelf(3));
  EXPECT_TRUE(log.IsSelf(4));
  EXPECT_FALSE(log.IsSelf(5));  // external
  EXPECT_TRUE(log.IsSelf(6));
  EXPECT_FALSE(log.IsSelf(7));
  // A failed commit records nothing.
  EXPECT_FALSE(ms.Commit(CreateDbs({"e"})).ok());
  EXPECT_EQ(log.num_ranges(), 2u);
  log.ForgetThrough(4);
  EXPECT_FALSE(log.IsSelf(3));
  EXPECT_TRUE(log.IsSelf(6));
  log.ForgetThrough(6);
  EXPECT_EQ(log.num_ranges(), 0u);
}

TEST_F(SelfEventLogTest, BarrierWaitsForACommitThatIsVisibleButNotRecorded) {
  SelfEventLog log;
  log.SetRecording(true);
  HoldingMetastore holding(real_.get());
  SelfRecordingMetastore ms(&holding, &log);
  std::thread writer([&] { EXPECT_TRUE(ms.Commit(CreateDbs({"own"})).ok()); });
  holding.WaitCommitted();
  // The event is in the log, but its range is not recorded yet.
  auto events = real_->GetNextNotifications(0, 10);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_FALSE(log.IsSelf(events->front().eventId));
  std::atomic<bool> passed{false};
  std::thread reader([&] {
    log.Barrier();
    passed = true;
  });
  // The barrier cannot pass while the commit is held.
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(passed.load());
    std::this_thread::yield();
  }
  holding.Release();
  reader.join();
  writer.join();
  EXPECT_TRUE(passed.load());
  EXPECT_TRUE(log.IsSelf(events->front().eventId));
  // A later commit does not hold up a barrier.
  log.Barrier();
}

}  // namespace
}  // namespace ics::catalog
