// SubscriberChannel: one RPC connection from the broker to a subscriber (its
// UpdateState calls, or its Heartbeat calls) with a hard bound on how long a
// call can hold the calling worker.
//
// A call has two phases, each bounded:
//  * connecting: by the client's connect_timeout_ms (TSocket polls a
//    non-blocking connect, so a black-hole address or a listener whose
//    backlog is full costs at most that, per resolved address);
//  * the exchange (send request, read reply): by `exchange_timeout_ms` in
//    total. The socket send/receive timeouts bound each send/recv; on top,
//    the broker's timer calls InterruptIfOverdue() so a peer that trickles
//    bytes (each recv within the socket timeout) or reads slowly cannot
//    stretch one call beyond the deadline.
// An interrupted connection cannot be reopened (ThriftConnection::Interrupt),
// so after a deadline interrupt the channel builds a fresh client; after
// Close() it refuses every call.
//
// Thread-safety: Call() is used by one thread at a time (the worker holding
// the subscriber's job of this kind); InterruptIfOverdue() and Close() may be
// called from any thread, also while a Call() runs.
// Lock order: mu_ is terminal (the broker's timer takes it under the
// broker lock; nothing is locked while it is held).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "StatestoreSubscriber.h"
#include "common/rpc/thrift_client.h"
#include "common/util/mutex.h"
#include "common/util/status.h"

namespace ics::statestore {

class SubscriberChannel {
 public:
  using Client = ThriftClient<impala::StatestoreSubscriberClient>;
  using TimePoint = std::chrono::steady_clock::time_point;

  SubscriberChannel(std::string host, int port, ThriftClientOptions options,
                    int exchange_timeout_ms);
  SubscriberChannel(const SubscriberChannel&) = delete;
  SubscriberChannel& operator=(const SubscriberChannel&) = delete;

  // Runs one RPC, `fn(impala::StatestoreSubscriberClient&)`, connecting
  // first if needed. Transport errors, deadline interrupts and calls after
  // Close() come back as a non-OK Status.
  template <typename Fn>
  [[nodiscard]] Status Call(const char* rpc_name, Fn&& fn) EXCLUDES(mu_) {
    Status s = Start(rpc_name, std::forward<Fn>(fn));
    if (!s.ok()) return s;
    return Finish(rpc_name, [](impala::StatestoreSubscriberClient&) {});
  }

  // Call() in two halves, so that one worker can have several exchanges in
  // flight: Start() connects if needed and runs `send` (a generated send_X);
  // Finish() runs `receive` (the matching recv_X) on the same connection.
  // The exchange deadline covers both. After a Start() that returned OK the
  // caller must call Finish() (before the next Start()); after a failed
  // Start() it must not.
  template <typename Fn>
  [[nodiscard]] Status Start(const char* rpc_name, Fn&& send) EXCLUDES(mu_) {
    Client* client = CurrentClient();
    if (client == nullptr) return ClosedStatus(rpc_name);
    // Only this thread replaces the client (in EndExchange), so the pointer
    // stays valid until then; Close()/InterruptIfOverdue() only interrupt it.
    Status s = client->connection().Open();
    if (!s.ok()) return s;
    if (!BeginExchange()) return ClosedStatus(rpc_name);
    s = client->Call(rpc_name, std::forward<Fn>(send));
    if (!s.ok()) return EndExchange(rpc_name, std::move(s));
    return s;
  }
  template <typename Fn>
  [[nodiscard]] Status Finish(const char* rpc_name, Fn&& receive) EXCLUDES(mu_) {
    Client* client = CurrentClient();
    Status s = client == nullptr ? ClosedBeforeReplyStatus(rpc_name)
                                 : client->Continue(rpc_name, std::forward<Fn>(receive));
    return EndExchange(rpc_name, std::move(s));
  }

  // A oneway call: Start(), and the exchange ends once `send` (a generated
  // send_X of a oneway method) has written and flushed the message. OK
  // means the message is in the connection, not that the peer read it.
  template <typename Fn>
  [[nodiscard]] Status Send(const char* rpc_name, Fn&& send) EXCLUDES(mu_) {
    Status s = Start(rpc_name, std::forward<Fn>(send));
    if (!s.ok()) return s;
    return EndExchange(rpc_name, std::move(s));
  }

  // Between Start() and Finish(): the descriptor to poll() for the reply
  // (readable, or hung up once the deadline interrupt shut it down); -1 if
  // the channel is closed or the connection is gone, when Finish() fails at
  // once.
  int ReplyFd() EXCLUDES(mu_);

  // Interrupts the exchange in progress if it has passed its deadline.
  // Returns true if it did.
  bool InterruptIfOverdue(TimePoint now) EXCLUDES(mu_);

  // The exchange deadline of the calls that start from now on; it bounds
  // their connecting too (a stopped peer whose accept queue is full makes a
  // connect wait). Called by the thread that makes the calls, between them.
  void SetExchangeTimeout(std::chrono::milliseconds timeout) EXCLUDES(mu_);

  // Interrupts any call in progress and fails every later one (the
  // registration ended, or the broker is shutting down). Idempotent.
  void Close() EXCLUDES(mu_);

 private:
  std::unique_ptr<Client> MakeClient() const REQUIRES(mu_);
  Client* CurrentClient() EXCLUDES(mu_);
  bool BeginExchange() EXCLUDES(mu_);
  Status EndExchange(const char* rpc_name, Status s) EXCLUDES(mu_);
  Status ClosedStatus(const char* rpc_name) const;
  Status ClosedBeforeReplyStatus(const char* rpc_name) const;

  const std::string host_;
  const int port_;
  const ThriftClientOptions options_;
  Mutex mu_;  // terminal
  std::chrono::milliseconds exchange_timeout_ GUARDED_BY(mu_);
  int connect_timeout_ms_ GUARDED_BY(mu_);
  std::unique_ptr<Client> client_ GUARDED_BY(mu_);
  bool in_exchange_ GUARDED_BY(mu_) = false;
  TimePoint deadline_ GUARDED_BY(mu_);
  bool overdue_ GUARDED_BY(mu_) = false;  // the exchange in progress was interrupted
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace ics::statestore
