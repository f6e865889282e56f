// The concurrency gate of PartialFetcher: at most max_concurrent_fetches
// callers inside at once, waiters woken as slots free, every entry point
// counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "catalogd/fetch/partial_fetcher.h"
#include "tests/fetch/fetcher_fixture.h"

namespace ics::catalog {
namespace {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;
using impala::TErrorCode;
using impala::TGetPartialCatalogObjectRequest;
using impala::TGetPartialCatalogObjectResponse;
using impala::TTableInfoSelector;
using testing::DbReq;
using testing::FnReq;
using testing::IdsOf;
using testing::MakeDb;
using testing::MakeFunction;
using testing::MakeTable;
using testing::MakeUnloaded;
using testing::MakeView;
using testing::TableReq;
using testing::TableSpec;

class FetchGateTest : public testing::FetcherTestBase {};

// --- concurrency gate ---------------------------------------------------------

// 32 callers, 4 slots: the first 4 are held inside the gate until the test
// has seen the other 28 queue up; then everything drains. The hook counts
// how many callers are past the gate at once, independently of the
// fetcher's own counters.
TEST_F(FetchGateTest, GateBoundsConcurrentFetches) {
  Mutex mu;
  CondVar cv;
  int inside = 0;
  int max_inside = 0;
  bool open = false;
  PartialFetchOptions opts;
  opts.max_concurrent_fetches = 4;
  opts.on_admitted_for_testing = [&] {
    MutexLock l(&mu);
    ++inside;
    max_inside = std::max(max_inside, inside);
    cv.Broadcast();
    while (!open) cv.Wait(&mu);
    --inside;
  };
  auto f = NewFetcher(opts);

  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 32; ++i) {
    threads.emplace_back([&, i] {
      TTableInfoSelector sel;
      sel.want_partition_files = true;
      auto r = f->GetPartialCatalogObject(TableReq("sales", i % 2 ? "orders" : "v", sel));
      if (r.status.status_code == TErrorCode::OK) ok.fetch_add(1);
    });
  }
  {
    MutexLock l(&mu);
    while (inside < 4) cv.Wait(&mu);
  }
  // Waiting for the other 28 to queue (they are runnable; this only waits
  // for the scheduler, the assertions below do not depend on timing).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (f->waiting() < 28 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(f->waiting(), 28);
  EXPECT_EQ(f->in_flight(), 4);
  {
    MutexLock l(&mu);
    EXPECT_EQ(inside, 4);
    open = true;
    cv.Broadcast();
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 32);
  EXPECT_EQ(max_inside, 4);
  EXPECT_EQ(f->peak_in_flight(), 4);
  EXPECT_EQ(f->in_flight(), 0);
  EXPECT_EQ(f->waiting(), 0);
}

// Free-running load through every entry point: never more than the bound.
TEST_F(FetchGateTest, GateHoldsUnderFreeRunningLoad) {
  std::atomic<int> inside{0};
  std::atomic<int> max_inside{0};
  std::atomic<int> exits{0};
  PartialFetchOptions opts;
  opts.max_concurrent_fetches = 3;
  opts.on_admitted_for_testing = [&] {
    const int now = inside.fetch_add(1) + 1;
    int prev = max_inside.load();
    while (now > prev && !max_inside.compare_exchange_weak(prev, now)) {
    }
    std::this_thread::yield();
    inside.fetch_sub(1);
    exits.fetch_add(1);
  };
  auto f = NewFetcher(opts);
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 50; ++k) {
        switch ((i + k) % 4) {
          case 0: {
            TTableInfoSelector sel;
            sel.want_partition_files = true;
            (void)f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
            break;
          }
          case 1:
            (void)f->GetFunctions("sales");
            break;
          case 2: {
            impala::TTableName n;
            n.db_name = "sales";
            n.table_name = "orders";
            (void)f->GetPartitionStats(n);
            break;
          }
          default: {
            impala::TCatalogObject d;
            d.type = TCatalogObjectType::CATALOG;
            (void)f->GetCatalogObject(d);
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(exits.load(), 16 * 50);
  EXPECT_LE(max_inside.load(), 3);
  EXPECT_LE(f->peak_in_flight(), 3);
  EXPECT_GE(f->peak_in_flight(), 1);
  EXPECT_EQ(f->in_flight(), 0);
}

TEST_F(FetchGateTest, UnboundedGate) {
  PartialFetchOptions opts;
  opts.max_concurrent_fetches = 0;
  auto f = NewFetcher(opts);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] { EXPECT_TRUE(f->GetFunctions("sales").ok()); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(f->in_flight(), 0);
  EXPECT_EQ(f->waiting(), 0);
}

}  // namespace
}  // namespace ics::catalog
