// The writer epoch row of the SQL metastore (catalogd HA fencing,
// metastore.h "writer epochs"): reading it and taking the next epoch. Private
// to the SQL metastore.
//
// Thread-safety: functions take the connection; callers serialize its use.
#pragma once

#include <string>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/sql_db.h"

namespace ics::catalog::sqldb {

// The row, read on `conn` (inside the caller's transaction, if any).
// CORRUPTION when the row is missing.
Result<WriterEpoch> ReadWriterEpochRow(Connection* conn);

// In one write transaction of its own: epoch + 1, owned by `owner`, now.
Result<WriterEpoch> TakeNextWriterEpoch(Connection* conn, const std::string& owner);

}  // namespace ics::catalog::sqldb
