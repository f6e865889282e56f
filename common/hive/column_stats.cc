#include "common/hive/column_stats.h"

namespace ics {

namespace {

using P = impala::TPrimitiveType;

}  // namespace

bool HasStatsData(const hive::ColumnStatisticsData& data) {
  const auto& s = data.__isset;
  return s.booleanStats || s.longStats || s.doubleStats || s.stringStats || s.binaryStats ||
         s.decimalStats || s.dateStats || s.timestampStats;
}

int64_t SlotSize(const impala::TColumnType& type) {
  if (type.types.size() != 1 || type.types[0].type != impala::TTypeNodeType::SCALAR) return -1;
  const impala::TScalarType& st = type.types[0].scalar_type;
  switch (st.type) {
    case P::BOOLEAN:
    case P::TINYINT:
      return 1;
    case P::SMALLINT:
      return 2;
    case P::INT:
    case P::FLOAT:
    case P::DATE:
      return 4;
    case P::BIGINT:
    case P::DOUBLE:
      return 8;
    case P::TIMESTAMP:
      return 16;
    case P::DECIMAL:
      return st.precision <= 9 ? 4 : st.precision <= 18 ? 8 : 16;
    case P::CHAR:
      return st.__isset.len ? st.len : -1;
    default:
      return -1;
  }
}

impala::TColumnStats ToTColumnStats(const hive::ColumnStatisticsObj& stats,
                                    const impala::TColumnType& type) {
  impala::TColumnStats out;
  const int64_t slot = SlotSize(type);
  out.avg_size = static_cast<double>(slot);
  out.max_size = slot;
  out.num_distinct_values = -1;
  out.num_nulls = -1;
  out.num_trues = -1;
  out.num_falses = -1;
  const hive::ColumnStatisticsData& d = stats.statsData;
  if (d.__isset.booleanStats) {
    out.num_nulls = d.booleanStats.numNulls;
    out.num_trues = d.booleanStats.numTrues;
    out.num_falses = d.booleanStats.numFalses;
    out.num_distinct_values = (out.num_trues > 0 ? 1 : 0) + (out.num_falses > 0 ? 1 : 0);
  } else if (d.__isset.longStats) {
    out.num_nulls = d.longStats.numNulls;
    out.num_distinct_values = d.longStats.numDVs;
  } else if (d.__isset.doubleStats) {
    out.num_nulls = d.doubleStats.numNulls;
    out.num_distinct_values = d.doubleStats.numDVs;
  } else if (d.__isset.decimalStats) {
    out.num_nulls = d.decimalStats.numNulls;
    out.num_distinct_values = d.decimalStats.numDVs;
  } else if (d.__isset.dateStats) {
    out.num_nulls = d.dateStats.numNulls;
    out.num_distinct_values = d.dateStats.numDVs;
  } else if (d.__isset.timestampStats) {
    // Hive 4 writes TIMESTAMP statistics here; Impala's own are longStats.
    out.num_nulls = d.timestampStats.numNulls;
    out.num_distinct_values = d.timestampStats.numDVs;
  } else if (d.__isset.stringStats) {
    out.num_nulls = d.stringStats.numNulls;
    out.num_distinct_values = d.stringStats.numDVs;
    out.max_size = d.stringStats.maxColLen;
    out.avg_size = d.stringStats.avgColLen;
  } else if (d.__isset.binaryStats) {
    out.num_nulls = d.binaryStats.numNulls;
    out.max_size = d.binaryStats.maxColLen;
    out.avg_size = d.binaryStats.avgColLen;
  }
  return out;
}

}  // namespace ics
