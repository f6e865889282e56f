// Helpers shared by the parts of the HMS API (hms_part.h). Private to catalogd/hms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/hms/hms_part.h"
#include "catalogd/hms/hms_statistics.h"
#include "catalogd/ops/caller.h"
#include "catalogd/ops/catalog_queries.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_type.h"
#include "common/util/path_join.h"
#include "common/util/result.h"
#include "common/util/wall_clock.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

// The caller of the HMS call being served, for the command core.
inline ops::Caller HmsCaller() { return ops::CallerOfCurrentRpc("HMS"); }

// LIMIT_EXCEEDED unless n <= max.
[[nodiscard]] Status CheckCount(size_t n, int max, const std::string& what);

// Statistics a request sets on, or drops from, table db.table.
struct HmsStatistics::TableStatsEdit {
  std::string db;
  std::string table;
  ColumnStatsEdit stats;
};
struct HmsStatistics::TableStatsDrop {
  std::string db;
  std::string table;
  ColumnStatsDrop drop;
};

}  // namespace ics::catalog::hms
