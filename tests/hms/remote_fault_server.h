// Loopback peers for the remote metastore's transport tests.
//
// FaultServer: a TCP peer for the remote metastore's transport tests. It speaks no Thrift: it accepts connections, reads the first bytes
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

// FaultProxy: forwards loopback connections to a real server and, once,
// swallows the reply to the n-th request it forwarded (counting from 1
// across connections) and closes that client connection: the server did
// the work, the client never hears of it. One request is one burst of bytes
// from the client (a Thrift client flushes each call in one write).
class FaultProxy {
 public:
  FaultProxy(int target_port, int cut_reply_of_request)
      : target_port_(target_port), cut_(cut_reply_of_request) {}
  ~FaultProxy() { Stop(); }
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  bool Start() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return false;
    if (::listen(listen_fd_, 64) != 0) return false;
    socklen_t len = sizeof(addr);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Loop(); });
    return true;
  }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
  }
  int port() const { return port_; }
  int requests() const { return requests_.load(); }
  bool cut_done() const { return cut_done_.load(); }

 private:
  struct Pair {
    int client;
    int upstream;
    bool cut_next_reply = false;
  };

  int Connect() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(target_port_));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }

  static bool Forward(int from, int to) {
    char buf[65536];
    const ssize_t n = ::read(from, buf, sizeof(buf));
    if (n <= 0) return false;
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(to, buf + off, n - off);
      if (w <= 0) return false;
      off += w;
    }
    return true;
  }

  void Loop() {
    std::vector<Pair> pairs;
    while (!stop_) {
      std::vector<pollfd> fds;
      fds.push_back({listen_fd_, POLLIN, 0});
      for (const Pair& p : pairs) {
        fds.push_back({p.client, POLLIN, 0});
        fds.push_back({p.upstream, POLLIN, 0});
      }
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      // Only the pairs polled above have entries in fds; one accepted now
      // is polled from the next round on.
      const size_t polled = pairs.size();
      if (fds[0].revents & POLLIN) {
        int c = ::accept(listen_fd_, nullptr, nullptr);
        int u = c >= 0 ? Connect() : -1;
        if (u >= 0) {
          pairs.push_back({c, u});
        } else if (c >= 0) {
          ::close(c);
        }
      }
      std::vector<size_t> dead;
      for (size_t i = 0; i < polled; ++i) {
        Pair& p = pairs[i];
        const pollfd& cf = fds[1 + 2 * i];
        const pollfd& uf = fds[2 + 2 * i];
        bool alive = true;
        if (cf.revents != 0) {
          alive = Forward(p.client, p.upstream);
          if (alive && ++requests_ == cut_ && !cut_done_) p.cut_next_reply = true;
        }
        if (alive && uf.revents != 0) {
          if (p.cut_next_reply) {
            char buf[65536];
            (void)!::read(p.upstream, buf, sizeof(buf));  // the reply is lost
            cut_done_ = true;
            alive = false;
          } else {
            alive = Forward(p.upstream, p.client);
          }
        }
        if (!alive) dead.push_back(i);
      }
      for (auto it = dead.rbegin(); it != dead.rend(); ++it) {
        ::close(pairs[*it].client);
        ::close(pairs[*it].upstream);
        pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(*it));
      }
    }
    for (const Pair& p : pairs) {
      ::close(p.client);
      ::close(p.upstream);
    }
  }

  const int target_port_;
  const int cut_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::atomic<bool> cut_done_{false};
  std::thread thread_;
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
