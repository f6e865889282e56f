// Statestore fan-out benchmark. Starts statestored as a separate process on
// loopback, runs N subscribers (the subscriber library, many per process)
// plus one publisher in this process, and measures how long a publication
// takes to be applied by every subscriber (--publish: pushed with Publish(),
// or returned in an UpdateState reply; --oneway: whether the subscribers
// accept updates without a reply, as the library does by default). Then
// measures statestored's CPU
// use and RSS with M idle subscribers (for each M of --idle) at the default
// heartbeat cadence.
//
//   statestore_bench --statestored=build/bin/statestored [--sizes=10,100,500]
//                    [--rounds=50] [--payload_bytes=7] [--publish=push|reply]
//                    [--oneway=true|false] [--idle=1000]
//                    [--idle_seconds=10] [--join=100] [--join_topic_mb=16]
//                    [--join_entries=1000]
//
// Fan-out figures use tests/bench/fanout_stats.h (the same clock and
// percentiles as redis_fanout_bench): "statestore_fanout n<N>_<figure>: v ms",
// and tests/bench/fanout_cpu.h: statestored's CPU and this process's (the
// subscribers and the publisher) per delivery over the rounds,
// "n<N>_sender_cpu_us" and "n<N>_receiver_cpu_us".
// Idle figures: "statestore_idle n<M>_cpu: v %" and "... n<M>_rss: v bytes".
// Join figures (J of --join subscribers register at once with a topic of
// --join_topic_mb already published, as after a statestore restart or when a
// cluster starts): "statestore_join n<J>_seconds" until all J hold the full
// topic, and "n<J>_peak_rss_growth" of statestored meanwhile (VmHWM after,
// reset before, minus VmRSS before): what the N full updates cost in memory.
// Prints one line per figure. Not a test: it asserts nothing.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gflags/gflags.h>

#include "common/util/mutex.h"
#include "statestore/subscriber.h"
#include "tests/bench/fanout_cpu.h"
#include "tests/bench/fanout_stats.h"
#include "tests/perf/child_process.h"
#include "tests/util/temp_dir.h"

DEFINE_string(statestored, "build/bin/statestored", "Path of the statestored binary.");
DEFINE_string(sizes, "10,100,500", "Subscriber counts for the fan-out figures.");
DEFINE_int32(rounds, 50, "Publications per size.");
DEFINE_int32(payload_bytes, 7, "Bytes of the value published each round (at least 7).");
DEFINE_string(publish, "push",
              "How the publisher hands over each round's entry: 'push' (Publish(), "
              "RequestTopicUpdate carrying the entry) or 'reply' (RequestTopicUpdate, then the "
              "entry in the reply to the UpdateState it brings, as Impala's publishers do).");
DEFINE_bool(oneway, true,
            "Whether the subscribers accept updates without a reply (UpdateStateOneway; the "
            "library's default). false: every update waits for its reply, as with Impala's "
            "subscribers.");
DEFINE_string(idle, "1000", "Idle subscriber counts for the CPU/RSS figures (0 skips them).");
DEFINE_int32(idle_seconds, 10, "How long to measure the idle CPU.");
DEFINE_string(join, "100", "Subscriber counts for the join figures (0 skips them).");
DEFINE_int32(join_topic_mb, 16, "Size of the topic the joining subscribers receive in full.");
DEFINE_int32(join_entries, 1000, "Entries of that topic.");

namespace {

using Clock = std::chrono::steady_clock;
using ics::statestore::StatestoreSubscriber;
using ics::statestore::StatestoreSubscriberOptions;
using ics::statestore::TopicSubscription;

constexpr const char* kTopic = "bench";

// A statestored child, the port it bound and its directory (port file, log).
struct Statestored {
  std::shared_ptr<::ics::testing::TempDir> dir;
  std::shared_ptr<::ics::perf::ChildProcess> proc;
  pid_t pid = -1;
  int port = 0;
};

Statestored StartStatestored() {
  Statestored s;
  s.dir = std::make_shared<::ics::testing::TempDir>("ssbench");
  const std::string port_file = s.dir->File("port");
  s.proc = std::make_shared<::ics::perf::ChildProcess>();
  if (s.proc->Start({FLAGS_statestored, "--state_store_port=0", "--port_file=" + port_file,
                     "--statestore_max_subscribers=20000"},
                    s.dir->File("statestored.log"))) {
    const std::vector<std::string> tokens =
        s.proc->WaitForPortFile(port_file, std::chrono::seconds(5));
    if (!tokens.empty()) s.port = std::atoi(tokens[0].c_str());
    s.pid = s.proc->pid();
  }
  if (s.port == 0) {
    std::fprintf(stderr, "statestored did not start (binary %s)\n", FLAGS_statestored.c_str());
    std::exit(1);
  }
  return s;
}

void StopStatestored(const Statestored& s) { s.proc->Stop(); }

long StatusKb(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  }
  return 0;
}

long RssKb(pid_t pid) { return StatusKb(pid, "VmRSS:"); }

std::unique_ptr<StatestoreSubscriber> MakeSubscriber(const std::string& id, int port,
                                                     ics::statestore::TopicUpdateCallback cb) {
  StatestoreSubscriberOptions o;
  o.subscriber_id = id;
  o.statestore_port = port;
  o.accept_oneway_updates = FLAGS_oneway;
  auto sub = std::make_unique<StatestoreSubscriber>(o);
  TopicSubscription t;
  t.topic = kTopic;
  t.callback = std::move(cb);
  if (!sub->AddTopic(std::move(t)).ok() || !sub->Start().ok()) {
    std::fprintf(stderr, "cannot start subscriber %s\n", id.c_str());
    std::exit(1);
  }
  return sub;
}

void FanOut(const Statestored& ss, int n) {
  const int port = ss.port;
  ics::bench::FanoutRecorder rec(FLAGS_rounds, n);
  std::vector<std::unique_ptr<StatestoreSubscriber>> subs;
  for (int i = 0; i < n; ++i) {
    subs.push_back(MakeSubscriber(
        "bench-sub-" + std::to_string(n) + "-" + std::to_string(i), port,
        [&rec, i](const impala::TTopicDelta& d, std::vector<impala::TTopicDelta>*) {
          const auto now = Clock::now();
          for (const auto& e : d.topic_entries) {
            if (e.key.size() > 1 && e.key[0] == 'r') rec.Seen(std::atoi(e.key.c_str() + 1), i, now);
          }
        }));
  }
  std::string value = "payload";
  if (FLAGS_payload_bytes > static_cast<int>(value.size())) {
    value.resize(static_cast<size_t>(FLAGS_payload_bytes), 'x');
  }
  // The publisher hands over one entry per round when asked.
  ics::Mutex pub_mu;
  std::vector<std::string> pending;
  auto publisher = MakeSubscriber(
      "bench-publisher-" + std::to_string(n), port,
      [&](const impala::TTopicDelta&, std::vector<impala::TTopicDelta>* out) {
        ics::MutexLock l(&pub_mu);
        if (pending.empty()) return;
        impala::TTopicDelta d;
        d.topic_name = kTopic;
        d.is_delta = true;
        for (auto& k : pending) {
          impala::TTopicItem item;
          item.key = k;
          item.value = value;
          item.deleted = false;
          d.topic_entries.push_back(std::move(item));
        }
        pending.clear();
        out->push_back(std::move(d));
      });
  for (auto& s : subs) (void)s->WaitForRegistration(std::chrono::seconds(30));
  (void)publisher->WaitForRegistration(std::chrono::seconds(30));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // first full updates settle

  const bool push = FLAGS_publish == "push";
  const ics::bench::CpuWindow cpu(ss.pid);
  for (int r = 0; r < FLAGS_rounds; ++r) {
    rec.Begin(r);
    if (push) {
      impala::TTopicDelta d;
      d.topic_name = kTopic;
      d.is_delta = true;
      impala::TTopicItem item;
      item.key = "r" + std::to_string(r);
      item.value = value;
      d.topic_entries.push_back(std::move(item));
      const auto written = publisher->Publish({std::move(d)});
      if (!written.ok()) {
        std::fprintf(stderr, "Publish failed: %s\n", written.status().ToString().c_str());
        std::exit(1);
      }
    } else {
      {
        ics::MutexLock l(&pub_mu);
        pending.push_back("r" + std::to_string(r));
      }
      publisher->RequestTopicUpdate();
    }
    rec.WaitAll(r, std::chrono::seconds(10));
  }
  cpu.Report("statestore_fanout", n, FLAGS_rounds);
  std::printf("statestore_fanout n%d_publish: %s\n", n, push ? "push" : "reply");
  std::printf("statestore_fanout n%d_updates: %s\n", n, FLAGS_oneway ? "oneway" : "replied");
  std::printf("statestore_fanout n%d_payload_bytes: %zu bytes\n", n, value.size());
  rec.Report("statestore_fanout");
  publisher->Stop();
  for (auto& s : subs) s->Stop();
}

void IdleCpu(int n) {
  Statestored ss = StartStatestored();
  std::vector<std::unique_ptr<StatestoreSubscriber>> subs;
  for (int i = 0; i < n; ++i) {
    subs.push_back(MakeSubscriber("idle-" + std::to_string(i), ss.port,
                                  [](const impala::TTopicDelta&,
                                     std::vector<impala::TTopicDelta>*) {}));
  }
  for (auto& s : subs) (void)s->WaitForRegistration(std::chrono::seconds(60));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double c0 = ics::perf::ThreadsCpuSeconds(ss.pid);
  std::this_thread::sleep_for(std::chrono::seconds(FLAGS_idle_seconds));
  const double c1 = ics::perf::ThreadsCpuSeconds(ss.pid);
  std::printf("statestore_idle n%d_cpu: %.2f %% (of one core; %.2f cpu-s over %d s)\n", n,
              100.0 * (c1 - c0) / FLAGS_idle_seconds, c1 - c0, FLAGS_idle_seconds);
  std::printf("statestore_idle n%d_rss: %ld bytes\n", n, RssKb(ss.pid) * 1024);
  std::fflush(stdout);
  for (auto& s : subs) s->Stop();
  StopStatestored(ss);
}

void Join(int n) {
  Statestored ss = StartStatestored();
  const int entries = std::max(1, FLAGS_join_entries);
  const size_t value_bytes =
      std::max<size_t>(1, (static_cast<size_t>(FLAGS_join_topic_mb) << 20) / entries);
  // The publisher hands over its entries in chunks, one chunk per update.
  constexpr int kChunk = 100;
  ics::Mutex pub_mu;
  int next = 0;
  auto publisher = MakeSubscriber(
      "join-publisher", ss.port,
      [&](const impala::TTopicDelta&, std::vector<impala::TTopicDelta>* out) {
        ics::MutexLock l(&pub_mu);
        if (next >= entries) return;
        impala::TTopicDelta d;
        d.topic_name = kTopic;
        d.is_delta = true;
        for (int end = std::min(entries, next + kChunk); next < end; ++next) {
          impala::TTopicItem item;
          item.key = "k" + std::to_string(next);
          item.value.assign(value_bytes, static_cast<char>('a' + next % 26));
          d.topic_entries.push_back(std::move(item));
        }
        out->push_back(std::move(d));
      });
  (void)publisher->WaitForRegistration(std::chrono::seconds(30));
  const auto publish_deadline = Clock::now() + std::chrono::seconds(120);
  while (!publisher->WaitForTopicVersion(kTopic, entries, std::chrono::milliseconds(50)).ok()) {
    if (Clock::now() > publish_deadline) {
      std::fprintf(stderr, "the join topic was not published in time\n");
      std::exit(1);
    }
    publisher->RequestTopicUpdate();
  }
  const long rss_before_kb = RssKb(ss.pid);
  {
    std::ofstream reset("/proc/" + std::to_string(ss.pid) + "/clear_refs");
    reset << "5";  // resets VmHWM to the current RSS
  }
  const auto t0 = Clock::now();
  std::vector<std::unique_ptr<StatestoreSubscriber>> subs;
  for (int i = 0; i < n; ++i) {
    subs.push_back(MakeSubscriber("join-" + std::to_string(i), ss.port,
                                  [](const impala::TTopicDelta&,
                                     std::vector<impala::TTopicDelta>*) {}));
  }
  int complete = 0;
  for (auto& s : subs) {
    complete += s->WaitForTopicVersion(kTopic, entries, std::chrono::seconds(120)).ok() ? 1 : 0;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const long hwm_kb = StatusKb(ss.pid, "VmHWM:");
  std::printf("statestore_join n%d_topic_bytes: %zu bytes (%d entries)\n", n,
              value_bytes * static_cast<size_t>(entries), entries);
  std::printf("statestore_join n%d_complete: %d of %d\n", n, complete, n);
  std::printf("statestore_join n%d_seconds: %.3f s\n", n, seconds);
  std::printf("statestore_join n%d_peak_rss_growth: %ld bytes\n", n,
              (hwm_kb - rss_before_kb) * 1024);
  std::fflush(stdout);
  for (auto& s : subs) s->Stop();
  publisher->Stop();
  StopStatestored(ss);
}

}  // namespace

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  signal(SIGPIPE, SIG_IGN);
  if (FLAGS_publish != "push" && FLAGS_publish != "reply") {
    std::fprintf(stderr, "--publish must be 'push' or 'reply'\n");
    return 2;
  }
  // An empty --sizes runs no fan-out (only the join and idle figures).
  const std::optional<std::vector<int>> sizes = ics::bench::ParseFanoutSizes(FLAGS_sizes);
  if (!sizes) return 2;
  for (int n : *sizes) {
    Statestored ss = StartStatestored();
    FanOut(ss, n);
    StopStatestored(ss);
  }
  std::string tok;
  std::istringstream join(FLAGS_join);
  while (std::getline(join, tok, ',')) {
    if (std::stoi(tok) > 0) Join(std::stoi(tok));
  }
  std::istringstream idle(FLAGS_idle);
  while (std::getline(idle, tok, ',')) {
    if (std::stoi(tok) > 0) IdleCpu(std::stoi(tok));
  }
  return 0;
}
