// catalogd's web pages against an in-process cluster: /catalog,
// /catalog/table, /catalog/partition, /catalog_object, /operations and
// catalogd's metrics, as JSON and HTML, with bad input and hostile names.
#include <cmath>

#include "tests/web/prometheus_parser.h"
#include "tests/web/web_cluster_fixture.h"

namespace ics::webtest {
namespace {

class CatalogdWebTest : public WebClusterTest {};

TEST_F(CatalogdWebTest, CatalogListsDatabasesAndTablesWithLoadStateAndVersion) {
  Sql(0, "CREATE DATABASE web_db");
  Sql(0, "CREATE TABLE web_db.t1 (a INT, b STRING)");
  Sql(0, "CREATE TABLE web_db.p (v INT) PARTITIONED BY (y INT)");

  Json doc = GetJson(catalog_port(), "/catalog");
  ASSERT_TRUE(doc.is_object());
  const int64_t version = doc["catalog_version"].get<int64_t>();
  EXPECT_GT(version, 0);
  EXPECT_FALSE(doc["catalog_service_id"].get<std::string>().empty());
  EXPECT_EQ(doc["version"], version);  // Impala's name for it
  EXPECT_NE(FindRow(doc["databases"], "name", "default"), nullptr);
  const Json* db = FindRow(doc["databases"], "name", "web_db");
  ASSERT_NE(db, nullptr) << doc.dump(1);
  EXPECT_EQ((*db)["num_tables"], 2);
  EXPECT_EQ((*db)["database"], "web_db");
  ASSERT_EQ((*db)["tables"].size(), 2u);
  const Json tables = AllTables(doc);
  const Json* t1 = FindTable(tables, "web_db", "t1");
  ASSERT_NE(t1, nullptr) << tables.dump(1);
  EXPECT_EQ((*t1)["fqtn"], "web_db.t1");
  EXPECT_EQ((*t1)["name"], "t1");
  EXPECT_EQ((*t1)["has_metrics"], false);
  EXPECT_FALSE(doc.contains("tables")) << "tables are nested in their database";
  EXPECT_EQ((*t1)["kind"], "table");
  EXPECT_GT((*t1)["version"].get<int64_t>(), 0);
  EXPECT_LE((*t1)["version"].get<int64_t>(), version);
  EXPECT_TRUE(doc.contains("topic"));

  // ?db= shows one database only.
  Json one = GetJson(catalog_port(), "/catalog?db=web_db");
  EXPECT_EQ(one["databases"].size(), 1u);
  for (const Json& row : AllTables(one)) EXPECT_EQ(row["db"], "web_db");
  EXPECT_EQ(one["tables_shown"], 2);
  // Names are case-insensitive, like SQL.
  EXPECT_EQ(GetJson(catalog_port(), "/catalog?db=WEB_DB")["tables_shown"], 2);
  // ?limit caps the table rows.
  Json capped = GetJson(catalog_port(), "/catalog?limit=1");
  EXPECT_EQ(AllTables(capped).size(), 1u);
  EXPECT_EQ(capped["tables_truncated_at_limit"], 1);
}

TEST_F(CatalogdWebTest, TablesAreNotLoadedAfterARestartUntilUsed) {
  Sql(0, "CREATE TABLE default.r (a INT)");
  EXPECT_EQ(GetJson(catalog_port(), "/catalog/table?db=default&table=r")["state"], "loaded");
  RestartCatalogd();
  Json before = GetJson(catalog_port(), "/catalog/table?db=default&table=r");
  EXPECT_EQ(before["state"], "not loaded") << before.dump(1);
  EXPECT_TRUE(before.contains("note"));
  EXPECT_FALSE(before.contains("files"));
  const Json all = GetJson(catalog_port(), "/catalog");
  const Json tables = AllTables(all);
  const Json* row = FindTable(tables, "default", "r");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ((*row)["state"], "not loaded");
  GetJson(catalog_port(), "/catalog/partition?db=default&table=r&partition=", 404);
  ASSERT_TRUE(testing::Eventually([&] { return cluster_->Exec(1, "DESCRIBE default.r").ok(); }));
  EXPECT_EQ(GetJson(catalog_port(), "/catalog/table?db=default&table=r")["state"], "loaded");
}

TEST_F(CatalogdWebTest, TablePageShowsLoadStatePartitionsAndFiles) {
  Sql(0, "CREATE DATABASE ld");
  Sql(0, "CREATE TABLE ld.p (v INT, s STRING) PARTITIONED BY (y INT)");
  Sql(0, "INSERT INTO ld.p PARTITION (y=2024) VALUES (1, 'a'), (2, 'b')");
  Sql(0, "ALTER TABLE ld.p ADD PARTITION (y=2025)");
  Sql(1, "DESCRIBE ld.p");
  Json doc = GetJson(catalog_port(), "/catalog/table?db=ld&table=p");
  EXPECT_EQ(doc["state"], "loaded") << doc.dump(1);
  EXPECT_EQ(doc["partitions_total"], 2);
  EXPECT_EQ(doc["files_total"], 1);
  ASSERT_EQ(doc["columns"].size(), 2u);
  EXPECT_EQ(doc["columns"][0]["column"], "v");
  EXPECT_EQ(doc["columns"][0]["type"], "int");
  ASSERT_EQ(doc["partition_keys"].size(), 1u);
  EXPECT_EQ(doc["partition_keys"][0]["column"], "y");
  const Json* y24 = FindRow(doc["partitions"], "partition", "y=2024");
  ASSERT_NE(y24, nullptr) << doc.dump(1);
  EXPECT_EQ((*y24)["files"], 1);
  EXPECT_GT((*y24)["bytes"].get<int64_t>(), 0);
  const Json* y25 = FindRow(doc["partitions"], "partition", "y=2025");
  ASSERT_NE(y25, nullptr);
  EXPECT_EQ((*y25)["files"], 0);

  // The partition page lists the data file.
  Json part = GetJson(catalog_port(), "/catalog/partition?db=ld&table=p&partition=y%3D2024");
  EXPECT_EQ(part["partition"], "y=2024");
  ASSERT_EQ(part["files"].size(), 1u) << part.dump(1);
  EXPECT_GT(part["files"][0]["bytes"].get<int64_t>(), 0);
  EXPECT_FALSE(part["files"][0]["file"].get<std::string>().empty());
  EXPECT_EQ(part["files"][0]["compression"], "NONE");

  // The HTML table page links each partition to its page.
  const std::string html = GetHtml(catalog_port(), "/catalog/table?db=ld&table=p");
  EXPECT_NE(html.find("href=\"/catalog/partition?db=ld&amp;table=p&amp;partition=y%3D2024\""),
            std::string::npos)
      << html;
}

TEST_F(CatalogdWebTest, UnpartitionedTableListsItsFilesOnTheTablePage) {
  Sql(0, "CREATE TABLE default.flat (a INT)");
  Sql(0, "INSERT INTO default.flat VALUES (1), (2), (3)");
  Sql(0, "DESCRIBE default.flat");
  Json doc = GetJson(catalog_port(), "/catalog/table?db=default&table=flat");
  EXPECT_EQ(doc["state"], "loaded");
  ASSERT_TRUE(doc.contains("files")) << doc.dump(1);
  EXPECT_EQ(doc["files"].size(), 1u);
  Json part = GetJson(catalog_port(), "/catalog/partition?db=default&table=flat&partition=");
  EXPECT_EQ(part["files"].size(), 1u);
}

TEST_F(CatalogdWebTest, PagesAnswerBadRequestsWithClearErrors) {
  Sql(0, "CREATE TABLE default.e (a INT)");
  struct Case {
    std::string target;
    int status;
    std::string text;  // expected in the error message
  };
  const std::vector<Case> cases = {
      {"/catalog?db=nope", 404, "no database 'nope'"},
      {"/catalog?db=a.b", 400, "'.' is not allowed"},
      {"/catalog?limit=0", 400, "bad limit"},
      {"/catalog?limit=abc", 400, "bad limit"},
      {"/catalog?bogus=1", 400, "unknown query parameter"},
      {"/catalog/table", 400, "needs ?db="},
      {"/catalog/table?db=default", 400, "needs ?db="},
      {"/catalog/table?db=default&table=missing", 404, "no table 'missing'"},
      {"/catalog/table?db=nodb&table=e", 404, "no database 'nodb'"},
      {"/catalog/partition?db=default&table=e", 400, "partition="},
      {"/catalog/partition?db=default&table=e&partition=x%3D1", 404, "no partition 'x=1'"},
      {"/catalog_object", 400, "needs ?type="},
      {"/catalog_object?type=BOGUS&name=x", 400, "unknown object type 'BOGUS'"},
      {"/catalog_object?type=TABLE", 400, "needs ?name="},
      {"/catalog_object?type=TABLE&name=nodot", 400, "<database>.<table>"},
      {"/catalog_object?type=TABLE&name=default.missing", 404, "no table"},
      {"/catalog_object?type=DATABASE&name=missing", 404, "no database"},
      {"/catalog_object?type=VIEW&name=default.e", 404, "is a table, not a view"},
      {"/catalog_object?type=FUNCTION&name=default.f(int)", 404, "no function"},
      {"/operations?limit=-1", 400, "bad limit"},
  };
  for (const Case& c : cases) {
    Json doc = GetJson(catalog_port(), c.target, c.status);
    ASSERT_TRUE(doc.is_object()) << c.target;
    EXPECT_EQ(doc["status"], c.status) << c.target;
    EXPECT_NE(doc["error"].get<std::string>().find(c.text), std::string::npos)
        << c.target << ": " << doc["error"];
    // The HTML form of the error has the same status.
    GetHtml(catalog_port(), c.target, c.status);
  }
}

TEST_F(CatalogdWebTest, CatalogObjectServesEachTypeAsText) {
  Sql(0, "CREATE DATABASE obj");
  Sql(0, "CREATE TABLE obj.t (a INT) PARTITIONED BY (k STRING)");
  Sql(0, "CREATE VIEW obj.v AS SELECT a FROM obj.t");

  Json cat = GetJson(catalog_port(), "/catalog_object?type=CATALOG");
  EXPECT_EQ(cat["object_type"], "CATALOG");
  EXPECT_NE(cat["thrift_string"].get<std::string>().find("catalog_service_id"), std::string::npos);

  Json db = GetJson(catalog_port(), "/catalog_object?type=DATABASE&name=obj");
  EXPECT_EQ(db["object_type"], "DATABASE");
  EXPECT_EQ(db["topic_key"], "DATABASE:obj");
  EXPECT_GT(db["catalog_version"].get<int64_t>(), 0);

  Json t = GetJson(catalog_port(), "/catalog_object?type=table&name=OBJ.T");  // any case
  EXPECT_EQ(t["object_type"], "TABLE");
  EXPECT_EQ(t["topic_key"], "TABLE:obj.t");
  EXPECT_NE(t["thrift_string"].get<std::string>().find("tbl_name=t,"), std::string::npos) << t["thrift_string"];

  Json v = GetJson(catalog_port(), "/catalog_object?type=VIEW&name=obj.v");
  EXPECT_EQ(v["topic_key"], "TABLE:obj.v");

  // Impala's parameter names select the same object.
  Json imp = GetJson(catalog_port(), "/catalog_object?object_type=TABLE&object_name=obj.t");
  EXPECT_EQ(imp["topic_key"], "TABLE:obj.t");
  EXPECT_EQ(imp["thrift_string"], t["thrift_string"]);
  EXPECT_FALSE(imp.contains("text"));
  GetJson(catalog_port(), "/catalog_object?object_type=TABLE&type=TABLE&name=obj.t", 400);

  // HTML: the text in a <pre>, escaped (names may hold markup).
  Sql(0, "CREATE TABLE obj.`<u>x` (a INT)");
  const std::string html =
      GetHtml(catalog_port(), "/catalog_object?type=TABLE&name=obj.%3Cu%3Ex");
  EXPECT_NE(html.find("<pre"), std::string::npos);
  EXPECT_NE(html.find("tbl_name=&lt;u&gt;x,"), std::string::npos);
  EXPECT_EQ(html.find("<u>"), std::string::npos);
}

// /jsonmetrics: Impala's flat key -> value document.
TEST_F(CatalogdWebTest, JsonMetricsIsFlatWithImpalaCatalogKeys) {
  Sql(0, "CREATE DATABASE jm");
  Sql(0, "CREATE TABLE jm.t (a INT)");
  Json doc = GetJson(catalog_port(), "/jsonmetrics");
  ASSERT_TRUE(doc.is_object()) << doc.dump(1);
  const Json cat = GetJson(catalog_port(), "/catalog");
  EXPECT_EQ(doc["catalog.num-databases"], static_cast<int64_t>(cat["databases"].size()));
  EXPECT_EQ(doc["catalog.num-tables"], static_cast<int64_t>(AllTables(cat).size()));
  EXPECT_GE(doc["catalog.num-loaded-tables"].get<int64_t>(), 1);
  EXPECT_TRUE(doc.contains("catalog.num-functions"));
  // Registry series are flat too: numbers, histograms as objects.
  bool saw_number = false;
  bool saw_histogram = false;
  for (const auto& [k, v] : doc.items()) {
    EXPECT_FALSE(v.is_array()) << k;
    saw_number = saw_number || v.is_number();
    saw_histogram = saw_histogram || (v.is_object() && v.contains("count") && v.contains("p99"));
  }
  EXPECT_TRUE(saw_number);
  EXPECT_TRUE(saw_histogram) << doc.dump(1);
  // ?metric= picks one key; an unknown one gives {}.
  Json one = GetJson(catalog_port(), "/jsonmetrics?metric=catalog.num-databases");
  ASSERT_EQ(one.size(), 1u) << one.dump();
  EXPECT_EQ(one["catalog.num-databases"], doc["catalog.num-databases"]);
  EXPECT_TRUE(GetJson(catalog_port(), "/jsonmetrics?metric=nope").empty());
  GetJson(catalog_port(), "/jsonmetrics?bogus=1", 400);
}

TEST_F(CatalogdWebTest, OperationsShowRecentDdlWithDurationOutcomeAndVersion) {
  Sql(0, "CREATE DATABASE ops");
  Sql(0, "CREATE TABLE ops.t (a INT)");
  // Fails in catalogd (its directory cannot be made), after the coordinator
  // accepted it.
  auto bad = cluster_->Exec(0, "CREATE TABLE ops.bad (a INT) LOCATION '/proc/ics-web-test/bad'");
  ASSERT_FALSE(bad.ok());

  Json doc = GetJson(catalog_port(), "/operations");
  EXPECT_EQ(doc["running"], 0);
  EXPECT_GE(doc["finished"].get<int64_t>(), 3);
  EXPECT_GE(doc["failed"].get<int64_t>(), 1);
  const Json& recent = doc["recent_operations"];
  ASSERT_GE(recent.size(), 3u);
  // Newest first: the failed one.
  EXPECT_EQ(recent[0]["kind"], "CREATE_TABLE");
  EXPECT_EQ(recent[0]["target"], "ops.bad");
  EXPECT_NE(recent[0]["status"], "OK") << recent[0];
  EXPECT_FALSE(recent[0]["message"].get<std::string>().empty());
  EXPECT_EQ(recent[1]["kind"], "CREATE_TABLE");
  EXPECT_EQ(recent[1]["status"], "OK");
  EXPECT_GT(recent[1]["catalog_version"].get<int64_t>(), 0);
  EXPECT_GE(recent[1]["duration_ms"].get<double>(), 0.0);
  EXPECT_EQ(recent[2]["kind"], "CREATE_DATABASE");
  EXPECT_EQ(recent[2]["target"], "ops");
  EXPECT_LT(recent[2]["catalog_version"].get<int64_t>(),
            recent[1]["catalog_version"].get<int64_t>());

  EXPECT_EQ(GetJson(catalog_port(), "/operations?limit=1")["recent_operations"].size(), 1u);
}

TEST_F(CatalogdWebTest, MetricsHaveMetastoreLatencyTopicPublicationsAndDdl) {
  Sql(0, "SET SYNC_DDL=1");
  Sql(0, "CREATE DATABASE met");
  Sql(0, "CREATE TABLE met.t (a INT)");
  auto r = HttpGet(catalog_port(), "/metrics");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->status, 200);
  PromParseResult prom = ParsePrometheusText(r->body);
  ASSERT_TRUE(prom.ok()) << prom.error;
  EXPECT_GE(prom.Value("catalogd_metastore_call_duration_seconds_count", {{"call", "commit"}}), 2);
  EXPECT_GE(prom.Value("catalogd_metastore_call_duration_seconds_count", {{"call", "get_all_databases"}}),
            1);
  EXPECT_EQ(prom.families.at("catalogd_metastore_call_duration_seconds").type, "summary");
  // SYNC_DDL returned: the change was published.
  EXPECT_GE(prom.Value("catalogd_topic_publication_bytes_count"), 1);
  EXPECT_GT(prom.Value("catalogd_topic_publication_bytes_sum"), 0);
  EXPECT_GE(prom.Value("catalogd_topic_publication_duration_seconds_count"), 1);
  EXPECT_EQ(prom.Value("catalogd_ddl_duration_seconds_count", {{"kind", "CREATE_TABLE"}}), 1);
  EXPECT_EQ(prom.Value("catalogd_ddl_operations_total", {{"status", "OK"}}), 2);
  EXPECT_GE(prom.Value("catalogd_catalog_version"), 2);
  EXPECT_EQ(prom.Value("catalogd_catalog_objects", {{"kind", "database"}}), 2);
  EXPECT_EQ(prom.Value("catalogd_catalog_objects", {{"kind", "table"}, {"state", "unloaded"}}) +
                prom.Value("catalogd_catalog_objects", {{"kind", "table"}, {"state", "loaded"}}),
            1);
  EXPECT_GE(prom.Value("catalogd_topic_last_published_version"), 2);
  EXPECT_EQ(prom.Value("catalogd_ddl_operations_running"), 0);
}

TEST_F(CatalogdWebTest, HostileNamesAreEscapedInHtmlAndLinks) {
  // Names may hold anything but / \ . ` : ; and control characters.
  const std::string name = "x<b>&\"'=?#% y";
  Sql(0, "CREATE DATABASE `d<i>&`");
  Sql(0, "CREATE TABLE `d<i>&`.`" + name + "` (a INT)");
  Json doc = GetJson(catalog_port(), "/catalog");
  ASSERT_NE(FindTable(AllTables(doc), "d<i>&", name), nullptr) << doc.dump(1);

  const std::string html = GetHtml(catalog_port(), "/catalog");
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_NE(html.find("x&lt;b&gt;&amp;&quot;&#39;=?#% y"), std::string::npos);
  // The link to the table page carries the names percent-encoded.
  EXPECT_NE(html.find("/catalog/table?db=d%3Ci%3E%26&amp;table=x%3Cb%3E%26%22%27%3D%3F%23%25%20y"),
            std::string::npos)
      << html;
  // Following it works.
  Json t = GetJson(catalog_port(),
                   "/catalog/table?db=d%3Ci%3E%26&table=x%3Cb%3E%26%22%27%3D%3F%23%25%20y");
  EXPECT_EQ(t["table"], name);
  const std::string table_html = GetHtml(
      catalog_port(), "/catalog/table?db=d%3Ci%3E%26&table=x%3Cb%3E%26%22%27%3D%3F%23%25%20y");
  EXPECT_EQ(table_html.find("<b>"), std::string::npos);
  // And the operation log escapes the DDL target.
  const std::string ops = GetHtml(catalog_port(), "/operations");
  EXPECT_EQ(ops.find("<b>"), std::string::npos);
  EXPECT_NE(ops.find("d&lt;i&gt;&amp;.x&lt;b&gt;"), std::string::npos);
}

}  // namespace
}  // namespace ics::webtest

namespace ics::webtest {
namespace {

TEST_F(CatalogdWebTest, HmsEventProcessorStatusOnCatalogPageAndMetrics) {
  Json doc = GetJson(catalog_port(), "/catalog");
  ASSERT_TRUE(doc.contains("hms_event_processor")) << doc.dump(1);
  const Json& ev = doc["hms_event_processor"];
  EXPECT_EQ(ev["state"], "ACTIVE");
  EXPECT_GE(ev["last_synced_event_id"].get<int64_t>(), 0);
  EXPECT_EQ(ev["errors"], 0);
  auto r = HttpGet(catalog_port(), "/metrics");
  ASSERT_TRUE(r.ok());
  PromParseResult prom = ParsePrometheusText(r->body);
  ASSERT_TRUE(prom.ok()) << prom.error;
  EXPECT_EQ(prom.Value("catalogd_hms_event_processor_state", {{"state", "ACTIVE"}}), 1);
  EXPECT_EQ(prom.Value("catalogd_hms_event_processor_state", {{"state", "PAUSED"}}), 0);
  EXPECT_GE(prom.Value("catalogd_hms_events_last_synced_id"), 0);
  EXPECT_GE(prom.Value("catalogd_hms_event_polls_total"), 0);
}

}  // namespace
}  // namespace ics::webtest
