#include "common/web/http_transport.h"

#include <optional>
#include <type_traits>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <glog/logging.h>

#include "common/rpc/bind_policy.h"
#include "common/web/host_check.h"
#include "common/web/web_tls.h"

namespace ics::web {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// What every session of one transport shares. Sessions (owned by pending
// handlers in ioc) use `active`, `handshake_failures` and `tls` even while
// the io_context is being destroyed, so those are declared before it.
struct HttpTransport::State {
  const WebServerOptions* options = nullptr;
  const DispatchFn* dispatch = nullptr;
  std::shared_ptr<std::atomic<int>> active;
  std::shared_ptr<std::atomic<int64_t>> handshake_failures;
  std::unique_ptr<asio::ssl::context> tls;  // null: plaintext
  asio::io_context ioc;
  std::optional<tcp::acceptor> acceptor;
};

namespace {

using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// One connection: [TLS handshake,] then requests until close. The stream
// type is the only difference between HTTP and HTTPS sessions: the TLS one
// adds the handshake before the first read and a close_notify before the
// socket is closed; everything in between is shared.
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

 public:
  template <class... StreamArgs>
  Session(const HttpTransport::State& st, bool overloaded, StreamArgs&&... stream_args)
      : stream_(std::forward<StreamArgs>(stream_args)...), st_(st), overloaded_(overloaded) {
    st_.active->fetch_add(1);
  }
  ~Session() { st_.active->fetch_sub(1); }

  void Run() {
    // Start on the session's strand.
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::Begin, this->shared_from_this()));
  }

 private:
  const WebServerOptions& options() const { return *st_.options; }
  beast::tcp_stream& tcp_layer() { return beast::get_lowest_layer(stream_); }
  void ArmDeadline() {
    tcp_layer().expires_after(std::chrono::milliseconds(options().request_timeout_ms));
  }

  void Begin() {
    if constexpr (kTls) {
      ArmDeadline();  // a stalled handshake ends like a stalled read
      stream_.async_handshake(
          asio::ssl::stream_base::server,
          beast::bind_front_handler(&Session::OnHandshake, this->shared_from_this()));
    } else {
      Read();
    }
  }

  void OnHandshake(beast::error_code ec) {
    if (ec) {
      if (ec != asio::error::operation_aborted) {
        st_.handshake_failures->fetch_add(1);
        VLOG(1) << options().daemon_name << " web server: TLS handshake failed: " << ec.message();
      }
      return CloseSocket();
    }
    tls_up_ = true;
    Read();
  }

  void Read() {
    parser_.emplace();
    parser_->header_limit(options().max_header_bytes);
    parser_->body_limit(options().max_body_bytes);
    ArmDeadline();
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, this->shared_from_this()));
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
    if (!HostAllowed(host_header, options().bind_address, options().allowed_hosts)) {
      return Reply(421,
                   "this server does not answer to host '" + HostPart(host_header) +
                       "' (add it to --webserver_allowed_hosts)\n",
                   version, true);
    }
    head_ = req.method() == http::verb::head;
    WebResponse r =
        (*st_.dispatch)("GET", std::string(req.target()), std::string(req[http::field::accept]));
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
    ArmDeadline();
    http::async_write(stream_, res_,
                      beast::bind_front_handler(&Session::OnWrite, this->shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t) {
    if (ec) return CloseSocket();
    if (close_after_write_) return Close();
    head_ = false;
    Read();
  }

  // Ends the connection: over TLS with a close_notify first (bounded by the
  // deadline), then the socket.
  void Close() {
    if constexpr (kTls) {
      if (tls_up_) {
        tls_up_ = false;
        ArmDeadline();
        stream_.async_shutdown(
            beast::bind_front_handler(&Session::OnShutdown, this->shared_from_this()));
        return;
      }
    }
    CloseSocket();
  }

  void OnShutdown(beast::error_code) { CloseSocket(); }

  void CloseSocket() {
    beast::error_code ignored;
    tcp_layer().socket().shutdown(tcp::socket::shutdown_send, ignored);
    tcp_layer().socket().close(ignored);
  }

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
  const HttpTransport::State& st_;
  const bool overloaded_;
  bool tls_up_ = false;  // handshake done, no close_notify sent yet
  bool head_ = false;
  bool close_after_write_ = false;
};

void Accept(HttpTransport::State* st) {
  st->acceptor->async_accept(asio::make_strand(st->ioc), [st](beast::error_code ec,
                                                              tcp::socket s) {
    if (ec == asio::error::operation_aborted || !st->acceptor->is_open()) return;
    if (!ec) {
      const bool overloaded = st->active->load() >= st->options->max_connections;
      if (st->tls != nullptr) {
        std::make_shared<Session<TlsStream>>(*st, overloaded, std::move(s), *st->tls)->Run();
      } else {
        std::make_shared<Session<PlainStream>>(*st, overloaded, std::move(s))->Run();
      }
    }
    Accept(st);
  });
}

}  // namespace

HttpTransport::HttpTransport(const WebServerOptions& options, DispatchFn dispatch,
                             std::shared_ptr<std::atomic<int>> open_connections,
                             std::shared_ptr<std::atomic<int64_t>> tls_handshake_failures)
    : options_(options),
      dispatch_(std::move(dispatch)),
      open_connections_(std::move(open_connections)),
      tls_handshake_failures_(std::move(tls_handshake_failures)) {}

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
  const std::string server = options_.daemon_name + " web server";
  const Status bind_allowed = CheckBindAllowed(server, options_.bind_address, options_.tls(),
                                               options_.allow_plaintext_remote);
  if (!bind_allowed.ok()) {
    // Without the "<server>: " prefix: like every error here, the caller
    // says which server failed.
    std::string why = bind_allowed.message();
    if (why.rfind(server + ": ", 0) == 0) why.erase(0, server.size() + 2);
    return Status::InvalidArgument(why +
                                   " (the web server's TLS flags are --webserver_certificate_file "
                                   "and --webserver_private_key_file)");
  }
  auto st = std::make_unique<State>();
  st->options = &options_;
  st->dispatch = &dispatch_;
  st->active = open_connections_;
  st->handshake_failures = tls_handshake_failures_;
  if (options_.tls()) {
    try {
      ICS_ASSIGN_OR_RETURN(st->tls, MakeWebTlsContext(options_));
    } catch (const std::exception& e) {  // Asio reports context failures by throwing
      return Status::InvalidArgument(std::string("TLS: ") + e.what());
    }
  }
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
  Accept(state_.get());
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
