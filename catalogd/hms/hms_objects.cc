// HmsObjects: databases and tables.
#include <algorithm>

#include "catalogd/hms/hms_objects.h"
#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/ops/command_core.h"

namespace ics::catalog::hms {

// ---- databases ----

Result<std::vector<std::string>> HmsObjects::GetDatabases(const std::string& pattern_arg) {
  ICS_ASSIGN_OR_RETURN(const std::string pattern, DbPattern(pattern_arg));
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> all, reads_->DatabaseNames(HmsCaller()));
  std::vector<std::string> out;
  for (std::string& d : all) {
    if (MatchesHmsPattern(pattern, d)) out.push_back(std::move(d));
  }
  ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "databases"));
  return out;
}

Result<hive::Database> HmsObjects::GetDatabase(const std::string& name_arg) {
  ICS_ASSIGN_OR_RETURN(const std::string name, Db(name_arg));
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(name));
  return reads_->Database(HmsCaller(), db);
}

Status HmsObjects::CreateDatabase(hive::Database db) {
  ICS_RETURN_IF_ERROR(CheckCatalog(db.catalogName));
  CreateDatabaseCommand c;
  c.db = std::move(db);
  return commands_->CreateDatabase(HmsCaller(), c).status();
}

Status HmsObjects::DropDatabase(const std::string& name_arg, bool delete_data, bool cascade) {
  ICS_ASSIGN_OR_RETURN(const std::string name, Db(name_arg));
  DropDatabaseCommand c;
  c.name = name;
  c.cascade = cascade;
  c.delete_data = delete_data;
  return commands_->DropDatabase(HmsCaller(), c).status();
}

Status HmsObjects::AlterDatabase(const std::string& name_arg, hive::Database db) {
  ICS_ASSIGN_OR_RETURN(const std::string name, Db(name_arg));
  AlterDatabaseCommand c;
  c.name = name;
  // The caller's object replaces the current one (an empty location keeps it).
  c.patch = [&db](hive::Database* current) {
    *current = db;
    return Status::OK();
  };
  return commands_->AlterDatabase(HmsCaller(), c).status();
}

// ---- tables ----

Result<std::vector<std::string>> HmsObjects::GetTables(const std::string& db_arg,
                                                       const std::string& pattern) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> all, reads_->TableNames(HmsCaller(), d));
  std::vector<std::string> out;
  for (std::string& t : all) {
    if (MatchesHmsPattern(pattern, t)) out.push_back(std::move(t));
  }
  ICS_RETURN_IF_ERROR(CheckCount(out.size(), opts_.max_objects_per_request, "tables"));
  return out;
}

Result<std::vector<hive::TableMeta>> HmsObjects::GetTableMeta(
    const std::string& db_patterns_arg, const std::string& tbl_patterns,
    const std::vector<std::string>& types) {
  ICS_ASSIGN_OR_RETURN(const std::string db_patterns, DbPattern(db_patterns_arg));
  const ops::Caller caller = HmsCaller();
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> dbs, reads_->DatabaseNames(caller));
  std::vector<hive::TableMeta> out;
  for (const std::string& d : dbs) {
    if (!MatchesHmsPattern(db_patterns, d)) continue;
    Result<std::vector<std::string>> tables = reads_->TableNames(caller, d);
    if (!tables.ok()) {
      if (tables.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
      return tables.status();
    }
    for (const std::string& t : *tables) {
      if (!MatchesHmsPattern(tbl_patterns, t)) continue;
      Result<hive::Table> table = reads_->Table(caller, d, t);
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

Result<hive::Table> HmsObjects::GetTable(const std::string& db_arg, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  return reads_->Table(HmsCaller(), db, table);
}

Result<std::vector<hive::Table>> HmsObjects::GetTablesByName(
    const std::string& db_arg, const std::vector<std::string>& names) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(std::string d, NormalizeDatabaseName(db));
  ICS_RETURN_IF_ERROR(CheckCount(names.size(), opts_.max_objects_per_request, "table names"));
  const ops::Caller caller = HmsCaller();
  ICS_RETURN_IF_ERROR(reads_->Database(caller, d).status());
  std::vector<hive::Table> out;
  std::vector<std::string> done;
  for (const std::string& n : names) {
    ICS_ASSIGN_OR_RETURN(std::string t, NormalizeTableName(n));
    if (std::find(done.begin(), done.end(), t) != done.end()) continue;
    done.push_back(t);
    Result<hive::Table> table = reads_->Table(caller, d, t);
    if (table.ok()) {
      out.push_back(std::move(table).value());
    } else if (!table.status().Is(ErrorCode::kNotFound)) {
      return table.status();
    }
  }
  return out;
}

Status HmsObjects::CreateTable(hive::Table table) {
  ICS_RETURN_IF_ERROR(CheckCatalog(table.catName));
  CreateTableCommand c;
  c.table = std::move(table);
  return commands_->CreateTable(HmsCaller(), c).status();
}

Status HmsObjects::DropTable(const std::string& db_arg, const std::string& table,
                             bool delete_data) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  DropTableCommand c;
  c.db = db;
  c.table = table;
  c.delete_data = delete_data;
  return commands_->DropTable(HmsCaller(), c).status();
}

Status HmsObjects::AlterTable(const std::string& db_arg, const std::string& table,
                              hive::Table new_table) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCatalog(new_table.catName));
  AlterTableCommand c;
  c.db = db;
  c.table = table;
  c.table_def = std::move(new_table);
  return commands_->AlterTable(HmsCaller(), c).status();
}

}  // namespace ics::catalog::hms
