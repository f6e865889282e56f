#include "common/rpc/bind_policy.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <glog/logging.h>

namespace ics {

namespace {

bool IsLoopbackAddress(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return true;
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) return in6->sin6_addr.s6_addr[12] == 127;
  }
  return false;
}

}  // namespace

bool IsLoopbackHost(const std::string& host) {
  if (host.empty() || host == "0.0.0.0" || host == "::" || host == "*") return false;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  if (::getaddrinfo(host.c_str(), nullptr, &hints, &res) != 0 || res == nullptr) return false;
  bool all_loopback = true;
  for (const addrinfo* a = res; a != nullptr; a = a->ai_next) {
    if (!IsLoopbackAddress(a->ai_addr)) all_loopback = false;
  }
  ::freeaddrinfo(res);
  return all_loopback;
}

Status CheckBindAllowed(const std::string& server, const std::string& host, bool tls,
                        bool allow_plaintext_remote) {
  if (tls || IsLoopbackHost(host)) return Status::OK();
  const std::string where = host.empty() ? "every interface" : "'" + host + "'";
  if (!allow_plaintext_remote) {
    return Status::InvalidArgument(
        server + ": refusing to listen on " + where +
        " in plaintext: without TLS (--ssl_server_certificate, --ssl_private_key) only loopback "
        "addresses are served; pass --insecure_allow_plaintext_remote to serve " + where +
        " unencrypted and unauthenticated anyway");
  }
  LOG(WARNING) << server << ": listening on " << where
               << " in PLAINTEXT (--insecure_allow_plaintext_remote): anyone who can reach this "
                  "port can read and change the catalog";
  return Status::OK();
}

std::string DefaultBindHost(bool tls) { return tls ? "0.0.0.0" : "127.0.0.1"; }

}  // namespace ics
