// Status: the result of an operation that can fail, without exceptions.
//
// A Status is either OK or carries an error code and a human-readable message.
// The numeric codes below ErrorCode::kFirstLocal are the same as Impala's
// TErrorCode, so a Status converts to a wire TStatus without a table; codes at
// or above it are finer-grained local categories that map to GENERAL on the
// wire (see common/rpc/status_convert.h).
//
// Thread-safety: a Status is a value type; distinct objects may be used from
// different threads freely.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace ics {

enum class ErrorCode : int32_t {
  kOk = 0,
  kGeneral = 2,
  kCancelled = 3,
  kAnalysisError = 4,
  kNotImplemented = 5,
  kRuntimeError = 6,
  kMemLimitExceeded = 7,
  kInternalError = 8,
  kRecoverableError = 9,
  kRpcRecvTimeout = 31,
  kLz4CompressionInputTooLarge = 113,
  kCatalogIncompatibleProtocol = 157,
  kStatestoreIncompatibleProtocol = 158,
  kCatalogInStandbyMode = 165,

  // Local categories (never sent as-is; they travel as GENERAL).
  kFirstLocal = 10000,
  kNotFound = 10000,
  kAlreadyExists = 10001,
  kInvalidArgument = 10002,
  kCorruption = 10003,
  kTimedOut = 10004,
  kNetworkError = 10005,
  kIoError = 10006,
  kLimitExceeded = 10007,
  kShutdown = 10008,
};

// Returns a short name of the code, e.g. "NOT_FOUND".
std::string_view ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  // OK status. Cheap: holds no allocation.
  Status() = default;
  Status(ErrorCode code, std::string msg);

  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return {ErrorCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {ErrorCode::kAlreadyExists, std::move(msg)}; }
  static Status InvalidArgument(std::string msg) { return {ErrorCode::kInvalidArgument, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {ErrorCode::kCorruption, std::move(msg)}; }
  static Status TimedOut(std::string msg) { return {ErrorCode::kTimedOut, std::move(msg)}; }
  static Status NetworkError(std::string msg) { return {ErrorCode::kNetworkError, std::move(msg)}; }
  static Status IoError(std::string msg) { return {ErrorCode::kIoError, std::move(msg)}; }
  static Status LimitExceeded(std::string msg) { return {ErrorCode::kLimitExceeded, std::move(msg)}; }
  static Status NotImplemented(std::string msg) { return {ErrorCode::kNotImplemented, std::move(msg)}; }
  static Status Internal(std::string msg) { return {ErrorCode::kInternalError, std::move(msg)}; }
  static Status Shutdown(std::string msg) { return {ErrorCode::kShutdown, std::move(msg)}; }
  static Status General(std::string msg) { return {ErrorCode::kGeneral, std::move(msg)}; }

  bool ok() const { return rep_ == nullptr; }
  ErrorCode code() const { return rep_ ? rep_->code : ErrorCode::kOk; }
  // The message without the code name; empty for OK.
  const std::string& message() const;
  // "NOT_FOUND: table x.y does not exist", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context` + ": ".
  Status WithContext(std::string_view context) const;

  bool Is(ErrorCode c) const { return code() == c; }

 private:
  struct Rep {
    ErrorCode code;
    std::string msg;
  };
  std::unique_ptr<Rep> rep_;
};

}  // namespace ics

// Returns from the enclosing function if `expr` yields a non-OK Status.
#define ICS_RETURN_IF_ERROR(expr)          \
  do {                                     \
    ::ics::Status _ics_s = (expr);         \
    if (!_ics_s.ok()) return _ics_s;       \
  } while (false)
