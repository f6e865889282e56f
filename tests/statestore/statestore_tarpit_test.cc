// Unresponsive subscribers must not starve healthy ones (the scheduling
// contract in statestore/statestore.h): subscribers registered at loopback
// listeners this test owns that accept connections and never answer
// ("tarpits"), never accept (full backlog), or answer one byte at a time
// ("tricklers"), next to healthy fake subscribers.
#include <fcntl.h>

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

// A loopback listener that accepts every connection and then either never
// reads or writes (kSilent), or reads the request's first bytes and answers
// with the start of a valid reply whose string field it then sends one byte
// every `trickle_ms` (kTrickle): each recv() returns well within any socket
// timeout, yet the reply never ends.
class LoopbackTarpit {
 public:
  enum class Mode { kSilent, kTrickle };
  explicit LoopbackTarpit(Mode mode, int trickle_ms = 20) : mode_(mode), trickle_ms_(trickle_ms) {}
  ~LoopbackTarpit() { Stop(); }

  bool Start() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(listen_fd_, 256) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return false;
    }
    port_ = ntohs(addr.sin_port);
    accept_thread_ = std::thread([this] { AcceptLoop(); });
    return true;
  }

  void Stop() {
    stop_ = true;
    if (accept_thread_.joinable()) accept_thread_.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> l(mu_);
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
    std::lock_guard<std::mutex> l(mu_);
    for (int fd : held_) close(fd);
    held_.clear();
    if (listen_fd_ >= 0) close(listen_fd_);
    listen_fd_ = -1;
  }

  int port() const { return port_; }
  int accepted() const { return accepted_.load(); }

 private:
  void AcceptLoop() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      ++accepted_;
      std::lock_guard<std::mutex> l(mu_);
      if (mode_ == Mode::kSilent) {
        held_.push_back(fd);  // kept open, never read: the peer's send fits the buffers
      } else {
        threads_.emplace_back([this, fd] { Trickle(fd); });
      }
    }
  }

  void Trickle(int fd) {
    // Read the request's header (version, method name) to answer in kind.
    std::string in;
    std::string method;
    while (!stop_ && method.empty()) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      char buf[256];
      const ssize_t n = recv(fd, buf, sizeof(buf), 0);
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
      if (in.size() < 8) continue;
      const auto* h = reinterpret_cast<const unsigned char*>(in.data());
      const size_t len = (size_t{h[4]} << 24) | (size_t{h[5]} << 16) | (size_t{h[6]} << 8) | h[7];
      if (len > 64) break;
      if (in.size() >= 8 + len) method = in.substr(8, len);
    }
    if (method.empty()) {
      close(fd);
      return;
    }
    // reply <method> { 0: struct { 1: TStatus { 2: list<string> [ 1 MiB string ...
    const std::string prefix = RawThrift()
                                   .I32(0x80010002u)
                                   .Str(method)
                                   .I32(0)
                                   .Field(12, 0)
                                   .Field(12, 1)
                                   .Field(15, 2)
                                   .I8(11)
                                   .I32(1)
                                   .I32(1u << 20)
                                   .bytes();
    bool ok =
        send(fd, prefix.data(), prefix.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(prefix.size());
    while (ok && !stop_) {
      std::this_thread::sleep_for(Millis(trickle_ms_));
      ok = send(fd, "x", 1, MSG_NOSIGNAL) == 1;  // fails once the broker gives up
    }
    close(fd);
  }

  const Mode mode_;
  const int trickle_ms_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread accept_thread_;
  std::mutex mu_;
  std::vector<int> held_;
  std::vector<std::thread> threads_;
};

// A loopback listener whose accept queue is full and never drained: further
// connection attempts get no SYN-ACK and hang until the connector gives up
// (like a black-hole address).
class FullBacklogListener {
 public:
  ~FullBacklogListener() {
    for (int fd : fillers_) close(fd);
    if (listen_fd_ >= 0) close(listen_fd_);
  }

  // False if the listener cannot be set up or its backlog does not fill.
  bool Start() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(listen_fd_, 0) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return false;
    }
    port_ = ntohs(addr.sin_port);
    // Connect until an attempt no longer completes: the queue is full then.
    for (int i = 0; i < 16; ++i) {
      const int fd = socket(AF_INET, SOCK_STREAM, 0);
      if (fd < 0) return false;
      fillers_.push_back(fd);
      fcntl(fd, F_SETFL, O_NONBLOCK);
      if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) continue;
      if (errno != EINPROGRESS) return false;
      pollfd p{fd, POLLOUT, 0};
      if (poll(&p, 1, 500) == 0) return true;  // this one hangs: full
    }
    return false;
  }
  int port() const { return port_; }

 private:
  int listen_fd_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

class StatestoreTarpitTest : public BrokerTest {
 protected:
  // The production pool sizes, short timeouts.
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.num_update_threads = 32;
    o.num_heartbeat_threads = 16;
    o.heartbeat_interval_ms = 100;
    o.heartbeat_timeout_ms = 1000;
    o.max_missed_heartbeats = 2;
    o.update_timeout_ms = 2000;
    o.update_frequency_ms = 200;
    o.connect_timeout_ms = 1000;
    return o;
  }

  // A healthy fake subscriber of topic "t" that re-registers (as a real
  // subscriber does) when no heartbeat arrived for 3 s.
  FakeSubscriber* NewHealthy(const std::string& id) {
    FakeSubscriberOptions o;
    o.id = id;
    o.topics = {TopicReg("t")};
    o.statestore_port = port_;
    o.reregister_after_ms = 3000;
    subs_.push_back(std::make_unique<FakeSubscriber>(o));
    FakeSubscriber* sub = subs_.back().get();
    std::string error;
    if (!sub->Start(&error) || !sub->RegisterOk(&error)) {
      ADD_FAILURE() << "cannot start " << id << ": " << error;
      return nullptr;
    }
    return sub;
  }

  // Registers a subscriber that the broker will find at 127.0.0.1:port.
  bool RegisterAt(const std::string& id, int port) {
    impala::TRegisterSubscriberRequest req;
    req.protocol_version = impala::StatestoreServiceVersion::V2;
    req.subscriber_id = id;
    req.subscriber_location.hostname = "127.0.0.1";
    req.subscriber_location.port = port;
    req.topic_registrations = {TopicReg("t")};
    impala::TRegisterSubscriberResponse resp;
    std::string error;
    const bool sent = CallStatestore(
        "127.0.0.1", port_,
        [&](impala::StatestoreServiceClient& c) { c.RegisterSubscriber(resp, req); }, &error);
    EXPECT_TRUE(sent) << error;
    return sent && resp.status.status_code == impala::TErrorCode::OK;
  }

  int CountRegisteredWithPrefix(const std::string& prefix) {
    int n = 0;
    for (const auto& s : broker()->Subscribers()) n += s.id.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }

  // Longest stretch without a heartbeat between `from` and `to`.
  static double MaxHeartbeatGap(const FakeSubscriber& sub, Clock::time_point from,
                                Clock::time_point to) {
    Clock::time_point last = from;
    double gap = 0;
    for (const auto& hb : sub.Heartbeats()) {
      if (hb.at < from) continue;
      if (hb.at > to) break;
      gap = std::max(gap, std::chrono::duration<double>(hb.at - last).count());
      last = hb.at;
    }
    return std::max(gap, std::chrono::duration<double>(to - last).count());
  }
};

// 48 tarpits that accept and never answer plus 16 at a full backlog: with
// one blocking worker per RPC they would hold all 16 heartbeat workers for
// 64 x 1 s / 16 = 4 s per round (and the update workers likewise), so healthy
// subscribers would go seconds without heartbeats and re-register.
TEST_F(StatestoreTarpitTest, HealthySubscribersKeepHeartbeatsAndUpdatesAmong64Tarpits) {
  FakeSubscriber* pub = NewHealthy("healthy-pub");
  FakeSubscriber* obs1 = NewHealthy("healthy-obs1");
  FakeSubscriber* obs2 = NewHealthy("healthy-obs2");
  ASSERT_TRUE(pub && obs1 && obs2);
  for (FakeSubscriber* s : {pub, obs1, obs2}) {
    ASSERT_TRUE(s->WaitForUpdates("t", 1, kWait)) << s->Describe();
    ASSERT_TRUE(s->WaitForHeartbeats(2, kWait)) << s->Describe();
  }

  LoopbackTarpit tarpit(LoopbackTarpit::Mode::kSilent);
  ASSERT_TRUE(tarpit.Start());
  FullBacklogListener backlog;
  ASSERT_TRUE(backlog.Start()) << "could not fill a listener's backlog";
  const auto start = Clock::now();
  for (int i = 0; i < 64; ++i) {
    ASSERT_TRUE(RegisterAt("tarpit-" + std::to_string(i), i < 48 ? tarpit.port() : backlog.port()));
  }

  // Topic changes keep reaching the healthy subscribers promptly until every
  // tarpit has been failed.
  double worst_latency = 0;
  int changes = 0;
  const auto deadline = start + std::chrono::seconds(150);
  while (CountRegisteredWithPrefix("tarpit-") > 0 && Clock::now() < deadline) {
    const std::string key = "k" + std::to_string(changes++);
    const auto published = Clock::now();
    pub->Publish("t", {Item(key, "v")});
    ASSERT_TRUE(obs1->WaitForKey("t", key, Millis(10000))) << obs1->Describe();
    ASSERT_TRUE(obs2->WaitForKey("t", key, Millis(10000))) << obs2->Describe();
    worst_latency = std::max(worst_latency, SecondsSince(published));
    std::this_thread::sleep_for(Millis(100));
  }
  const auto end = Clock::now();
  const double took = SecondsSince(start);
  ASSERT_EQ(CountRegisteredWithPrefix("tarpit-"), 0)
      << "tarpits still registered after " << took << " s";
  EXPECT_GE(broker()->Counters().subscribers_failed, 64);
  EXPECT_GT(tarpit.accepted(), 0);

  double worst_gap = 0;
  for (FakeSubscriber* s : {pub, obs1, obs2}) {
    worst_gap = std::max(worst_gap, MaxHeartbeatGap(*s, start, end));
    EXPECT_TRUE(IsRegistered(s->id()));
    EXPECT_EQ(s->registration_count(), 1) << s->id() << " lost its heartbeats and re-registered";
  }
  std::printf(
      "[ figures  ] 64 tarpits failed in %.1f s; healthy subscribers: worst heartbeat "
      "gap %.2f s, worst topic change latency %.2f s over %d changes\n",
      took, worst_gap, worst_latency, changes);
  // Heartbeats every 100 ms; generous bounds for a loaded machine.
  EXPECT_LT(worst_gap, 2.5);
  EXPECT_LT(worst_latency, 5.0);
  EXPECT_EQ(broker()->Counters().subscribers_failed, 64);  // none of the healthy ones
}

// A subscriber answering one byte every 20 ms never trips a socket timeout;
// the hard deadline still ends each of its RPCs, so it is failed.
TEST_F(StatestoreTarpitTest, TricklingSubscriberIsCutOffAtTheDeadline) {
  FakeSubscriber* healthy = NewHealthy("healthy");
  ASSERT_NE(healthy, nullptr);
  LoopbackTarpit trickler(LoopbackTarpit::Mode::kTrickle, 20);
  ASSERT_TRUE(trickler.Start());
  const auto start = Clock::now();
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(RegisterAt("trickler-" + std::to_string(i), trickler.port()));
  ASSERT_TRUE(Eventually([&] { return trickler.accepted() >= 4; }, kWait));
  // 2 heartbeats x 1 s each (plus queueing): seconds, not the ~14 hours the
  // trickled 1 MiB reply would take.
  EXPECT_TRUE(
      Eventually([&] { return CountRegisteredWithPrefix("trickler-") == 0; }, Millis(60000)))
      << "tricklers still registered after " << SecondsSince(start) << " s";
  EXPECT_GE(broker()->Counters().rpcs_cut_at_deadline, 1);
  EXPECT_TRUE(IsRegistered("healthy"));
  EXPECT_EQ(healthy->registration_count(), 1);
  std::printf("[ figures  ] %d of 4 tricklers left after %.1f s, %lld RPCs cut at the deadline\n",
              CountRegisteredWithPrefix("trickler-"), SecondsSince(start),
              static_cast<long long>(broker()->Counters().rpcs_cut_at_deadline));
}

// Connecting to a listener whose backlog is full hangs (the kernel retries
// the SYN for about two minutes); the broker gives up after the connect
// timeout, so the subscriber is failed in seconds.
class StatestoreConnectTimeoutTest : public StatestoreTarpitTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = StatestoreTarpitTest::Options();
    o.connect_timeout_ms = 300;
    return o;
  }
};

TEST_F(StatestoreConnectTimeoutTest, ConnectToFullBacklogIsBoundedByTheConnectTimeout) {
  FullBacklogListener backlog;
  ASSERT_TRUE(backlog.Start()) << "could not fill a listener's backlog";
  const auto start = Clock::now();
  ASSERT_TRUE(RegisterAt("black-hole", backlog.port()));
  ASSERT_TRUE(Eventually([&] { return !IsRegistered("black-hole"); }, Millis(30000)))
      << "not failed after " << SecondsSince(start) << " s";
  // 2 heartbeats, each giving up after 300 ms (plus the 100 ms interval).
  const double took = SecondsSince(start);
  std::printf("[ figures  ] subscriber behind a full backlog failed in %.2f s\n", took);
  EXPECT_LT(took, 20.0);
}

}  // namespace
}  // namespace ics::sstest
