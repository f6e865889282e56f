// HmsFunctions: user-defined functions through the Hive Metastore API
// (the mapping to the catalog's functions: common/hive/function_map.h).
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <string>
#include <vector>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsFunctions : public HmsPart {
 public:
  using HmsPart::HmsPart;

  [[nodiscard]] Status CreateFunction(const hive::Function& fn);
  [[nodiscard]] Status DropFunction(const std::string& db, const std::string& name);
  Result<std::vector<std::string>> GetFunctionNames(const std::string& db,
                                                    const std::string& pattern);
  Result<hive::Function> GetFunction(const std::string& db, const std::string& name);
  Result<std::vector<hive::Function>> GetAllFunctions();
};

}  // namespace ics::catalog::hms
