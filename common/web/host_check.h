// DNS-rebinding defence for the debug web pages: a request is served only
// when its Host header names this server by a name the operator expects.
//
// Allowed: loopback names and addresses ("localhost", 127.0.0.0/8, "::1"),
// the address the server binds (unless a wildcard), and the names in
// `allowed_hosts` (--webserver_allowed_hosts), each with any port. A request
// without a Host header (HTTP/1.0 tools) is allowed: browsers always send one,
// and the attack needs a browser. Matching ignores ASCII case.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ics::web {

// The host part of a Host header value ("[::1]:80" -> "::1", "a:1" -> "a");
// empty for an unterminated '['.
std::string HostPart(std::string_view host_header);

bool HostAllowed(std::string_view host_header, const std::string& bind_address,
                 const std::vector<std::string>& allowed_hosts);

}  // namespace ics::web
