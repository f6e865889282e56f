#include "common/rpc/status_convert.h"

namespace ics {

impala::TStatus ToTStatus(const Status& status) {
  impala::TStatus out;
  const auto code = static_cast<int32_t>(status.code());
  if (status.ok()) {
    out.status_code = impala::TErrorCode::OK;
    return out;
  }
  out.status_code = code >= static_cast<int32_t>(ErrorCode::kFirstLocal)
                        ? impala::TErrorCode::GENERAL
                        : static_cast<impala::TErrorCode::type>(code);
  out.__set_error_msgs({status.message()});
  return out;
}

Status FromTStatus(const impala::TStatus& status) {
  if (status.status_code == impala::TErrorCode::OK) return Status::OK();
  std::string msg;
  for (const auto& m : status.error_msgs) {
    if (!msg.empty()) msg += "; ";
    msg += m;
  }
  if (msg.empty()) msg = "error code " + std::to_string(static_cast<int>(status.status_code));
  const auto code = static_cast<ErrorCode>(status.status_code);
  // A known wire code keeps its identity; anything else is GENERAL.
  const bool known = !ErrorCodeName(code).empty() && ErrorCodeName(code) != "UNKNOWN" &&
                     static_cast<int32_t>(code) < static_cast<int32_t>(ErrorCode::kFirstLocal);
  return Status(known ? code : ErrorCode::kGeneral, std::move(msg));
}

}  // namespace ics
