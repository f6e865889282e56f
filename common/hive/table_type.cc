#include "common/hive/table_type.h"

#include "common/hive/names.h"

namespace ics {

bool IsKnownTableType(std::string_view type) {
  return type == kManagedTable || type == kExternalTable || type == kVirtualView ||
         type == kMaterializedView;
}

bool IsView(const hive::Table& t) { return t.tableType == kVirtualView; }

bool IsMaterializedView(const hive::Table& t) { return t.tableType == kMaterializedView; }

bool IsExternal(const hive::Table& t) {
  if (t.tableType == kExternalTable) return true;
  auto it = t.parameters.find("EXTERNAL");
  return it != t.parameters.end() && AsciiLower(it->second) == "true";
}

}  // namespace ics
