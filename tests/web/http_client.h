// A small blocking HTTP/1.1 client for tests of the debug web pages
// (Boost.Beast underneath, kept out of this header).
//
//   auto r = ics::webtest::HttpGet(port, "/topics?json");
//   ASSERT_TRUE(r.ok()) << r.status().ToString();
//   EXPECT_EQ(r->status, 200);
//   auto doc = nlohmann::ordered_json::parse(r->body);
//
// One connection per call (Connection: close), loopback by default, with a
// deadline for connect + write + read. SendRaw writes arbitrary bytes and
// returns whatever the server answered, for malformed-request tests.
//
// HTTPS: set HttpRequestOptions::tls_ca_file (a PEM bundle); the client then
// runs a TLS handshake first and refuses a server whose certificate that CA
// did not sign or that does not name options.host (an address or a name).
// A refused or failed handshake is a NetworkError saying "handshake".
//
// Thread-safety: free functions; safe to call from several threads.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "common/util/result.h"

namespace ics::webtest {

struct HttpResponse {
  int status = 0;
  std::string content_type;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

struct HttpRequestOptions {
  std::string host = "127.0.0.1";
  std::string method = "GET";
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. {"Accept", "text/html"}
  std::chrono::milliseconds timeout{10000};
  std::string tls_ca_file;  // non-empty: HTTPS, trusting this CA bundle only
};

Result<HttpResponse> HttpGet(int port, const std::string& target,
                             const HttpRequestOptions& options = {});

// Convenience: GET with "Accept: text/html" (what a browser sends).
Result<HttpResponse> HttpGetHtml(int port, const std::string& target);

// Sends `bytes` as is, half-closes (unless half_close is false: then the
// connection stays open like a slow client's), and returns everything the
// server wrote until it closed the connection or the timeout passed.
Result<std::string> SendRaw(int port, const std::string& bytes,
                            std::chrono::milliseconds timeout = std::chrono::milliseconds(10000),
                            bool half_close = true);

}  // namespace ics::webtest
