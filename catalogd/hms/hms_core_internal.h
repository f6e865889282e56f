// Helpers shared by the HmsCore implementation files. Private to catalogd/hms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/caller.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_type.h"
#include "common/util/path_join.h"
#include "common/util/wall_clock.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

// The caller of the HMS call being served, for the command core.
inline ops::Caller HmsCaller() { return ops::CallerOfCurrentRpc("HMS"); }

// LIMIT_EXCEEDED unless n <= max.
[[nodiscard]] Status CheckCount(size_t n, int max, const std::string& what);

// The table or NOT_FOUND "Table db.t does not exist" (names normalized first).
Result<hive::Table> LoadTable(Metastore* ms, const std::string& db, const std::string& table);

}  // namespace ics::catalog::hms
