// Retention of the SQLite metastore: the notification log (count and age
// rules, batches, the consumer bound, readers behind the kept range) and
// archived table versions per table; and the background MetastoreRetention
// worker over it.
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/forwarding_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/metastore_retention.h"
#include "tests/external/metastore_backends.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

class RetentionTest : public ::testing::TestWithParam<external::MetastoreBackend> {
 protected:
  void SetUp() override {
    auto ms = external::OpenFreshMetastore(GetParam(), dir_.path());
    ASSERT_TRUE(ms.ok()) << ms.status().ToString();
    ms_ = std::move(ms).value();
  }

  // Appends n events (one database each).
  void AddEvents(int n) {
    for (int i = 0; i < n; ++i) {
      ASSERT_OK(ms_->Commit(Txn({CreateDbOp(MakeDb("d" + std::to_string(next_db_++)))})));
    }
  }

  std::vector<int64_t> KeptIds() {
    std::vector<int64_t> ids;
    auto first = ms_->FirstRetainedNotificationEventId();
    EXPECT_TRUE(first.ok());
    auto events = ms_->GetNextNotifications(*first - 1, 100000);
    EXPECT_TRUE(events.ok()) << events.status().ToString();
    if (events.ok()) {
      for (const auto& e : *events) ids.push_back(e.eventId);
    }
    return ids;
  }

  // Commits `n` new versions (archiving the old object) of d.t.
  void AddVersions(const std::string& table, int n) {
    for (int i = 0; i < n; ++i) {
      auto t = ms_->GetTable("vdb", table);
      ASSERT_OK(t);
      hive::Table next = *t;
      next.parameters["rev"] = std::to_string(i);
      MetastoreOp version = TableOp(Kind::kNewTableVersion, "vdb", table);
      version.archive = true;
      MetastoreOp alter = TableOp(Kind::kAlterTable, "vdb", table);
      alter.table = next;
      ASSERT_OK(ms_->Commit(Txn({version, alter})));
    }
  }

  TempDir dir_;
  std::unique_ptr<Metastore> ms_;
  int next_db_ = 0;
};

TEST_P(RetentionTest, NothingPrunedKeepsEverythingReadable) {
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 1);
  AddEvents(3);
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 1);
  ASSERT_OK(ms_->GetNextNotifications(0, 10));
  ASSERT_OK(ms_->GetNextNotifications(-5, 10));
  NotificationRetention none;  // no rule: nothing to do
  EXPECT_EQ(*ms_->PruneNotifications(none), 0);
}

TEST_P(RetentionTest, CountRuleKeepsTheNewestEventsInBatches) {
  AddEvents(10);
  NotificationRetention r;
  r.max_events = 3;
  r.batch_limit = 2;
  EXPECT_EQ(*ms_->PruneNotifications(r), 2);  // one batch
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 3);
  r.batch_limit = 1000;
  EXPECT_EQ(*ms_->PruneNotifications(r), 5);
  EXPECT_EQ(KeptIds(), (std::vector<int64_t>{8, 9, 10}));
  EXPECT_EQ(*ms_->PruneNotifications(r), 0);
  // Ids keep growing; the count is kept as the log grows.
  AddEvents(2);
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 12);
  EXPECT_EQ(*ms_->PruneNotifications(r), 2);
  EXPECT_EQ(KeptIds(), (std::vector<int64_t>{10, 11, 12}));
}

TEST_P(RetentionTest, ReadersBehindTheKeptRangeGetAClearError) {
  AddEvents(10);
  NotificationRetention r;
  r.max_events = 3;
  ASSERT_EQ(*ms_->PruneNotifications(r), 7);
  auto old = ms_->GetNextNotifications(0, 100);
  ASSERT_ERROR(old, ErrorCode::kInvalidArgument);
  EXPECT_NE(old.status().message().find("no longer kept"), std::string::npos);
  ASSERT_ERROR(ms_->GetNextNotifications(6, 100), ErrorCode::kInvalidArgument);
  auto exact = ms_->GetNextNotifications(7, 100);  // the next one is the first kept
  ASSERT_OK(exact);
  ASSERT_EQ(exact->size(), 3u);
  EXPECT_EQ(exact->front().eventId, 8);
  ASSERT_OK(ms_->GetNextNotifications(10, 100));
  ASSERT_OK(ms_->GetNextNotifications(50, 100));  // beyond the log: nothing, no error

  // Everything deleted: the kept range is empty, after the last id.
  r.max_events = 0;
  r.max_age_seconds = 1;
  r.now_seconds = static_cast<int64_t>(std::time(nullptr)) + 1000;
  EXPECT_EQ(*ms_->PruneNotifications(r), 3);
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 11);
  ASSERT_OK(ms_->GetNextNotifications(10, 100));
  ASSERT_ERROR(ms_->GetNextNotifications(9, 100), ErrorCode::kInvalidArgument);
  AddEvents(1);
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), 11);  // ids are never reused
  EXPECT_EQ(KeptIds(), (std::vector<int64_t>{11}));
}

// Recorded requests (exactly-once writes) are kept as long as the events of
// their time: the count rule keeps the newest, the age rule drops old ones.
TEST_P(RetentionTest, RecordedRequestsArePrunedWithTheLog) {
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(ms_->Commit(Txn({CreateDbOp(MakeDb("r" + std::to_string(i))),
                               MetastoreOp::RecordRequest("req-" + std::to_string(i), "r")})));
    // Distinct recording times, so that "the newest" is well defined.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  NotificationRetention r;
  r.max_events = 2;
  ASSERT_OK(ms_->PruneNotifications(r));
  EXPECT_FALSE(ms_->LookupRequest("req-0")->has_value());
  EXPECT_FALSE(ms_->LookupRequest("req-1")->has_value());
  EXPECT_TRUE(ms_->LookupRequest("req-2")->has_value());
  EXPECT_TRUE(ms_->LookupRequest("req-3")->has_value());
  r.max_events = 0;
  r.max_age_seconds = 1;
  r.now_seconds = static_cast<int64_t>(std::time(nullptr)) + 1000;
  ASSERT_OK(ms_->PruneNotifications(r));
  EXPECT_FALSE(ms_->LookupRequest("req-3")->has_value());
  // A recorded id refuses a second record (the repeat applies nothing).
  ASSERT_OK(ms_->Commit(Txn({MetastoreOp::RecordRequest("again", "x")})));
  ASSERT_ERROR(ms_->Commit(Txn({CreateDbOp(MakeDb("twice")), MetastoreOp::RecordRequest("again", "x")})),
               ErrorCode::kAlreadyExists);
  EXPECT_FALSE(ms_->GetDatabase("twice").ok());
}

TEST_P(RetentionTest, AgeRuleDeletesOnlyOldEvents) {
  AddEvents(5);
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  NotificationRetention r;
  r.max_age_seconds = 3600;
  r.now_seconds = now;  // every event is seconds old: kept
  EXPECT_EQ(*ms_->PruneNotifications(r), 0);
  r.now_seconds = now + 7200;  // two hours later: all older than an hour
  r.batch_limit = 2;
  EXPECT_EQ(*ms_->PruneNotifications(r), 2);
  r.batch_limit = 100;
  EXPECT_EQ(*ms_->PruneNotifications(r), 3);
  EXPECT_TRUE(KeptIds().empty());
}

TEST_P(RetentionTest, EventsAConsumerHasNotReadAreKept) {
  AddEvents(10);
  NotificationRetention r;
  r.max_events = 1;
  r.keep_after_event_id = 4;  // a reader synced through 4
  EXPECT_EQ(*ms_->PruneNotifications(r), 4);
  EXPECT_EQ(KeptIds(), (std::vector<int64_t>{5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(*ms_->PruneNotifications(r), 0);
  ASSERT_OK(ms_->GetNextNotifications(4, 100));  // the reader continues
  r.keep_after_event_id = 0;                     // a reader at the start: nothing goes
  EXPECT_EQ(*ms_->PruneNotifications(r), 0);
  r.batch_limit = 0;
  ASSERT_ERROR(ms_->PruneNotifications(r), ErrorCode::kInvalidArgument);
}

TEST_P(RetentionTest, TableVersionsPerTable) {
  ASSERT_OK(ms_->Commit(Txn({CreateDbOp(MakeDb("vdb")), CreateTableOp(MakeTable("vdb", "a")),
                             CreateTableOp(MakeTable("vdb", "b"))})));
  AddVersions("a", 6);  // archived versions 1..6, current 7
  AddVersions("b", 2);  // archived 1..2, current 3
  EXPECT_EQ(*ms_->PruneTableVersions(3, 2), 2);  // one batch
  EXPECT_EQ(*ms_->PruneTableVersions(3, 100), 1);
  EXPECT_EQ(*ms_->PruneTableVersions(3, 100), 0);
  auto a = ms_->ListArchivedTableVersions("vdb", "a", 0, 100);
  ASSERT_OK(a);
  ASSERT_EQ(a->size(), 3u);  // the newest three
  EXPECT_EQ((*a)[0].version_id, 6);
  EXPECT_EQ((*a)[2].version_id, 4);
  ASSERT_ERROR(ms_->GetArchivedTableVersion("vdb", "a", 3), ErrorCode::kNotFound);
  EXPECT_EQ(ms_->ListArchivedTableVersions("vdb", "b", 0, 100)->size(), 2u);
  auto current = ms_->GetCurrentTableVersion("vdb", "a");
  ASSERT_OK(current);
  EXPECT_EQ(current->version_id, 7);
  EXPECT_EQ(current->table.parameters.at("rev"), "5");
  // New versions after pruning keep their ids.
  AddVersions("a", 1);
  EXPECT_EQ(ms_->GetCurrentTableVersion("vdb", "a")->version_id, 8);
  EXPECT_EQ(*ms_->PruneTableVersions(3, 100), 1);
  ASSERT_ERROR(ms_->PruneTableVersions(0, 100), ErrorCode::kInvalidArgument);
}

// ---- the background worker ----

TEST_P(RetentionTest, WorkerRoundAppliesBothRulesAndKeepsUnconsumedEvents) {
  ASSERT_OK(ms_->Commit(Txn({CreateDbOp(MakeDb("vdb")), CreateTableOp(MakeTable("vdb", "a"))})));
  AddVersions("a", 5);
  AddEvents(20);  // ids 3..7 are version commits' ALTER_TABLE events; up to 27 in all
  int64_t consumed = 10;
  MetastoreRetentionOptions o;
  o.event_max_events = 5;
  o.event_max_age_seconds = 0;
  o.table_versions_per_table = 2;
  o.interval_ms = 0;  // no thread
  o.batch_size = 3;
  o.max_batches_per_round = 2;
  o.protected_event_id = [&consumed] { return consumed; };
  MetastoreRetention worker(ms_.get(), o);
  MetastoreRetentionStats round = worker.RunOnce();
  EXPECT_EQ(round.errors, 0) << round.last_error;
  EXPECT_EQ(round.events_deleted, 6);  // two batches of 3, bounded by the round
  EXPECT_EQ(round.table_versions_deleted, 3);
  round = worker.RunOnce();
  EXPECT_EQ(round.events_deleted, 4);  // up to the consumer's position
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 11);
  consumed = 100;
  EXPECT_EQ(worker.RunOnce().events_deleted, 6);  // 11..16: the round's bound again
  EXPECT_EQ(worker.RunOnce().events_deleted, 6);  // 17..22
  EXPECT_EQ(*ms_->FirstRetainedNotificationEventId(), 23);  // the newest 5 of 27
  EXPECT_EQ(worker.RunOnce().events_deleted, 0);
  EXPECT_EQ(worker.stats().rounds, 5);
  EXPECT_EQ(worker.stats().events_deleted, 22);
  EXPECT_EQ(ms_->ListArchivedTableVersions("vdb", "a", 0, 100)->size(), 2u);
}

// A backend whose prune throws, or cannot prune at all.
class OddMetastore final : public ForwardingMetastore {
 public:
  using ForwardingMetastore::ForwardingMetastore;
  Result<int64_t> PruneNotifications(const NotificationRetention&) override {
    throw std::runtime_error("prune exploded");
  }
  Result<int64_t> PruneTableVersions(int64_t, int) override {
    return Status::NotImplemented("no versions here");
  }
};

TEST_P(RetentionTest, WorkerSurvivesErrorsAndSkipsMissingCapabilities) {
  OddMetastore odd(ms_.get());
  MetastoreRetentionOptions o;
  o.interval_ms = 5;
  MetastoreRetention worker(&odd, o);
  MetastoreRetentionStats round = worker.RunOnce();
  EXPECT_EQ(round.errors, 1);  // the throw; NOT_IMPLEMENTED is not an error
  EXPECT_NE(round.last_error.find("prune exploded"), std::string::npos) << round.last_error;
  // The thread keeps going through the same error.
  worker.Start();
  for (int i = 0; i < 2000 && worker.stats().rounds < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GE(worker.stats().rounds, 4);
  worker.Stop();
  worker.Stop();
}

INSTANTIATE_TEST_SUITE_P(Backends, RetentionTest,
                         ::testing::ValuesIn(external::AllMetastoreBackends()),
                         external::MetastoreBackendName);

}  // namespace
}  // namespace ics::catalog
