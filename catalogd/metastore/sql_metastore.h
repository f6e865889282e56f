// The SQL metastore: the Metastore (metastore.h) over the SQL database layer
// (sql_db.h), one implementation for both drivers. Private to the metastore;
// the public ways in are OpenSqliteMetastore (metastore.h) and
// OpenPostgresMetastore (pg_metastore.h).
//
// Reads: every call leases a session from the pool and reads in one read
// transaction (one snapshot), copying rows out as blobs; decoding happens
// after the lease ends.
//
// Commits: one write transaction per MetastoreTxn (TxnApplier, txn_applier.h).
// A write transaction excludes every other writer of the database from its
// BEGIN (sql_db.h), so preconditions checked inside it still hold at COMMIT
// and commits are serialized.
//
// Event ids: notification_sequence holds the last id handed out; a commit
// reads it, numbers its events from there and stores the new last id, all
// inside its write transaction. Since writers are serialized, ids are
// assigned in commit order: once a reader has seen event N, every later
// commit gets ids above N (no id <= N can appear later), even with several
// processes writing through one database. A rolled back commit takes its ids
// back with it, so ids are contiguous.
//
// Thread-safety: thread-safe (the pool serializes use of each session).
#pragma once

#include <memory>

#include "catalogd/metastore/connection_pool.h"
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

// A Metastore over `pool`, whose database already has the current schema.
std::unique_ptr<Metastore> NewSqlMetastore(std::unique_ptr<sqldb::ConnectionPool> pool);

}  // namespace ics::catalog
