#include "common/web/web_server.h"

#include <glog/logging.h>

#include "common/web/http_transport.h"

#ifndef ICS_VERSION
#define ICS_VERSION "unknown"
#endif

namespace ics::web {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kJsonType = "application/json; charset=utf-8";
constexpr const char* kHtmlType = "text/html; charset=utf-8";

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:1em 2em;color:#222}"
    "nav{padding:.4em 0;border-bottom:1px solid #ccc;margin-bottom:.8em}"
    "nav a{margin-right:1em}nav .daemon{font-weight:bold;margin-right:1.5em}"
    "table{border-collapse:collapse;margin:.3em 0 1em}"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
    "thead th{background:#eee}table.kv th{background:#f6f6f6}"
    "footer{margin-top:2em;color:#777;font-size:small}.error{color:#a00}";

// HTTP status for a handler's error.
int HttpStatusFor(const Status& s) {
  switch (s.code()) {
    case ErrorCode::kInvalidArgument:
      return 400;
    case ErrorCode::kNotFound:
      return 404;
    case ErrorCode::kShutdown:
      return 503;
    default:
      return 500;
  }
}

std::string DumpJson(const Json& doc) {
  // Names may hold any bytes; invalid UTF-8 is replaced, never thrown on.
  return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// "a=1&b=2" rebuilt from parsed parameters plus json, for the JSON link.
std::string JsonHref(const WebRequest& req) {
  std::string href = req.path + "?";
  for (const auto& [k, v] : req.params) {
    if (k == "json") continue;
    href += UrlEncode(k) + "=" + UrlEncode(v) + "&";
  }
  return href + "json";
}

}  // namespace

const char* BuildVersion() { return ICS_VERSION; }

std::string WebRequest::Param(const std::string& name, const std::string& def) const {
  auto it = params.find(name);
  return it == params.end() ? def : it->second;
}

WebServer::WebServer(WebServerOptions options, metrics::MetricRegistry* metrics)
    : options_(std::move(options)),
      metrics_(metrics),
      start_time_(std::chrono::system_clock::now()),
      start_steady_(std::chrono::steady_clock::now()) {
  if (metrics_ != nullptr) {
    request_latency_ = metrics_->AddHistogram(
        "webserver_request_duration_seconds",
        "Time to answer one debug web server request (handler and rendering).", 1e-6);
    // Captures the counter, not the server: the registry may outlive it.
    metrics_->AddCallbackGauge(
        "webserver_open_connections", "Open connections to the debug web server.",
        [c = open_connections_] { return static_cast<double>(c->load()); });
    if (options_.tls()) {
      metrics_->AddCallbackCounter(
          "webserver_tls_handshake_failures_total",
          "TLS handshakes with the debug web server that failed or timed out (e.g. plaintext "
          "HTTP sent to the HTTPS port).",
          [c = tls_handshake_failures_] { return static_cast<double>(c->load()); });
    }
  }
  RegisterCommonPages();
}

WebServer::~WebServer() { Stop(); }

void WebServer::RegisterPage(const std::string& path, const std::string& title,
                             PageHandler handler, PageOptions options) {
  CHECK(!path.empty() && path[0] == '/') << "web page path must start with '/': " << path;
  auto page = std::make_shared<Page>();
  page->title = title;
  page->handler = std::move(handler);
  page->options = std::move(options);
  MutexLock l(&mu_);
  pages_[path] = std::move(page);
}

void WebServer::SetHealthCheck(std::function<Status()> check) {
  MutexLock l(&mu_);
  health_check_ = std::move(check);
}

Status WebServer::Start() {
  MutexLock l(&mu_);
  if (stopped_) return Status::Internal("web server was stopped; it cannot be restarted");
  if (transport_ != nullptr) return Status::Internal("web server already started");
  auto t = std::make_unique<HttpTransport>(
      options_, [this](const std::string& method, const std::string& target,
                       const std::string& accept) { return Dispatch(method, target, accept); },
      open_connections_, tls_handshake_failures_);
  ICS_RETURN_IF_ERROR(t->Start());
  port_ = t->port();
  transport_ = std::move(t);
  LOG(INFO) << options_.daemon_name << " web server listening on "
            << (options_.tls() ? "https://" : "http://")
            << options_.bind_address << ":" << port_.load() << "/";
  return Status::OK();
}

void WebServer::Stop() {
  std::unique_ptr<HttpTransport> t;
  {
    MutexLock l(&mu_);
    stopped_ = true;
    t = std::move(transport_);
  }
  // Outside mu_: in-flight requests (which take mu_) must finish first.
  if (t != nullptr) t->Stop();
}

int WebServer::port() const { return port_.load(); }

void WebServer::CountResponse(int status, std::chrono::steady_clock::time_point start) {
  if (metrics_ == nullptr) return;
  metrics_->AddCounter("webserver_requests_total", "Debug web server responses by HTTP status.",
                       {{"code", std::to_string(status)}})
      ->Increment();
  request_latency_->RecordMicrosSince(start);
}

WebResponse WebServer::Dispatch(const std::string& method, const std::string& target,
                                const std::string& accept) {
  const auto start = std::chrono::steady_clock::now();
  WebRequest req;
  req.accept = accept;
  const size_t q = target.find('?');
  req.path = target.substr(0, q);
  bool want_json = false;
  auto error = [&](int status, const std::string& msg) {
    WebResponse r;
    r.status = status;
    if (want_json) {
      r.content_type = kJsonType;
      r.body = DumpJson(Json{{"error", msg}, {"status", status}});
    } else {
      r.body = Layout("Error " + std::to_string(status),
                      "<p class=\"error\">" + HtmlEscape(msg) + "</p>\n");
    }
    return r;
  };
  WebResponse resp;
  [&] {
    if (method != "GET" && method != "HEAD") {
      resp = error(405, "only GET and HEAD are supported");
      return;
    }
    auto params = ParseQuery(q == std::string::npos ? "" : target.substr(q + 1));
    if (!params.ok()) {
      resp = error(400, "bad query string: " + params.status().message());
      return;
    }
    req.params = std::move(*params);
    if (req.Has("json")) {
      const std::string v = req.Param("json");
      if (v.empty() || v == "1" || v == "true") {
        want_json = true;
      } else if (v != "0" && v != "false") {
        resp = error(400, "bad value '" + v + "' for json (expected nothing, 1, true, 0 or false)");
        return;
      }
    }
    std::shared_ptr<const Page> page;
    {
      MutexLock l(&mu_);
      auto it = pages_.find(req.path);
      if (it != pages_.end()) page = it->second;
    }
    if (page == nullptr) {
      resp = error(404, "no page at '" + req.path + "'");
      return;
    }
    for (const auto& [k, v] : req.params) {
      if (k == "json") continue;
      bool known = false;
      for (const auto& p : page->options.params) known = known || p == k;
      if (!known) {
        std::string accepted;
        for (const auto& p : page->options.params) accepted += (accepted.empty() ? "" : ", ") + p;
        resp = error(400, "unknown query parameter '" + k + "' for " + req.path +
                              " (accepted: " + (accepted.empty() ? "json only" : accepted + ", json") +
                              ")");
        return;
      }
    }
    if (!want_json && !req.Has("json") && page->options.text &&
        accept.find("text/html") == std::string::npos) {
      resp = page->options.text(req);
      return;
    }
    Json doc = Json::object();
    Status s;
    try {
      s = page->handler(req, &doc);
    } catch (const std::exception& e) {
      s = Status::Internal(std::string("page handler failed: ") + e.what());
    }
    if (!s.ok()) {
      resp = error(HttpStatusFor(s), s.message());
      return;
    }
    if (want_json) {
      resp.content_type = kJsonType;
      resp.body = DumpJson(doc);
      return;
    }
    std::string body;
    try {
      body = page->options.renderer ? page->options.renderer(doc)
                                    : RenderJsonHtml(doc, page->options.links);
    } catch (const std::exception& e) {
      resp = error(500, std::string("page rendering failed: ") + e.what());
      return;
    }
    body += "<footer>This page as <a href=\"" + HtmlEscape(JsonHref(req)) + "\">JSON</a></footer>\n";
    resp.content_type = kHtmlType;
    resp.body = Layout(page->title, body);
  }();
  CountResponse(resp.status, start);
  return resp;
}

std::string WebServer::Layout(const std::string& title, const std::string& body) {
  std::string nav;
  {
    MutexLock l(&mu_);
    for (const auto& [path, page] : pages_) {
      if (!page->options.in_menu) continue;
      nav += "<a href=\"" + HtmlEscape(path) + "\">" + HtmlEscape(page->title) + "</a>";
    }
  }
  const std::string daemon = HtmlEscape(options_.daemon_name);
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + daemon + " - " +
         HtmlEscape(title) + "</title><style>" + kStyle + "</style></head><body>\n<nav><span " +
         "class=\"daemon\">" + daemon + "</span>" + nav + "</nav>\n<h1>" + HtmlEscape(title) +
         "</h1>\n" + body + "</body></html>\n";
}

}  // namespace ics::web
