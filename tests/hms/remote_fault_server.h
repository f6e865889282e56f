// FaultServer: a TCP peer on loopback for the remote metastore's transport
// tests. It speaks no Thrift: it accepts connections, reads the first bytes
// a client sends (one request), counts the request, and then either closes
// the connection without replying (kCloseAfterRequest: the reply is lost)
// or keeps it open and never replies (kSilent: the client times out). This
// is how a server that crashes mid-call or hangs looks from the client.
//
// Thread-safety: requests() may be called from any thread; Start/Stop from
// the owning thread. The destructor stops it.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace ics::catalog::testing {

class FaultServer {
 public:
  enum class Mode { kCloseAfterRequest, kSilent };

  explicit FaultServer(Mode mode) : mode_(mode) {}
  ~FaultServer() { Stop(); }
  FaultServer(const FaultServer&) = delete;
  FaultServer& operator=(const FaultServer&) = delete;

  // Binds 127.0.0.1:0 and starts accepting. Returns false on failure.
  bool Start() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return false;
    if (::listen(listen_fd_, 64) != 0) return false;
    socklen_t len = sizeof(addr);
    if (::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return false;
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Loop(); });
    return true;
  }

  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
    std::lock_guard<std::mutex> l(mu_);
    for (int fd : open_) ::close(fd);
    open_.clear();
  }

  int port() const { return port_; }
  // Requests received (one per connection that sent bytes).
  int requests() const { return requests_.load(); }

 private:
  void Loop() {
    std::vector<int> pending;  // accepted, request not read yet
    while (!stop_) {
      std::vector<pollfd> fds;
      fds.push_back({listen_fd_, POLLIN, 0});
      for (int fd : pending) fds.push_back({fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd >= 0) pending.push_back(fd);
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        const int fd = fds[i].fd;
        char buf[4096];
        const ssize_t n = ::read(fd, buf, sizeof(buf));
        pending.erase(std::find(pending.begin(), pending.end(), fd));
        if (n > 0) ++requests_;
        if (n > 0 && mode_ == Mode::kSilent) {
          std::lock_guard<std::mutex> l(mu_);
          open_.push_back(fd);
        } else {
          ::close(fd);
        }
      }
    }
    for (int fd : pending) ::close(fd);
  }

  const Mode mode_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
  std::mutex mu_;
  std::vector<int> open_;  // kSilent: connections held open
};

// A loopback port nobody listens on (bound, then released).
inline int UnusedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace ics::catalog::testing
