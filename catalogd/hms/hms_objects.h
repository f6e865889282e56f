// HmsObjects: databases and tables through the Hive Metastore API — reads
// as the core's queries, changes as its commands (create, drop, alter,
// rename with Hive's move rule).
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <string>
#include <vector>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsObjects : public HmsPart {
 public:
  using HmsPart::HmsPart;

  // ---- databases ----
  Result<std::vector<std::string>> GetDatabases(const std::string& pattern);
  Result<hive::Database> GetDatabase(const std::string& name);
  [[nodiscard]] Status CreateDatabase(hive::Database db);
  [[nodiscard]] Status DropDatabase(const std::string& name, bool delete_data, bool cascade);
  [[nodiscard]] Status AlterDatabase(const std::string& name, hive::Database db);

  // ---- tables ----
  Result<std::vector<std::string>> GetTables(const std::string& db, const std::string& pattern);
  Result<std::vector<hive::TableMeta>> GetTableMeta(const std::string& db_patterns,
                                                    const std::string& tbl_patterns,
                                                    const std::vector<std::string>& types);
  Result<hive::Table> GetTable(const std::string& db, const std::string& table);
  // Tables that exist, in request order; absent names are skipped.
  Result<std::vector<hive::Table>> GetTablesByName(const std::string& db,
                                                   const std::vector<std::string>& names);
  [[nodiscard]] Status CreateTable(hive::Table table);
  [[nodiscard]] Status DropTable(const std::string& db, const std::string& table, bool delete_data);
  [[nodiscard]] Status AlterTable(const std::string& db, const std::string& table,
                                  hive::Table new_table);
};

}  // namespace ics::catalog::hms
