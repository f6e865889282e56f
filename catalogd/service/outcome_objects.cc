#include "catalogd/service/outcome_objects.h"

#include "catalogd/catalog/catalog_objects.h"

namespace ics::catalog {

OutcomeObjects RenderOutcome(const DdlOutcome& o, bool minimal) {
  OutcomeObjects out;
  out.updated.reserve(o.databases.size() + o.tables.size() + o.functions.size());
  for (const DatabasePtr& db : o.databases) {
    out.updated.push_back(minimal ? DatabaseInvalidation(db->name, db->version)
                                  : DatabaseObject(*db));
  }
  for (const TablePtr& t : o.tables) {
    out.updated.push_back(minimal ? TableInvalidation(*t, t->version) : TableObjectFull(*t));
  }
  if (minimal && o.partition_delta.has_value() && !o.tables.empty() && o.tables[0]->loaded) {
    const TableState& t = *o.tables[0];
    out.updated[o.databases.size()].__set_base_catalog_version(o.partition_delta->base_version);
    for (const PartitionPtr& p : o.partition_delta->added) {
      out.updated.push_back(PartitionInvalidation(t, *p, t.version));
    }
    for (const PartitionPtr& p : o.partition_delta->removed) {
      out.removed.push_back(PartitionInvalidation(t, *p, t.version));
    }
  }
  for (const FunctionPtr& f : o.functions) {
    out.updated.push_back(minimal ? FunctionInvalidation(*f, f->version) : FunctionObject(*f));
  }
  for (const std::string& db : o.removed_databases) {
    out.removed.push_back(DatabaseInvalidation(db, o.version));
  }
  for (const TablePtr& t : o.removed_tables)
    out.removed.push_back(TableInvalidation(*t, o.version));
  for (const FunctionPtr& f : o.removed_functions) {
    out.removed.push_back(FunctionInvalidation(*f, o.version));
  }
  return out;
}

}  // namespace ics::catalog
