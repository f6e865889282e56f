#include "common/util/status.h"

namespace ics {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kGeneral: return "GENERAL";
    case ErrorCode::kCancelled: return "CANCELLED";
    case ErrorCode::kAnalysisError: return "ANALYSIS_ERROR";
    case ErrorCode::kNotImplemented: return "NOT_IMPLEMENTED";
    case ErrorCode::kRuntimeError: return "RUNTIME_ERROR";
    case ErrorCode::kMemLimitExceeded: return "MEM_LIMIT_EXCEEDED";
    case ErrorCode::kInternalError: return "INTERNAL_ERROR";
    case ErrorCode::kRecoverableError: return "RECOVERABLE_ERROR";
    case ErrorCode::kRpcRecvTimeout: return "RPC_RECV_TIMEOUT";
    case ErrorCode::kLz4CompressionInputTooLarge: return "LZ4_COMPRESSION_INPUT_TOO_LARGE";
    case ErrorCode::kCatalogIncompatibleProtocol: return "CATALOG_INCOMPATIBLE_PROTOCOL";
    case ErrorCode::kStatestoreIncompatibleProtocol: return "STATESTORE_INCOMPATIBLE_PROTOCOL";
    case ErrorCode::kCatalogInStandbyMode: return "CATALOG_IN_STANDBY_MODE";
    case ErrorCode::kNotFound: return "NOT_FOUND";
    case ErrorCode::kAlreadyExists: return "ALREADY_EXISTS";
    case ErrorCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case ErrorCode::kCorruption: return "CORRUPTION";
    case ErrorCode::kTimedOut: return "TIMED_OUT";
    case ErrorCode::kNetworkError: return "NETWORK_ERROR";
    case ErrorCode::kIoError: return "IO_ERROR";
    case ErrorCode::kLimitExceeded: return "LIMIT_EXCEEDED";
    case ErrorCode::kShutdown: return "SHUTDOWN";
  }
  return "UNKNOWN";
}

Status::Status(ErrorCode code, std::string msg) {
  if (code != ErrorCode::kOk) rep_ = std::make_unique<Rep>(Rep{code, std::move(msg)});
}

Status::Status(const Status& other)
    : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
  return *this;
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->msg : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(ErrorCodeName(rep_->code));
  out += ": ";
  out += rep_->msg;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += rep_->msg;
  return Status(rep_->code, std::move(msg));
}

}  // namespace ics
