#include "common/web/http_transport.h"

#include <optional>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <glog/logging.h>

#include "common/web/host_check.h"

namespace ics::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Sessions (owned by pending handlers in ioc) decrement the shared `active`
// counter even while the io_context is being destroyed.
struct HttpTransport::State {
  std::shared_ptr<std::atomic<int>> active;
  asio::io_context ioc;
  std::optional<tcp::acceptor> acceptor;
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, const WebServerOptions& options,
          const HttpTransport::DispatchFn& dispatch, std::atomic<int>* active, bool overloaded)
      : stream_(std::move(socket)),
        options_(options),
        dispatch_(dispatch),
        active_(active),
        overloaded_(overloaded) {
    active_->fetch_add(1);
  }
  ~Session() { active_->fetch_sub(1); }

  void Run() {
    // Start on the session's strand.
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::Read, shared_from_this()));
  }

 private:
  void Read() {
    parser_.emplace();
    parser_->header_limit(options_.max_header_bytes);
    parser_->body_limit(options_.max_body_bytes);
    stream_.expires_after(std::chrono::milliseconds(options_.request_timeout_ms));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == http::error::partial_message) {
      return Close();
    }
    if (ec == http::error::body_limit) return Reply(413, "request body too large\n", 11, true);
    if (ec == http::error::header_limit) {
      return Reply(431, "request header too large\n", 11, true);
    }
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category()) {
      return Reply(400, "malformed HTTP request: " + ec.message() + "\n", 11, true);
    }
    if (ec) return Close();  // connection reset and the like

    const auto& req = parser_->get();
    const int version = req.version();
    const bool close = !req.keep_alive() || overloaded_;
    if (overloaded_) return Reply(503, "too many connections\n", version, true);
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      return Reply(405, "only GET and HEAD are supported\n", version, true);
    }
    const std::string host_header(req[http::field::host]);
    if (!HostAllowed(host_header, options_.bind_address, options_.allowed_hosts)) {
      return Reply(421,
                   "this server does not answer to host '" + HostPart(host_header) +
                       "' (add it to --webserver_allowed_hosts)\n",
                   version, true);
    }
    head_ = req.method() == http::verb::head;
    WebResponse r = dispatch_("GET", std::string(req.target()), std::string(req[http::field::accept]));
    Send(r.status, r.content_type, std::move(r.body), version, close);
  }

  void Reply(int status, std::string text, int version, bool close) {
    Send(status, "text/plain; charset=utf-8", std::move(text), version, close);
  }

  void Send(int status, const std::string& content_type, std::string body, int version,
            bool close) {
    res_ = {};
    res_.version(version);
    res_.result(static_cast<unsigned>(status));
    res_.set(http::field::server, std::string("ics-web/") + BuildVersion());
    res_.set(http::field::content_type, content_type);
    res_.set(http::field::cache_control, "no-store");
    res_.set("X-Content-Type-Options", "nosniff");
    res_.set("Content-Security-Policy",
             "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
             "frame-ancestors 'none'");
    if (status == 405) res_.set(http::field::allow, "GET, HEAD");
    const size_t size = body.size();
    if (!head_) res_.body() = std::move(body);
    res_.content_length(size);
    res_.keep_alive(!close);
    close_after_write_ = close;
    stream_.expires_after(std::chrono::milliseconds(options_.request_timeout_ms));
    http::async_write(stream_, res_,
                      beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t) {
    if (ec || close_after_write_) return Close();
    head_ = false;
    Read();
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
  const WebServerOptions& options_;
  const HttpTransport::DispatchFn& dispatch_;
  std::atomic<int>* const active_;
  const bool overloaded_;
  bool head_ = false;
  bool close_after_write_ = false;
};

void Accept(HttpTransport::State* st, const WebServerOptions* options,
            const HttpTransport::DispatchFn* dispatch) {
  st->acceptor->async_accept(
      asio::make_strand(st->ioc), [st, options, dispatch](beast::error_code ec, tcp::socket s) {
        if (ec == asio::error::operation_aborted || !st->acceptor->is_open()) return;
        if (!ec) {
          const bool overloaded = st->active->load() >= options->max_connections;
          std::make_shared<Session>(std::move(s), *options, *dispatch, st->active.get(), overloaded)
              ->Run();
        }
        Accept(st, options, dispatch);
      });
}

}  // namespace

HttpTransport::HttpTransport(const WebServerOptions& options, DispatchFn dispatch,
                             std::shared_ptr<std::atomic<int>> open_connections)
    : options_(options),
      dispatch_(std::move(dispatch)),
      open_connections_(std::move(open_connections)) {}

HttpTransport::~HttpTransport() { Stop(); }

Status HttpTransport::Start() {
  if (state_ != nullptr) return Status::Internal("web server already started");
  beast::error_code ec;
  const auto address = asio::ip::make_address(options_.bind_address, ec);
  if (ec) {
    return Status::InvalidArgument("bad web server bind address '" + options_.bind_address +
                                   "' (an IPv4 or IPv6 address is expected)");
  }
  if (options_.port < 0 || options_.port > 65535) {
    return Status::InvalidArgument("bad web server port " + std::to_string(options_.port));
  }
  auto st = std::make_unique<State>();
  st->active = open_connections_;
  const tcp::endpoint ep(address, static_cast<uint16_t>(options_.port));
  const std::string where = options_.bind_address + ":" + std::to_string(options_.port);
  tcp::acceptor& acc = st->acceptor.emplace(st->ioc);
  if (acc.open(ep.protocol(), ec); ec) return Status::IoError("web server socket: " + ec.message());
  acc.set_option(asio::socket_base::reuse_address(true), ec);
  if (acc.bind(ep, ec); ec) {
    return Status::IoError("cannot bind the web server to " + where + ": " + ec.message());
  }
  if (acc.listen(asio::socket_base::max_listen_connections, ec); ec) {
    return Status::IoError("cannot listen on " + where + ": " + ec.message());
  }
  port_ = acc.local_endpoint().port();
  state_ = std::move(st);
  Accept(state_.get(), &options_, &dispatch_);
  for (int i = 0; i < std::max(1, options_.num_threads); ++i) {
    threads_.emplace_back([this] { state_->ioc.run(); });
  }
  return Status::OK();
}

void HttpTransport::Stop() {
  if (state_ == nullptr) return;
  State* st = state_.get();
  st->ioc.stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  // Destroying the io_context destroys the pending handlers and with them
  // every session and its socket.
  st->acceptor.reset();
  state_.reset();
}

}  // namespace ics::web
