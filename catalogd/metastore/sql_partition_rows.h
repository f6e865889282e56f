// Keyed rows of the SQL metastore: the one loop that runs a query and
// visits its (text col 0, blob col 1) rows, and the PartitionReaders over
// partition rows packed outside the heap (packed_rows.h): all read at once,
// or streamed while they are taken.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "catalogd/metastore/connection_pool.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/packed_rows.h"
#include "catalogd/metastore/sql_db.h"
#include "common/util/result.h"
#include "common/util/status.h"

namespace ics::catalog {

// Runs `sql` with `keys` bound to ?1..?n and calls visit(key, blob) for
// every row; the views are valid during the call only. The first error of
// the query or of `visit` ends it.
[[nodiscard]] Status ForEachKeyedRow(
    sqldb::Connection* conn, const std::string& sql, std::initializer_list<std::string_view> keys,
    const std::function<Status(std::string_view key, std::string_view blob)>& visit);

// A reader that decodes the partition rows of db.table (key = partition
// name, blob = the stored Partition without its db and table names) when
// taken, restores those names, and releases each row once decoded.
std::unique_ptr<PartitionReader> PackedPartitionReader(PackedRows rows, std::string db,
                                                       std::string table);

// Where a streamed read puts its rows, in order (StreamedPartitionReader).
// An error (more rows than counted, the reader gone) ends the read.
using PartitionRowSink = std::function<Status(std::string_view key, std::string_view blob)>;

// Like PackedPartitionReader over `count` rows, which `read` adds to its
// sink on a thread of its own while they are taken: decoding and building
// overlap the metastore read instead of waiting for all of it. `count` must
// come from the snapshot `read` reads. Take/Peek/Skip of row i wait until
// row i is read; if the read failed, or ended short of the count, Take
// returns that error and Peek nullopt. Destroying the reader stops the read
// and joins its thread.
std::unique_ptr<PartitionReader> StreamedPartitionReader(
    size_t count, std::function<Status(const PartitionRowSink&)> read, std::string db,
    std::string table);

// The partition rows of db.table (table `partitions`), in one read
// transaction on `lease` that checks the table first (`check_table`, e.g.
// NOT_FOUND), then counts and reads the rows: a small table here, one of
// kStreamedPartitionsMin partitions or more with StreamedPartitionReader
// (same connection, same transaction) while its first rows are decoded.
inline constexpr size_t kStreamedPartitionsMin = 1024;
Result<std::unique_ptr<PartitionReader>> ReadPartitionRows(
    sqldb::ConnectionPool::Lease lease, const std::string& db, const std::string& table,
    const std::function<Status(sqldb::Connection*)>& check_table);

}  // namespace ics::catalog
