#include "coordinator-sim/exec/stats_scanner.h"

#include <algorithm>
#include <utility>

#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"
#include "coordinator-sim/exec/hll.h"
#include "coordinator-sim/exec/text_data.h"

namespace ics::coord {

namespace {

using impala::TPrimitiveType;

// Running figures of one column over one partition's rows.
struct ColumnAccumulator {
  bool skip = false;  // complex type: no stats
  std::optional<int32_t> fixed_width;
  bool is_boolean = false;
  Hll hll;
  int64_t num_nulls = 0;
  int64_t non_null = 0;
  int64_t total_width = 0;
  int32_t max_width = 0;
  int64_t num_trues = 0;
  int64_t num_falses = 0;
};

}  // namespace

std::optional<int32_t> FixedWidthOf(const impala::TColumnType& type) {
  if (!IsScalar(type)) return std::nullopt;
  const impala::TScalarType& st = type.types[0].scalar_type;
  switch (st.type) {
    case TPrimitiveType::BOOLEAN:
    case TPrimitiveType::TINYINT:
      return 1;
    case TPrimitiveType::SMALLINT:
      return 2;
    case TPrimitiveType::INT:
    case TPrimitiveType::FLOAT:
    case TPrimitiveType::DATE:
      return 4;
    case TPrimitiveType::BIGINT:
    case TPrimitiveType::DOUBLE:
      return 8;
    case TPrimitiveType::TIMESTAMP:
      return 16;
    case TPrimitiveType::CHAR:
      if (st.__isset.len && st.len > 0) return st.len;
      return std::nullopt;
    case TPrimitiveType::DECIMAL: {
      const int precision = st.__isset.precision ? st.precision : 10;
      return precision <= 9 ? 4 : (precision <= 18 ? 8 : 16);
    }
    default:
      return std::nullopt;
  }
}

Result<impala::TPartitionStats> ComputePartitionScan(const std::vector<std::string>& file_paths,
                                                     const std::vector<ScanColumn>& data_columns,
                                                     char field_delim) {
  std::vector<ColumnAccumulator> acc(data_columns.size());
  for (size_t i = 0; i < data_columns.size(); ++i) {
    const impala::TColumnType& type = data_columns[i].type;
    acc[i].skip = !IsScalar(type);
    acc[i].fixed_width = FixedWidthOf(type);
    acc[i].is_boolean = PrimitiveOf(type) == TPrimitiveType::BOOLEAN;
  }
  int64_t num_rows = 0;
  int64_t total_bytes = 0;
  for (const std::string& path : file_paths) {
    ICS_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path));
    total_bytes += static_cast<int64_t>(data.size());
    Status s = ForEachTextRow(data, field_delim, data_columns.size(), [&](const TextRow& row) {
      ++num_rows;
      for (size_t i = 0; i < data_columns.size(); ++i) {
        ColumnAccumulator& a = acc[i];
        if (a.skip) continue;
        std::optional<std::string> value;
        if (row[i]) value = CanonicalTextValue(*row[i], data_columns[i].type);
        if (!value) {
          ++a.num_nulls;
          continue;
        }
        ++a.non_null;
        a.hll.Update(*value);
        if (!a.fixed_width) {
          const auto width = static_cast<int64_t>(value->size());
          a.total_width += width;
          a.max_width = static_cast<int32_t>(
              std::min<int64_t>(std::max<int64_t>(a.max_width, width), INT32_MAX));
        }
        if (a.is_boolean) ++(*value == "true" ? a.num_trues : a.num_falses);
      }
      return Status::OK();
    });
    if (!s.ok()) return s.WithContext(path);
  }

  impala::TPartitionStats stats;
  stats.stats.num_rows = num_rows;
  stats.stats.__set_total_file_bytes(total_bytes);
  std::map<std::string, impala::TIntermediateColumnStats> cols;
  for (size_t i = 0; i < data_columns.size(); ++i) {
    const ColumnAccumulator& a = acc[i];
    if (a.skip) continue;
    impala::TIntermediateColumnStats c;
    c.__set_intermediate_ndv(a.hll.Serialize());
    c.__set_is_ndv_encoded(false);
    c.__set_num_nulls(a.num_nulls);
    if (a.fixed_width) {
      c.__set_max_width(*a.fixed_width);
      c.__set_avg_width(*a.fixed_width);
    } else {
      c.__set_max_width(a.max_width);
      c.__set_avg_width(a.non_null == 0 ? 0.0
                                        : static_cast<double>(a.total_width) /
                                              static_cast<double>(a.non_null));
    }
    c.__set_num_rows(num_rows);
    if (a.is_boolean) {
      c.__set_num_trues(a.num_trues);
      c.__set_num_falses(a.num_falses);
    }
    cols[data_columns[i].name] = std::move(c);
  }
  stats.__set_intermediate_col_stats(std::move(cols));
  return stats;
}

std::map<std::string, impala::TColumnStats> MergeColumnStats(
    const std::vector<impala::TPartitionStats>& parts, const std::vector<ScanColumn>& cols) {
  std::map<std::string, impala::TColumnStats> out;
  for (const ScanColumn& col : cols) {
    if (!IsScalar(col.type)) continue;
    const std::optional<int32_t> fixed = FixedWidthOf(col.type);
    const bool is_boolean = PrimitiveOf(col.type) == TPrimitiveType::BOOLEAN;
    Hll hll;
    int64_t num_nulls = 0;
    int64_t non_null = 0;
    int64_t max_width = 0;
    double weighted_width = 0;
    int64_t trues = 0;
    int64_t falses = 0;
    for (const impala::TPartitionStats& part : parts) {
      auto it = part.intermediate_col_stats.find(col.name);
      if (it == part.intermediate_col_stats.end()) continue;
      const impala::TIntermediateColumnStats& c = it->second;
      if (c.__isset.intermediate_ndv) {
        Result<Hll> h = Hll::Deserialize(c.intermediate_ndv,
                                         c.__isset.is_ndv_encoded && c.is_ndv_encoded);
        if (h.ok()) hll.Merge(*h);
      }
      const int64_t rows = c.__isset.num_rows ? c.num_rows : part.stats.num_rows;
      const int64_t nulls = c.__isset.num_nulls && c.num_nulls >= 0 ? c.num_nulls : 0;
      const int64_t values = std::max<int64_t>(0, rows - nulls);
      num_nulls += nulls;
      non_null += values;
      if (c.__isset.max_width) max_width = std::max<int64_t>(max_width, c.max_width);
      if (c.__isset.avg_width && c.avg_width > 0) {
        weighted_width += c.avg_width * static_cast<double>(values);
      }
      if (c.__isset.num_trues && c.num_trues > 0) trues += c.num_trues;
      if (c.__isset.num_falses && c.num_falses > 0) falses += c.num_falses;
    }
    impala::TColumnStats s;
    int64_t ndv = std::min(hll.Estimate(), non_null);
    if (is_boolean) {
      ndv = trues + falses > 0 ? (trues > 0 ? 1 : 0) + (falses > 0 ? 1 : 0)
                               : std::min<int64_t>(ndv, 2);
    }
    s.num_distinct_values = ndv;
    s.num_nulls = num_nulls;
    if (fixed) {
      s.max_size = *fixed;
      s.avg_size = *fixed;
    } else {
      s.max_size = max_width;
      s.avg_size = non_null == 0 ? 0.0 : weighted_width / static_cast<double>(non_null);
    }
    s.num_trues = is_boolean ? trues : -1;
    s.num_falses = is_boolean ? falses : -1;
    out[col.name] = std::move(s);
  }
  return out;
}

}  // namespace ics::coord
