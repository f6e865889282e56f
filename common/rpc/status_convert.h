// Conversions between Status and the wire TStatus (Status.thrift).
//
// Codes that exist in TErrorCode travel as themselves; the finer local
// categories (NOT_FOUND, INVALID_ARGUMENT, ...) travel as GENERAL with the
// message unchanged. FromTStatus maps a wire error back to a Status with the
// same numeric code when it is one we know, GENERAL otherwise, joining all
// error messages.
//
// Thread-safety: stateless.
#pragma once

#include "Status_types.h"
#include "common/util/status.h"

namespace ics {

impala::TStatus ToTStatus(const Status& status);
Status FromTStatus(const impala::TStatus& status);

}  // namespace ics
