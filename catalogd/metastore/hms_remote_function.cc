#include "catalogd/metastore/hms_remote_function.h"

#include <algorithm>

#include "common/hive/function_map.h"

namespace ics::catalog {

Result<std::vector<impala::TFunction>> ReadFunctions(const HmsCaller& caller,
                                                     const std::string& db) {
  // Most databases have no functions: one cheap name listing decides
  // whether the (all-database) function read is needed at all.
  std::vector<std::string> names;
  ICS_RETURN_IF_ERROR(
      caller.Read("get_functions", [&](HmsStub& c) { c.get_functions(names, db, ""); }));
  std::vector<impala::TFunction> out;
  if (names.empty()) return out;
  hive::GetAllFunctionsResponse all;
  ICS_RETURN_IF_ERROR(
      caller.Read("get_all_functions", [&](HmsStub& c) { c.get_all_functions(all); }));
  for (const hive::Function& f : all.functions) {
    if (f.dbName != db) continue;
    Result<impala::TFunction> fn = ics::FromHmsFunction(f);
    if (!fn.ok()) {
      return Status::Corruption("metastore " + caller.pool()->options().Address() +
                                " returned function " + db + "." + f.functionName +
                                " that cannot be read: " + fn.status().message());
    }
    out.push_back(std::move(fn).value());
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.signature < b.signature; });
  return out;
}

}  // namespace ics::catalog
