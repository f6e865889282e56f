// A coordinator serves statements only once it holds the catalog: before its
// first catalog topic update a statement is refused with "Catalog not ready"
// (or held up to the coordinator's bound and then served), and a served
// statement is never undone by that first update.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/util/mini_cluster.h"

namespace ics::testing {
namespace {

using Clock = std::chrono::steady_clock;

class CatalogReadyTest : public ::testing::TestWithParam<bool> {
 protected:
  std::unique_ptr<MiniCluster> Cluster(int wait_ms) {
    MiniClusterOptions o;
    o.num_coordinators = 1;
    o.full_replica = GetParam();
    o.defer_catalogd = true;
    o.heartbeat_ms = 100;
    o.update_frequency_ms = 200;
    o.wait_for_catalog_timeout_ms = wait_ms;
    auto c = std::make_unique<MiniCluster>(o);
    Status s = c->Start();
    EXPECT_TRUE(s.ok()) << s.ToString();
    return c;
  }

  static std::vector<std::string> Databases(MiniCluster* c) {
    std::vector<std::string> out;
    auto r = c->Exec(0, "SHOW DATABASES");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return out;
    for (const auto& row : r->rows) out.push_back(row.empty() ? "" : row[0]);
    return out;
  }

  static bool Has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }

  // Waits until the catalog topic has brought coordinator 0 everything
  // catalogd installed so far (counting topic versions instead raced with a
  // publication that arrived before the DDL's reply).
  static void AfterTopicCatchesUp(MiniCluster* c) {
    const int64_t target = c->catalogd()->catalog()->version();
    ASSERT_TRUE(Eventually([&] { return c->coordinator(0)->topic_catalog_version() >= target; }))
        << "topic at catalog version " << c->coordinator(0)->topic_catalog_version() << " of "
        << target;
  }
};

TEST_P(CatalogReadyTest, RefusedBeforeTheFirstCatalogUpdate) {
  auto cluster = Cluster(/*wait_ms=*/0);
  coord::Coordinator* c = cluster->coordinator(0);
  // Registered with the statestore and receiving (empty) updates, but no catalog.
  ASSERT_TRUE(Eventually([&] { return c->State().registered; }));
  EXPECT_FALSE(c->catalog_ready());
  EXPECT_FALSE(c->State().catalog_ready);
  for (const char* sql : {"CREATE DATABASE early", "SHOW DATABASES", "USE default"}) {
    auto r = cluster->Exec(0, sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().code(), ErrorCode::kRecoverableError) << sql;
    EXPECT_EQ(r.status().message().rfind("Catalog not ready: ", 0), 0u) << r.status().message();
  }
  // A parse error is still a parse error.
  EXPECT_EQ(cluster->Exec(0, "CREATE GARBAGE").status().code(), ErrorCode::kAnalysisError);

  ASSERT_TRUE(cluster->StartCatalogd().ok());
  ASSERT_TRUE(cluster->WaitForInitialCatalog().ok());
  EXPECT_TRUE(c->catalog_ready());
  EXPECT_TRUE(c->State().catalog_ready);
  auto created = cluster->Exec(0, "CREATE DATABASE later");
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  AfterTopicCatchesUp(cluster.get());
  const std::vector<std::string> dbs = Databases(cluster.get());
  EXPECT_TRUE(Has(dbs, "later"));
  EXPECT_FALSE(Has(dbs, "early")) << "a refused statement never ran";
  EXPECT_EQ(cluster->catalogd()->catalog()->GetDatabase("early"), nullptr);
}

TEST_P(CatalogReadyTest, BoundedWaitServesOnceReady) {
  auto cluster = Cluster(/*wait_ms=*/30000);
  std::atomic<bool> done{false};
  Result<coord::StatementResult> result = Status::Internal("not run");
  std::thread stmt([&] {
    result = cluster->Exec(0, "CREATE DATABASE waited");
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(done) << "served before the catalog arrived";
  ASSERT_TRUE(cluster->StartCatalogd().ok());
  stmt.join();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(cluster->coordinator(0)->catalog_ready());
  // Later (full or delta) updates keep what the statement did.
  AfterTopicCatchesUp(cluster.get());
  EXPECT_TRUE(Has(Databases(cluster.get()), "waited"));
  EXPECT_NE(cluster->catalogd()->catalog()->GetDatabase("waited"), nullptr);
}

TEST_P(CatalogReadyTest, BoundedWaitEndsWithNotReady) {
  auto cluster = Cluster(/*wait_ms=*/300);
  const auto start = Clock::now();
  auto r = cluster->Exec(0, "CREATE DATABASE never");
  const auto waited = Clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kRecoverableError);
  EXPECT_NE(r.status().message().find("Catalog not ready"), std::string::npos);
  EXPECT_NE(r.status().message().find("of 300"), std::string::npos) << r.status().message();
  EXPECT_GE(waited, std::chrono::milliseconds(290));
  EXPECT_LT(waited, std::chrono::seconds(10));
}

INSTANTIATE_TEST_SUITE_P(Modes, CatalogReadyTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "FullReplica" : "OnDemand";
                         });

}  // namespace
}  // namespace ics::testing
