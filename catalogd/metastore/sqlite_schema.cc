#include "catalogd/metastore/sqlite_schema.h"

namespace ics::catalog::sqlite {
namespace {

using sqldb::Stmt;
using sqldb::Transaction;
using sqldb::TxnKind;

// One upgrade step: applied to a file at version `to_version - 1`.
struct Migration {
  int to_version;
  const char* sql;
};

constexpr const char kSchemaV1[] = R"sql(
CREATE TABLE databases (
  name TEXT NOT NULL PRIMARY KEY,
  obj  BLOB NOT NULL
);
CREATE TABLE tables (
  db   TEXT NOT NULL REFERENCES databases(name) DEFERRABLE INITIALLY DEFERRED,
  name TEXT NOT NULL,
  obj  BLOB NOT NULL,
  PRIMARY KEY (db, name)
);
CREATE TABLE partitions (
  db        TEXT NOT NULL,
  tbl       TEXT NOT NULL,
  part_name TEXT NOT NULL,
  obj       BLOB NOT NULL,
  PRIMARY KEY (db, tbl, part_name),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE functions (
  db        TEXT NOT NULL REFERENCES databases(name) DEFERRABLE INITIALLY DEFERRED,
  signature TEXT NOT NULL,
  obj       BLOB NOT NULL,
  PRIMARY KEY (db, signature)
);
CREATE TABLE table_column_stats (
  db  TEXT NOT NULL,
  tbl TEXT NOT NULL,
  col TEXT NOT NULL,
  obj BLOB NOT NULL,
  PRIMARY KEY (db, tbl, col),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE partition_column_stats (
  db        TEXT NOT NULL,
  tbl       TEXT NOT NULL,
  part_name TEXT NOT NULL,
  col       TEXT NOT NULL,
  obj       BLOB NOT NULL,
  PRIMARY KEY (db, tbl, part_name, col),
  FOREIGN KEY (db, tbl, part_name) REFERENCES partitions(db, tbl, part_name)
    DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE notification_log (
  event_id   INTEGER PRIMARY KEY AUTOINCREMENT,
  event_time INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  db         TEXT,
  tbl        TEXT,
  message    TEXT NOT NULL
);
)sql";

// Version 2: table versions (metastore.h, "Table versions"). A table
// without a table_version_heads row is at version 1, current since its
// createTime, so version 1 files need no data migration.
constexpr const char kSchemaV2[] = R"sql(
CREATE TABLE table_version_heads (
  db         TEXT NOT NULL,
  tbl        TEXT NOT NULL,
  current_id INTEGER NOT NULL,
  since_ms   INTEGER NOT NULL,
  PRIMARY KEY (db, tbl),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE table_versions (
  db            TEXT NOT NULL,
  tbl           TEXT NOT NULL,
  version_id    INTEGER NOT NULL,
  valid_from_ms INTEGER NOT NULL,
  archived_ms   INTEGER NOT NULL,
  obj           BLOB NOT NULL,
  PRIMARY KEY (db, tbl, version_id),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
)sql";

// Version 3: the notification log's id counter as a row of its own
// (sql_metastore.h, "Event ids"), seeded with the last id AUTOINCREMENT
// handed out.
constexpr const char kSchemaV3[] = R"sql(
CREATE TABLE notification_sequence (
  last_id INTEGER NOT NULL
);
INSERT INTO notification_sequence
  SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'notification_log'), 0);
)sql";

// Version 4: the writer epoch that fences the commits of catalogd HA peers
// (Metastore::AcquireWriterEpoch), one row, never taken.
constexpr const char kSchemaV4[] = R"sql(
CREATE TABLE catalogd_writer_epoch (
  epoch       INTEGER NOT NULL,
  owner       TEXT NOT NULL,
  acquired_ms INTEGER NOT NULL
);
INSERT INTO catalogd_writer_epoch VALUES (0, '', 0);
)sql";

// Version 5: the writer epoch is ordered by catalogd HA designation
// (Metastore::AcquireWriterEpoch): the designation it was taken for and its
// holder's address. An epoch taken before counts as designation 0, which
// every designation overtakes.
constexpr const char kSchemaV5[] = R"sql(
ALTER TABLE catalogd_writer_epoch ADD COLUMN designation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE catalogd_writer_epoch ADD COLUMN holder TEXT NOT NULL DEFAULT '';
)sql";

// Version 6: requests recorded with the changes that carried them out
// (Metastore::LookupRequest, exactly-once writes).
constexpr const char kSchemaV6[] = R"sql(
CREATE TABLE request_log (
  request_id  TEXT PRIMARY KEY,
  summary     TEXT NOT NULL,
  recorded_ms INTEGER NOT NULL
);
CREATE INDEX request_log_by_time ON request_log (recorded_ms);
)sql";

constexpr Migration kMigrations[] = {
    {1, kSchemaV1},
    {2, kSchemaV2},
    {3, kSchemaV3},
    {4, kSchemaV4},
    {5, kSchemaV5},
    {6, kSchemaV6},
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kSchemaVersion,
              "one migration per schema version");

// Reads the stored version: 0 for a brand-new (empty) file.
Result<int> ReadVersion(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(Stmt has_version,
                       conn->Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                     "AND name = 'schema_version'"));
  ICS_ASSIGN_OR_RETURN(bool row, has_version.Step());
  if (row && has_version.Int(0) == 0) {
    ICS_ASSIGN_OR_RETURN(Stmt any, conn->Prepare("SELECT count(*) FROM sqlite_master"));
    ICS_ASSIGN_OR_RETURN(bool any_row, any.Step());
    if (any_row && any.Int(0) != 0) {
      return Status::InvalidArgument("'" + conn->name() +
                                     "' is an SQLite database but not a metastore "
                                     "(it has tables but no schema_version)");
    }
    return 0;
  }
  ICS_ASSIGN_OR_RETURN(Stmt version, conn->Prepare("SELECT version FROM schema_version"));
  ICS_ASSIGN_OR_RETURN(bool has_row, version.Step());
  if (!has_row) {
    return Status::Corruption("metastore '" + conn->name() + "' has no schema_version row");
  }
  const int64_t v = version.Int(0);
  ICS_ASSIGN_OR_RETURN(bool second_row, version.Step());
  if (second_row) {
    return Status::Corruption("metastore '" + conn->name() +
                              "' has more than one schema_version row");
  }
  if (v < 1) {
    return Status::Corruption("metastore '" + conn->name() + "' has invalid schema version " +
                              std::to_string(v));
  }
  if (v > kSchemaVersion) {
    return Status::InvalidArgument("metastore '" + conn->name() + "' has schema version " +
                                   std::to_string(v) + ", newer than the version " +
                                   std::to_string(kSchemaVersion) +
                                   " this build supports; use a newer build (refusing to open it)");
  }
  return static_cast<int>(v);
}

}  // namespace

Status ConfigureConnection(Connection* conn) {
  // journal_mode reports the mode in effect: a file system without shared
  // memory support (or an in-memory db) silently keeps another mode.
  ICS_ASSIGN_OR_RETURN(Stmt wal, conn->Prepare("PRAGMA journal_mode = WAL"));
  ICS_ASSIGN_OR_RETURN(bool row, wal.Step());
  const std::string mode = row ? std::string(wal.Text(0)) : "";
  if (mode != "wal") {
    return Status::IoError("metastore '" + conn->name() + "' cannot use WAL journaling (mode is '" +
                           mode + "')");
  }
  return conn->Exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
}

Status InitSchema(Connection* conn) {
  while (true) {
    // Each step re-reads the version under the write lock, so two processes
    // opening the same new file do not both create the schema.
    Transaction txn(conn);
    ICS_RETURN_IF_ERROR(txn.Begin(TxnKind::kWrite));
    ICS_ASSIGN_OR_RETURN(int version, ReadVersion(conn));
    if (version == kSchemaVersion) return txn.Commit();
    const Migration& m = kMigrations[version];
    ICS_RETURN_IF_ERROR(conn->Exec(m.sql));
    if (version == 0) {
      ICS_RETURN_IF_ERROR(conn->Exec("CREATE TABLE schema_version (version INTEGER NOT NULL)"));
      ICS_ASSIGN_OR_RETURN(Stmt ins, conn->Prepare("INSERT INTO schema_version VALUES (?1)"));
      ICS_RETURN_IF_ERROR(ins.BindInt(1, m.to_version).Run());
    } else {
      ICS_ASSIGN_OR_RETURN(Stmt upd, conn->Prepare("UPDATE schema_version SET version = ?1"));
      ICS_RETURN_IF_ERROR(upd.BindInt(1, m.to_version).Run());
    }
    ICS_RETURN_IF_ERROR(txn.Commit());
  }
}

}  // namespace ics::catalog::sqlite
