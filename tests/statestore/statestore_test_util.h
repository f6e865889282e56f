// Shared helpers for the statestore protocol tests: an in-process broker
// fixture, broker-side polling with deadlines, and raw-socket input.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "statestore/statestore_server.h"
#include "tests/statestore/fake_subscriber.h"

namespace ics::sstest {

// Short timings so failure detection and cadences take well under a second.
inline statestore::StatestoreOptions FastOptions() {
  statestore::StatestoreOptions o;
  o.heartbeat_interval_ms = 100;
  o.heartbeat_timeout_ms = 500;
  o.max_missed_heartbeats = 3;
  o.update_frequency_ms = 200;
  o.update_timeout_ms = 3000;
  o.tombstone_retention_ms = 100;
  o.connect_timeout_ms = 500;
  o.num_update_threads = 8;
  o.num_heartbeat_threads = 4;
  o.max_message_bytes = 4 << 20;
  return o;
}

// A broker on 127.0.0.1:0 plus fake subscribers; everything is stopped in
// TearDown (subscribers first, which also releases hung handlers).
class BrokerTest : public ::testing::Test {
 protected:
  virtual statestore::StatestoreOptions Options() { return FastOptions(); }

  void SetUp() override {
    statestore::StatestoreServerOptions so;
    so.bind_host = "127.0.0.1";
    so.port = 0;
    so.statestore = Options();
    server_ = std::make_unique<statestore::StatestoreServer>(so);
    Status s = server_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    port_ = server_->port();
    ASSERT_GT(port_, 0);
  }

  void TearDown() override {
    for (auto& sub : subs_) sub->Stop();
    if (server_) server_->Stop();
    // Every test also checks the protocol invariants the fakes watched.
    for (auto& sub : subs_) {
      std::string all;
      for (const auto& v : sub->Violations()) all += "\n  " + v;
      EXPECT_TRUE(all.empty()) << sub->id() << " saw protocol violations:" << all;
    }
    subs_.clear();
    server_.reset();
  }

  statestore::Statestore* broker() { return server_->statestore(); }

  // Creates and starts a fake subscriber; registers it unless told not to.
  // Returns nullptr (after recording a failure) if that fails.
  FakeSubscriber* NewSubscriber(const std::string& id,
                                std::vector<impala::TTopicRegistration> topics,
                                bool do_register = true,
                                const std::function<void(FakeSubscriber*)>& before_register = {},
                                std::optional<impala::TStatestoreSubscriberType::type> type = {}) {
    FakeSubscriberOptions o;
    o.id = id;
    o.subscriber_type = type;
    o.topics = std::move(topics);
    o.statestore_port = port_;
    subs_.push_back(std::make_unique<FakeSubscriber>(o));
    FakeSubscriber* sub = subs_.back().get();
    std::string error;
    if (!sub->Start(&error)) {
      ADD_FAILURE() << "cannot start " << id << ": " << error;
      return nullptr;
    }
    if (before_register) before_register(sub);
    if (do_register && !sub->RegisterOk(&error)) {
      ADD_FAILURE() << "cannot register " << id << ": " << error;
      return nullptr;
    }
    return sub;
  }

  int CountRegistrations(const std::string& id) {
    int n = 0;
    for (const auto& s : broker()->Subscribers()) n += s.id == id ? 1 : 0;
    return n;
  }
  bool IsRegistered(const std::string& id) { return CountRegistrations(id) > 0; }

  std::unique_ptr<statestore::StatestoreServer> server_;
  int port_ = 0;
  std::vector<std::unique_ptr<FakeSubscriber>> subs_;
};

// Raw TBinaryProtocol byte building for malformed-input tests.
class RawThrift {
 public:
  RawThrift& I8(int8_t v) {
    bytes_.push_back(static_cast<char>(v));
    return *this;
  }
  RawThrift& I16(int16_t v) {
    for (int s = 8; s >= 0; s -= 8) bytes_.push_back(static_cast<char>((v >> s) & 0xff));
    return *this;
  }
  RawThrift& I32(uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) bytes_.push_back(static_cast<char>((v >> s) & 0xff));
    return *this;
  }
  RawThrift& Str(const std::string& s) {
    I32(static_cast<uint32_t>(s.size()));
    bytes_ += s;
    return *this;
  }
  RawThrift& Raw(const std::string& s) {
    bytes_ += s;
    return *this;
  }
  RawThrift& CallHeader(const std::string& method, int32_t seq = 1) {
    return I32(0x80010001u).Str(method).I32(static_cast<uint32_t>(seq));
  }
  RawThrift& Field(int8_t type, int16_t id) { return I8(type).I16(id); }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// A connected loopback socket (fd < 0 on failure).
inline int ConnectLoopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  timeval tv{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  return fd;
}

// Sends bytes (ignoring a peer that hangs up early), then reads until the
// peer closes or 3 s pass. Returns false only if it could not connect.
inline bool SendRawAndDrain(int port, const std::string& bytes) {
  int fd = ConnectLoopback(port);
  if (fd < 0) return false;
  size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);
  char buf[4096];
  while (read(fd, buf, sizeof(buf)) > 0) {
  }
  close(fd);
  return true;
}

// A "subscriber" that answers every call with scripted bytes: it reads the
// request's message header, then writes reply(method name) and closes.
// Stands in for a broken or hostile subscriber.
class RawResponder {
 public:
  explicit RawResponder(std::function<std::string(const std::string& method)> reply)
      : reply_(std::move(reply)) {}
  ~RawResponder() { Stop(); }

  bool Start() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(listen_fd_, 64) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return false;
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Loop(); });
    return true;
  }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (listen_fd_ >= 0) close(listen_fd_);
    listen_fd_ = -1;
  }
  int port() const { return port_; }
  int calls() const { return calls_.load(); }

 private:
  void Loop() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      timeval tv{1, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
      std::string method;
      unsigned char hdr[8];
      if (ReadFull(fd, hdr, 8)) {
        const uint32_t n = (uint32_t{hdr[4]} << 24) | (uint32_t{hdr[5]} << 16) |
                           (uint32_t{hdr[6]} << 8) | uint32_t{hdr[7]};
        if (n < 256) {
          method.resize(n);
          if (!ReadFull(fd, reinterpret_cast<unsigned char*>(method.data()), n)) method.clear();
        }
      }
      ++calls_;
      const std::string out = reply_(method);
      send(fd, out.data(), out.size(), MSG_NOSIGNAL);
      close(fd);
    }
  }
  static bool ReadFull(int fd, unsigned char* buf, size_t n) {
    size_t off = 0;
    while (off < n) {
      ssize_t r = read(fd, buf + off, n - off);
      if (r <= 0) return false;
      off += static_cast<size_t>(r);
    }
    return true;
  }

  const std::function<std::string(const std::string&)> reply_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> calls_{0};
  std::thread thread_;
};

// Small helpers shared by the broker test files.
inline constexpr Millis kWait(5000);  // generous bound for "should happen soon"

inline bool HasRegistrationId(const std::vector<RecordedUpdate>& updates,
                              const impala::TUniqueId& id) {
  for (const auto& u : updates) {
    if (u.registration_id && *u.registration_id == id) return true;
  }
  return false;
}

inline bool ContainsItem(const impala::TTopicDelta& d, const std::string& key, bool deleted) {
  for (const auto& item : d.topic_entries) {
    if (item.key == key && item.deleted == deleted) return true;
  }
  return false;
}

inline std::string KeysOf(const impala::TTopicDelta& d) {
  std::string out;
  for (const auto& item : d.topic_entries) out += item.key + (item.deleted ? "(del) " : " ");
  return out;
}

}  // namespace ics::sstest
