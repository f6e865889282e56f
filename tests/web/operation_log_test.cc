// OperationLog (common/util/operation_log.h) and its JSON form: running vs
// finished records, the bound, outcomes, the finish callback, scoped use.
#include "common/util/operation_log.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/util/operation_log_json.h"

namespace ics {
namespace {

TEST(OperationLogTest, RunningThenFinishedWithOutcome) {
  OperationLog log(10);
  const int64_t a = log.Begin("CREATE_TABLE", "db.t", "alice@10.0.0.1");
  const int64_t b = log.Begin("DROP_TABLE", "db.u");
  EXPECT_NE(a, b);
  OperationLog::Snapshot s = log.Get();
  ASSERT_EQ(s.running.size(), 2u);
  EXPECT_EQ(s.running[0].kind, "CREATE_TABLE");
  EXPECT_TRUE(s.running[0].running);
  EXPECT_EQ(s.running[0].status, "RUNNING");
  EXPECT_TRUE(s.recent.empty());

  log.End(a, Status::OK(), "Table has been created.", 42);
  log.End(b, Status::NotFound("Table db.u does not exist"));
  log.End(b, Status::OK());  // a second End is ignored
  log.End(12345, Status::OK());  // unknown ids too
  s = log.Get();
  EXPECT_TRUE(s.running.empty());
  ASSERT_EQ(s.recent.size(), 2u);
  EXPECT_EQ(s.recent[0].id, b);  // newest first
  EXPECT_EQ(s.recent[0].status, "NOT_FOUND");
  EXPECT_EQ(s.recent[0].message, "Table db.u does not exist");
  EXPECT_FALSE(s.recent[0].running);
  EXPECT_EQ(s.recent[1].status, "OK");
  EXPECT_EQ(s.recent[1].message, "Table has been created.");
  EXPECT_EQ(s.recent[1].catalog_version, 42);
  EXPECT_EQ(s.recent[1].detail, "alice@10.0.0.1");
  EXPECT_GE(s.recent[1].duration_us, 0);
  EXPECT_EQ(s.started, 2);
  EXPECT_EQ(s.finished, 2);
  EXPECT_EQ(s.failed, 1);
}

TEST(OperationLogTest, KeepsOnlyTheNewestFinishedRecordsAndCutsLongFields) {
  OperationLog log(3);
  for (int i = 0; i < 10; ++i) log.End(log.Begin("K", "t" + std::to_string(i)), Status::OK());
  OperationLog::Snapshot s = log.Get();
  ASSERT_EQ(s.recent.size(), 3u);
  EXPECT_EQ(s.recent[0].target, "t9");
  EXPECT_EQ(s.recent[2].target, "t7");
  EXPECT_EQ(s.finished, 10);

  log.End(log.Begin("K", std::string(100000, 'x')), Status::OK());
  s = log.Get();
  EXPECT_EQ(s.recent[0].target.size(), OperationLog::kMaxFieldBytes + 3);
}

TEST(OperationLogTest, ScopedOperationEndsAsAbandonedWithoutEnd) {
  OperationLog log;
  std::vector<OperationRecord> seen;
  log.SetFinishCallback([&](const OperationRecord& r) { seen.push_back(r); });
  { ScopedOperation op(&log, "A", "x"); }
  {
    ScopedOperation op(&log, "B", "y");
    op.End(Status::OK(), "done", 7);
    op.End(Status::Internal("ignored"));
  }
  { ScopedOperation op(nullptr, "C", "z"); }  // no log: nothing happens
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].kind, "A");
  EXPECT_EQ(seen[0].status, "INTERNAL_ERROR");
  EXPECT_EQ(seen[1].kind, "B");
  EXPECT_EQ(seen[1].status, "OK");
  EXPECT_EQ(seen[1].catalog_version, 7);
  EXPECT_EQ(log.Get().recent.size(), 2u);
}

TEST(OperationLogTest, ConcurrentUseKeepsCounts) {
  OperationLog log(50);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&log] {
      for (int i = 0; i < 500; ++i) {
        const int64_t id = log.Begin("K", "x");
        log.Get();
        log.End(id, i % 5 == 0 ? Status::TimedOut("slow") : Status::OK());
      }
    });
  }
  for (auto& th : threads) th.join();
  OperationLog::Snapshot s = log.Get();
  EXPECT_EQ(s.started, 2000);
  EXPECT_EQ(s.finished, 2000);
  EXPECT_EQ(s.failed, 400);
  EXPECT_EQ(s.recent.size(), 50u);
  EXPECT_TRUE(s.running.empty());
}

TEST(OperationLogTest, JsonFormHasRunningAndRecentRows) {
  OperationLog log(5);
  log.End(log.Begin("CREATE_DATABASE", "d"), Status::OK(), "ok", 3);
  log.Begin("CREATE_TABLE", "d.t");
  auto j = OperationLogJson(log.Get(), 10, log.capacity());
  EXPECT_EQ(j["running"], 1);
  EXPECT_EQ(j["finished"], 1);
  EXPECT_EQ(j["kept"], 5);
  ASSERT_EQ(j["running_operations"].size(), 1u);
  EXPECT_EQ(j["running_operations"][0]["status"], "RUNNING");
  ASSERT_EQ(j["recent_operations"].size(), 1u);
  const auto& row = j["recent_operations"][0];
  EXPECT_EQ(row["kind"], "CREATE_DATABASE");
  EXPECT_EQ(row["catalog_version"], 3);
  EXPECT_EQ(row["start_time"].get<std::string>().size(), 23u);  // "YYYY-MM-DD HH:MM:SS.mmm"
  EXPECT_EQ(OperationLogJson(log.Get(), 0, 5)["recent_operations"].size(), 0u);
}

}  // namespace
}  // namespace ics
