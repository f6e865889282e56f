#include "statestore/subscriber_channel.h"

#include <algorithm>

namespace ics::statestore {

SubscriberChannel::SubscriberChannel(std::string host, int port, ThriftClientOptions options,
                                     int exchange_timeout_ms)
    : host_(std::move(host)),
      port_(port),
      options_(std::move(options)),
      exchange_timeout_(exchange_timeout_ms),
      connect_timeout_ms_(options_.connect_timeout_ms) {
  MutexLock l(&mu_);
  client_ = MakeClient();
}

std::unique_ptr<SubscriberChannel::Client> SubscriberChannel::MakeClient() const {
  ThriftClientOptions o = options_;
  o.connect_timeout_ms = connect_timeout_ms_;
  return std::make_unique<Client>(host_, port_, o);
}

SubscriberChannel::Client* SubscriberChannel::CurrentClient() {
  MutexLock l(&mu_);
  return closed_ ? nullptr : client_.get();
}

bool SubscriberChannel::BeginExchange() {
  MutexLock l(&mu_);
  if (closed_) return false;
  in_exchange_ = true;
  overdue_ = false;
  deadline_ = std::chrono::steady_clock::now() + exchange_timeout_;
  return true;
}

Status SubscriberChannel::EndExchange(const char* rpc_name, Status s) {
  MutexLock l(&mu_);
  in_exchange_ = false;
  if (!overdue_) return s;
  overdue_ = false;
  // The interrupted connection stays dead; the next call needs a new one.
  if (!closed_) client_ = MakeClient();
  if (s.ok()) return s;  // the reply made it just before the interrupt
  return Status::TimedOut(std::string(rpc_name) + " to " + host_ + ":" + std::to_string(port_) +
                          " was cut off at its deadline of " +
                          std::to_string(exchange_timeout_.count()) + " ms (" + s.ToString() + ")");
}

void SubscriberChannel::SetExchangeTimeout(std::chrono::milliseconds timeout) {
  MutexLock l(&mu_);
  if (timeout == exchange_timeout_) return;
  exchange_timeout_ = timeout;
  const int connect_ms =
      std::max(1, std::min(options_.connect_timeout_ms, static_cast<int>(timeout.count())));
  if (connect_ms == connect_timeout_ms_) return;
  connect_timeout_ms_ = connect_ms;
  // A client with the new connect bound (the caller makes no call now).
  if (!closed_ && !in_exchange_) client_ = MakeClient();
}

bool SubscriberChannel::InterruptIfOverdue(TimePoint now) {
  MutexLock l(&mu_);
  if (!in_exchange_ || overdue_ || closed_ || now < deadline_) return false;
  overdue_ = true;
  client_->connection().Interrupt();
  return true;
}

void SubscriberChannel::Close() {
  MutexLock l(&mu_);
  closed_ = true;
  client_->connection().Interrupt();
}

Status SubscriberChannel::ClosedStatus(const char* rpc_name) const {
  return Status::Shutdown(std::string(rpc_name) + " to " + host_ + ":" + std::to_string(port_) +
                          " not sent: the registration has ended");
}

int SubscriberChannel::ReplyFd() {
  MutexLock l(&mu_);
  return closed_ ? -1 : client_->connection().fd();
}

Status SubscriberChannel::ClosedBeforeReplyStatus(const char* rpc_name) const {
  return Status::Shutdown(std::string(rpc_name) + " to " + host_ + ":" + std::to_string(port_) +
                          " was sent, but the registration ended before the reply");
}

}  // namespace ics::statestore
