// Redis PUBLISH fan-out: the baseline of the propagation benchmark. Connects
// to a running redis-server (scripts/bench.sh starts one on 127.0.0.1 with a
// free port and its own directory), opens N subscriber connections in this
// process (one thread each, SUBSCRIBE to one channel), then PUBLISHes one
// message per round and measures the time until every subscriber received
// it, with the same clock, percentiles and output lines as our side
// (tests/bench/fanout_stats.h).
//
//   redis_fanout_bench --port=6379 [--sizes=10,100,500] [--rounds=50]
//                      [--payload_bytes=256]
//
// --payload_bytes should be the size of what our side fans out for one DDL
// (propagation_bench prints it as payload_bytes). Prints one line per
// figure, with redis-server's CPU and this process's per delivery when the
// server runs on this machine (tests/bench/fanout_cpu.h). Not a test.
#include <hiredis/hiredis.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gflags/gflags.h>

#include "tests/bench/fanout_cpu.h"
#include "tests/bench/fanout_stats.h"

DEFINE_string(host, "127.0.0.1", "redis-server host.");
DEFINE_int32(port, 6379, "redis-server port.");
DEFINE_string(sizes, "10,100,500", "Subscriber counts.");
DEFINE_int32(rounds, 50, "Messages per size.");
DEFINE_int32(warmup_rounds, 3, "Rounds sent first and not counted.");
DEFINE_int32(payload_bytes, 256, "Message size in bytes (at least 16).");
DEFINE_int32(timeout_ms, 10000, "Give up on a round after this long.");

namespace {

constexpr const char* kBench = "redis_fanout";
using ics::bench::FanoutClock;
using ics::bench::FanoutRecorder;

struct RedisDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Conn = std::unique_ptr<redisContext, RedisDeleter>;
struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

Conn Connect() {
  timeval tv{FLAGS_timeout_ms / 1000 + 5, 0};
  Conn c(redisConnectWithTimeout(FLAGS_host.c_str(), FLAGS_port, tv));
  if (!c || c->err) {
    std::fprintf(stderr, "cannot connect to redis at %s:%d: %s\n", FLAGS_host.c_str(), FLAGS_port,
                 c ? c->errstr : "out of memory");
    return nullptr;
  }
  return c;
}

// "<round>|" followed by padding up to the payload size; round -1 = stop.
std::string Payload(int round) {
  std::string p = std::to_string(round) + "|";
  p.resize(static_cast<size_t>(std::max(FLAGS_payload_bytes, 16)), 'x');
  return p;
}

// Receives messages on `c` until the stop message or an error; reports the
// round of each to the recorder (rounds shifted by the warm-up count).
void Receive(redisContext* c, int index, FanoutRecorder* rec) {
  while (true) {
    void* raw = nullptr;
    if (redisGetReply(c, &raw) != REDIS_OK || raw == nullptr) return;
    const auto now = FanoutClock::now();
    Reply r(static_cast<redisReply*>(raw));
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 3) continue;
    const redisReply* msg = r->element[2];
    if (msg->type != REDIS_REPLY_STRING) continue;
    const int round = std::atoi(msg->str);
    if (round < 0) return;
    rec->Seen(round - FLAGS_warmup_rounds, index, now);
  }
}

// The redis-server's process id when it runs on this machine (INFO server),
// for its CPU figure; -1 otherwise.
pid_t LocalServerPid(redisContext* c) {
  if (FLAGS_host != "127.0.0.1" && FLAGS_host != "localhost" && FLAGS_host != "::1") return -1;
  Reply r(static_cast<redisReply*>(redisCommand(c, "INFO server")));
  if (!r || r->type != REDIS_REPLY_STRING) return -1;
  const std::string info(r->str, r->len);
  const std::string key = "process_id:";
  const size_t at = info.find(key);
  if (at == std::string::npos) return -1;
  const long pid = std::strtol(info.c_str() + at + key.size(), nullptr, 10);
  return pid > 0 ? static_cast<pid_t>(pid) : -1;
}

bool FanOut(int n) {
  const std::string channel = "ics-bench-" + std::to_string(n);
  std::vector<Conn> subs;
  for (int i = 0; i < n; ++i) {
    Conn c = Connect();
    if (!c) return false;
    Reply r(static_cast<redisReply*>(redisCommand(c.get(), "SUBSCRIBE %s", channel.c_str())));
    if (!r || r->type != REDIS_REPLY_ARRAY) {
      std::fprintf(stderr, "SUBSCRIBE failed on connection %d\n", i);
      return false;
    }
    subs.push_back(std::move(c));
  }
  Conn pub = Connect();
  if (!pub) return false;
  FanoutRecorder rec(FLAGS_rounds, n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) threads.emplace_back(Receive, subs[static_cast<size_t>(i)].get(), i, &rec);

  bool ok = true;
  const int total = FLAGS_warmup_rounds + FLAGS_rounds;
  const pid_t server_pid = LocalServerPid(pub.get());
  std::optional<ics::bench::CpuWindow> cpu;
  for (int r = 0; r < total && ok; ++r) {
    const int counted = r - FLAGS_warmup_rounds;
    const std::string payload = Payload(r);
    if (counted == 0) cpu.emplace(server_pid);
    if (counted >= 0) rec.Begin(counted);
    const auto t0 = FanoutClock::now();
    Reply reply(static_cast<redisReply*>(
        redisCommand(pub.get(), "PUBLISH %s %b", channel.c_str(), payload.data(), payload.size())));
    if (!reply || reply->type != REDIS_REPLY_INTEGER || reply->integer != n) {
      std::fprintf(stderr, "PUBLISH reached %lld of %d subscribers\n",
                   reply ? static_cast<long long>(reply->integer) : -1LL, n);
      ok = false;
      break;
    }
    if (counted >= 0) {
      rec.WaitAll(counted, std::chrono::milliseconds(FLAGS_timeout_ms));
    } else {
      // Warm-up: give the receivers a moment without counting.
      std::this_thread::sleep_until(t0 + std::chrono::milliseconds(20));
    }
  }
  if (ok && cpu) cpu->Report(kBench, n, FLAGS_rounds);
  const std::string stop = Payload(-1);
  Reply last(static_cast<redisReply*>(
      redisCommand(pub.get(), "PUBLISH %s %b", channel.c_str(), stop.data(), stop.size())));
  for (auto& t : threads) t.join();
  if (ok) {
    std::printf("%s n%d_payload_bytes: %zu bytes\n", kBench, n, Payload(0).size());
    rec.Report(kBench);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("Redis PUBLISH fan-out latency to N subscribers (baseline).");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  signal(SIGPIPE, SIG_IGN);
  if (FLAGS_rounds < 1 || FLAGS_warmup_rounds < 0) {
    std::fprintf(stderr, "--rounds must be >= 1 and --warmup_rounds >= 0\n");
    return 2;
  }
  std::printf("%s # redis at %s:%d, %d rounds (+%d warm-up), %u cpus\n", kBench,
              FLAGS_host.c_str(), FLAGS_port, FLAGS_rounds, FLAGS_warmup_rounds,
              std::thread::hardware_concurrency());
  const std::optional<std::vector<int>> sizes = ics::bench::ParseFanoutSizes(FLAGS_sizes);
  if (!sizes) return 2;
  int failures = 0;
  for (int n : *sizes) {
    if (!FanOut(n)) ++failures;
  }
  return failures == 0 ? 0 : 1;
}
