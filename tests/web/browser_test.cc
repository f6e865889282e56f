// The daemons' web pages in a real browser: starts a multi-process cluster
// (statestored, catalogd, one coordinator-sim process with two
// coordinators; loopback, free ports), runs DDL and an INSERT through a
// coordinator, then loads every daemon's pages in headless Chromium through
// chromedriver (tests/web/browser_check.py, python3 standard library),
// checks what they show and saves screenshots under the build directory
// (<build>/web-screenshots, printed at the end).
//
// Needs the Debian packages chromium and chromium-driver (scripts/setup.sh
// installs them); without them the test fails and says so.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/external/external_cluster.h"
#include "tests/external/external_process.h"

namespace ics::external {
namespace {

using Json = nlohmann::ordered_json;

// The first of `names` found on $PATH (as a full path), or "".
std::string FindExecutable(const std::vector<std::string>& names) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (const std::string& name : names) {
    std::istringstream in(dirs);
    std::string dir;
    while (std::getline(in, dir, ':')) {
      const std::string full = (dir.empty() ? "." : dir) + "/" + name;
      if (access(full.c_str(), X_OK) == 0) return full;
    }
  }
  return "";
}

// The value of token `name=` in the first line of `role`'s latest port file
// (the port-file convention: extra servers append " name=port").
int PortFromFile(const ExternalCluster& cluster, const std::string& role,
                 const std::string& name, int line_no = 0) {
  for (int start = 9; start >= 0; --start) {
    std::ifstream in(cluster.dir() + "/" + role + ".port." + std::to_string(start));
    if (!in) continue;
    std::string line;
    for (int i = 0; i <= line_no; ++i) std::getline(in, line);
    std::istringstream tokens(line);
    std::string tok;
    while (tokens >> tok) {
      if (tok.rfind(name + "=", 0) == 0) return std::atoi(tok.c_str() + name.size() + 1);
    }
    return 0;
  }
  return 0;
}

Json Page(const std::string& name, int port, const std::string& path,
          std::vector<std::string> expect, bool screenshot = false,
          std::vector<std::string> reject = {}) {
  Json p;
  p["name"] = name;
  p["url"] = "http://127.0.0.1:" + std::to_string(port) + path;
  p["expect"] = std::move(expect);
  p["reject"] = std::move(reject);
  p["screenshot"] = screenshot;
  return p;
}

TEST(BrowserTest, EveryDaemonsPagesRenderInHeadlessChromium) {
  const std::string chromium = FindExecutable({"chromium", "chromium-browser"});
  const std::string chromedriver = FindExecutable({"chromedriver"});
  ASSERT_FALSE(chromium.empty() || chromedriver.empty())
      << "headless Chromium is not installed (chromium: '" << chromium << "', chromedriver: '"
      << chromedriver << "'): run scripts/setup.sh, which installs the Debian packages "
      << "chromium and chromium-driver";

  ExternalClusterOptions o;
  o.name = "ics-browser";
  o.statestored_flags = {"--webserver_port=0"};
  o.catalogd_flags = {"--webserver_port=0"};
  o.coordinator_processes = {CoordinatorProcessSpec{2, {}, {"--webserver_port=0"}}};
  ExternalCluster cluster(o);
  Status started = cluster.Start();
  if (!started.ok()) cluster.DumpLogs(std::cerr);
  ASSERT_TRUE(started.ok()) << started.ToString();

  const std::vector<std::string> sql = {
      "CREATE DATABASE browser_db COMMENT 'made by the browser test'",
      "CREATE TABLE browser_db.sales (id INT, amount DOUBLE, note STRING) "
      "PARTITIONED BY (year INT)",
      "INSERT INTO browser_db.sales PARTITION (year=2024) VALUES (1, 9.5, 'first'), (2, 3.25, "
      "'second')",
      "INSERT INTO browser_db.sales PARTITION (year=2025) VALUES (3, 1.0, 'third')",
      "CREATE TABLE browser_db.`odd <name> & co` (a INT)",
  };
  for (const std::string& s : sql) {
    ExecResult r = cluster.Exec(0, s, /*sync_ddl=*/true);
    ASSERT_TRUE(r.ok()) << s << ": " << r.ToString();
  }
  // Coordinator 1 uses the table, so it is cached (on-demand) there.
  ExecResult parts = cluster.Exec(1, "SHOW PARTITIONS browser_db.sales");
  ASSERT_TRUE(parts.ok()) << parts.ToString();

  const int ss = PortFromFile(cluster, ExternalCluster::kStatestored, "webserver");
  const int cat = PortFromFile(cluster, ExternalCluster::kCatalogd, "webserver");
  const std::string coords = ExternalCluster::CoordinatorProcess(0);
  const int c0 = PortFromFile(cluster, coords, "webserver", 0);
  const int c1 = PortFromFile(cluster, coords, "webserver", 1);
  ASSERT_GT(ss, 0) << "no webserver= token in statestored's port file";
  ASSERT_GT(cat, 0) << "no webserver= token in catalogd's port file";
  ASSERT_GT(c0, 0) << "no webserver= token for coordinator 0";
  ASSERT_GT(c1, 0) << "no webserver= token for coordinator 1";
  const std::string odd_link = "/catalog/table?db=browser_db&table=odd%20%3Cname%3E%20%26%20co";

  Json pages = Json::array();
  // statestored
  pages.push_back(Page("statestored-home", ss, "/", {"statestored", "Metrics"}, true));
  pages.push_back(Page("statestored-topics", ss, "/topics", {"catalog-update"}, true));
  pages.push_back(Page("statestored-subscribers", ss, "/subscribers",
                       {"coordinators-0-0", "coordinators-0-1", "catalog-server"}, true));
  pages.push_back(Page("statestored-metrics", ss, "/metrics", {"statestore_"}));
  // catalogd
  pages.push_back(Page("catalogd-home", cat, "/", {"catalogd", "Catalog", "Operations"}, true));
  pages.push_back(Page("catalogd-catalog", cat, "/catalog",
                       {"browser_db", "sales", "odd <name> & co", "made by the browser test",
                        "html:&lt;name&gt;"},
                       true, {"undefined"}));
  pages.push_back(Page("catalogd-table", cat, "/catalog/table?db=browser_db&table=sales",
                       {"year=2024", "year=2025", "loaded", "amount", "double"}, true));
  pages.push_back(Page("catalogd-partition", cat,
                       "/catalog/partition?db=browser_db&table=sales&partition=year%3D2024",
                       {"year=2024", "NONE", "files"}, true));
  pages.push_back(Page("catalogd-odd-table", cat, odd_link, {"odd <name> & co", "html:odd &lt;name&gt; &amp; co"}, false, {"undefined"}));
  pages.push_back(Page("catalogd-object", cat,
                       "/catalog_object?type=TABLE&name=browser_db.sales",
                       {"TABLE:browser_db.sales", "tbl_name"}, true));
  pages.push_back(Page("catalogd-operations", cat, "/operations",
                       {"CREATE_TABLE", "browser_db.sales", "UPDATE_CATALOG", "OK"}, true));
  pages.push_back(Page("catalogd-metrics", cat, "/metrics",
                       {"catalogd_topic_publication_bytes", "catalogd_metastore_call_duration_seconds"},
                       true));
  // coordinators
  pages.push_back(Page("coordinator0-statements", c0, "/statements",
                       {"CREATE TABLE browser_db.sales", "INSERT", "OK"}, true));
  pages.push_back(Page("coordinator1-catalog", c1, "/catalog",
                       {"coordinators-0-1", "browser_db", "sales", "cached", "topic_version"},
                       true));
  pages.push_back(Page("coordinator1-metrics", c1, "/metrics",
                       {"coordinator_local_catalog_misses_total"}));

  const std::string out_dir = ICS_WEB_SCREENSHOT_DIR;
  Json spec;
  spec["chromium"] = chromium;
  spec["chromedriver"] = chromedriver;
  spec["out_dir"] = out_dir;
  spec["pages"] = std::move(pages);
  const std::string spec_path = cluster.dir() + "/browser_spec.json";
  {
    std::ofstream f(spec_path);
    f << spec.dump(1);
  }
  // RunCommand does not search $PATH.
  const std::string timeout = FindExecutable({"timeout"});
  const std::string python = FindExecutable({"python3"});
  ASSERT_FALSE(timeout.empty() || python.empty()) << "needs timeout and python3 on $PATH";
  CommandResult r = RunCommand({timeout, "600", python, ICS_BROWSER_CHECK_SCRIPT, spec_path});
  std::cout << r.output;
  std::cout << "screenshots and page sources: " << out_dir << "/" << std::endl;
  if (!r.ok()) cluster.set_keep_dir(true);
  EXPECT_EQ(r.exit_code, 0) << "browser checks failed (see the lines above; cluster dir "
                            << cluster.dir() << ")";
}

}  // namespace
}  // namespace ics::external
