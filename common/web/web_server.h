// WebServer: the debug HTTP server every daemon runs (Boost.Beast, HTTP/1.1),
// with a registry of pages that are served both as HTML and as JSON.
//
// Pages. RegisterPage(path, title, handler, options): for a request of
// `path`, the handler fills a JSON document (nlohmann::ordered_json) from the
// query parameters. The server answers
//   * JSON (application/json) when the query has `json` (`?json`, `?json=1`,
//     `?json=true`; `json=0|false` asks for HTML);
//   * otherwise HTML: the page's `renderer` if it has one, else the generic
//     rendering (html.h: tables for arrays of objects, link columns from
//     options.links), inside a common layout with a menu of all pages.
// Everything user-controlled is HTML-escaped; responses carry a strict
// Content-Security-Policy (no scripts) as a second line of defence.
// Status codes: 404 unknown path; 400 a malformed query, an unknown query
// parameter (each page lists the ones it accepts in options.params) or a
// handler returning INVALID_ARGUMENT; 404 for a handler's NOT_FOUND; 500 for
// other handler errors; 405 for methods other than GET/HEAD; 413/431 for a
// request over the size limits; 503 past max_connections.
//
// Common pages, registered by the constructor:
//   /         home: daemon name, version, start time, uptime, links to pages
//   /varz     every gflags flag (name, value, default, type, description)
//   /metrics  the registry in Prometheus text format 0.0.4 by default (what
//             scrapers fetch), HTML when the client accepts text/html (a
//             browser), JSON with ?json
//   /healthz  "OK" (200) or the health check's error (503); JSON with ?json
//
// Daemon wiring (see web_flags.h): build WebServerOptions with
// WebServerOptionsFromFlags(daemon_name, port_offset), give the daemon's
// MetricRegistry, register pages, Start(), report port() (log + a
// ` webserver=<port>` token in --port_file), and Stop() before destroying
// anything the page handlers or metric callbacks use.
//
// Transport: an Asio io_context run by num_threads threads; each connection
// is an async session (keep-alive) with a deadline per read/write
// (request_timeout_ms, also the keep-alive idle timeout), the request header
// capped at max_header_bytes and the body at max_body_bytes. Handlers run on
// those threads, so they must be thread-safe and should not block for long.
//
// HTTPS: with certificate_file set the server speaks only TLS (HTTP over a
// TLS stream; no plaintext port). Each connection starts with the TLS
// handshake, bounded by request_timeout_ms like a read; a failed or stalled
// handshake (a plaintext request, say) closes that connection only and is
// counted in webserver_tls_handshake_failures_total. Past the handshake a TLS
// session behaves exactly like a plaintext one (same limits, Host check,
// 503 past max_connections, deadlines). Start() fails, naming the file, when
// the certificate or key is missing, unreadable or invalid, or when the key
// does not match the certificate. Clients are not asked for certificates.
//
// Bind policy (common/rpc/bind_policy.h, as for the Thrift ports): without
// TLS, Start() refuses a bind_address that is not loopback unless
// allow_plaintext_remote (then a warning is logged).
//
// Lifecycle: construct, RegisterPage (any time, also after Start), Start()
// (binds synchronously; port 0 picks a free port), Stop() (idempotent, also
// run by the destructor: closes the listener and every connection and joins
// the threads; no handler runs after it returns). A stopped server cannot be
// restarted.
//
// Thread-safety: every public method is thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/metrics/metrics.h"
#include "common/util/mutex.h"
#include "common/util/status.h"
#include "common/web/html.h"

namespace ics::web {

class HttpTransport;

struct WebServerOptions {
  std::string daemon_name = "daemon";  // shown on every page
  std::string bind_address = "127.0.0.1";
  int port = 0;  // 0 picks a free port
  int num_threads = 2;
  int max_connections = 64;
  int request_timeout_ms = 10000;
  uint32_t max_header_bytes = 16 * 1024;
  uint64_t max_body_bytes = 64 * 1024;
  // Host header names served besides loopback and bind_address (host_check.h).
  std::vector<std::string> allowed_hosts;
  // HTTPS: PEM certificate chain and its PEM private key; both set = TLS
  // only, both empty = plaintext, one without the other = Start() fails.
  std::string certificate_file;
  std::string private_key_file;
  std::string tls_minimum_version = "tlsv1.2";  // tlsv1.2 or tlsv1.3
  std::string tls_cipher_list;                  // OpenSSL list for TLS 1.2; empty = defaults
  // Without TLS, allow a non-loopback bind_address (bind_policy.h).
  bool allow_plaintext_remote = false;

  bool tls() const { return !certificate_file.empty() || !private_key_file.empty(); }
};

// One HTTP request as a page handler sees it.
struct WebRequest {
  std::string path;                           // without the query
  std::map<std::string, std::string> params;  // decoded query parameters
  std::string accept;                         // the Accept header (may be empty)

  // The parameter's value, or `def` if absent.
  std::string Param(const std::string& name, const std::string& def = "") const;
  bool Has(const std::string& name) const { return params.count(name) != 0; }
};

// A response ready to send (also what Dispatch returns to tests).
struct WebResponse {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
};

// Fills `doc` for a request. Return InvalidArgument for a bad parameter
// value (-> 400) or NotFound for a missing object (-> 404).
using PageHandler = std::function<Status(const WebRequest& req, nlohmann::ordered_json* doc)>;
// Produces the HTML body (inside the common layout) from the handler's doc.
// Must escape what it prints (HtmlEscape / RenderJsonHtml).
using PageRenderer = std::function<std::string(const nlohmann::ordered_json& doc)>;
// Produces a non-HTML default representation (e.g. Prometheus text).
using TextRenderer = std::function<WebResponse(const WebRequest& req)>;

struct PageOptions {
  std::vector<std::string> params;  // accepted query parameters besides `json`
  std::vector<LinkRule> links;      // link columns for the generic renderer
  PageRenderer renderer;            // optional custom HTML body
  // Optional: served instead of HTML when the client does not accept
  // text/html and did not ask for JSON (used by /metrics).
  TextRenderer text;
  bool in_menu = true;  // listed in the menu and on the home page
};

class WebServer {
 public:
  // `metrics` (may be null; not owned; must outlive the server) is served on
  // /metrics; the server also records its own request counts and latencies
  // there.
  WebServer(WebServerOptions options, metrics::MetricRegistry* metrics);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Registers (or replaces) the page at `path` (must start with '/').
  void RegisterPage(const std::string& path, const std::string& title, PageHandler handler,
                    PageOptions options = {}) EXCLUDES(mu_);
  // Health check behind /healthz (default: always healthy).
  void SetHealthCheck(std::function<Status()> check) EXCLUDES(mu_);

  [[nodiscard]] Status Start() EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);
  // The bound port (after a successful Start), else 0.
  int port() const;
  const WebServerOptions& options() const { return options_; }

  // Answers one request without a socket (method, target "/path?query",
  // Accept header). The network sessions call this too.
  WebResponse Dispatch(const std::string& method, const std::string& target,
                       const std::string& accept) EXCLUDES(mu_);

 private:
  struct Page {
    std::string title;
    PageHandler handler;
    PageOptions options;
  };

  void RegisterCommonPages();
  WebResponse RenderPage(const std::string& path, const Page& page, const WebRequest& req);
  std::string Layout(const std::string& title, const std::string& body) EXCLUDES(mu_);
  void CountResponse(int status, std::chrono::steady_clock::time_point start);

  const WebServerOptions options_;
  metrics::MetricRegistry* const metrics_;
  metrics::Histogram* request_latency_ = nullptr;
  const std::chrono::system_clock::time_point start_time_;
  const std::chrono::steady_clock::time_point start_steady_;

  mutable Mutex mu_;
  std::map<std::string, std::shared_ptr<const Page>> pages_ GUARDED_BY(mu_);
  std::function<Status()> health_check_ GUARDED_BY(mu_);
  std::unique_ptr<HttpTransport> transport_ GUARDED_BY(mu_);
  std::atomic<int> port_{0};
  // Live connections (also the webserver_open_connections gauge).
  const std::shared_ptr<std::atomic<int>> open_connections_ =
      std::make_shared<std::atomic<int>>(0);
  // Failed TLS handshakes (webserver_tls_handshake_failures_total).
  const std::shared_ptr<std::atomic<int64_t>> tls_handshake_failures_ =
      std::make_shared<std::atomic<int64_t>>(0);
  bool stopped_ GUARDED_BY(mu_) = false;
};

// The build's version string (shown on / and by --version-like pages).
const char* BuildVersion();

}  // namespace ics::web
