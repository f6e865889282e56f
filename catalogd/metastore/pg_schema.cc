#include "catalogd/metastore/pg_schema.h"

#include <string>

#include "catalogd/metastore/sqlite_schema.h"

namespace ics::catalog::pg {
namespace {

using sqldb::Stmt;

// The schema version: the same number as the SQLite file's, since both hold
// the same tables (one version history for the metastore schema).
constexpr int kSchemaVersion = sqlite::kSchemaVersion;

// Any key of ours for pg_advisory_xact_lock: "ics meta" in ASCII.
constexpr const char kInitLock[] = "SELECT pg_advisory_xact_lock(7594869209432449377)";

constexpr const char kSchema[] = R"sql(
CREATE TABLE databases (
  name TEXT COLLATE "C" NOT NULL PRIMARY KEY,
  obj  BYTEA NOT NULL
);
CREATE TABLE tables (
  db   TEXT COLLATE "C" NOT NULL REFERENCES databases(name) DEFERRABLE INITIALLY DEFERRED,
  name TEXT COLLATE "C" NOT NULL,
  obj  BYTEA NOT NULL,
  PRIMARY KEY (db, name)
);
CREATE TABLE partitions (
  db        TEXT COLLATE "C" NOT NULL,
  tbl       TEXT COLLATE "C" NOT NULL,
  part_name TEXT COLLATE "C" NOT NULL,
  obj       BYTEA NOT NULL,
  PRIMARY KEY (db, tbl, part_name),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE functions (
  db        TEXT COLLATE "C" NOT NULL REFERENCES databases(name) DEFERRABLE INITIALLY DEFERRED,
  signature TEXT COLLATE "C" NOT NULL,
  obj       BYTEA NOT NULL,
  PRIMARY KEY (db, signature)
);
CREATE TABLE table_column_stats (
  db  TEXT COLLATE "C" NOT NULL,
  tbl TEXT COLLATE "C" NOT NULL,
  col TEXT COLLATE "C" NOT NULL,
  obj BYTEA NOT NULL,
  PRIMARY KEY (db, tbl, col),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE partition_column_stats (
  db        TEXT COLLATE "C" NOT NULL,
  tbl       TEXT COLLATE "C" NOT NULL,
  part_name TEXT COLLATE "C" NOT NULL,
  col       TEXT COLLATE "C" NOT NULL,
  obj       BYTEA NOT NULL,
  PRIMARY KEY (db, tbl, part_name, col),
  FOREIGN KEY (db, tbl, part_name) REFERENCES partitions(db, tbl, part_name)
    DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE notification_log (
  event_id   BIGINT NOT NULL PRIMARY KEY,
  event_time BIGINT NOT NULL,
  event_type TEXT NOT NULL,
  db         TEXT,
  tbl        TEXT,
  message    TEXT NOT NULL
);
CREATE TABLE table_version_heads (
  db         TEXT COLLATE "C" NOT NULL,
  tbl        TEXT COLLATE "C" NOT NULL,
  current_id BIGINT NOT NULL,
  since_ms   BIGINT NOT NULL,
  PRIMARY KEY (db, tbl),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE table_versions (
  db            TEXT COLLATE "C" NOT NULL,
  tbl           TEXT COLLATE "C" NOT NULL,
  version_id    BIGINT NOT NULL,
  valid_from_ms BIGINT NOT NULL,
  archived_ms   BIGINT NOT NULL,
  obj           BYTEA NOT NULL,
  PRIMARY KEY (db, tbl, version_id),
  FOREIGN KEY (db, tbl) REFERENCES tables(db, name) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE notification_sequence (
  last_id BIGINT NOT NULL
);
INSERT INTO notification_sequence VALUES (0);
CREATE TABLE catalogd_writer_epoch (
  epoch       BIGINT NOT NULL,
  owner       TEXT NOT NULL,
  acquired_ms BIGINT NOT NULL,
  designation BIGINT NOT NULL DEFAULT 0,
  holder      TEXT NOT NULL DEFAULT ''
);
INSERT INTO catalogd_writer_epoch VALUES (0, '', 0, 0, '');
CREATE TABLE request_log (
  request_id  TEXT COLLATE "C" PRIMARY KEY,
  summary     TEXT NOT NULL,
  recorded_ms BIGINT NOT NULL
);
CREATE INDEX request_log_by_time ON request_log (recorded_ms);
CREATE TABLE schema_version (
  version INTEGER NOT NULL
);
)sql";

// Upgrades from older versions (the statements after kSchema's first
// version), each ending at its version.
struct PgUpgrade {
  int to_version;
  const char* sql;
};
constexpr PgUpgrade kUpgrades[] = {
    {4, R"sql(
CREATE TABLE catalogd_writer_epoch (
  epoch       BIGINT NOT NULL,
  owner       TEXT NOT NULL,
  acquired_ms BIGINT NOT NULL
);
INSERT INTO catalogd_writer_epoch VALUES (0, '', 0);
)sql"},
    {5, R"sql(
ALTER TABLE catalogd_writer_epoch ADD COLUMN designation BIGINT NOT NULL DEFAULT 0;
ALTER TABLE catalogd_writer_epoch ADD COLUMN holder TEXT NOT NULL DEFAULT '';
)sql"},
    {6, R"sql(
CREATE TABLE request_log (
  request_id  TEXT COLLATE "C" PRIMARY KEY,
  summary     TEXT NOT NULL,
  recorded_ms BIGINT NOT NULL
);
CREATE INDEX request_log_by_time ON request_log (recorded_ms);
)sql"},
};
// The oldest version a PostgreSQL metastore was ever created at.
constexpr int kFirstPgVersion = 3;

Result<bool> Exists(Connection* conn, const char* table) {
  ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT to_regclass(?1) IS NOT NULL"));
  ICS_ASSIGN_OR_RETURN(bool row, st.BindText(1, table).Step());
  return row && st.Int(0) != 0;
}

Status CheckOrUpgradeVersion(Connection* conn) {
  ICS_ASSIGN_OR_RETURN(Stmt st, conn->Prepare("SELECT version FROM schema_version"));
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::Corruption("metastore " + conn->name() + " has no schema_version row");
  const int64_t v = st.Int(0);
  ICS_ASSIGN_OR_RETURN(bool second, st.Step());
  if (second) {
    return Status::Corruption("metastore " + conn->name() +
                              " has more than one schema_version row");
  }
  if (v > kSchemaVersion) {
    return Status::InvalidArgument("metastore " + conn->name() + " has schema version " +
                                   std::to_string(v) + ", newer than the version " +
                                   std::to_string(kSchemaVersion) +
                                   " this build supports; use a newer build (refusing to open it)");
  }
  if (v < kFirstPgVersion) {
    // PostgreSQL metastores started at version 3; nothing older exists.
    return Status::Corruption("metastore " + conn->name() + " has impossible schema version " +
                              std::to_string(v));
  }
  for (const PgUpgrade& u : kUpgrades) {
    if (u.to_version <= v) continue;
    ICS_RETURN_IF_ERROR(conn->Exec(u.sql));
    ICS_RETURN_IF_ERROR(
        conn->Exec("UPDATE schema_version SET version = " + std::to_string(u.to_version)));
  }
  return Status::OK();
}

}  // namespace

Status InitSchema(Connection* conn) {
  ICS_RETURN_IF_ERROR(conn->Exec("BEGIN"));
  Status s = [&]() -> Status {
    ICS_RETURN_IF_ERROR(conn->Exec(kInitLock));
    ICS_ASSIGN_OR_RETURN(bool versioned, Exists(conn, "schema_version"));
    if (versioned) return CheckOrUpgradeVersion(conn);
    ICS_ASSIGN_OR_RETURN(bool foreign, Exists(conn, "databases"));
    if (foreign) {
      return Status::InvalidArgument("database " + conn->name() +
                                     " has a 'databases' table but no schema_version: it is "
                                     "not a metastore (use an empty database)");
    }
    ICS_RETURN_IF_ERROR(conn->Exec(kSchema));
    return conn->Exec("INSERT INTO schema_version VALUES (" + std::to_string(kSchemaVersion) + ")");
  }();
  if (!s.ok()) {
    conn->RollbackQuietly();
    return s;
  }
  return conn->Commit();
}

}  // namespace ics::catalog::pg
