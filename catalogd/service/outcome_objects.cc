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
  // The partition change of tables[0] (a table that a failed rebuild left
  // unloaded has no partition list to patch).
  const bool with_delta =
      minimal && o.partition_delta.has_value() && !o.tables.empty() && o.tables[0]->loaded;
  for (const TablePtr& t : o.tables) {
    if (!minimal) {
      out.updated.push_back(TableObjectFull(*t));
      continue;
    }
    out.updated.push_back(TableInvalidation(*t, t->version));
    if (with_delta && t == o.tables[0]) {
      out.updated.back().__set_base_catalog_version(o.partition_delta->base_version);
    }
  }
  if (with_delta) {
    const TableState& t = *o.tables[0];
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
