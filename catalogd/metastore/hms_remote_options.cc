#include "catalogd/metastore/hms_remote_options.h"

#include <charconv>
#include <limits>

namespace ics::catalog {
namespace {

Result<int64_t> ParseInt(std::string_view text, const std::string& what, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return Status::InvalidArgument(what + " '" + std::string(text) + "' is not an integer");
  }
  if (v < lo || v > hi) {
    return Status::InvalidArgument(what + " " + std::to_string(v) + " is out of range [" +
                                   std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return v;
}

Status ApplyParam(std::string_view key, std::string_view value, RemoteMetastoreOptions* o) {
  struct Param {
    std::string_view key;
    int* field;
    int64_t lo;
    int64_t hi;
  };
  const Param params[] = {
      {"pool_size", &o->pool_size, 1, 1024},
      {"connect_timeout_ms", &o->connect_timeout_ms, 1, 3600000},
      {"rpc_timeout_ms", &o->rpc_timeout_ms, 1, 3600000},
      {"pool_wait_ms", &o->pool_wait_ms, 0, 3600000},
      {"retries", &o->retries, 0, 100},
      {"retry_backoff_ms", &o->retry_backoff_ms, 0, 60000},
  };
  if (key == "ssl") {
    if (value != "true" && value != "false") {
      return Status::InvalidArgument("metastore URI parameter ssl must be true or false, not '" +
                                     std::string(value) + "'");
    }
    o->ssl = value == "true";
    return Status::OK();
  }
  for (const Param& p : params) {
    if (p.key != key) continue;
    ICS_ASSIGN_OR_RETURN(int64_t v, ParseInt(value, "metastore URI parameter " + std::string(key),
                                             p.lo, p.hi));
    *p.field = static_cast<int>(v);
    return Status::OK();
  }
  std::string known;
  for (const Param& p : params) known += (known.empty() ? "" : ", ") + std::string(p.key);
  known += ", ssl";
  return Status::InvalidArgument("unknown metastore URI parameter '" + std::string(key) +
                                 "' (known: " + known + ")");
}

}  // namespace

std::string RemoteMetastoreOptions::Address() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool IsThriftMetastoreUri(std::string_view uri) {
  return uri.substr(0, kThriftMetastoreScheme.size()) == kThriftMetastoreScheme;
}

Result<RemoteMetastoreOptions> ParseThriftMetastoreUri(std::string_view uri) {
  const std::string whole(uri);
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("invalid metastore URI '" + whole + "': " + why +
                                   " (expected thrift://host:port[?key=value&...])");
  };
  if (!IsThriftMetastoreUri(uri)) return bad("the scheme must be thrift://");
  std::string_view rest = uri.substr(kThriftMetastoreScheme.size());
  std::string_view query;
  if (size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);  // "thrift://h:1/"
  if (rest.find('/') != std::string_view::npos) return bad("a path is not allowed");
  if (rest.find('@') != std::string_view::npos) return bad("user info is not allowed");

  RemoteMetastoreOptions o;
  std::string_view port_text;
  if (!rest.empty() && rest.front() == '[') {  // [IPv6]:port
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return bad("unterminated '[' in the host");
    o.host = std::string(rest.substr(1, close - 1));
    std::string_view after = rest.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return bad("unexpected text after ']'");
      port_text = after.substr(1);
      if (port_text.empty()) return bad("empty port");
    }
  } else {
    size_t colon = rest.find(':');
    o.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = rest.substr(colon + 1);
      if (port_text.empty()) return bad("empty port");
    }
  }
  if (o.host.empty()) return bad("the host is empty");
  for (char c : o.host) {
    if (c <= ' ' || c == 0x7f || c == '[' || c == ']' || c == '%' || c == '?' || c == '#') {
      return bad("the host contains an invalid character");
    }
  }
  if (!port_text.empty()) {
    auto port = ParseInt(port_text, "port", 1, 65535);
    if (!port.ok()) return bad(port.status().message());
    o.port = static_cast<int>(*port);
  }
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view kv = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (kv.empty()) continue;
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos) return bad("parameter '" + std::string(kv) + "' has no value");
    Status s = ApplyParam(kv.substr(0, eq), kv.substr(eq + 1), &o);
    if (!s.ok()) return bad(s.message());
  }
  return o;
}

}  // namespace ics::catalog
