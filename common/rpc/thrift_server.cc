#include "common/rpc/thrift_server.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <glog/logging.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include "common/metrics/metrics.h"
#include "common/rpc/bind_policy.h"
#include "common/rpc/server_connection.h"

namespace ics {

using apache::thrift::transport::TServerSocket;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportException;

namespace {

// A connection that never sent a byte is evictable once this old (the
// kernel hands us a connection only when its first bytes have arrived or
// its TCP_DEFER_ACCEPT period has passed, so a real client is past this by
// the time it could be chosen).
constexpr int64_t kMinSilentAgeMs = 100;

std::unique_ptr<ThriftServer::Counters> MakeCounters(const ThriftServerOptions& o) {
  auto c = std::make_unique<ThriftServer::Counters>();
  metrics::MetricRegistry* r = o.metrics;
  if (r == nullptr) {
    c->own_registry = std::make_unique<metrics::MetricRegistry>();
    r = c->own_registry.get();
  }
  const metrics::Labels labels = {{"server", o.name}};
  c->accepted = r->AddCounter("thrift_server_connections_accepted_total",
                              "Connections accepted by the Thrift server.", labels);
  c->refused = r->AddCounter("thrift_server_connections_refused_total",
                             "Connections answered 'server busy' because every slot was busy.",
                             labels);
  c->evicted = r->AddCounter("thrift_server_connections_evicted_total",
                             "Idle connections closed to make room for a new one.", labels);
  c->rejected = r->AddCounter(
      "thrift_server_requests_rejected_total",
      "Requests rejected while being read: malformed, truncated, over the size or memory "
      "budget, or failing with an exception.",
      labels);
  c->timeouts = r->AddCounter("thrift_server_timeouts_total",
                              "Connections closed because the idle or request deadline passed.",
                              labels);
  c->handshake_failures =
      r->AddCounter("thrift_server_tls_handshake_failures_total",
                    "TLS connections closed because the handshake failed (no or untrusted client "
                    "certificate, plaintext peer, protocol or cipher mismatch) or timed out.",
                    labels);
  c->active = r->AddGauge("thrift_server_connections", "Connections being served now.", labels);
  return c;
}

// A listener whose accepted connections speak TLS.
class TlsServerSocket : public TServerSocket {
 public:
  TlsServerSocket(const std::string& host, int port, std::shared_ptr<const TlsContext> tls,
                  std::shared_ptr<apache::thrift::TConfiguration> config)
      : TServerSocket(host, port), tls_(std::move(tls)), config_(std::move(config)) {}

 protected:
  std::shared_ptr<TSocket> createSocket(THRIFT_SOCKET client) override {
    return tls_->AcceptedSocket(client, interruptableChildren_ ? pChildInterruptSockReader_ : nullptr,
                                config_);
  }

 private:
  const std::shared_ptr<const TlsContext> tls_;
  const std::shared_ptr<apache::thrift::TConfiguration> config_;
};

}  // namespace

ThriftServer::ThriftServer(std::shared_ptr<apache::thrift::TProcessor> processor,
                           ThriftServerOptions options)
    : processor_(std::move(processor)),
      options_(std::move(options)),
      counters_(MakeCounters(options_)) {}

ThriftServer::~ThriftServer() { Stop(); }

ThriftServerStats ThriftServer::stats() const {
  ThriftServerStats s;
  s.connections_accepted = counters_->accepted->value();
  s.connections_active = counters_->active->value();
  s.connections_refused = counters_->refused->value();
  s.connections_evicted = counters_->evicted->value();
  s.requests_rejected = counters_->rejected->value();
  s.timeouts = counters_->timeouts->value();
  s.tls_handshake_failures = counters_->handshake_failures->value();
  return s;
}

Status ThriftServer::Start() {
  MutexLock l(&mu_);
  if (socket_ != nullptr || stopping_) {
    return Status::Internal(options_.name + " already started");
  }
  const std::shared_ptr<const TlsContext>& tls = options_.security.tls;
  if (tls != nullptr && !tls->can_serve()) {
    return Status::InvalidArgument(options_.name +
                                   ": TLS is configured without a server certificate and key");
  }
  ICS_RETURN_IF_ERROR(CheckBindAllowed(options_.name, options_.bind_host, tls != nullptr,
                                       options_.security.allow_plaintext_remote));
  std::shared_ptr<TServerSocket> socket;
  if (tls != nullptr) {
    const int limit = static_cast<int>(std::min<int64_t>(options_.max_message_bytes, INT32_MAX));
    socket = std::make_shared<TlsServerSocket>(
        options_.bind_host, options_.port, tls,
        std::make_shared<apache::thrift::TConfiguration>(limit, limit));
  } else {
    socket = std::make_shared<TServerSocket>(options_.bind_host, options_.port);
  }
  socket->setSendTimeout(options_.send_timeout_ms);
  socket->setInterruptableChildren(true);
  try {
    socket->listen();
  } catch (const TTransportException& e) {
    return Status::NetworkError(options_.name + ": cannot listen on " + options_.bind_host + ":" +
                                std::to_string(options_.port) + ": " + e.what());
  }
  port_ = socket->getPort();
  socket_ = socket;
  accept_thread_ = std::thread([this] { AcceptLoop(); });
  LOG(INFO) << options_.name << " listening on " << options_.bind_host << ":" << port_.load()
            << (tls == nullptr                                    ? " (plaintext)"
                : tls->options().require_client_certificate ? " (TLS, client certificates required)"
                                                            : " (TLS)");
  return Status::OK();
}

void ThriftServer::AcceptLoop() {
  std::shared_ptr<TServerSocket> socket;
  {
    MutexLock l(&mu_);
    socket = socket_;
  }
  while (!stopping_) {
    std::shared_ptr<TTransport> client;
    try {
      client = socket->accept();
    } catch (const TTransportException& e) {
      if (stopping_ || e.getType() == TTransportException::INTERRUPTED) break;
      // E.g. out of file descriptors: back off instead of spinning.
      LOG_EVERY_N(WARNING, 100) << options_.name << ": accept failed: " << e.what();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    } catch (const std::exception& e) {
      LOG(ERROR) << options_.name << ": accept failed: " << e.what();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    ReapFinished();
    if (stopping_) {
      client->close();
      break;
    }
    counters_->accepted->Increment();
    VLOG(2) << options_.name << ": accepted a connection";
    if (!MakeRoom()) {
      counters_->refused->Increment();
      if (options_.security.tls != nullptr) {
        client->close();
        continue;
      }
      RefuseConnection(std::static_pointer_cast<TSocket>(client),
                       options_.name + " is busy: all " + std::to_string(options_.max_connections) +
                           " connections are serving requests; try again later");
      continue;
    }
    StartConnection(std::move(client));
  }
}

bool ThriftServer::MakeRoom() {
  MutexLock l(&mu_);
  int live = 0;
  // Two kinds of candidates: connections that never sent a byte (a flood, or
  // a peer that connected and went away), and connections idle between
  // requests (pooled clients), which are kept a little longer.
  Connection* silent = nullptr;
  Connection* idle = nullptr;
  for (const auto& c : connections_) {
    if (c->done || c->evicted) continue;
    ++live;
    if (!c->idle) continue;
    Connection*& slot = c->active_once ? idle : silent;
    if (slot == nullptr || c->idle_since_ms < slot->idle_since_ms) slot = c.get();
  }
  if (live < options_.max_connections) return true;
  const int64_t now = SteadyNowMs();
  Connection* victim = nullptr;
  if (silent != nullptr && now - silent->idle_since_ms >= kMinSilentAgeMs) {
    victim = silent;
  } else if (idle != nullptr && now - idle->idle_since_ms >= options_.min_idle_ms_to_evict) {
    victim = idle;
  }
  if (victim == nullptr) return false;
  victim->evicted = true;
  victim->Shutdown();
  counters_->evicted->Increment();
  return true;
}

void ThriftServer::StartConnection(std::shared_ptr<TTransport> client) {
  auto conn = std::make_shared<Connection>(std::static_pointer_cast<TSocket>(std::move(client)));
  conn->idle_since_ms = SteadyNowMs();
  counters_->active->Add(1);
  MutexLock l(&mu_);
  connections_.push_back(conn);
  conn->thread = std::thread([this, c = conn.get()] {
    ServeConnection(processor_, options_, *counters_, *c);
    c->CloseSocket();
    counters_->active->Add(-1);
    c->done = true;
  });
}

void ThriftServer::ReapFinished() {
  std::vector<std::shared_ptr<Connection>> finished;
  {
    MutexLock l(&mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->done) {
        finished.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : finished) c->thread.join();
}

void ThriftServer::Stop() {
  stopping_ = true;
  std::shared_ptr<TServerSocket> socket;
  std::thread accept_thread;
  {
    MutexLock l(&mu_);
    socket = socket_;
    accept_thread = std::move(accept_thread_);
  }
  if (socket == nullptr) return;
  socket->interrupt();
  if (accept_thread.joinable()) accept_thread.join();
  socket->interruptChildren();
  std::list<std::shared_ptr<Connection>> connections;
  {
    MutexLock l(&mu_);
    connections.swap(connections_);
  }
  for (auto& c : connections) c->Shutdown();
  for (auto& c : connections) c->thread.join();
  try {
    socket->close();
  } catch (const std::exception&) {
    // Closing a listener that failed may throw; it is gone either way.
  }
  {
    MutexLock l(&mu_);
    if (socket_ == socket) socket_.reset();
  }
  LOG(INFO) << options_.name << " stopped";
}

}  // namespace ics
