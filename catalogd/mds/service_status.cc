#include "catalogd/mds/service_status.h"

namespace ics::catalog::mds {

using thrift::TMetastoreServiceErrorCode;

thrift::TMetastoreServiceStatus ToServiceStatus(const Status& s) {
  thrift::TMetastoreServiceStatus out;
  switch (s.code()) {
    case ErrorCode::kOk:
      out.code = TMetastoreServiceErrorCode::OK;
      return out;
    case ErrorCode::kInvalidArgument:
      out.code = TMetastoreServiceErrorCode::INVALID_ARGUMENT;
      break;
    case ErrorCode::kNotFound:
      out.code = TMetastoreServiceErrorCode::NOT_FOUND;
      break;
    case ErrorCode::kAlreadyExists:
      out.code = TMetastoreServiceErrorCode::ALREADY_EXISTS;
      break;
    case ErrorCode::kLimitExceeded:
      out.code = TMetastoreServiceErrorCode::RESOURCE_EXHAUSTED;
      break;
    case ErrorCode::kRecoverableError:
      out.code = TMetastoreServiceErrorCode::FAILED_PRECONDITION;
      break;
    case ErrorCode::kCancelled:
      out.code = TMetastoreServiceErrorCode::ABORTED;
      break;
    case ErrorCode::kNotImplemented:
      out.code = TMetastoreServiceErrorCode::NOT_IMPLEMENTED;
      break;
    case ErrorCode::kShutdown:
      out.code = TMetastoreServiceErrorCode::UNAVAILABLE;
      break;
    default:
      out.code = TMetastoreServiceErrorCode::INTERNAL;
      break;
  }
  out.__set_message(s.message());
  return out;
}

thrift::TMetastoreServiceStatus ToServiceStatusWithBatchLimit(const Status& s,
                                                              size_t max_batch_size) {
  thrift::TMetastoreServiceStatus out = ToServiceStatus(s);
  if (s.Is(ErrorCode::kLimitExceeded)) {
    thrift::TBatchSizeTooLargeError e;
    e.max_batch_size = static_cast<int64_t>(max_batch_size);
    e.__set_error_message(s.message());
    out.__set_batch_size_too_large(std::move(e));
  }
  return out;
}

}  // namespace ics::catalog::mds
