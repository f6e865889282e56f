#include "tests/web/http_client.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace ics::webtest {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Asynchronous operations driven by a private io_context: beast's
// tcp_stream deadlines apply to asynchronous operations only.

Result<HttpResponse> HttpGet(int port, const std::string& target,
                             const HttpRequestOptions& options) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (ec) return Status::InvalidArgument("bad host " + options.host);

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

  stream.expires_after(options.timeout);
  stream.async_connect(tcp::endpoint(address, static_cast<uint16_t>(port)), [&](beast::error_code e) {
    if (e) {
      failed = "connect: " + e.message();
      return;
    }
    http::async_write(stream, req, [&](beast::error_code e2, size_t) {
      if (e2) {
        failed = "write: " + e2.message();
        return;
      }
      http::async_read(stream, buffer, parser, [&](beast::error_code e3, size_t) {
        if (e3) failed = "read: " + e3.message();
      });
    });
  });
  ioc.run();
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
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
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
