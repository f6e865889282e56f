// The debug web server over real sockets: pages as HTML and JSON, escaping,
// error statuses, limits, the common pages, concurrency and Stop().
#include <atomic>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <gflags/gflags.h>

#include "common/web/host_check.h"
#include "common/web/web_flags.h"
#include "common/web/web_server.h"
#include "tests/util/eventually.h"
#include "tests/web/http_client.h"
#include "tests/web/prometheus_parser.h"

namespace ics::web {
namespace {

using Json = nlohmann::ordered_json;
using webtest::HttpGet;
using webtest::HttpGetHtml;

using Millis = std::chrono::milliseconds;

// The webserver_open_connections gauge, read without a socket.
double OpenConnections(WebServer* server) {
  const auto doc = Json::parse(server->Dispatch("GET", "/metrics?json", "").body);
  for (const auto& f : doc["metrics"]) {
    if (f["name"] == "webserver_open_connections") return f["series"][0]["value"].get<double>();
  }
  return -1;
}

const std::string kNasty = "<script>alert(\"x\")</script> & 'q' \xff";  // also invalid UTF-8

class WebServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WebServerOptions o;
    o.daemon_name = "testd <&>";
    o.port = 0;
    o.max_header_bytes = 4096;
    server_ = std::make_unique<WebServer>(o, &registry_);
    PageOptions items;
    items.params = {"filter"};
    items.links = {{"name", "/item?name={name}"}};
    server_->RegisterPage(
        "/items", "Items",
        [](const WebRequest& req, Json* doc) {
          const std::string filter = req.Param("filter");
          Json rows = Json::array();
          for (const std::string& n : {std::string("plain"), kNasty}) {
            if (filter.empty() || n.find(filter) != std::string::npos) {
              rows.push_back({{"name", n}, {"size", n.size()}});
            }
          }
          (*doc)["count"] = rows.size();
          (*doc)["items"] = std::move(rows);
          return Status::OK();
        },
        items);
    PageOptions item;
    item.params = {"name"};
    server_->RegisterPage(
        "/item", "Item",
        [](const WebRequest& req, Json* doc) {
          if (!req.Has("name")) return Status::InvalidArgument("missing parameter 'name'");
          const std::string name = req.Param("name");
          if (name != kNasty && name != "plain") return Status::NotFound("no item '" + name + "'");
          (*doc)["name"] = name;
          return Status::OK();
        },
        item);
    server_->RegisterPage("/boom", "Boom", [](const WebRequest&, Json* doc) -> Status {
      (*doc)["x"] = 1;
      return Status::Internal("exploded <b>");
    });
    ASSERT_TRUE(server_->Start().ok());
    port_ = server_->port();
    ASSERT_GT(port_, 0);
  }

  webtest::HttpResponse Get(const std::string& target) {
    auto r = HttpGet(port_, target);
    EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
    return r.ok() ? *r : webtest::HttpResponse{};
  }
  webtest::HttpResponse GetHtml(const std::string& target) {
    auto r = HttpGetHtml(port_, target);
    EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
    return r.ok() ? *r : webtest::HttpResponse{};
  }
  Json GetJson(const std::string& target, int expect_status = 200) {
    auto r = Get(target);
    EXPECT_EQ(r.status, expect_status) << target << "\n" << r.body;
    EXPECT_EQ(r.content_type, "application/json; charset=utf-8") << target;
    try {
      return Json::parse(r.body);
    } catch (const std::exception& e) {
      ADD_FAILURE() << target << ": not JSON: " << e.what() << "\n" << r.body;
      return Json();
    }
  }

  metrics::MetricRegistry registry_;
  std::unique_ptr<WebServer> server_;
  int port_ = 0;
};

TEST_F(WebServerTest, PageAsJson) {
  for (const std::string q : {"?json", "?json=1", "?json=true"}) {
    Json doc = GetJson("/items" + q);
    EXPECT_EQ(doc["count"], 2);
    ASSERT_EQ(doc["items"].size(), 2u);
    EXPECT_EQ(doc["items"][0]["name"], "plain");
    // Invalid UTF-8 is replaced (U+FFFD), the rest survives verbatim.
    const std::string nasty = doc["items"][1]["name"];
    EXPECT_EQ(nasty.rfind("<script>alert(\"x\")</script> & 'q' ", 0), 0u) << nasty;
  }
  Json doc = GetJson("/items?filter=pla&json");
  EXPECT_EQ(doc["count"], 1);
}

TEST_F(WebServerTest, HtmlEscapesEverything) {
  auto r = GetHtml("/items");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.body.find("<script>"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"),
            std::string::npos)
      << r.body;
  // The daemon name is escaped too, and the link column URL-encodes the name.
  EXPECT_NE(r.body.find("testd &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(r.body.find("href=\"/item?name=%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E%20%26%20%27q%27%20%FF\""),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("<a href=\"/items?json\">JSON</a>"), std::string::npos);
  EXPECT_NE(r.headers["content-security-policy"].find("default-src 'none'"), std::string::npos);

  // An error message that echoes user input is escaped as well.
  r = GetHtml("/item?name=%3Cscript%3Ex");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body.find("<script>"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("no item &#39;&lt;script&gt;x&#39;"), std::string::npos) << r.body;
  // The nasty name round-trips through its link.
  r = GetHtml("/item?name=%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E%20%26%20%27q%27%20%FF");
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(WebServerTest, ErrorStatuses) {
  EXPECT_EQ(Get("/nope").status, 404);
  EXPECT_EQ(Get("/nope?json").status, 404);
  Json err = GetJson("/nope?json", 404);
  EXPECT_EQ(err["status"], 404);
  EXPECT_EQ(Get("/items?bogus=1").status, 400);          // unknown parameter
  EXPECT_EQ(Get("/items?filter=%zz").status, 400);       // bad escape
  EXPECT_EQ(Get("/items?filter=%4").status, 400);        // truncated escape
  EXPECT_EQ(Get("/items?filter=a&filter=b").status, 400);  // repeated
  EXPECT_EQ(Get("/items?=x").status, 400);               // empty name
  EXPECT_EQ(Get("/items?json=maybe").status, 400);
  EXPECT_EQ(Get("/item").status, 400);                   // handler: missing parameter
  EXPECT_EQ(Get("/item?name=zzz").status, 404);          // handler: not found
  EXPECT_EQ(Get("/boom").status, 500);
  err = GetJson("/boom?json", 500);
  EXPECT_EQ(err["error"], "exploded <b>");
  webtest::HttpRequestOptions post;
  post.method = "POST";
  auto r = HttpGet(port_, "/items", post);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, 405);
  // HEAD: the headers of GET, no body.
  webtest::HttpRequestOptions head;
  head.method = "HEAD";
  r = HttpGet(port_, "/items?json", head);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "application/json; charset=utf-8");
  EXPECT_GT(std::stoi(r->headers["content-length"]), 0);
  EXPECT_TRUE(r->body.empty());
  // json=0 asks for HTML.
  r = HttpGet(port_, "/items?json=0");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->content_type, "text/html; charset=utf-8");
}

TEST_F(WebServerTest, MalformedAndOversizedRequests) {
  auto out = webtest::SendRaw(port_, "THIS IS NOT HTTP\r\n\r\n");
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("HTTP/1.1 400"), std::string::npos) << *out;
  const std::string huge = "GET /items?filter=" + std::string(8000, 'a') + " HTTP/1.1\r\n\r\n";
  out = webtest::SendRaw(port_, huge);
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("HTTP/1.1 431"), std::string::npos) << out->substr(0, 200);
  out = webtest::SendRaw(port_,
                         "GET / HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n" + std::string(1000, 'x'));
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("HTTP/1.1 413"), std::string::npos) << out->substr(0, 200);
  // Still serving.
  EXPECT_EQ(Get("/healthz").status, 200);
}

TEST_F(WebServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  auto out = webtest::SendRaw(port_,
                              "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
                              "GET /healthz?json HTTP/1.1\r\nHost: 127.0.0.1:1\r\n"
                              "Connection: close\r\n\r\n");
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("OK\n"), std::string::npos) << *out;
  EXPECT_NE(out->find("\"status\": \"OK\""), std::string::npos) << *out;
}

// DNS rebinding: a page fetched by a browser through a hostile name that
// resolves to 127.0.0.1 carries that name in Host and is refused.
TEST_F(WebServerTest, ForeignHostHeaderIsRefused) {
  auto out = webtest::SendRaw(port_,
                              "GET /metrics HTTP/1.1\r\nHost: attacker.example:8080\r\n"
                              "Connection: close\r\n\r\n");
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->find("HTTP/1.1 421"), std::string::npos) << out->substr(0, 200);
  EXPECT_NE(out->find("attacker.example"), std::string::npos);
  for (const char* ok : {"localhost", "LOCALHOST.", "127.0.0.1", "127.1.2.3:99", "[::1]:80"}) {
    auto r = webtest::SendRaw(port_, std::string("GET /healthz HTTP/1.1\r\nHost: ") + ok +
                                         "\r\nConnection: close\r\n\r\n");
    ASSERT_TRUE(r.ok());
    EXPECT_NE(r->find("HTTP/1.1 200"), std::string::npos) << ok << ": " << r->substr(0, 200);
  }
  EXPECT_TRUE(HostAllowed("catalog.internal:25020", "0.0.0.0", {"catalog.internal"}));
  EXPECT_FALSE(HostAllowed("other.internal", "0.0.0.0", {"catalog.internal"}));
  EXPECT_TRUE(HostAllowed("10.0.0.5:25020", "10.0.0.5", {}));
  EXPECT_TRUE(HostAllowed("", "0.0.0.0", {}));  // HTTP/1.0 tools send none
}

TEST_F(WebServerTest, CommonPages) {
  Json home = GetJson("/?json");
  EXPECT_EQ(home["daemon"], "testd <&>");
  EXPECT_EQ(home["version"], BuildVersion());
  EXPECT_TRUE(home["start_time"].is_string());
  EXPECT_GE(home["uptime_seconds"].get<double>(), 0);
  std::vector<std::string> paths;
  for (const auto& p : home["pages"]) paths.push_back(p["path"]);
  for (const char* p : {"/", "/varz", "/metrics", "/healthz", "/items", "/item", "/boom"}) {
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  }
  auto html = GetHtml("/");
  EXPECT_NE(html.body.find("<a href=\"/items\">Items</a>"), std::string::npos) << html.body;

  Json varz = GetJson("/varz?json");
  bool saw_flag = false;
  for (const auto& f : varz["flags"]) saw_flag = saw_flag || f["name"] == "webserver_port";
  EXPECT_TRUE(saw_flag) << "the web server flags are linked into every daemon";

  Json health = GetJson("/healthz?json");
  EXPECT_EQ(health["status"], "OK");
  EXPECT_EQ(Get("/healthz").body, "OK\n");
  server_->SetHealthCheck([] { return Status::General("disk <full>"); });
  auto r = Get("/healthz");
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("disk <full>"), std::string::npos);  // text/plain: not HTML
  EXPECT_EQ(GetJson("/healthz?json", 503)["status"], 503);
  r = GetHtml("/healthz");
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("disk &lt;full&gt;"), std::string::npos);
}

TEST_F(WebServerTest, MetricsPageFormats) {
  registry_.AddCounter("things_total", "Things.", {{"name", kNasty}})->Increment(3);
  for (int i = 0; i < 3; ++i) Get("/items?json");
  // Default (a scraper): Prometheus text that parses, with the server's own metrics.
  auto r = Get("/metrics");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
  auto parsed = webtest::ParsePrometheusText(r.body);
  ASSERT_TRUE(parsed.ok()) << parsed.error << "\n" << r.body;
  EXPECT_EQ(parsed.Value("things_total", {{"name", kNasty}}), 3);
  EXPECT_GE(parsed.Value("webserver_requests_total", {{"code", "200"}}), 3);
  EXPECT_EQ(parsed.families.at("webserver_request_duration_seconds").type, "summary");
  // A browser gets HTML, escaped.
  r = GetHtml("/metrics");
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.body.find("<script>"), std::string::npos);
  EXPECT_NE(r.body.find("things_total"), std::string::npos);
  // ?json: the registry's JSON.
  Json j = GetJson("/metrics?json");
  bool found = false;
  for (const auto& f : j["metrics"]) found = found || f["name"] == "things_total";
  EXPECT_TRUE(found);
}

TEST_F(WebServerTest, ConcurrentClients) {
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto r = HttpGet(port_, i % 2 ? "/items?json" : "/metrics");
        if (r.ok() && r->status == 200) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 200);
}

TEST_F(WebServerTest, StopIsIdempotentAndClosesThePort) {
  server_->Stop();
  server_->Stop();
  auto r = HttpGet(port_, "/");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(server_->Start().ok());  // not restartable
}

TEST(WebServerLifecycleTest, StopWithIdleAndHungConnections) {
  metrics::MetricRegistry reg;
  WebServerOptions o;
  o.request_timeout_ms = 60000;
  WebServer server(o, &reg);
  ASSERT_TRUE(server.Start().ok());
  // A client that sends half a request and waits, and one that sends
  // nothing: Stop must not wait for them (nor for their 60 s timeout).
  const Millis kLong(30000);
  std::thread hung([&] { (void)webtest::SendRaw(server.port(), "GET / HT", kLong, false); });
  std::thread idle([&] { (void)webtest::SendRaw(server.port(), "", kLong, false); });
  // Both connections are open before stopping.
  const bool open = ::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(OpenConnections(&server), 2); }, Millis(10000));
  EXPECT_TRUE(open);
  server.Stop();
  EXPECT_EQ(OpenConnections(&server), 0);
  hung.join();
  idle.join();
}

TEST(WebServerLifecycleTest, ConnectionsOverTheCapGet503) {
  metrics::MetricRegistry reg;
  WebServerOptions o;
  o.max_connections = 1;
  o.request_timeout_ms = 60000;
  WebServer server(o, &reg);
  ASSERT_TRUE(server.Start().ok());
  // One client holds the only slot with half a request.
  std::thread holder([&] {
    (void)webtest::SendRaw(server.port(), "GET / HT", Millis(30000), /*half_close=*/false);
  });
  const bool held = ::ics::testing::AssertEventually(
      [&] { EXPECT_EQ(OpenConnections(&server), 1); }, Millis(10000));
  EXPECT_TRUE(held);
  if (held) {
    auto r = HttpGet(server.port(), "/healthz");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) EXPECT_EQ(r->status, 503);
  }
  server.Stop();  // also ends the holder's connection
  holder.join();
  EXPECT_EQ(OpenConnections(&server), 0);
}

TEST(WebServerLifecycleTest, BindErrors) {
  metrics::MetricRegistry reg;
  WebServerOptions o;
  WebServer a(o, &reg);
  ASSERT_TRUE(a.Start().ok());
  o.port = a.port();
  WebServer b(o, &reg);
  Status s = b.Start();
  EXPECT_EQ(s.code(), ErrorCode::kIoError) << s.ToString();
  EXPECT_NE(s.message().find(std::to_string(a.port())), std::string::npos) << s.ToString();
  o.port = 0;
  o.bind_address = "not-an-address";
  WebServer c(o, &reg);
  EXPECT_EQ(c.Start().code(), ErrorCode::kInvalidArgument);
}

TEST(WebFlagsTest, StartFromFlags) {
  metrics::MetricRegistry reg;
  // A busy port left at its default: falls back to a free port.
  WebServer busy(WebServerOptions{}, &reg);
  ASSERT_TRUE(busy.Start().ok());
  SetDefaultWebserverPort(busy.port());
  int pages_registered = 0;
  auto web = StartWebServerFromFlags("flagd", &reg, [&](WebServer*) { ++pages_registered; });
  ASSERT_TRUE(web.ok()) << web.status().ToString();
  ASSERT_NE(*web, nullptr);
  EXPECT_NE((*web)->port(), busy.port());
  EXPECT_GT((*web)->port(), 0);
  EXPECT_EQ(pages_registered, 2);  // once per attempt
  EXPECT_EQ(PortFileToken(web->get()), " webserver=" + std::to_string((*web)->port()));
  EXPECT_EQ(PortFileToken(nullptr), "");
  (*web)->Stop();
  // The same port given explicitly: an error naming it.
  gflags::SetCommandLineOption("webserver_port", std::to_string(busy.port()).c_str());
  web = StartWebServerFromFlags("flagd", &reg, {});
  EXPECT_FALSE(web.ok());
  // The port offset (i-th coordinator) and port 0.
  EXPECT_EQ(WebServerOptionsFromFlags("c", 3).port, busy.port() + 3);
  gflags::SetCommandLineOption("webserver_port", "0");
  EXPECT_EQ(WebServerOptionsFromFlags("c", 3).port, 0);
  EXPECT_EQ(WebServerOptionsFromFlags("c", 3).bind_address, "127.0.0.1");
  // Disabled: no server.
  gflags::SetCommandLineOption("enable_webserver", "false");
  web = StartWebServerFromFlags("flagd", &reg, {});
  ASSERT_TRUE(web.ok());
  EXPECT_EQ(*web, nullptr);
  gflags::SetCommandLineOption("enable_webserver", "true");
}

TEST(HtmlTest, RenderJsonHtmlTablesAndEscaping) {
  Json doc = {{"title", "<t>"},
              {"rows", Json::array({{{"a", 1}, {"b", "<x>"}}, {{"a", 2}, {"c", true}}})},
              {"nested", {{"k\"", "v&"}}},
              {"list", Json::array({1, "two", nullptr})},
              {"empty", Json::array()}};
  const std::string html = RenderJsonHtml(doc, {{"a", "/r?a={a}&b={b}"}});
  EXPECT_NE(html.find("<th>title</th><td>&lt;t&gt;</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<th>a</th><th>b</th><th>c</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<a href=\"/r?a=1&amp;b=%3Cx%3E\">1</a>"), std::string::npos) << html;
  // Row 2 has no "b": no link.
  EXPECT_NE(html.find("<td>2</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<th>k&quot;</th><td>v&amp;</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("1, two, "), std::string::npos) << html;
  EXPECT_NE(html.find("(none)"), std::string::npos) << html;
}

TEST(HtmlTest, UrlCoding) {
  EXPECT_EQ(UrlEncode("a b/&=?%\xff~"), "a%20b%2F%26%3D%3F%25%FF~");
  auto d = UrlDecode("a+b%2F%26%3d%FF");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, "a b/&=\xff");
  EXPECT_FALSE(UrlDecode("%").ok());
  EXPECT_FALSE(UrlDecode("%a").ok());
  EXPECT_FALSE(UrlDecode("%gg").ok());
  auto q = ParseQuery("a=1&&b=&json");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->size(), 3u);
  EXPECT_EQ(q->at("a"), "1");
  EXPECT_EQ(q->at("b"), "");
  EXPECT_EQ(q->at("json"), "");
}

}  // namespace
}  // namespace ics::web
