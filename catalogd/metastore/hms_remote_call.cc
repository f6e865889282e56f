#include "catalogd/metastore/hms_remote_call.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TTransportException.h>

namespace ics::catalog {
namespace {

using apache::thrift::TApplicationException;
using apache::thrift::TException;

constexpr int kMaxBackoffMs = 2000;

bool IsTransportLevel(const TException& e) {
  return dynamic_cast<const apache::thrift::transport::TTransportException*>(&e) != nullptr ||
         dynamic_cast<const apache::thrift::protocol::TProtocolException*>(&e) != nullptr;
}

bool Contains(const std::string& text, const char* needle) {
  return text.find(needle) != std::string::npos;
}

// "NOT_FOUND: x" -> NOT_FOUND, for every code this build knows.
Status FromCodePrefix(const std::string& msg, const std::string& where) {
  static constexpr ErrorCode kCodes[] = {
      ErrorCode::kNotFound,       ErrorCode::kAlreadyExists,  ErrorCode::kInvalidArgument,
      ErrorCode::kCorruption,     ErrorCode::kTimedOut,       ErrorCode::kNetworkError,
      ErrorCode::kIoError,        ErrorCode::kLimitExceeded,  ErrorCode::kShutdown,
      ErrorCode::kNotImplemented, ErrorCode::kInternalError,  ErrorCode::kGeneral,
      ErrorCode::kAnalysisError,  ErrorCode::kRuntimeError,   ErrorCode::kCancelled};
  for (ErrorCode code : kCodes) {
    const std::string prefix = std::string(ErrorCodeName(code)) + ": ";
    if (msg.compare(0, prefix.size(), prefix) == 0) {
      return Status(code, where + msg.substr(prefix.size()));
    }
  }
  return Status::OK();
}

Status MapMetaException(const std::string& msg, const std::string& where) {
  Status coded = FromCodePrefix(msg, where);
  if (!coded.ok()) return coded;
  if (Contains(msg, "does not exist") || Contains(msg, "not found")) {
    return Status::NotFound(where + msg);
  }
  if (Contains(msg, "already exists")) return Status::AlreadyExists(where + msg);
  return Status::Internal(where + msg);
}

// Calls such as alter_table and add_partition declare no NoSuchObject or
// AlreadyExists exception, so servers report an absent or taken object with
// an InvalidOperation/InvalidObject whose message says so.
Status MapInvalid(const std::string& msg, const std::string& where) {
  if (Contains(msg, "does not exist")) return Status::NotFound(where + msg);
  if (Contains(msg, "already exists")) return Status::AlreadyExists(where + msg);
  return Status::InvalidArgument(where + msg);
}

}  // namespace

Status MapHmsException(const TException& e, const std::string& where) {
  if (auto* x = dynamic_cast<const hive::NoSuchObjectException*>(&e)) {
    return Status::NotFound(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::UnknownDBException*>(&e)) {
    return Status::NotFound(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::UnknownTableException*>(&e)) {
    return Status::NotFound(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::UnknownPartitionException*>(&e)) {
    return Status::NotFound(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::AlreadyExistsException*>(&e)) {
    return Status::AlreadyExists(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::InvalidObjectException*>(&e)) {
    return MapInvalid(x->message, where);
  }
  if (auto* x = dynamic_cast<const hive::InvalidOperationException*>(&e)) {
    return MapInvalid(x->message, where);
  }
  if (auto* x = dynamic_cast<const hive::InvalidInputException*>(&e)) {
    return Status::InvalidArgument(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::InvalidPartitionException*>(&e)) {
    return Status::InvalidArgument(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::ConfigValSecurityException*>(&e)) {
    return Status::InvalidArgument(where + x->message);
  }
  if (auto* x = dynamic_cast<const hive::MetaException*>(&e)) {
    return MapMetaException(x->message, where);
  }
  if (auto* x = dynamic_cast<const TApplicationException*>(&e)) {
    if (x->getType() == TApplicationException::UNKNOWN_METHOD) {
      return Status::NotImplemented(where + "the server does not implement this call (" +
                                    x->what() + ")");
    }
    return Status::Internal(where + "the server failed: " + x->what());
  }
  return Status::Internal(where + "unexpected exception: " + e.what());
}

HmsCaller::Attempt HmsCaller::RunStep(HmsClient& client, const char* rpc,
                                      const HmsStep& step) const {
  Status open = client.connection().Open();
  if (!open.ok()) return {std::move(open), Outcome::kNotConnected};
  const std::string where = "metastore " + pool_->options().Address() + ": " + rpc + ": ";
  Status server_error;
  Status s = client.Call(rpc, [&](HmsStub& stub) {
    try {
      step(stub);
    } catch (const TException& e) {
      if (IsTransportLevel(e)) throw;  // ThriftClient maps these and closes the connection
      server_error = MapHmsException(e, where);
    }
  });
  if (!s.ok()) return {std::move(s), Outcome::kTransport};
  if (!server_error.ok()) return {std::move(server_error), Outcome::kServerError};
  return {Status::OK(), Outcome::kOk};
}

void HmsCaller::Backoff(int attempt) const {
  const int base = pool_->options().retry_backoff_ms;
  if (base <= 0) return;
  const int64_t ms = std::min<int64_t>(kMaxBackoffMs, int64_t{base} << std::min(attempt, 20));
  thread_local std::minstd_rand rng(std::random_device{}());
  const int64_t jitter = ms / 4 == 0 ? 0 : static_cast<int64_t>(rng() % (ms / 4));
  std::this_thread::sleep_for(std::chrono::milliseconds(ms + jitter));
}

Status HmsCaller::Read(const char* rpc, const HmsStep& call) const {
  const int attempts = 1 + pool_->options().retries;
  Status last;
  for (int i = 0; i < attempts; ++i) {
    if (i > 0) Backoff(i - 1);
    ICS_ASSIGN_OR_RETURN(HmsClientPool::Lease lease, pool_->Acquire());
    Attempt a = RunStep(lease.client(), rpc, call);
    if (a.outcome == Outcome::kOk || a.outcome == Outcome::kServerError) return a.status;
    last = std::move(a.status);
    const bool retryable = last.Is(ErrorCode::kNetworkError) || last.Is(ErrorCode::kTimedOut);
    if (!retryable) break;
  }
  return last.WithContext("metastore " + pool_->options().Address() + ": " + rpc + " failed after " +
                          std::to_string(attempts) + " attempt(s)");
}

Status HmsCaller::Write(const char* rpc, const HmsStep& send, const HmsStep& recv) const {
  const int attempts = 1 + pool_->options().retries;
  Status last;
  for (int i = 0; i < attempts; ++i) {
    if (i > 0) Backoff(i - 1);
    ICS_ASSIGN_OR_RETURN(HmsClientPool::Lease lease, pool_->Acquire());
    Attempt sent = RunStep(lease.client(), rpc, send);
    if (sent.outcome == Outcome::kServerError) return sent.status;
    if (sent.outcome != Outcome::kOk) {
      // The server did not receive a whole request: nothing was applied.
      last = std::move(sent.status);
      if (last.Is(ErrorCode::kNetworkError) || last.Is(ErrorCode::kTimedOut)) continue;
      break;
    }
    Attempt reply = RunStep(lease.client(), rpc, recv);
    if (reply.outcome == Outcome::kOk || reply.outcome == Outcome::kServerError) {
      return reply.status;
    }
    return Status::IoError("metastore " + pool_->options().Address() + ": " + rpc +
                           " was sent but its reply was lost, so its outcome is unknown "
                           "(not retried): " +
                           reply.status.ToString());
  }
  return last.WithContext("metastore " + pool_->options().Address() + ": " + rpc +
                          " was not sent (nothing applied) after " + std::to_string(attempts) +
                          " attempt(s)");
}

}  // namespace ics::catalog
