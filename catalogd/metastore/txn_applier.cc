#include "catalogd/metastore/txn_applier.h"

#include "catalogd/metastore/metastore_blob.h"
#include "catalogd/metastore/sql_retention.h"
#include "common/hive/partition_name.h"

namespace ics::catalog {
namespace {

using Kind = MetastoreOp::Kind;

std::string TableName(std::string_view db, std::string_view table) {
  return std::string(db) + "." + std::string(table);
}

// Names are keys: they must be present and lower-case (the catalog
// normalizes them; a mixed-case key would never be found again).
Status CheckName(std::string_view what, const std::string& name) {
  if (name.empty()) return Status::InvalidArgument(std::string(what) + " name is empty");
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      return Status::InvalidArgument(std::string(what) + " name '" + name +
                                     "' is not lower-case");
    }
  }
  return Status::OK();
}

hive::ColumnStatistics StatsObject(const MetastoreOp& op, bool partition_level) {
  hive::ColumnStatistics stats;
  stats.statsDesc.isTblLevel = !partition_level;
  stats.statsDesc.dbName = op.db_name;
  stats.statsDesc.tableName = op.table_name;
  if (partition_level) stats.statsDesc.__set_partName(op.partition_name);
  stats.statsObj = op.column_stats;
  return stats;
}

}  // namespace

std::string_view EventTypeOf(MetastoreOp::Kind kind) {
  switch (kind) {
    case Kind::kCreateDatabase: return kEventCreateDatabase;
    case Kind::kAlterDatabase: return kEventAlterDatabase;
    case Kind::kDropDatabase: return kEventDropDatabase;
    case Kind::kCreateTable: return kEventCreateTable;
    case Kind::kAlterTable: return kEventAlterTable;
    case Kind::kDropTable: return kEventDropTable;
    case Kind::kAddPartition: return kEventAddPartition;
    case Kind::kAlterPartition: return kEventAlterPartition;
    case Kind::kDropPartition: return kEventDropPartition;
    case Kind::kCreateFunction: return kEventCreateFunction;
    case Kind::kDropFunction: return kEventDropFunction;
    case Kind::kSetTableColumnStats: return kEventUpdateTableColumnStat;
    case Kind::kSetPartitionColumnStats: return kEventUpdatePartitionColumnStat;
    case Kind::kDeleteColumnStats: return kEventDeleteTableColumnStat;
    // Partition-level deletions are logged as DELETE_PARTITION_COLUMN_STAT.
    case Kind::kDeleteColumnStat: return kEventDeleteTableColumnStat;
    // Not event types (these ops write no event); names for error messages.
    case Kind::kNewTableVersion: return "NEW_TABLE_VERSION";
    case Kind::kDeleteTableVersion: return "DELETE_TABLE_VERSION";
    case Kind::kRecordRequest: return "RECORD_REQUEST";
  }
  return "UNKNOWN";
}

Status TxnApplier::Apply(const MetastoreOp& op) {
  switch (op.kind) {
    case Kind::kCreateDatabase: return CreateDatabase(op.database);
    case Kind::kAlterDatabase: return AlterDatabase(op);
    case Kind::kDropDatabase: return DropDatabase(op.db_name);
    case Kind::kCreateTable: return CreateTable(op.table);
    case Kind::kAlterTable: return AlterTable(op);
    case Kind::kDropTable: return DropTable(op.db_name, op.table_name);
    case Kind::kAddPartition: return PutPartition(op, /*create=*/true);
    case Kind::kAlterPartition: return PutPartition(op, /*create=*/false);
    case Kind::kDropPartition: return DropPartition(op);
    case Kind::kCreateFunction: return CreateFunction(op.function);
    case Kind::kDropFunction: return DropFunction(op.db_name, op.function_signature);
    case Kind::kSetTableColumnStats: return SetColumnStats(op, /*partition_level=*/false);
    case Kind::kSetPartitionColumnStats: return SetColumnStats(op, /*partition_level=*/true);
    case Kind::kDeleteColumnStats: return DeleteColumnStats(op.db_name, op.table_name);
    case Kind::kDeleteColumnStat: return DeleteColumnStat(op);
    case Kind::kNewTableVersion: return NewTableVersion(op);
    case Kind::kDeleteTableVersion: return DeleteTableVersion(op);
    case Kind::kRecordRequest: return RecordRequest(op);
  }
  return Status::InvalidArgument("unknown metastore op kind " +
                                 std::to_string(static_cast<int>(op.kind)));
}

// ---- databases ----

Status TxnApplier::CreateDatabase(const hive::Database& db) {
  ICS_RETURN_IF_ERROR(CheckName("database", db.name));
  ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM databases WHERE name = ?1", {db.name}));
  if (exists) return Status::AlreadyExists("database " + db.name + " already exists");
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(db));
  ICS_RETURN_IF_ERROR(Run("INSERT INTO databases (name, obj) VALUES (?1, ?2)", {db.name}, &blob));
  return AppendEvent(kEventCreateDatabase, {db.name, "", {}, {}, {}, {}, blob}, false);
}

Status TxnApplier::AlterDatabase(const MetastoreOp& op) {
  const hive::Database& db = op.database;
  ICS_RETURN_IF_ERROR(CheckName("database", db.name));
  if (!op.db_name.empty() && op.db_name != db.name) {
    return Status::InvalidArgument("databases cannot be renamed (" + op.db_name + " to " +
                                   db.name + ")");
  }
  ICS_RETURN_IF_ERROR(RequireDatabase(conn_, db.name));
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(db));
  ICS_RETURN_IF_ERROR(Run("UPDATE databases SET obj = ?2 WHERE name = ?1", {db.name}, &blob));
  return AppendEvent(kEventAlterDatabase, {db.name, "", {}, {}, {}, {}, blob}, false);
}

Status TxnApplier::DropDatabase(const std::string& db) {
  ICS_RETURN_IF_ERROR(CheckName("database", db));
  ICS_RETURN_IF_ERROR(RequireDatabase(conn_, db));
  ICS_ASSIGN_OR_RETURN(bool has_tables, HasRow("SELECT 1 FROM tables WHERE db = ?1", {db}));
  ICS_ASSIGN_OR_RETURN(bool has_fns, HasRow("SELECT 1 FROM functions WHERE db = ?1", {db}));
  if (has_tables || has_fns) {
    return Status::InvalidArgument("database " + db + " is not empty: it still has " +
                                   (has_tables ? "tables" : "functions") +
                                   " (drop them first)");
  }
  ICS_RETURN_IF_ERROR(Run("DELETE FROM databases WHERE name = ?1", {db}));
  return AppendEvent(kEventDropDatabase, {db, "", {}, {}, {}, {}, {}}, false);
}

// ---- tables ----

Status TxnApplier::CreateTable(const hive::Table& table) {
  ICS_RETURN_IF_ERROR(CheckName("database", table.dbName));
  ICS_RETURN_IF_ERROR(CheckName("table", table.tableName));
  ICS_RETURN_IF_ERROR(RequireDatabase(conn_, table.dbName));
  ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                           {table.dbName, table.tableName}));
  if (exists) {
    return Status::AlreadyExists("table " + TableName(table.dbName, table.tableName) +
                                 " already exists");
  }
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(table));
  ICS_RETURN_IF_ERROR(Run("INSERT INTO tables (db, name, obj) VALUES (?1, ?2, ?3)",
                          {table.dbName, table.tableName}, &blob));
  part_keys_.erase({table.dbName, table.tableName});
  return AppendEvent(kEventCreateTable, {table.dbName, table.tableName, {}, {}, {}, {}, blob},
                     true);
}

Status TxnApplier::AlterTable(const MetastoreOp& op) {
  const hive::Table& table = op.table;
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_RETURN_IF_ERROR(CheckName("new database", table.dbName));
  ICS_RETURN_IF_ERROR(CheckName("new table", table.tableName));
  ICS_ASSIGN_OR_RETURN(hive::Table old, LoadTable(op.db_name, op.table_name));
  // As in Hive: partition keys are part of every partition's identity.
  bool same_keys = old.partitionKeys.size() == table.partitionKeys.size();
  for (size_t i = 0; same_keys && i < old.partitionKeys.size(); ++i) {
    same_keys = old.partitionKeys[i].name == table.partitionKeys[i].name;
  }
  if (!same_keys) {
    return Status::InvalidArgument("the partition keys of table " +
                                   TableName(op.db_name, op.table_name) + " cannot be changed");
  }
  const bool rename = op.db_name != table.dbName || op.table_name != table.tableName;
  if (rename) {
    ICS_RETURN_IF_ERROR(RequireDatabase(conn_, table.dbName));
    ICS_ASSIGN_OR_RETURN(bool taken, HasRow("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2",
                                            {table.dbName, table.tableName}));
    if (taken) {
      return Status::AlreadyExists("cannot rename " + TableName(op.db_name, op.table_name) +
                                   ": table " + TableName(table.dbName, table.tableName) +
                                   " already exists");
    }
  }
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(table));
  // ?1, ?2 = old key; ?3, ?4 = new key. Foreign keys are checked at COMMIT,
  // so the order of the parent and child updates does not matter.
  const std::initializer_list<std::string_view> keys = {op.db_name, op.table_name, table.dbName,
                                                        table.tableName};
  ICS_RETURN_IF_ERROR(Run("UPDATE tables SET db = ?3, name = ?4, obj = ?5 "
                          "WHERE db = ?1 AND name = ?2",
                          keys, &blob));
  if (rename) {
    ICS_RETURN_IF_ERROR(
        Run("UPDATE partitions SET db = ?3, tbl = ?4 WHERE db = ?1 AND tbl = ?2", keys));
    ICS_RETURN_IF_ERROR(
        Run("UPDATE table_column_stats SET db = ?3, tbl = ?4 WHERE db = ?1 AND tbl = ?2", keys));
    ICS_RETURN_IF_ERROR(Run(
        "UPDATE partition_column_stats SET db = ?3, tbl = ?4 WHERE db = ?1 AND tbl = ?2", keys));
    ICS_RETURN_IF_ERROR(
        Run("UPDATE table_version_heads SET db = ?3, tbl = ?4 WHERE db = ?1 AND tbl = ?2", keys));
    ICS_RETURN_IF_ERROR(
        Run("UPDATE table_versions SET db = ?3, tbl = ?4 WHERE db = ?1 AND tbl = ?2", keys));
  }
  part_keys_.erase({op.db_name, op.table_name});
  part_keys_.erase({table.dbName, table.tableName});
  NotificationMessage msg{table.dbName, table.tableName, {}, {}, {}, {}, blob};
  if (rename) {
    msg.old_db = op.db_name;
    msg.old_table = op.table_name;
  }
  return AppendEvent(kEventAlterTable, msg, true);
}

Status TxnApplier::DropTable(const std::string& db, const std::string& table) {
  ICS_RETURN_IF_ERROR(CheckName("database", db));
  ICS_RETURN_IF_ERROR(CheckName("table", table));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, db, table));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM partition_column_stats WHERE db = ?1 AND tbl = ?2",
                          {db, table}));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM table_column_stats WHERE db = ?1 AND tbl = ?2",
                          {db, table}));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM partitions WHERE db = ?1 AND tbl = ?2", {db, table}));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM table_versions WHERE db = ?1 AND tbl = ?2", {db, table}));
  ICS_RETURN_IF_ERROR(
      Run("DELETE FROM table_version_heads WHERE db = ?1 AND tbl = ?2", {db, table}));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM tables WHERE db = ?1 AND name = ?2", {db, table}));
  part_keys_.erase({db, table});
  return AppendEvent(kEventDropTable, {db, table, {}, {}, {}, {}, {}}, true);
}

// ---- partitions ----

Status TxnApplier::PutPartition(const MetastoreOp& op, bool create) {
  const hive::Partition& part = op.partition;
  ICS_RETURN_IF_ERROR(CheckName("database", part.dbName));
  ICS_RETURN_IF_ERROR(CheckName("table", part.tableName));
  const std::string where = TableName(part.dbName, part.tableName);
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> keys, PartitionKeys(part.dbName, part.tableName));
  auto name = MakePartitionName(keys, part.values);
  if (!name.ok()) return name.status().WithContext("partition of " + where);
  if (!op.partition_name.empty() && op.partition_name != *name) {
    return Status::InvalidArgument("partition_name '" + op.partition_name +
                                   "' does not match the partition's values ('" + *name + "')");
  }
  ICS_ASSIGN_OR_RETURN(bool exists,
                       HasRow("SELECT 1 FROM partitions WHERE db = ?1 AND tbl = ?2 "
                              "AND part_name = ?3",
                              {part.dbName, part.tableName, *name}));
  if (create && exists) {
    return Status::AlreadyExists("partition " + *name + " of " + where + " already exists");
  }
  if (!create && !exists) {
    return Status::NotFound("partition " + *name + " of " + where + " does not exist");
  }
  // The stored blob omits the names the row key already holds, so a rename
  // only rewrites keys; reads fill them back in.
  hive::Partition stored = part;
  stored.dbName.clear();
  stored.tableName.clear();
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(stored));
  ICS_RETURN_IF_ERROR(Run(create ? "INSERT INTO partitions (db, tbl, part_name, obj) "
                                   "VALUES (?1, ?2, ?3, ?4)"
                                 : "UPDATE partitions SET obj = ?4 "
                                   "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                          {part.dbName, part.tableName, *name}, &blob));
  ICS_ASSIGN_OR_RETURN(std::string full, EncodeBlob(part));
  return AppendEvent(create ? kEventAddPartition : kEventAlterPartition,
                     {part.dbName, part.tableName, *name, {}, {}, {}, full}, true);
}

Status TxnApplier::DropPartition(const MetastoreOp& op) {
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, op.db_name, op.table_name));
  const std::initializer_list<std::string_view> key = {op.db_name, op.table_name,
                                                       op.partition_name};
  ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM partitions WHERE db = ?1 AND tbl = ?2 "
                                           "AND part_name = ?3",
                                           key));
  if (!exists) {
    return Status::NotFound("partition " + op.partition_name + " of " +
                            TableName(op.db_name, op.table_name) + " does not exist");
  }
  ICS_RETURN_IF_ERROR(Run("DELETE FROM partition_column_stats "
                          "WHERE db = ?1 AND tbl = ?2 AND part_name = ?3",
                          key));
  ICS_RETURN_IF_ERROR(
      Run("DELETE FROM partitions WHERE db = ?1 AND tbl = ?2 AND part_name = ?3", key));
  return AppendEvent(kEventDropPartition,
                     {op.db_name, op.table_name, op.partition_name, {}, {}, {}, {}}, true);
}

// ---- functions ----

Status TxnApplier::CreateFunction(const impala::TFunction& fn) {
  const std::string& db = fn.name.db_name;
  ICS_RETURN_IF_ERROR(CheckName("function database", db));
  if (fn.signature.empty()) {
    return Status::InvalidArgument("function " + db + "." + fn.name.function_name +
                                   " has no signature");
  }
  ICS_RETURN_IF_ERROR(RequireDatabase(conn_, db));
  ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM functions WHERE db = ?1 "
                                           "AND signature = ?2",
                                           {db, fn.signature}));
  if (exists) {
    return Status::AlreadyExists("function " + fn.signature + " already exists in database " +
                                 db);
  }
  ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(fn));
  ICS_RETURN_IF_ERROR(Run("INSERT INTO functions (db, signature, obj) VALUES (?1, ?2, ?3)",
                          {db, fn.signature}, &blob));
  return AppendEvent(kEventCreateFunction, {db, "", {}, fn.signature, {}, {}, blob}, false);
}

Status TxnApplier::DropFunction(const std::string& db, const std::string& signature) {
  ICS_RETURN_IF_ERROR(CheckName("database", db));
  ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM functions WHERE db = ?1 "
                                           "AND signature = ?2",
                                           {db, signature}));
  if (!exists) {
    return Status::NotFound("function " + signature + " does not exist in database " + db);
  }
  ICS_RETURN_IF_ERROR(
      Run("DELETE FROM functions WHERE db = ?1 AND signature = ?2", {db, signature}));
  return AppendEvent(kEventDropFunction, {db, "", {}, signature, {}, {}, {}}, false);
}

// ---- column statistics ----

Status TxnApplier::SetColumnStats(const MetastoreOp& op, bool partition_level) {
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, op.db_name, op.table_name));
  if (partition_level) {
    ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM partitions WHERE db = ?1 "
                                             "AND tbl = ?2 AND part_name = ?3",
                                             {op.db_name, op.table_name, op.partition_name}));
    if (!exists) {
      return Status::NotFound("partition " + op.partition_name + " of " +
                              TableName(op.db_name, op.table_name) + " does not exist");
    }
  }
  for (const hive::ColumnStatisticsObj& col : op.column_stats) {
    ICS_RETURN_IF_ERROR(CheckName("column", col.colName));
    ICS_ASSIGN_OR_RETURN(std::string blob, EncodeBlob(col));
    if (partition_level) {
      ICS_RETURN_IF_ERROR(Run("INSERT INTO partition_column_stats (db, tbl, part_name, col, obj) "
                              "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (db, tbl, part_name, col) "
                              "DO UPDATE SET obj = excluded.obj",
                              {op.db_name, op.table_name, op.partition_name, col.colName},
                              &blob));
    } else {
      ICS_RETURN_IF_ERROR(Run("INSERT INTO table_column_stats (db, tbl, col, obj) "
                              "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (db, tbl, col) "
                              "DO UPDATE SET obj = excluded.obj",
                              {op.db_name, op.table_name, col.colName}, &blob));
    }
  }
  ICS_ASSIGN_OR_RETURN(std::string object, EncodeBlob(StatsObject(op, partition_level)));
  NotificationMessage msg{op.db_name, op.table_name, {}, {}, {}, {}, object};
  if (partition_level) msg.partition = op.partition_name;
  return AppendEvent(partition_level ? kEventUpdatePartitionColumnStat : kEventUpdateTableColumnStat,
                     msg, true);
}

Status TxnApplier::DeleteColumnStats(const std::string& db, const std::string& table) {
  ICS_RETURN_IF_ERROR(CheckName("database", db));
  ICS_RETURN_IF_ERROR(CheckName("table", table));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, db, table));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM partition_column_stats WHERE db = ?1 AND tbl = ?2",
                          {db, table}));
  ICS_RETURN_IF_ERROR(Run("DELETE FROM table_column_stats WHERE db = ?1 AND tbl = ?2",
                          {db, table}));
  return AppendEvent(kEventDeleteTableColumnStat, {db, table, {}, {}, {}, {}, {}}, true);
}

Status TxnApplier::DeleteColumnStat(const MetastoreOp& op) {
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_RETURN_IF_ERROR(CheckName("column", op.column_name));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, op.db_name, op.table_name));
  const bool partition_level = !op.partition_name.empty();
  const std::string where = TableName(op.db_name, op.table_name);
  if (partition_level) {
    ICS_ASSIGN_OR_RETURN(bool exists, HasRow("SELECT 1 FROM partitions WHERE db = ?1 "
                                             "AND tbl = ?2 AND part_name = ?3",
                                             {op.db_name, op.table_name, op.partition_name}));
    if (!exists) {
      return Status::NotFound("partition " + op.partition_name + " of " + where +
                              " does not exist");
    }
    ICS_ASSIGN_OR_RETURN(bool has_stats,
                         HasRow("SELECT 1 FROM partition_column_stats WHERE db = ?1 AND tbl = ?2 "
                                "AND part_name = ?3 AND col = ?4",
                                {op.db_name, op.table_name, op.partition_name, op.column_name}));
    if (!has_stats) {
      return Status::NotFound("column " + op.column_name + " of " + where + " partition " +
                              op.partition_name + " has no statistics");
    }
    ICS_RETURN_IF_ERROR(Run("DELETE FROM partition_column_stats WHERE db = ?1 AND tbl = ?2 "
                            "AND part_name = ?3 AND col = ?4",
                            {op.db_name, op.table_name, op.partition_name, op.column_name}));
    return AppendEvent(kEventDeletePartitionColumnStat,
                       {op.db_name, op.table_name, op.partition_name, {}, {}, {}, {}}, true);
  }
  ICS_ASSIGN_OR_RETURN(bool has_stats,
                       HasRow("SELECT 1 FROM table_column_stats WHERE db = ?1 AND tbl = ?2 "
                              "AND col = ?3",
                              {op.db_name, op.table_name, op.column_name}));
  if (!has_stats) {
    return Status::NotFound("column " + op.column_name + " of " + where + " has no statistics");
  }
  ICS_RETURN_IF_ERROR(Run("DELETE FROM table_column_stats WHERE db = ?1 AND tbl = ?2 AND col = ?3",
                          {op.db_name, op.table_name, op.column_name}));
  return AppendEvent(kEventDeleteTableColumnStat, {op.db_name, op.table_name, {}, {}, {}, {}, {}},
                     true);
}

// ---- table versions ----

Status TxnApplier::NewTableVersion(const MetastoreOp& op) {
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn_->Prepare("SELECT t.obj, h.current_id, h.since_ms FROM tables t "
                                      "LEFT JOIN table_version_heads h "
                                      "ON h.db = t.db AND h.tbl = t.name "
                                      "WHERE t.db = ?1 AND t.name = ?2"));
  st.BindText(1, op.db_name).BindText(2, op.table_name);
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  const std::string where = TableName(op.db_name, op.table_name);
  if (!row) return Status::NotFound("table " + where + " does not exist");
  const std::string blob(st.Blob(0));
  int64_t current_id = 1;
  int64_t since_ms = 0;
  if (st.IsNull(1)) {
    ICS_ASSIGN_OR_RETURN(hive::Table t, DecodeBlob<hive::Table>(blob, "table " + where));
    since_ms = int64_t{t.createTime} * 1000;
  } else {
    current_id = st.Int(1);
    since_ms = st.Int(2);
  }
  if (op.archive) {
    ICS_ASSIGN_OR_RETURN(sqldb::Stmt ins,
                         conn_->Prepare("INSERT INTO table_versions (db, tbl, version_id, "
                                        "valid_from_ms, archived_ms, obj) "
                                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
    ins.BindText(1, op.db_name).BindText(2, op.table_name).BindInt(3, current_id);
    ins.BindInt(4, since_ms).BindInt(5, now_ms_).BindBlob(6, blob);
    ICS_RETURN_IF_ERROR(ins.Run());
  }
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt up,
                       conn_->Prepare("INSERT INTO table_version_heads (db, tbl, current_id, "
                                      "since_ms) VALUES (?1, ?2, ?3, ?4) "
                                      "ON CONFLICT (db, tbl) DO UPDATE SET "
                                      "current_id = excluded.current_id, "
                                      "since_ms = excluded.since_ms"));
  up.BindText(1, op.db_name).BindText(2, op.table_name).BindInt(3, current_id + 1);
  up.BindInt(4, now_ms_);
  return up.Run();
}

Status TxnApplier::DeleteTableVersion(const MetastoreOp& op) {
  ICS_RETURN_IF_ERROR(CheckName("database", op.db_name));
  ICS_RETURN_IF_ERROR(CheckName("table", op.table_name));
  ICS_RETURN_IF_ERROR(RequireTable(conn_, op.db_name, op.table_name));
  const std::string where = TableName(op.db_name, op.table_name);
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt head, conn_->Prepare("SELECT current_id FROM "
                                                        "table_version_heads WHERE db = ?1 "
                                                        "AND tbl = ?2"));
  head.BindText(1, op.db_name).BindText(2, op.table_name);
  ICS_ASSIGN_OR_RETURN(bool has_head, head.Step());
  const int64_t current = has_head ? head.Int(0) : 1;
  if (op.version_id == current) {
    return Status::InvalidArgument("version " + std::to_string(op.version_id) + " of " + where +
                                   " is the current version and cannot be deleted");
  }
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt del, conn_->Prepare("DELETE FROM table_versions WHERE "
                                                       "db = ?1 AND tbl = ?2 AND "
                                                       "version_id = ?3"));
  del.BindText(1, op.db_name).BindText(2, op.table_name).BindInt(3, op.version_id);
  ICS_RETURN_IF_ERROR(del.Run());
  if (conn_->Changes() == 0) {
    return Status::NotFound("version " + std::to_string(op.version_id) + " of " + where +
                            " does not exist");
  }
  return Status::OK();
}

// ---- helpers ----

Status TxnApplier::Run(const std::string& sql, std::initializer_list<std::string_view> texts,
                       const std::string* blob) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn_->Prepare(sql));
  int idx = 1;
  for (std::string_view t : texts) st.BindText(idx++, t);
  if (blob != nullptr) st.BindBlob(idx, *blob);
  return st.Run();
}

Result<bool> TxnApplier::HasRow(const std::string& sql,
                                std::initializer_list<std::string_view> texts) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn_->Prepare(sql));
  int idx = 1;
  for (std::string_view t : texts) st.BindText(idx++, t);
  return st.Step();
}


Result<hive::Table> TxnApplier::LoadTable(const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn_->Prepare("SELECT obj FROM tables WHERE db = ?1 AND name = ?2"));
  st.BindText(1, db).BindText(2, table);
  ICS_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  return DecodeBlob<hive::Table>(st.Blob(0), "table " + TableName(db, table));
}

Result<std::vector<std::string>> TxnApplier::PartitionKeys(const std::string& db,
                                                            const std::string& table) {
  auto it = part_keys_.find({db, table});
  if (it != part_keys_.end()) return it->second;
  ICS_ASSIGN_OR_RETURN(hive::Table t, LoadTable(db, table));
  std::vector<std::string> keys = PartitionKeyNames(t);
  part_keys_.emplace(Key{db, table}, keys);
  return keys;
}

Status RequireDatabase(sqldb::Connection* conn, const std::string& db) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn->Prepare("SELECT 1 FROM databases WHERE name = ?1"));
  ICS_ASSIGN_OR_RETURN(bool exists, st.BindText(1, db).Step());
  if (!exists) return Status::NotFound("database " + db + " does not exist");
  return Status::OK();
}

Status RequireTable(sqldb::Connection* conn, const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn->Prepare("SELECT 1 FROM tables WHERE db = ?1 AND name = ?2"));
  ICS_ASSIGN_OR_RETURN(bool exists, st.BindText(1, db).BindText(2, table).Step());
  if (!exists) return Status::NotFound("table " + TableName(db, table) + " does not exist");
  return Status::OK();
}

Status TxnApplier::AppendEvent(std::string_view type, const NotificationMessage& msg,
                               bool table_level) {
  if (events_ == 0) {
    // A write transaction holds the counter (sql_db.h), so the ids of this
    // txn follow those of the previous commit.
    ICS_ASSIGN_OR_RETURN(last_event_id_, sqldb::LatestEventId(conn_));
  }
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn_->Prepare("INSERT INTO notification_log "
                                      "(event_id, event_time, event_type, db, tbl, message) "
                                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
  st.BindInt(1, last_event_id_ + 1).BindInt(2, event_time_).BindText(3, type).BindText(4, msg.db);
  if (table_level) {
    st.BindText(5, msg.table);
  } else {
    st.BindNull(5);
  }
  st.BindText(6, EncodeNotificationMessage(msg));
  ICS_RETURN_IF_ERROR(st.Run());
  ++last_event_id_;
  ++events_;
  return Status::OK();
}

Status TxnApplier::Finish() {
  if (events_ == 0) return Status::OK();
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn_->Prepare("UPDATE notification_sequence SET last_id = ?1"));
  return st.BindInt(1, last_event_id_).Run();
}

// ---- recorded requests ----

// The ids of requests that may be repeated (coordinators make them unique
// per statement): bounded like names.
constexpr size_t kMaxRequestIdBytes = 128;
constexpr size_t kMaxRequestSummaryBytes = 1024;

Status TxnApplier::RecordRequest(const MetastoreOp& op) {
  if (op.request_id.empty() || op.request_id.size() > kMaxRequestIdBytes) {
    return Status::InvalidArgument("a request id has 1.." + std::to_string(kMaxRequestIdBytes) +
                                   " bytes, not " + std::to_string(op.request_id.size()));
  }
  ICS_ASSIGN_OR_RETURN(bool seen,
                       HasRow("SELECT 1 FROM request_log WHERE request_id = ?1", {op.request_id}));
  if (seen) {
    return Status::AlreadyExists("request " + op.request_id + " was carried out before");
  }
  const std::string summary = op.request_summary.substr(0, kMaxRequestSummaryBytes);
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st,
                       conn_->Prepare("INSERT INTO request_log (request_id, summary, recorded_ms) "
                                      "VALUES (?1, ?2, ?3)"));
  return st.BindText(1, op.request_id).BindText(2, summary).BindInt(3, now_ms_).Run();
}

}  // namespace ics::catalog
