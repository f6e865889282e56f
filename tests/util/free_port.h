// UnusedLoopbackPort: a loopback TCP port that was free a moment ago, for a
// server started later on a port the test must know first (0 if none).
// RefusingLoopbackPort: a loopback port held bound but never listening, so
// connections to it are refused and no other process can take it meanwhile
// (for "nobody listens there" tests; a released port may be reused at once
// by tests running in parallel).
//
// Thread-safety: stateless.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ics::testing {

inline int UnusedLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

class RefusingLoopbackPort {
 public:
  RefusingLoopbackPort() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (fd_ >= 0 && bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
      port_ = ntohs(a.sin_port);
    }
  }
  ~RefusingLoopbackPort() {
    if (fd_ >= 0) close(fd_);
  }
  RefusingLoopbackPort(const RefusingLoopbackPort&) = delete;
  RefusingLoopbackPort& operator=(const RefusingLoopbackPort&) = delete;
  int port() const { return port_; }  // 0 if no port could be bound

 private:
  const int fd_;
  int port_ = 0;
};

}  // namespace ics::testing
