// The floor of Impala's statestore protocol: UpdateState fan-out by a bare
// Thrift sender, as a second baseline next to Redis PUBLISH.
//
// Redis PUBLISH writes each subscriber one message and reads nothing back.
// Impala's statestore protocol is request/response: every UpdateState is an
// RPC whose reply the broker must read (it carries the subscriber's
// publications and acknowledges the version). This bench measures what that
// protocol costs with nothing else around it: N receivers in this process,
// each one thread serving one loopback connection with the generated
// StatestoreSubscriber processor (binary protocol, buffered transport, as
// Impala speaks it), and one sender thread that, per round, writes the same
// one-entry UpdateState request to every receiver and then reads every reply
// in turn. No scheduling, no bookkeeping, no per-subscriber state: what a
// broker speaking this protocol could not go below on the same machine.
//
//   thrift_fanout_bench [--sizes=10,100,500] [--rounds=50] [--payload_bytes=256]
//
// Same clock, percentiles and output lines as statestore_bench and
// redis_fanout_bench (tests/bench/fanout_stats.h):
// "thrift_fanout n<N>_<figure>: v ms", and the sender thread's CPU and the
// receivers' per delivery (tests/bench/fanout_cpu.h). Not a test: it
// asserts nothing.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gflags/gflags.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>

#include "StatestoreSubscriber.h"
#include "tests/bench/fanout_cpu.h"
#include "tests/bench/fanout_stats.h"

DEFINE_string(sizes, "10,100,500", "Receiver counts.");
DEFINE_int32(rounds, 50, "Updates per size.");
DEFINE_int32(warmup_rounds, 3, "Rounds sent first and not counted.");
DEFINE_int32(payload_bytes, 256, "Bytes of the entry's value (at least 1).");

namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TServerSocket;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using ics::bench::FanoutClock;
using ics::bench::FanoutRecorder;

constexpr const char* kTopic = "bench";

// Notes the round of every "r<round>" entry it receives and answers OK.
class Receiver : public impala::StatestoreSubscriberIf {
 public:
  Receiver(FanoutRecorder* rec, int index, int warmup) : rec_(rec), index_(index), warmup_(warmup) {}
  void UpdateState(impala::TUpdateStateResponse& out,
                   const impala::TUpdateStateRequest& req) override {
    const auto now = FanoutClock::now();
    auto it = req.topic_deltas.find(kTopic);
    if (it != req.topic_deltas.end()) {
      for (const impala::TTopicItem& e : it->second.topic_entries) {
        const int r = e.key.size() > 1 && e.key[0] == 'r' ? std::atoi(e.key.c_str() + 1) : -1;
        if (r >= warmup_) rec_->Seen(r - warmup_, index_, now);
      }
    }
    out.status.status_code = impala::TErrorCode::OK;
    out.__set_skipped(false);
  }
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) override {
    impala::TUpdateStateResponse ignored;
    UpdateState(ignored, req);
  }
  void Heartbeat(impala::THeartbeatResponse& out, const impala::THeartbeatRequest&) override {
    out.status.status_code = impala::TErrorCode::OK;
  }
  void UpdateCatalogd(impala::TUpdateCatalogdResponse& out,
                      const impala::TUpdateCatalogdRequest&) override {
    out.status.status_code = impala::TErrorCode::OK;
  }
  void UpdateStatestoredRole(impala::TUpdateStatestoredRoleResponse& out,
                             const impala::TUpdateStatestoredRoleRequest&) override {
    out.status.status_code = impala::TErrorCode::OK;
  }

 private:
  FanoutRecorder* const rec_;
  const int index_;
  const int warmup_;
};

// One receiver: listens on a free loopback port, serves the one connection
// it accepts until the sender closes it.
class ReceiverThread {
 public:
  ReceiverThread(FanoutRecorder* rec, int index, int warmup)
      : socket_(std::make_shared<TServerSocket>("127.0.0.1", 0)),
        processor_(std::make_shared<impala::StatestoreSubscriberProcessor>(
            std::make_shared<Receiver>(rec, index, warmup))) {
    socket_->listen();
    port_ = socket_->getPort();
    thread_ = std::thread([this] { Serve(); });
  }
  ~ReceiverThread() {
    socket_->interrupt();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  void Serve() {
    try {
      std::shared_ptr<TTransport> conn = socket_->accept();
      auto t = std::make_shared<TBufferedTransport>(conn);
      auto p = std::make_shared<TBinaryProtocol>(t);
      while (processor_->process(p, p, nullptr)) {
      }
      t->close();
    } catch (const std::exception&) {
      // The sender closed the connection (end of the size) or the
      // listener was interrupted: either way this receiver is done.
    }
  }

  std::shared_ptr<TServerSocket> socket_;
  std::shared_ptr<impala::StatestoreSubscriberProcessor> processor_;
  int port_ = 0;
  std::thread thread_;
};

void FanOut(int n) {
  const int warmup = std::max(0, FLAGS_warmup_rounds);
  FanoutRecorder rec(FLAGS_rounds, n);
  std::vector<std::unique_ptr<ReceiverThread>> receivers;
  std::vector<std::shared_ptr<TTransport>> transports;
  std::vector<std::unique_ptr<impala::StatestoreSubscriberClient>> clients;
  for (int i = 0; i < n; ++i) {
    receivers.push_back(std::make_unique<ReceiverThread>(&rec, i, warmup));
    auto sock = std::make_shared<TSocket>("127.0.0.1", receivers.back()->port());
    sock->setNoDelay(true);
    auto t = std::make_shared<TBufferedTransport>(sock);
    t->open();
    transports.push_back(t);
    clients.push_back(std::make_unique<impala::StatestoreSubscriberClient>(
        std::make_shared<TBinaryProtocol>(t)));
  }
  impala::TUpdateStateRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  req.__set_registration_id(impala::TUniqueId());
  impala::TTopicDelta& d = req.topic_deltas[kTopic];
  d.topic_name = kTopic;
  d.is_delta = true;
  d.topic_entries.resize(1);
  d.topic_entries[0].value.assign(static_cast<size_t>(std::max(1, FLAGS_payload_bytes)), 'x');
  impala::TUpdateStateResponse resp;
  std::optional<ics::bench::CpuWindow> cpu;  // this thread is the sender
  for (int r = 0; r < warmup + FLAGS_rounds; ++r) {
    if (r == warmup) cpu.emplace(0);
    d.from_version = r;
    d.to_version = r + 1;
    d.topic_entries[0].key = "r" + std::to_string(r);
    if (r >= warmup) rec.Begin(r - warmup);
    for (auto& c : clients) c->send_UpdateState(req);
    for (auto& c : clients) c->recv_UpdateState(resp);
    if (r >= warmup) rec.WaitAll(r - warmup, std::chrono::seconds(10));
  }
  if (cpu) cpu->Report("thrift_fanout", n, FLAGS_rounds);
  std::printf("thrift_fanout n%d_payload_bytes: %zu bytes\n", n, d.topic_entries[0].value.size());
  rec.Report("thrift_fanout");
  for (auto& t : transports) t->close();
  receivers.clear();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  signal(SIGPIPE, SIG_IGN);
  const std::optional<std::vector<int>> sizes = ics::bench::ParseFanoutSizes(FLAGS_sizes);
  if (!sizes) return 2;
  for (int n : *sizes) FanOut(n);
  return 0;
}
