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

namespace ics {

// Slot size of fixed-width scalar types (BOOLEAN 1 ... TIMESTAMP 16, DECIMAL
// by precision, CHAR(n)); -1 for variable-width and complex types.
int64_t SlotSize(const impala::TColumnType& type);

// Whether Hive statistics data carries any kind of statistics (one of the
// union's members is set).
bool HasStatsData(const hive::ColumnStatisticsData& data);

// -1 for anything the Hive stats do not know.
impala::TColumnStats ToTColumnStats(const hive::ColumnStatisticsObj& stats,
                                    const impala::TColumnType& type);

}  // namespace ics
