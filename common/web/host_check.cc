#include "common/web/host_check.h"
#include "common/util/ascii.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace ics::web {

namespace {

bool IsLoopbackName(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  in_addr a{};
  return inet_pton(AF_INET, host.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

}  // namespace

std::string HostPart(std::string_view h) {
  if (!h.empty() && h.front() == '[') {
    const size_t close = h.find(']');
    if (close == std::string_view::npos) return "";  // malformed: never allowed
    return AsciiLower(h.substr(1, close - 1));
  }
  const size_t colon = h.find(':');
  // More than one ':' without brackets is a bare IPv6 address.
  if (colon != std::string_view::npos && h.find(':', colon + 1) == std::string_view::npos) {
    h = h.substr(0, colon);
  }
  if (!h.empty() && h.back() == '.') h.remove_suffix(1);  // "localhost."
  return AsciiLower(h);
}

bool HostAllowed(std::string_view host_header, const std::string& bind_address,
                 const std::vector<std::string>& allowed_hosts) {
  if (host_header.empty()) return true;
  const std::string host = HostPart(host_header);
  if (host.empty()) return false;
  if (IsLoopbackName(host)) return true;
  const std::string bind = AsciiLower(bind_address);
  if (!bind.empty() && bind != "0.0.0.0" && bind != "::" && host == bind) return true;
  for (const std::string& a : allowed_hosts) {
    if (host == AsciiLower(a)) return true;
  }
  return false;
}

}  // namespace ics::web
