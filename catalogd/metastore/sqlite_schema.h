// Connection settings and the versioned schema of the SQLite metastore.
//
// The file holds one row in `schema_version`; the code knows how to create
// the schema from scratch and how to upgrade every older version to
// kSchemaVersion, one step per version, each in its own transaction. A file
// with a newer version (written by a newer build) is refused rather than
// guessed at. Tables (all keys are the lower-case names the catalog uses):
//
//   databases(name PK, obj)                     hive::Database
//   tables(db, name; PK(db, name), obj)         hive::Table
//   partitions(db, tbl, part_name; PK, obj)     hive::Partition without
//                                               dbName/tableName (the key holds them)
//   functions(db, signature; PK, obj)           impala::TFunction
//   table_column_stats(db, tbl, col; PK, obj)   hive::ColumnStatisticsObj
//   partition_column_stats(db, tbl, part_name, col; PK, obj)
//   notification_log(event_id INTEGER PRIMARY KEY AUTOINCREMENT, event_time,
//                    event_type, db, tbl, message)
//   table_version_heads(db, tbl; PK, current_id, since_ms)     (version 2)
//                                               absent row = version 1 since
//                                               the table's createTime
//   table_versions(db, tbl, version_id; PK, valid_from_ms, archived_ms, obj)
//                                               archived hive::Table objects
//   notification_sequence(last_id)              the last event id handed out
//                                               (version 3; one row)
//
// obj columns are TCompactProtocol blobs. Child rows reference their parent
// with foreign keys checked at COMMIT (DEFERRABLE INITIALLY DEFERRED): a
// backstop behind the preconditions the code checks itself, which lets a
// rename update parent and child keys in any order. Event ids come from
// notification_sequence inside the writing transaction (sql_metastore.h), so
// they stay strictly increasing and contiguous even if the log is trimmed.
//
// Thread-safety: functions take the connection; callers serialize its use.
#pragma once

#include "catalogd/metastore/sqlite_db.h"

namespace ics::catalog::sqlite {

// The schema version this build writes and understands.
inline constexpr int kSchemaVersion = 6;

// Per-connection settings: WAL journaling (IO_ERROR if the file system
// cannot do WAL), synchronous=FULL so a COMMIT is on disk before it returns,
// foreign keys on. CORRUPTION if the file is not an SQLite database.
[[nodiscard]] Status ConfigureConnection(Connection* conn);

// Creates the schema in an empty file, upgrades an older one, or fails:
// INVALID_ARGUMENT if the version is newer than kSchemaVersion or the file
// holds tables but no schema_version (not a metastore); CORRUPTION if the
// version row is missing or duplicated.
[[nodiscard]] Status InitSchema(Connection* conn);

}  // namespace ics::catalog::sqlite
