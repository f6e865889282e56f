#include "catalogd/core/catalog_names.h"

#include <memory>
#include <utility>

#include "catalogd/loader/table_load_manager.h"

namespace ics::catalog {

Result<ChangeSet> CatalogNamesOf(Metastore* metastore) {
  ChangeSet cs;
  ICS_ASSIGN_OR_RETURN(auto dbs, metastore->GetAllDatabases());
  for (const std::string& db : dbs) {
    ICS_ASSIGN_OR_RETURN(auto hms_db, metastore->GetDatabase(db));
    auto d = std::make_shared<DatabaseState>();
    d->name = db;
    d->hms = std::move(hms_db);
    cs.put_databases.push_back(std::move(d));
    ICS_ASSIGN_OR_RETURN(auto tables, metastore->GetAllTables(db));
    for (const std::string& t : tables) cs.put_tables.push_back(MakeUnloadedTable(db, t));
    ICS_ASSIGN_OR_RETURN(auto fns, metastore->GetFunctions(db));
    for (auto& fn : fns) {
      auto f = std::make_shared<FunctionState>();
      f->db = db;
      f->signature = fn.__isset.signature ? fn.signature : fn.name.function_name;
      f->fn = std::move(fn);
      cs.put_functions.push_back(std::move(f));
    }
  }
  return cs;
}

}  // namespace ics::catalog
