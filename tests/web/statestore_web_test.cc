// statestored's pages (/topics, /subscribers, /metrics and the common ones)
// over HTTP, against an in-process broker with fake subscribers; and the real
// statestored binary serving them on a port reported in its --port_file.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/util/unique_id.h"
#include "common/web/web_server.h"
#include "statestore/statestore_server.h"
#include "statestore/statestore_web.h"
#include "tests/external/external_process.h"
#include "tests/statestore/fake_subscriber.h"
#include "tests/util/eventually.h"
#include "tests/util/temp_dir.h"
#include "tests/web/http_client.h"
#include "tests/web/prometheus_parser.h"

namespace ics::statestore {
namespace {

using ::ics::testing::TempDir;

using Json = nlohmann::ordered_json;
using sstest::FakeSubscriber;
using sstest::FakeSubscriberOptions;
using sstest::Item;
using sstest::TopicReg;
using Millis = std::chrono::milliseconds;

const std::string kTopic = "catalog-update";
const std::string kNastyTopic = "<script>alert('t')</script>&\"x\"";
const std::string kNastyId = "pub<b>&\"sub\"'";
constexpr Millis kWait(10000);

class StatestoreWebTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatestoreServerOptions so;
    so.bind_host = "127.0.0.1";
    so.port = 0;
    auto& o = so.statestore;
    o.heartbeat_interval_ms = 100;
    o.heartbeat_timeout_ms = 500;
    o.max_missed_heartbeats = 1000000;  // a dead subscriber stays, with failures
    o.update_frequency_ms = 200;
    o.connect_timeout_ms = 500;
    o.num_update_threads = 4;
    o.num_heartbeat_threads = 2;
    server_ = std::make_unique<StatestoreServer>(so);
    ASSERT_TRUE(server_->Start().ok());
    RegisterStatestoreMetrics(server_->metrics(), server_->statestore());
    web::WebServerOptions wo;
    wo.daemon_name = "statestored";
    web_ = std::make_unique<web::WebServer>(wo, server_->metrics());
    RegisterStatestorePages(web_.get(), server_->statestore());
    ASSERT_TRUE(web_->Start().ok());

    pub_ = NewSubscriber(kNastyId, {TopicReg(kTopic), TopicReg(kNastyTopic, /*transient=*/true)});
    reader_ = NewSubscriber("reader", {TopicReg(kTopic, false, "", /*want_min_version=*/true)});
    dead_ = NewSubscriber("dead", {TopicReg(kTopic)});
    ASSERT_TRUE(pub_ && reader_ && dead_);
    // Keys and values of known sizes: 3 + 5 + 3 key bytes, 1 + 10 + 100 value bytes.
    pub_->Publish(kTopic, {Item("a/1", "x"), Item("bb/22", std::string(10, 'y')),
                           Item("<k>", std::string(100, 'z'))});
    pub_->Publish(kNastyTopic, {Item("n&m", "v")});
    ASSERT_TRUE(reader_->WaitForKey(kTopic, "<k>", kWait)) << reader_->Describe();
    ASSERT_TRUE(dead_->WaitForKey(kTopic, "<k>", kWait)) << dead_->Describe();
    dead_->Stop();  // heartbeats to it now fail
  }

  void TearDown() override {
    for (auto& s : subs_) s->Stop();
    if (web_) web_->Stop();
    if (server_) server_->Stop();
  }

  FakeSubscriber* NewSubscriber(const std::string& id, std::vector<impala::TTopicRegistration> t) {
    FakeSubscriberOptions o;
    o.id = id;
    // The publisher writes catalog-update, which only a catalogd may.
    if (id == kNastyId) o.subscriber_type = impala::TStatestoreSubscriberType::CATALOGD;
    o.topics = std::move(t);
    o.statestore_port = server_->port();
    subs_.push_back(std::make_unique<FakeSubscriber>(o));
    std::string error;
    if (!subs_.back()->Start(&error) || !subs_.back()->RegisterOk(&error)) {
      ADD_FAILURE() << id << ": " << error;
      return nullptr;
    }
    return subs_.back().get();
  }

  webtest::HttpResponse Get(const std::string& target, bool html = false) {
    auto r = html ? webtest::HttpGetHtml(web_->port(), target) : webtest::HttpGet(web_->port(), target);
    EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
    return r.ok() ? *r : webtest::HttpResponse{};
  }
  Json GetJson(const std::string& target) {
    auto r = Get(target);
    EXPECT_EQ(r.status, 200) << target << "\n" << r.body;
    try {
      return Json::parse(r.body);
    } catch (const std::exception& e) {
      ADD_FAILURE() << target << ": " << e.what() << "\n" << r.body;
      return Json::object();
    }
  }
  static const Json* Row(const Json& rows, const std::string& key, const std::string& value) {
    for (const auto& r : rows) {
      if (r.contains(key) && r[key] == value) return &r;
    }
    return nullptr;
  }

  std::unique_ptr<StatestoreServer> server_;
  std::unique_ptr<web::WebServer> web_;
  std::vector<std::unique_ptr<FakeSubscriber>> subs_;
  FakeSubscriber* pub_ = nullptr;
  FakeSubscriber* reader_ = nullptr;
  FakeSubscriber* dead_ = nullptr;
};

TEST_F(StatestoreWebTest, TopicsJson) {
  ASSERT_EVENTUALLY(kWait, {
    Json doc = GetJson("/topics?json");
    ASSERT_EQ(doc["num_topics"], 2);
    // Impala's field names for the facts its /topics page has.
    const Json* t = Row(doc["topics"], "topic_id", kTopic);
    ASSERT_NE(t, nullptr) << doc.dump(1);
    EXPECT_EQ((*t)["num_entries"], 3);
    EXPECT_EQ((*t)["tombstones"], 0);
    EXPECT_EQ((*t)["key_size_bytes"], 11);
    EXPECT_EQ((*t)["value_size_bytes"], 111);
    EXPECT_EQ((*t)["total_size_bytes"], 122);
    EXPECT_EQ((*t)["key_size"], "11.00 B");
    EXPECT_EQ((*t)["value_size"], "111.00 B");
    EXPECT_EQ((*t)["total_size"], "122.00 B");
    EXPECT_EQ((*t)["version"], 3);
    EXPECT_EQ((*t)["prioritized"], false);
    EXPECT_EQ((*t)["oldest_version"], 3);
    EXPECT_TRUE((*t)["oldest_id"] == kNastyId || (*t)["oldest_id"] == "reader" ||
                (*t)["oldest_id"] == "dead")
        << (*t)["oldest_id"];
    for (const char* old : {"name", "entries", "key_bytes", "value_bytes", "total_bytes",
                            "current_version"}) {
      EXPECT_FALSE(t->contains(old)) << old << " is named as Impala names it now";
    }
    EXPECT_EQ((*t)["oldest_retained_version"], 1);
    EXPECT_EQ((*t)["history_floor"], 0);
    EXPECT_EQ((*t)["subscribers"], 3);
    // The dead subscriber never processes version 3 again... it already had it.
    EXPECT_EQ((*t)["min_subscriber_version"], 3);
    const Json* n = Row(doc["topics"], "topic_id", kNastyTopic);
    ASSERT_NE(n, nullptr) << doc.dump(1);
    EXPECT_EQ((*n)["num_entries"], 1);
    EXPECT_EQ((*n)["oldest_id"], kNastyId);
    EXPECT_EQ((*n)["subscribers"], 1);
  });
}

TEST_F(StatestoreWebTest, SubscribersJson) {
  ASSERT_EVENTUALLY(kWait, {
    Json doc = GetJson("/subscribers?json");
    ASSERT_EQ(doc["num_subscribers"], 3);
    const Json* p = Row(doc["subscribers"], "id", kNastyId);
    ASSERT_NE(p, nullptr) << doc.dump(1);
    EXPECT_EQ((*p)["address"], "127.0.0.1:" + std::to_string(pub_->port()));
    EXPECT_EQ((*p)["registration_id"], PrintId(*pub_->registration_id()));
    ASSERT_EQ((*p)["topics"].size(), 2u);
    const Json* t = Row((*p)["topics"], "topic", kTopic);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ((*t)["last_version"], 3);
    EXPECT_EQ((*t)["transient"], false);
    const Json* nt = Row((*p)["topics"], "topic", kNastyTopic);
    ASSERT_NE(nt, nullptr);
    EXPECT_EQ((*nt)["transient"], true);
    EXPECT_GE((*p)["updates_sent"].get<int64_t>(), 1);
    EXPECT_EQ((*p)["consecutive_heartbeat_failures"], 0);
    const double since = (*p)["seconds_since_heartbeat"].get<double>();
    EXPECT_TRUE(std::isfinite(since) && since >= 0) << since;
    // Impala's names: a 3-decimal text, counts, the subscriber type.
    const std::string secs = (*p)["secs_since_heartbeat"].get<std::string>();
    ASSERT_GE(secs.size(), 5u);
    EXPECT_EQ(secs[secs.size() - 4], '.') << secs;
    EXPECT_GE(std::stod(secs), 0.0);
    EXPECT_EQ((*p)["num_topics"], 2);
    EXPECT_EQ((*p)["num_priority_topics"], 0);
    EXPECT_EQ((*p)["num_transient"], 1);  // its one entry of the transient topic
    EXPECT_EQ((*p)["subscriber_type"], "CATALOGD");

    const Json* d = Row(doc["subscribers"], "id", "dead");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ((*d)["num_topics"], 1);
    EXPECT_EQ((*d)["num_transient"], 0);
    EXPECT_EQ((*d)["subscriber_type"], "COORDINATOR");
    EXPECT_GE((*d)["consecutive_heartbeat_failures"].get<int>(), 1);
    EXPECT_GE((*d)["heartbeat_failures"].get<int>(), 1);
    EXPECT_GE((*d)["update_failures"].get<int>(), 1);  // fallback cadence keeps trying
  });
  // Filter by topic; unknown topics and parameters are errors.
  Json only = GetJson("/subscribers?json&topic=" + web::UrlEncode(kNastyTopic));
  ASSERT_EQ(only["num_subscribers"], 1);
  EXPECT_EQ(only["subscribers"][0]["id"], kNastyId);
  EXPECT_EQ(only["topic"], kNastyTopic);
  EXPECT_EQ(GetJson("/subscribers?json&topic=" + kTopic)["num_subscribers"], 3);
  EXPECT_EQ(Get("/subscribers?topic=nope&json").status, 404);
  EXPECT_EQ(Get("/subscribers?topic=nope").status, 404);
  EXPECT_EQ(Get("/subscribers?bogus=1").status, 400);
  EXPECT_EQ(Get("/topics?topic=x").status, 400);
  EXPECT_EQ(Get("/topicz").status, 404);
}

TEST_F(StatestoreWebTest, HtmlPagesEscapeNamesAndLink) {
  auto t = Get("/topics", /*html=*/true);
  ASSERT_EQ(t.status, 200);
  EXPECT_EQ(t.body.find("<script>"), std::string::npos) << t.body;
  EXPECT_NE(t.body.find("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;&amp;&quot;x&quot;"),
            std::string::npos)
      << t.body;
  EXPECT_NE(t.body.find("href=\"/subscribers?topic=" + web::UrlEncode(kNastyTopic) + "\""),
            std::string::npos)
      << t.body;
  auto s = Get("/subscribers", /*html=*/true);
  ASSERT_EQ(s.status, 200);
  EXPECT_EQ(s.body.find("<b>"), std::string::npos) << s.body;
  EXPECT_NE(s.body.find("pub&lt;b&gt;&amp;&quot;sub&quot;&#39;"), std::string::npos) << s.body;
  EXPECT_NE(s.body.find("<a href=\"/subscribers?topic=catalog-update\">catalog-update</a>"),
            std::string::npos);
  auto home = Get("/", true);
  for (const char* link : {"href=\"/topics\"", "href=\"/subscribers\"", "href=\"/metrics\"",
                           "href=\"/varz\""}) {
    EXPECT_NE(home.body.find(link), std::string::npos) << link;
  }
}

TEST_F(StatestoreWebTest, EveryPageServesJson) {
  Json home = GetJson("/?json");
  EXPECT_EQ(home["daemon"], "statestored");
  ASSERT_GE(home["pages"].size(), 6u);
  for (const auto& p : home["pages"]) {
    const std::string path = p["path"];
    auto r = Get(path + "?json");
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.content_type, "application/json; charset=utf-8") << path;
    EXPECT_NO_THROW((void)Json::parse(r.body)) << path;
    auto h = Get(path, /*html=*/true);
    EXPECT_EQ(h.status, 200) << path;
    EXPECT_EQ(h.content_type, "text/html; charset=utf-8") << path;
  }
}

TEST_F(StatestoreWebTest, PrometheusMetrics) {
  ASSERT_EVENTUALLY(kWait, {
    auto r = Get("/metrics");
    ASSERT_EQ(r.status, 200);
    auto m = webtest::ParsePrometheusText(r.body);
    ASSERT_TRUE(m.ok()) << m.error << "\n" << r.body;
    EXPECT_EQ(m.Value("statestore_topic_entries", {{"topic", kTopic}}), 3);
    EXPECT_EQ(m.Value("statestore_topic_entries", {{"topic", kNastyTopic}}), 1);
    EXPECT_EQ(m.Value("statestore_topic_key_bytes", {{"topic", kTopic}}), 11);
    EXPECT_EQ(m.Value("statestore_topic_value_bytes", {{"topic", kTopic}}), 111);
    EXPECT_EQ(m.Value("statestore_topic_version", {{"topic", kTopic}}), 3);
    EXPECT_EQ(m.Value("statestore_topic_min_subscriber_version", {{"topic", kTopic}}), 3);
    EXPECT_EQ(m.Value("statestore_subscribers"), 3);
    EXPECT_EQ(m.Value("statestore_topics"), 2);
    EXPECT_EQ(m.Value("statestore_registrations_total"), 3);
    EXPECT_EQ(m.families.at("statestore_registrations_total").type, "counter");
    EXPECT_GE(m.Value("statestore_updates_sent_total"), 3);
    EXPECT_GE(m.Value("statestore_update_failures_total"), 1);
    EXPECT_GE(m.Value("statestore_heartbeats_sent_total"), 3);
    EXPECT_GE(m.Value("statestore_heartbeat_failures_total"), 1);
    for (const char* h : {"statestore_update_duration_seconds",
                          "statestore_heartbeat_duration_seconds", "statestore_update_entries"}) {
      ASSERT_TRUE(m.families.count(h)) << h;
      EXPECT_EQ(m.families.at(h).type, "summary") << h;
      EXPECT_GE(m.Value(std::string(h) + "_count"), 3) << h;
      for (const char* q : {"0.5", "0.9", "0.99", "0.999"}) {
        const double v = m.Value(h, {{"quantile", q}});
        EXPECT_TRUE(std::isfinite(v) && v >= 0) << h << " " << q << " = " << v;
      }
    }
    // Quantiles are ordered.
    const std::string h = "statestore_update_duration_seconds";
    EXPECT_LE(m.Value(h, {{"quantile", "0.5"}}), m.Value(h, {{"quantile", "0.99"}}));
  });
  // The same figures as JSON.
  Json j = GetJson("/metrics?json");
  bool found = false;
  for (const auto& f : j["metrics"]) {
    if (f["name"] != "statestore_heartbeat_duration_seconds") continue;
    found = true;
    EXPECT_GE(f["series"][0]["count"].get<int64_t>(), 3);
    EXPECT_TRUE(f["series"][0].contains("p99"));
  }
  EXPECT_TRUE(found);
}

// The real binary: flags, port file token, pages served, clean SIGTERM.
TEST(StatestoredWebProcessTest, ServesPagesOnReportedPort) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string port_file = dir.path() + "/statestored.port";
  external::ExternalProcess proc("statestored", dir.path() + "/statestored.log", dir.path());
  ASSERT_TRUE(proc.Start({ICS_STATESTORED_BIN, "--state_store_port=0", "--webserver_port=0",
                          "--port_file=" + port_file})
                  .ok());
  int rpc_port = 0, web_port = 0;
  ASSERT_TRUE(external::WaitFor(
      [&] {
        auto lines = external::ReadLines(port_file);
        if (lines.empty()) return false;
        const std::string& l = lines[0];
        rpc_port = std::atoi(l.c_str());
        const size_t w = l.find(" webserver=");
        if (w != std::string::npos) web_port = std::atoi(l.c_str() + w + 11);
        return true;
      },
      kWait))
      << external::TailOfFile(proc.log_path(), 20);
  EXPECT_GT(rpc_port, 0);
  ASSERT_GT(web_port, 0) << external::ReadLines(port_file)[0];
  auto r = webtest::HttpGet(web_port, "/?json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Json home = Json::parse(r->body);
  EXPECT_EQ(home["daemon"], "statestored");
  r = webtest::HttpGet(web_port, "/varz?json");
  ASSERT_TRUE(r.ok());
  Json varz = Json::parse(r->body);
  bool saw = false;
  for (const auto& f : varz["flags"]) {
    if (f["name"] == "webserver_port") {
      saw = true;
      EXPECT_EQ(f["value"], "0");
      EXPECT_EQ(f["default"], "25010");
    }
  }
  EXPECT_TRUE(saw);
  r = webtest::HttpGet(web_port, "/topics?json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Json::parse(r->body)["num_topics"], 0);
  r = webtest::HttpGet(web_port, "/metrics");
  ASSERT_TRUE(r.ok());
  auto m = webtest::ParsePrometheusText(r->body);
  EXPECT_TRUE(m.ok()) << m.error;
  EXPECT_EQ(m.Value("statestore_subscribers"), 0);
  EXPECT_TRUE(proc.Stop(kWait).ok()) << external::TailOfFile(proc.log_path(), 20);
  EXPECT_FALSE(webtest::HttpGet(web_port, "/").ok());
}

TEST(StatestoredWebProcessTest, DisabledWebServerAndBadInterface) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string port_file = dir.path() + "/statestored.port";
  {
    external::ExternalProcess proc("statestored", dir.path() + "/a.log", dir.path());
    ASSERT_TRUE(proc.Start({ICS_STATESTORED_BIN, "--state_store_port=0", "--enable_webserver=false",
                            "--port_file=" + port_file})
                    .ok());
    ASSERT_TRUE(external::WaitFor([&] { return !external::ReadLines(port_file).empty(); }, kWait))
        << external::TailOfFile(proc.log_path(), 20);
    EXPECT_EQ(external::ReadLines(port_file)[0].find("webserver="), std::string::npos);
    EXPECT_TRUE(proc.Stop(kWait).ok());
  }
  external::ExternalProcess bad("statestored", dir.path() + "/b.log", dir.path());
  ASSERT_TRUE(bad.Start({ICS_STATESTORED_BIN, "--state_store_port=0",
                         "--webserver_interface=not-an-ip", "--webserver_port=0"})
                  .ok());
  ASSERT_TRUE(external::WaitFor([&] { return !bad.IsRunning(); }, kWait));
  EXPECT_EQ(bad.ExitDescription(), "exit status 1");
  EXPECT_NE(external::TailOfFile(bad.log_path(), 5).find("not-an-ip"), std::string::npos);
}

}  // namespace
}  // namespace ics::statestore
