// The PostgreSQL metastore's schema: the tables of sqlite_schema.h with
// PostgreSQL types (BIGINT, BYTEA, TEXT in the "C" collation), at the same
// schema version, created or checked under an advisory lock so that
// several processes may open one new database at once.
//
// Thread-safety: takes the connection; the caller serializes its use.
#pragma once

#include "catalogd/metastore/pg_db.h"
#include "common/util/status.h"

namespace ics::catalog::pg {

// Creates the schema in a database without it; accepts the current
// version; INVALID_ARGUMENT for a newer version (a newer build wrote it) or
// for a database that has tables of these names but no schema_version (not
// a metastore); CORRUPTION for a missing, duplicated or impossible version
// row.
[[nodiscard]] Status InitSchema(Connection* conn);

}  // namespace ics::catalog::pg
