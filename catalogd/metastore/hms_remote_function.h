// Reading a database's functions through the Hive Metastore API for the
// remote backend. The catalog keys functions by (database, signature) and
// stores impala::TFunction; the HMS endpoint keys hive::Function by
// (database, name) with name = signature, and the mapping between the two
// (common/hive/function_map.h) is shared with it, so functions
// round-trip losslessly. Private to the remote backend.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <vector>

#include "Types_types.h"
#include "catalogd/metastore/hms_remote_call.h"
#include "common/util/result.h"

namespace ics::catalog {

// Every function of `db` (whose existence the caller checks), ordered by
// signature.
Result<std::vector<impala::TFunction>> ReadFunctions(const HmsCaller& caller,
                                                     const std::string& db);

}  // namespace ics::catalog
