// Column statistics as Impala ships them inside TColumn.col_stats, derived
// from the Hive form the metastore stores (hive::ColumnStatisticsObj).
//
// Hive keeps no widths for fixed-width types; as Impala does, those report
// the type's slot size as both max and average size.
//
// Thread-safety: stateless.
#pragma once

#include "CatalogObjects_types.h"
#include "hive_metastore_types.h"

namespace ics::catalog {

// -1 for anything the Hive stats do not know.
impala::TColumnStats ToTColumnStats(const hive::ColumnStatisticsObj& stats,
                                    const impala::TColumnType& type);

}  // namespace ics::catalog
