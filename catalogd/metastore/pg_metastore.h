// The PostgreSQL metastore: the SQL metastore (sql_metastore.h) over
// PostgreSQL, the production store several catalogd processes can share.
//
// URI (--metastore):
//   postgresql://user[:password]@host[:port]/dbname[?param=value&...]
// ("postgres://" too). This project's own parameters:
//   pool_size             sessions kept open, 1..64 (default 8)
//   statement_timeout_ms  bound on every statement and lock wait, 100..3600000
//                         (default 30000); also the TCP user timeout
//   acquire_timeout_ms    bound on waiting for a free session, 1..3600000
//                         (default 30000)
// Every other parameter is libpq's and passed through (sslmode, sslrootcert,
// sslcert, sslkey, passfile, connect_timeout, application_name, ...). When
// absent: connect_timeout=10, TCP keepalives on (idle 10 s, interval 5 s,
// count 3), application_name=catalogd, and, for a host that is not the
// loopback or a Unix socket, sslmode=verify-full (secure by default; say
// sslmode=... explicitly to choose otherwise). Prefer a passfile to a
// password in the URI, which other local users can read from the process
// list.
//
// Schema: the same tables as the SQLite file (sqlite_schema.h) with
// PostgreSQL types, names in the "C" collation (byte order, as SQLite
// sorts), every lookup by primary key; created in an empty database,
// refused if the database holds a newer version or foreign tables of the
// same names. Several processes may open one database at once (schema
// creation runs under an advisory lock).
//
// Thread-safety: the returned Metastore is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/pg_db.h"
#include "common/util/result.h"

namespace ics::catalog {

// True for postgresql:// and postgres:// URIs.
bool IsPostgresUri(std::string_view uri);

// INVALID_ARGUMENT naming the parameter for a malformed URI or value.
Result<pg::PgOptions> ParsePostgresUri(const std::string& uri);

// Connects, creates or checks the schema and returns the metastore; the
// status names the server (never the password) when it cannot.
Result<std::unique_ptr<Metastore>> OpenPostgresMetastore(const std::string& uri);

}  // namespace ics::catalog
