// WebClusterTest: an in-process cluster (tests/util/mini_cluster.h) with
// the daemons' real web pages on free loopback ports: one WebServer for
// catalogd (its registry and pages) and one per coordinator, wired as the
// daemons' main() functions do. Plus JSON/HTML fetch helpers.
//
// Thread-safety: a gtest fixture; use from the test thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalogd/service/catalog_server_pages.h"
#include "common/web/web_server.h"
#include "coordinator-sim/web/coordinator_pages.h"
#include "tests/util/mini_cluster.h"
#include "tests/web/http_client.h"

namespace ics::webtest {

using Json = nlohmann::ordered_json;

class WebClusterTest : public ::testing::Test {
 protected:
  // Set before SetUp runs (e.g. in a derived fixture's constructor).
  testing::MiniClusterOptions cluster_options_;

  void SetUp() override {
    cluster_ = std::make_unique<testing::MiniCluster>(cluster_options_);
    ASSERT_TRUE(cluster_->Start().ok());
    StartCatalogWeb();
    for (int i = 0; i < cluster_options_.num_coordinators; ++i) {
      coord::Coordinator* c = cluster_->coordinator(i);
      auto ws = MakeServer(c->options().id, c->metrics());
      coord::RegisterCoordinatorPages(ws.get(), c);
      ASSERT_TRUE(ws->Start().ok());
      coord_web_.push_back(std::move(ws));
    }
  }

  void TearDown() override {
    // Pages read the daemons: stop the web servers first.
    for (auto& ws : coord_web_) ws->Stop();
    if (catalog_web_) catalog_web_->Stop();
    cluster_.reset();
  }

  void StartCatalogWeb() {
    catalog_web_ = MakeServer("catalogd", cluster_->catalogd()->metrics());
    catalog::RegisterCatalogPages(catalog_web_.get(),
                                  catalog::CatalogPagesDepsOf(cluster_->catalogd()));
    ASSERT_TRUE(catalog_web_->Start().ok());
  }

  // Restarts catalogd (same port and data) with a new web server, as a
  // restarted daemon would have.
  void RestartCatalogd() {
    catalog_web_->Stop();
    ASSERT_TRUE(cluster_->RestartCatalogd().ok());
    StartCatalogWeb();
  }

  static std::unique_ptr<web::WebServer> MakeServer(const std::string& name,
                                                    metrics::MetricRegistry* registry) {
    web::WebServerOptions o;
    o.daemon_name = name;
    o.port = 0;
    return std::make_unique<web::WebServer>(o, registry);
  }

  int catalog_port() const { return catalog_web_->port(); }
  int coord_port(int i) const { return coord_web_.at(i)->port(); }

  // Runs SQL on coordinator `i`; fails the test on error.
  void Sql(int i, const std::string& sql) {
    auto r = cluster_->Exec(i, sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }

  // GET `target` (plus json) with the expected status; the parsed body.
  static Json GetJson(int port, const std::string& target, int expect_status = 200) {
    const std::string sep = target.find('?') == std::string::npos ? "?" : "&";
    auto r = HttpGet(port, target + sep + "json");
    EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
    if (!r.ok()) return Json();
    EXPECT_EQ(r->status, expect_status) << target << ": " << r->body;
    EXPECT_NE(r->content_type.find("application/json"), std::string::npos) << target;
    Json doc = Json::parse(r->body, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(doc.is_discarded()) << target << ": not JSON: " << r->body;
    return doc;
  }

  // GET `target` as a browser would; the HTML body (status checked).
  static std::string GetHtml(int port, const std::string& target, int expect_status = 200) {
    auto r = HttpGetHtml(port, target);
    EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
    if (!r.ok()) return "";
    EXPECT_EQ(r->status, expect_status) << target;
    EXPECT_NE(r->content_type.find("text/html"), std::string::npos) << target;
    return r->body;
  }

  // The row of `rows` (a JSON array of objects) whose `key` is `value`.
  static const Json* FindRow(const Json& rows, const std::string& key, const std::string& value) {
    if (!rows.is_array()) return nullptr;
    for (const Json& row : rows) {
      if (row.is_object() && row.contains(key) && row[key] == value) return &row;
    }
    return nullptr;
  }
  // Every table row of a /catalog document (nested in its database, as Impala nests them).
  static Json AllTables(const Json& doc) {
    Json out = Json::array();
    if (!doc.contains("databases") || !doc["databases"].is_array()) return out;
    for (const Json& db : doc["databases"]) {
      if (!db.contains("tables") || !db["tables"].is_array()) continue;
      for (const Json& t : db["tables"]) out.push_back(t);
    }
    return out;
  }
  static const Json* FindTable(const Json& rows, const std::string& db, const std::string& t) {
    if (!rows.is_array()) return nullptr;
    for (const Json& row : rows) {
      if (row.value("db", "") == db && row.value("table", "") == t) return &row;
    }
    return nullptr;
  }

  std::unique_ptr<testing::MiniCluster> cluster_;
  std::unique_ptr<web::WebServer> catalog_web_;
  std::vector<std::unique_ptr<web::WebServer>> coord_web_;
};

}  // namespace ics::webtest
