// CREATE / DROP / ALTER DATABASE and COMMENT ON.
#include <glog/logging.h>

#include <algorithm>
#include <optional>
#include <set>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_locations_internal.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "common/hive/names.h"

namespace ics::catalog::ddl {

namespace {

DdlOutcome InstallDatabase(CatalogContext* ctx, hive::Database hms, std::string summary) {
  auto state = std::make_shared<DatabaseState>();
  state->name = hms.name;
  state->hms = std::move(hms);
  ChangeSet cs;
  cs.put_databases.push_back(state);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.databases.push_back(state);
  out.summary = std::move(summary);
  return out;
}

// Whether `dir` has no visible files or subdirectories left.
bool IsEmptyDir(FileSystem* fs, const std::string& dir) {
  Result<std::vector<FileStatus>> files = fs->ListFiles(dir);
  Result<std::vector<std::string>> subdirs = fs->ListSubdirectories(dir);
  return files.ok() && subdirs.ok() && files->empty() && subdirs->empty();
}

}  // namespace

Result<DdlOutcome> CreateDatabase(CatalogContext* ctx, const CreateDatabaseCommand& c) {
  hive::Database hms = c.db;
  ICS_ASSIGN_OR_RETURN(hms.name, NormalizeDatabaseName(hms.name));
  const std::string db = hms.name;
  if (!hms.locationUri.empty()) {
    ICS_ASSIGN_OR_RETURN(hms.locationUri, NormalizeLocation(hms.locationUri));
  } else if (ctx->warehouse_dir.empty()) {
    return Status::InvalidArgument("No warehouse directory is configured; give database " + db +
                                   " a LOCATION");
  } else {
    hms.locationUri = DefaultDatabaseLocation(*ctx, db);
  }
  if (hms.ownerName.empty()) {
    hms.__set_ownerName(ctx->default_owner);
    hms.__set_ownerType(hive::PrincipalType::USER);
  } else if (!hms.__isset.ownerType) {
    hms.__set_ownerType(hive::PrincipalType::USER);
  }
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  if (ctx->catalog->GetDatabase(db) != nullptr) {
    if (c.if_not_exists) return NoOp(ctx, "Database already exists.");
    return Status::AlreadyExists("Database already exists: " + db);
  }
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateDatabase(db, hms));
  Status committed = Commit(ctx, txn);
  if (!committed.ok()) {
    if (committed.Is(ErrorCode::kAlreadyExists) && c.if_not_exists) {
      return NoOp(ctx, "Database already exists.");
    }
    return committed;
  }
  Status dir = ctx->fs->CreateDirectories(hms.locationUri);
  if (!dir.ok()) {
    MetastoreTxn undo;
    undo.ops.push_back(MetastoreOp::DropDatabase(db));
    Compensate(ctx, undo, "CREATE DATABASE " + db);
    return dir.WithContext("creating the directory of database " + db);
  }
  return InstallDatabase(ctx, std::move(hms), "Database has been created.");
}

namespace {

// What a database holds, in the catalog and in the metastore.
struct DbContents {
  std::vector<std::string> tables;         // union of catalog and metastore
  std::set<std::string> stored_tables;     // in the metastore
  std::vector<std::string> signatures;     // union of catalog and metastore
  std::set<std::string> stored_functions;  // in the metastore
};

Result<DbContents> ListContents(CatalogContext* ctx, const std::string& db) {
  DbContents c;
  std::set<std::string> tables;
  for (const TablePtr& t : ctx->catalog->TablesOf(db)) tables.insert(t->name);
  Result<std::vector<std::string>> stored = ctx->metastore->GetAllTables(db);
  if (stored.ok()) {
    c.stored_tables.insert(stored->begin(), stored->end());
  } else if (!stored.status().Is(ErrorCode::kNotFound)) {
    return stored.status();
  }
  tables.insert(c.stored_tables.begin(), c.stored_tables.end());
  c.tables.assign(tables.begin(), tables.end());
  std::set<std::string> sigs;
  for (const FunctionPtr& f : ctx->catalog->FunctionsOf(db)) sigs.insert(f->signature);
  Result<std::vector<impala::TFunction>> fns = ctx->metastore->GetFunctions(db);
  if (fns.ok()) {
    for (const impala::TFunction& f : *fns) c.stored_functions.insert(f.signature);
  } else if (!fns.status().Is(ErrorCode::kNotFound)) {
    return fns.status();
  }
  sigs.insert(c.stored_functions.begin(), c.stored_functions.end());
  c.signatures.assign(sigs.begin(), sigs.end());
  return c;
}

}  // namespace

Result<DdlOutcome> DropDatabase(CatalogContext* ctx, const DropDatabaseCommand& p) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(p.name));
  if (db == "default") return Status::InvalidArgument("Cannot drop the default database");
  // CREATE TABLE takes the database lock, so under it the table list is
  // stable; CASCADE also locks every table, listed before the locks are
  // taken, so it retries if the list changed in between.
  std::optional<ScopedLocks> locks;
  DbContents contents;
  for (int attempt = 0;; ++attempt) {
    std::vector<std::pair<std::string, std::string>> keys = {{db, ""}};
    if (p.cascade) {
      ICS_ASSIGN_OR_RETURN(DbContents before, ListContents(ctx, db));
      for (const std::string& t : before.tables) keys.emplace_back(db, t);
    }
    locks.reset();
    locks.emplace(ctx->catalog, keys);
    ICS_ASSIGN_OR_RETURN(contents, ListContents(ctx, db));
    if (!p.cascade) break;
    bool all_locked = true;
    for (const std::string& t : contents.tables) {
      all_locked =
          all_locked && std::find(keys.begin(), keys.end(), std::make_pair(db, t)) != keys.end();
    }
    if (all_locked) break;
    if (attempt == 3) {
      return Status::General("Database " + db + " kept changing during DROP DATABASE; retry");
    }
  }

  DatabasePtr state = ctx->catalog->GetDatabase(db);
  if (state == nullptr) {
    if (p.if_exists) return NoOp(ctx, "Database does not exist.");
    return DatabaseNotFound(db);
  }
  const std::vector<std::string>& tables = contents.tables;
  const std::vector<std::string>& signatures = contents.signatures;
  if (!p.cascade && (!tables.empty() || !signatures.empty())) {
    return Status::InvalidArgument("Cannot drop non-empty database: " + db + " (it has " +
                                   std::to_string(tables.size()) + " table(s) and " +
                                   std::to_string(signatures.size()) +
                                   " function(s); use CASCADE to drop them too)");
  }

  // Data of managed tables, collected before the metastore forgets it.
  struct Doomed {
    hive::Table table;
    std::vector<hive::Partition> partitions;
  };
  std::vector<Doomed> managed;
  MetastoreTxn txn;
  for (const std::string& t : tables) {
    if (contents.stored_tables.count(t) == 0) continue;  // catalog-only leftover
    ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, TableRef{db, t}));
    if (p.delete_data && IsManaged(hms)) {
      Doomed d;
      if (!hms.partitionKeys.empty()) {
        ICS_ASSIGN_OR_RETURN(d.partitions, ctx->metastore->GetPartitions(db, t));
      }
      d.table = std::move(hms);
      managed.push_back(std::move(d));
    }
    txn.ops.push_back(MetastoreOp::DropTable(db, t));
  }
  for (const std::string& sig : signatures) {
    if (contents.stored_functions.count(sig) == 0) continue;
    txn.ops.push_back(MetastoreOp::DropFunction(db, sig));
  }
  Result<hive::Database> ms_db = ctx->metastore->GetDatabase(db);
  if (ms_db.ok()) {
    txn.ops.push_back(MetastoreOp::DropDatabase(db));
  } else if (!ms_db.status().Is(ErrorCode::kNotFound)) {
    return ms_db.status();
  }
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  // The metastore change is durable; report filesystem failures but still
  // bring the catalog in line with the metastore.
  Status fs_status;
  for (const Doomed& d : managed) {
    Status s = RemoveTableData(ctx, d.table, d.partitions);
    if (!s.ok() && fs_status.ok()) fs_status = s;
  }
  Result<std::string> db_dir = state->hms.locationUri.empty()
                                   ? Result<std::string>(DefaultDatabaseLocation(*ctx, db))
                                   : NormalizeLocation(state->hms.locationUri);
  // The database directory goes only when nothing (e.g. external data) is left in it.
  if (p.delete_data && db_dir.ok() && IsEmptyDir(ctx->fs, *db_dir)) {
    Status s = ctx->fs->RemoveAll(*db_dir);
    if (!s.ok() && fs_status.ok()) fs_status = s;
  }

  ChangeSet cs;
  cs.drop_databases.push_back(db);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.removed_databases.push_back(db);
  out.summary = "Database has been dropped.";
  if (!fs_status.ok()) {
    return fs_status.WithContext("database " + db + " was dropped but removing its data failed");
  }
  return out;
}

Result<DdlOutcome> AlterDatabase(CatalogContext* ctx, const AlterDatabaseCommand& c) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(c.name));
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  DatabasePtr state = ctx->catalog->GetDatabase(db);
  if (state == nullptr) return DatabaseNotFound(db);
  hive::Database hms = state->hms;
  if (c.patch) ICS_RETURN_IF_ERROR(c.patch(&hms));
  if (!hms.name.empty() && AsciiLower(hms.name) != db) {
    return Status::InvalidArgument("Databases cannot be renamed (" + db + " -> " + hms.name + ")");
  }
  hms.name = db;
  if (hms.locationUri.empty()) {
    hms.locationUri = state->hms.locationUri;
  } else if (hms.locationUri != state->hms.locationUri) {
    ICS_ASSIGN_OR_RETURN(hms.locationUri, NormalizeLocation(hms.locationUri));
  }
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::AlterDatabase(db, hms));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  return InstallDatabase(ctx, std::move(hms), "Updated database.");
}

namespace {

Result<DdlOutcome> CommentOnDatabase(CatalogContext* ctx, const CommentOnCommand& p) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(p.db));
  ScopedLocks locks(ctx->catalog, {{db, ""}});
  DatabasePtr state = ctx->catalog->GetDatabase(db);
  if (state == nullptr) return DatabaseNotFound(db);
  hive::Database hms = state->hms;
  hms.description = p.comment.value_or("");
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::AlterDatabase(db, hms));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  return InstallDatabase(ctx, std::move(hms), "Updated database.");
}

// COMMENT ON TABLE / VIEW or COLUMN.
Result<DdlOutcome> CommentOnTable(CatalogContext* ctx, const CommentOnCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  const bool on_column = p.target == CommentOnCommand::Target::kColumn;
  std::string col;
  if (on_column) {
    ICS_ASSIGN_OR_RETURN(col, NormalizeColumnName(p.column));
  }
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  std::string summary;
  if (!on_column) {
    if (p.comment.has_value()) {
      hms.parameters["comment"] = *p.comment;
    } else {
      hms.parameters.erase("comment");
    }
    summary = "Updated " + AsciiLower(ObjectWord(IsView(hms))) + ".";
  } else {
    hive::FieldSchema* field = nullptr;
    for (auto& f : hms.sd.cols) {
      if (f.name == col) field = &f;
    }
    for (auto& f : hms.partitionKeys) {
      if (f.name == col) field = &f;
    }
    if (field == nullptr) {
      return Status::NotFound("Column does not exist: " + col + " in " + t.full());
    }
    field->comment = p.comment.value_or("");
    summary = "Column has been altered.";
  }
  hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
  MetastoreTxn txn;
  txn.ops.push_back(AlterTableOp(t, hms));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  return InstallAfterCommit(ctx, t, DeriveTable(ctx, *old, hms), std::move(summary));
}

}  // namespace

Result<DdlOutcome> CommentOn(CatalogContext* ctx, const CommentOnCommand& c) {
  if (c.target == CommentOnCommand::Target::kDatabase) return CommentOnDatabase(ctx, c);
  return CommentOnTable(ctx, c);
}

}  // namespace ics::catalog::ddl
