// Raw loopback sockets for tests that play a hostile peer: connect, send
// bytes the way a client library never would, read until the server closes.
//
// Thread-safety: stateless functions.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace ics::hostile {

// A socket connected to 127.0.0.1:port with a receive timeout (fd < 0 on
// failure).
inline int ConnectLoopback(int port, int recv_timeout_s = 10) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  timeval tv{recv_timeout_s, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

// Sends all of `bytes` unless the peer hangs up first; false if it did.
inline bool SendAll(int fd, const std::string& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Everything the peer sends until it closes (or the receive timeout passes).
inline std::string ReadUntilClosed(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// Connects, sends `bytes`, ends the stream and reads until the peer closes.
// False only if it could not connect (the server is gone or not accepting).
inline bool SendAndDrain(int port, const std::string& bytes, int recv_timeout_s = 20) {
  const int fd = ConnectLoopback(port, recv_timeout_s);
  if (fd < 0) return false;
  SendAll(fd, bytes);  // a server may close early: that is an answer too
  shutdown(fd, SHUT_WR);
  ReadUntilClosed(fd);
  close(fd);
  return true;
}

}  // namespace ics::hostile
