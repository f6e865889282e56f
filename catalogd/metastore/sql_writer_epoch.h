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

// In one write transaction of its own: the claim's rule
// (Metastore::AcquireWriterEpoch): epoch + 1 or a re-key for the claim, or
// CATALOG_IN_STANDBY_MODE with nothing changed.
Result<WriterEpoch> ClaimWriterEpoch(Connection* conn, const WriterEpochClaim& claim);

}  // namespace ics::catalog::sqldb
