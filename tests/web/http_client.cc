#include "tests/web/http_client.h"

#include <type_traits>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace ics::webtest {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Asynchronous operations driven by a private io_context: beast's
// tcp_stream deadlines apply to asynchronous operations only.

namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Connect [+ TLS handshake] + write + read on a private io_context; returns
// what failed, empty on success.
template <class Stream>
std::string Exchange(asio::io_context& ioc, Stream& stream, const tcp::endpoint& endpoint,
                     http::request<http::empty_body>& req, beast::flat_buffer& buffer,
                     http::response_parser<http::string_body>& parser,
                     std::chrono::milliseconds timeout) {
  std::string failed;
  auto write_and_read = [&] {
    http::async_write(stream, req, [&](beast::error_code e2, size_t) {
      if (e2) {
        failed = "write: " + e2.message();
        return;
      }
      http::async_read(stream, buffer, parser, [&](beast::error_code e3, size_t) {
        if (e3) failed = "read: " + e3.message();
      });
    });
  };
  beast::get_lowest_layer(stream).expires_after(timeout);
  beast::get_lowest_layer(stream).async_connect(endpoint, [&](beast::error_code e) {
    if (e) {
      failed = "connect: " + e.message();
      return;
    }
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      stream.async_handshake(asio::ssl::stream_base::client, [&](beast::error_code e1) {
        if (e1) {
          failed = "TLS handshake: " + e1.message();
          return;
        }
        write_and_read();
      });
    } else {
      write_and_read();
    }
  });
  ioc.run();
  return failed;
}

}  // namespace

Result<HttpResponse> HttpGet(int port, const std::string& target,
                             const HttpRequestOptions& options) {
  asio::io_context ioc;
  beast::error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (ec) return Status::InvalidArgument("bad host " + options.host);
  const tcp::endpoint endpoint(address, static_cast<uint16_t>(port));

  http::request<http::empty_body> req;
  req.version(11);
  req.target(target);
  req.method_string(options.method);
  req.set(http::field::host, options.host + ":" + std::to_string(port));
  req.set(http::field::connection, "close");
  for (const auto& [k, v] : options.headers) req.set(k, v);

  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1ull << 30);
  if (options.method == "HEAD") parser.skip(true);

  std::string failed;
  if (options.tls_ca_file.empty()) {
    beast::tcp_stream stream(ioc);
    failed = Exchange(ioc, stream, endpoint, req, buffer, parser, options.timeout);
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  } else {
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.load_verify_file(options.tls_ca_file, ec);
    if (ec) return Status::InvalidArgument("CA file " + options.tls_ca_file + ": " + ec.message());
    ctx.set_verify_mode(asio::ssl::verify_peer);
    TlsStream stream(ioc, ctx);
    stream.set_verify_callback(asio::ssl::host_name_verification(options.host));
    failed = Exchange(ioc, stream, endpoint, req, buffer, parser, options.timeout);
    stream.next_layer().socket().shutdown(tcp::socket::shutdown_both, ec);
  }
  if (!failed.empty()) return Status::NetworkError(failed);
  if (!parser.is_done()) return Status::NetworkError("incomplete response");

  auto& res = parser.get();
  HttpResponse out;
  out.status = static_cast<int>(res.result_int());
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers[name] = std::string(f.value());
  }
  out.content_type = out.headers["content-type"];
  out.body = std::move(res.body());
  return out;
}

Result<HttpResponse> HttpGetHtml(int port, const std::string& target) {
  HttpRequestOptions o;
  o.headers = {{"Accept", "text/html,application/xhtml+xml,*/*;q=0.8"}};
  return HttpGet(port, target, o);
}

Result<std::string> SendRaw(int port, const std::string& bytes, std::chrono::milliseconds timeout,
                            bool half_close) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  std::string out;
  std::string failed;
  char buf[4096];
  std::function<void()> read_more = [&] {
    stream.async_read_some(asio::buffer(buf), [&](beast::error_code e, size_t n) {
      out.append(buf, n);
      if (!e) read_more();  // until the server closes or the deadline passes
    });
  };
  stream.expires_after(timeout);
  stream.async_connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<uint16_t>(port)),
      [&](beast::error_code e) {
        if (e) {
          failed = "connect: " + e.message();
          return;
        }
        asio::async_write(stream, asio::buffer(bytes), [&](beast::error_code, size_t) {
          // The server may answer and close before reading everything.
          beast::error_code ignored;
          if (half_close) stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
        });
        read_more();
      });
  ioc.run();
  if (!failed.empty()) return Status::NetworkError(failed);
  return out;
}

}  // namespace ics::webtest
