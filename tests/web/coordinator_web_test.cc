// A coordinator's web pages against an in-process cluster: /catalog (local
// catalog contents, cache counters, catalog and topic versions),
// /statements and its metrics, in both local catalog modes.
#include "tests/util/eventually.h"
#include "tests/web/prometheus_parser.h"
#include "tests/web/web_cluster_fixture.h"

namespace ics::webtest {
namespace {

using ::ics::testing::AssertEventually;
using Millis = std::chrono::milliseconds;

class CoordinatorWebTest : public WebClusterTest {};

class FullReplicaWebTest : public WebClusterTest {
 protected:
  FullReplicaWebTest() { cluster_options_.full_replica = true; }
};

TEST_F(CoordinatorWebTest, OnDemandCatalogPageShowsCachedTablesCountersAndVersions) {
  Sql(0, "SET SYNC_DDL=1");
  Sql(0, "CREATE DATABASE cw");
  Sql(0, "CREATE TABLE cw.t (a INT) PARTITIONED BY (p INT)");
  Sql(0, "ALTER TABLE cw.t ADD PARTITION (p=1)");
  // Coordinator 1 has seen the changes (SYNC_DDL) but cached nothing yet.
  Json before = GetJson(coord_port(1), "/catalog");
  EXPECT_EQ(before["coordinator"], "coordinator-1");
  EXPECT_EQ(before["contents_complete"], false);
  EXPECT_EQ(FindTable(before["tables"], "cw", "t"), nullptr) << before.dump(1);
  const int64_t misses_before = before["local_catalog"]["misses"].get<int64_t>();

  Sql(1, "SHOW PARTITIONS cw.t");  // fetches the table and its partitions
  Sql(1, "SHOW PARTITIONS cw.t");  // from the cache
  Json doc = GetJson(coord_port(1), "/catalog");
  const Json* t = FindTable(doc["tables"], "cw", "t");
  ASSERT_NE(t, nullptr) << doc.dump(1);
  EXPECT_EQ((*t)["state"], "cached");
  EXPECT_GT((*t)["version"].get<int64_t>(), 0);
  EXPECT_EQ((*t)["partitions"], 1);
  EXPECT_EQ((*t)["local_partitions"], 1);
  EXPECT_NE(FindRow(doc["databases"], "database", "cw"), nullptr);
  const Json& cache = doc["local_catalog"];
  EXPECT_GT(cache["misses"].get<int64_t>(), misses_before);
  EXPECT_GT(cache["hits"].get<int64_t>(), 0);
  EXPECT_GT(cache["fetches"].get<int64_t>(), 0);
  EXPECT_GT(cache["cached_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(cache["evictions"], 0);
  // Versions: the topic brought at least the table's version.
  EXPECT_GE(doc["topic_catalog_version"].get<int64_t>(), (*t)["version"].get<int64_t>());
  EXPECT_GE(doc["local_catalog_version"].get<int64_t>(), (*t)["version"].get<int64_t>());
  EXPECT_GT(doc["topic_version"].get<int64_t>(), 0);
  EXPECT_GT(doc["min_subscriber_topic_version"].get<int64_t>(), 0);
  EXPECT_EQ(doc["registered"], true);
  EXPECT_FALSE(doc["catalog_service_id"].get<std::string>().empty());

  // ?db filters; an unknown db lists nothing (it is not an error: the
  // coordinator may simply not have it cached).
  Json cw = GetJson(coord_port(1), "/catalog?db=cw");
  for (const Json& row : cw["tables"]) EXPECT_EQ(row["db"], "cw");
  EXPECT_EQ(GetJson(coord_port(1), "/catalog?db=zzz")["tables"].size(), 0u);
  GetJson(coord_port(1), "/catalog?limit=x", 400);

  // A DDL from another coordinator invalidates the cached table.
  Sql(0, "ALTER TABLE cw.t ADD PARTITION (p=2)");
  ASSERT_TRUE(AssertEventually(
      [&] {
        Json now = GetJson(coord_port(1), "/catalog?db=cw");
        const Json* row = FindTable(now["tables"], "cw", "t");
        EXPECT_TRUE(row == nullptr || (*row)["state"] != "cached") << now.dump(1);
        EXPECT_GT(now["local_catalog"]["invalidations"].get<int64_t>(), 0);
      },
      Millis(10000)));
}

TEST_F(FullReplicaWebTest, FullReplicaCatalogPageListsEverythingItReceived) {
  Sql(0, "SET SYNC_DDL=1");
  Sql(0, "CREATE DATABASE fr");
  Sql(0, "CREATE TABLE fr.t (a INT)");
  Json doc = GetJson(coord_port(1), "/catalog");
  EXPECT_EQ(doc["contents_complete"], true);
  EXPECT_NE(doc["mode"].get<std::string>().find("full replica"), std::string::npos);
  EXPECT_NE(FindRow(doc["databases"], "database", "fr"), nullptr);
  const Json* t = FindTable(doc["tables"], "fr", "t");
  ASSERT_NE(t, nullptr) << doc.dump(1);
  EXPECT_GT((*t)["version"].get<int64_t>(), 0);
}

TEST_F(CoordinatorWebTest, StatementsPageShowsRecentStatementsWithStatusAndDuration) {
  Sql(0, "CREATE DATABASE st");
  Sql(0, "SHOW TABLES IN st");
  auto bad = cluster_->Exec(0, "CREATE TABLE st.bad (a NOTATYPE)");
  ASSERT_FALSE(bad.ok());
  auto garbage = cluster_->Exec(0, "FROBNICATE everything");
  ASSERT_FALSE(garbage.ok());

  Json doc = GetJson(coord_port(0), "/statements");
  EXPECT_EQ(doc["running"], 0);
  EXPECT_EQ(doc["finished"], 4);
  EXPECT_EQ(doc["failed"], 2);
  const Json& recent = doc["recent_operations"];
  ASSERT_EQ(recent.size(), 4u) << doc.dump(1);
  EXPECT_EQ(recent[0]["kind"], "FROBNICATE");
  EXPECT_NE(recent[0]["status"], "OK");
  EXPECT_EQ(recent[1]["target"], "CREATE TABLE st.bad (a NOTATYPE)");
  EXPECT_NE(recent[1]["status"], "OK");
  EXPECT_FALSE(recent[1]["message"].get<std::string>().empty());
  EXPECT_EQ(recent[2]["kind"], "SHOW");
  EXPECT_EQ(recent[2]["status"], "OK");
  EXPECT_EQ(recent[3]["target"], "CREATE DATABASE st");
  EXPECT_EQ(recent[3]["detail"], "db=default");
  EXPECT_GE(recent[3]["duration_ms"].get<double>(), 0.0);
  // The other coordinator ran nothing.
  EXPECT_EQ(GetJson(coord_port(1), "/statements")["finished"], 0);
  // HTML escapes the statement text.
  Sql(0, "CREATE TABLE `<script>x` (a INT)");
  const std::string html = GetHtml(coord_port(0), "/statements");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("`&lt;script&gt;x`"), std::string::npos);
}

TEST_F(CoordinatorWebTest, MetricsHaveStatementLatencyCacheCountersAndVersions) {
  Sql(0, "SET SYNC_DDL=1");
  Sql(0, "CREATE TABLE default.m (a INT)");
  Sql(0, "DESCRIBE default.m");
  Sql(0, "DESCRIBE default.m");
  auto r = HttpGet(coord_port(0), "/metrics");
  ASSERT_TRUE(r.ok());
  PromParseResult prom = ParsePrometheusText(r->body);
  ASSERT_TRUE(prom.ok()) << prom.error;
  EXPECT_EQ(prom.Value("coordinator_statement_duration_seconds_count"), 4);
  EXPECT_EQ(prom.Value("coordinator_statements_total", {{"status", "OK"}}), 4);
  EXPECT_GT(prom.Value("coordinator_local_catalog_hits_total"), 0);
  EXPECT_GT(prom.Value("coordinator_local_catalog_misses_total"), 0);
  EXPECT_GT(prom.Value("coordinator_local_catalog_fetches_total"), 0);
  EXPECT_EQ(prom.Value("coordinator_local_catalog_evictions_total"), 0);
  EXPECT_GT(prom.Value("coordinator_local_catalog_cached_bytes"), 0);
  EXPECT_GT(prom.Value("coordinator_catalog_version"), 0);
  EXPECT_GT(prom.Value("coordinator_topic_catalog_version"), 0);
  EXPECT_GT(prom.Value("coordinator_topic_version"), 0);
  // Each coordinator has its own registry.
  auto other = HttpGet(coord_port(1), "/metrics");
  ASSERT_TRUE(other.ok());
  PromParseResult prom1 = ParsePrometheusText(other->body);
  ASSERT_TRUE(prom1.ok()) << prom1.error;
  EXPECT_EQ(prom1.Value("coordinator_statement_duration_seconds_count"), 0);
}

TEST_F(CoordinatorWebTest, HomePageLinksTheCoordinatorPages) {
  const std::string html = GetHtml(coord_port(0), "/");
  EXPECT_NE(html.find("href=\"/catalog\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/statements\""), std::string::npos);
  EXPECT_NE(html.find("coordinator-0"), std::string::npos);
}

}  // namespace
}  // namespace ics::webtest
