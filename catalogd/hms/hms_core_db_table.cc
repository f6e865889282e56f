// HmsCore: databases and tables.
#include <algorithm>

#include "catalogd/hms/hms_core.h"
#include "catalogd/hms/hms_core_internal.h"
#include "hive_metastore_constants.h"

namespace ics::catalog::hms {

namespace {

// Fills defaults Hive clients leave to the metastore and validates the table.
Status PrepareTable(Metastore* ms, hive::Table* t) {
  ICS_ASSIGN_OR_RETURN(t->dbName, NormalizeDatabaseName(t->dbName));
  ICS_ASSIGN_OR_RETURN(t->tableName, NormalizeTableName(t->tableName));
  std::vector<std::string> seen;
  ICS_RETURN_IF_ERROR(NormalizeColumns(&t->sd.cols, "column", &seen));
  ICS_RETURN_IF_ERROR(NormalizeColumns(&t->partitionKeys, "partition key", &seen));
  if (t->tableType.empty()) t->tableType = IsManaged(*t) ? kManagedTable : kExternalTable;
  const std::string& type = t->tableType;
  if (!IsKnownTableType(type)) {
    return Status::InvalidArgument("Unsupported tableType '" + type + "' of table " + t->dbName +
                                   "." + t->tableName);
  }
  const bool view = IsAnyView(*t);
  if (!view) {
    if (t->sd.inputFormat.empty()) t->sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
    if (t->sd.outputFormat.empty()) {
      t->sd.outputFormat = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    }
    if (t->sd.serdeInfo.serializationLib.empty()) {
      t->sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    }
    if (t->sd.location.empty()) {
      Result<hive::Database> db = ms->GetDatabase(t->dbName);
      if (!db.ok()) return db.status();
      t->sd.location = JoinPath(db->locationUri, t->tableName);
    }
  }
  if (t->createTime == 0) t->createTime = NowSeconds();
  t->parameters[hive::g_hive_metastore_constants.DDL_TIME] = std::to_string(NowSeconds());
  return Status::OK();
}

}  // namespace

// ---- databases ----

Result<std::vector<std::string>> HmsCore::GetDatabases(const std::string& pattern) {
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> all, ms_->GetAllDatabases());
  std::vector<std::string> out;
  for (std::string& d : all) {
    if (MatchesHmsPattern(pattern, d)) out.push_back(std::move(d));
  }
  ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "databases"));
  return out;
}

Result<hive::Database> HmsCore::GetDatabase(const std::string& name) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(name));
  return ms_->GetDatabase(db);
}

Status HmsCore::CreateDatabase(hive::Database db) {
  ICS_ASSIGN_OR_RETURN(db.name, NormalizeDatabaseName(db.name));
  if (db.locationUri.empty()) db.locationUri = JoinPath(opts_.warehouse_dir, db.name + ".db");
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateDatabase(db.name, db));
  ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  if (fs_ != nullptr) {
    Status dir = fs_->CreateDirectories(db.locationUri);
    if (!dir.ok()) {
      MetastoreTxn undo;
      undo.ops.push_back(MetastoreOp::DropDatabase(db.name));
      Status u = CommitTxn(ms_, undo);
      return dir.WithContext("creating the directory of database " + db.name +
                             (u.ok() ? "" : " (and undoing it failed: " + u.message() + ")"));
    }
  }
  return Status::OK();
}

Status HmsCore::DropDatabase(const std::string& name, bool delete_data, bool cascade) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(name));
  ICS_ASSIGN_OR_RETURN(hive::Database current, ms_->GetDatabase(db));
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> tables, ms_->GetAllTables(db));
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, ms_->GetFunctions(db));
  if (!cascade && (!tables.empty() || !fns.empty())) {
    return Status::InvalidArgument("Database " + db + " is not empty: it has " +
                                   std::to_string(tables.size()) + " table(s) and " +
                                   std::to_string(fns.size()) +
                                   " function(s); drop them first or use cascade");
  }
  ICS_RETURN_IF_ERROR(
      CheckCount(tables.size() + fns.size(), opts_.max_objects_per_request, "objects to drop"));
  MetastoreTxn txn;
  std::vector<std::string> data_dirs;
  for (const impala::TFunction& f : fns) {
    txn.ops.push_back(MetastoreOp::DropFunction(db, f.signature));
  }
  for (const std::string& t : tables) {
    if (delete_data) {
      Result<hive::Table> table = ms_->GetTable(db, t);
      if (table.ok() && IsManaged(*table)) data_dirs.push_back(table->sd.location);
    }
    txn.ops.push_back(MetastoreOp::DropTable(db, t));
  }
  txn.ops.push_back(MetastoreOp::DropDatabase(db));
  ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  if (delete_data) {
    data_dirs.push_back(current.locationUri);
    RemovePlannedData(fs_, opts_.warehouse_dir, PlanTableDataRemoval(ms_, data_dirs),
                      "drop_database " + db);
  }
  return Status::OK();
}

Status HmsCore::AlterDatabase(const std::string& name, hive::Database db) {
  ICS_ASSIGN_OR_RETURN(std::string target, NormalizeDatabaseName(name));
  if (!db.name.empty() && AsciiLower(db.name) != target) {
    return Status::InvalidArgument("Databases cannot be renamed (" + target + " -> " + db.name +
                                   ")");
  }
  ICS_ASSIGN_OR_RETURN(hive::Database current, ms_->GetDatabase(target));
  db.name = target;
  if (db.locationUri.empty()) db.locationUri = current.locationUri;
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::AlterDatabase(target, std::move(db)));
  return CommitTxn(ms_, txn);
}

// ---- tables ----

Result<std::vector<std::string>> HmsCore::GetTables(const std::string& db,
                                                    const std::string& pattern) {
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> all, ms_->GetAllTables(d));
  std::vector<std::string> out;
  for (std::string& t : all) {
    if (MatchesHmsPattern(pattern, t)) out.push_back(std::move(t));
  }
  ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "tables"));
  return out;
}

Result<std::vector<hive::TableMeta>> HmsCore::GetTableMeta(const std::string& db_patterns,
                                                           const std::string& tbl_patterns,
                                                           const std::vector<std::string>& types) {
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> dbs, ms_->GetAllDatabases());
  std::vector<hive::TableMeta> out;
  for (const std::string& d : dbs) {
    if (!MatchesHmsPattern(db_patterns, d)) continue;
    Result<std::vector<std::string>> tables = ms_->GetAllTables(d);
    if (!tables.ok()) {
      if (tables.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
      return tables.status();
    }
    for (const std::string& t : *tables) {
      if (!MatchesHmsPattern(tbl_patterns, t)) continue;
      Result<hive::Table> table = ms_->GetTable(d, t);
      if (!table.ok()) {
        if (table.status().Is(ErrorCode::kNotFound)) continue;
        return table.status();
      }
      if (!types.empty() &&
          std::find(types.begin(), types.end(), table->tableType) == types.end()) {
        continue;
      }
      hive::TableMeta m;
      m.dbName = d;
      m.tableName = t;
      m.tableType = table->tableType;
      auto c = table->parameters.find("comment");
      if (c != table->parameters.end()) m.__set_comments(c->second);
      out.push_back(std::move(m));
      ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "tables"));
    }
  }
  return out;
}

Result<hive::Table> HmsCore::GetTable(const std::string& db, const std::string& table) {
  return LoadTable(ms_, db, table);
}

Result<std::vector<hive::Table>> HmsCore::GetTablesByName(const std::string& db,
                                                          const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_objects_per_request, "table names"));
  ICS_RETURN_IF_ERROR(ms_->GetDatabase(d).status());
  std::vector<hive::Table> out;
  std::vector<std::string> done;
  for (const std::string& n : names) {
    ICS_ASSIGN_OR_RETURN(std::string t, NormalizeTableName(n));
    if (std::find(done.begin(), done.end(), t) != done.end()) continue;
    done.push_back(t);
    Result<hive::Table> table = ms_->GetTable(d, t);
    if (table.ok()) {
      out.push_back(std::move(table).value());
    } else if (!table.status().Is(ErrorCode::kNotFound)) {
      return table.status();
    }
  }
  return out;
}

Status HmsCore::CreateTable(hive::Table table) {
  ICS_RETURN_IF_ERROR(PrepareTable(ms_, &table));
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateTable(table.dbName, table.tableName, table));
  ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  const bool view = IsAnyView(table);
  if (fs_ != nullptr && !view && !table.sd.location.empty()) {
    Status dir = fs_->CreateDirectories(table.sd.location);
    if (!dir.ok()) {
      MetastoreTxn undo;
      undo.ops.push_back(MetastoreOp::DropTable(table.dbName, table.tableName));
      Status u = CommitTxn(ms_, undo);
      return dir.WithContext("creating the directory of table " + table.dbName + "." +
                             table.tableName +
                             (u.ok() ? "" : " (and undoing it failed: " + u.message() + ")"));
    }
  }
  return Status::OK();
}

Status HmsCore::DropTable(const std::string& db, const std::string& table, bool delete_data) {
  ICS_ASSIGN_OR_RETURN(hive::Table current, LoadTable(ms_, db, table));
  std::vector<std::string> dirs;
  if (delete_data && IsManaged(current)) {
    // Partitions outside the table directory are removed one by one.
    Result<std::vector<hive::Partition>> parts =
        ms_->GetPartitions(current.dbName, current.tableName);
    if (parts.ok()) {
      for (const hive::Partition& p : *parts) dirs.push_back(p.sd.location);
    }
    dirs.push_back(current.sd.location);
  }
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::DropTable(current.dbName, current.tableName));
  ICS_RETURN_IF_ERROR(CommitTxn(ms_, txn));
  if (!dirs.empty()) {
    RemovePlannedData(fs_, opts_.warehouse_dir, PlanTableDataRemoval(ms_, dirs),
                      "drop_table " + current.dbName + "." + current.tableName);
  }
  return Status::OK();
}

Status HmsCore::AlterTable(const std::string& db, const std::string& table,
                           hive::Table new_table) {
  ICS_ASSIGN_OR_RETURN(hive::Table current, LoadTable(ms_, db, table));
  if (new_table.dbName.empty()) new_table.dbName = current.dbName;
  if (new_table.tableName.empty()) new_table.tableName = current.tableName;
  if (new_table.tableType.empty()) new_table.tableType = current.tableType;
  if (new_table.sd.location.empty()) new_table.sd.location = current.sd.location;
  if (new_table.createTime == 0) new_table.createTime = current.createTime;
  ICS_RETURN_IF_ERROR(PrepareTable(ms_, &new_table));
  if (PartitionKeyNames(new_table) != PartitionKeyNames(current)) {
    return Status::InvalidArgument("The partition keys of " + current.dbName + "." +
                                   current.tableName + " cannot be changed");
  }
  MetastoreTxn txn;
  txn.ops.push_back(
      MetastoreOp::AlterTable(current.dbName, current.tableName, std::move(new_table)));
  return CommitTxn(ms_, txn);
}

}  // namespace ics::catalog::hms
