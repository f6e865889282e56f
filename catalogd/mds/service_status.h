// The wire status of catalogd's metastore services (PartitionService and
// TableService share TMetastoreServiceStatus).
//
// Status -> wire code: INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS and
// NOT_IMPLEMENTED map to themselves; LIMIT_EXCEEDED -> RESOURCE_EXHAUSTED;
// RECOVERABLE_ERROR (a stale expected version, an index still being built)
// -> FAILED_PRECONDITION; CANCELLED (an expired stream) -> ABORTED;
// SHUTDOWN -> UNAVAILABLE; the rest -> INTERNAL. A non-OK status keeps its
// message.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstddef>

#include "MetastoreServiceStatus_types.h"
#include "common/util/status.h"

namespace ics::catalog::mds {

thrift::TMetastoreServiceStatus ToServiceStatus(const Status& s);

// ToServiceStatus, and for LIMIT_EXCEEDED also batch_size_too_large naming
// `max_batch_size` (resend in batches of at most that many items).
thrift::TMetastoreServiceStatus ToServiceStatusWithBatchLimit(const Status& s,
                                                              size_t max_batch_size);

}  // namespace ics::catalog::mds
