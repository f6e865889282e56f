// Statistics of text data files for COMPUTE [INCREMENTAL] STATS: a scan of a
// partition's files into an (incremental) TPartitionStats, and the merge of
// per-partition stats into the table's column stats.
//
// Per column (TIntermediateColumnStats, keyed by ScanColumn::name):
//   intermediate_ndv  the 1024 HLL registers (hll.h) of the non-NULL values'
//                     canonical texts (text_data.h CanonicalTextValue), with
//                     is_ndv_encoded=false;
//   num_nulls         NULL fields (\N, missing trailing fields) plus fields
//                     that do not parse as the column type (Hive semantics);
//   max_width, avg_width  variable-width types (STRING, VARCHAR, BINARY): the
//                     byte length of the non-NULL values (max, and mean over
//                     the non-NULL values; 0 when there are none);
//                     fixed-width types: their slot size, whatever the data
//                     (BOOLEAN/TINYINT 1, SMALLINT 2, INT/FLOAT/DATE 4,
//                     BIGINT/DOUBLE 8, TIMESTAMP 16, CHAR(n) n,
//                     DECIMAL 4/8/16 for precision <=9/<=18/more);
//   num_rows          the partition's row count;
//   num_trues, num_falses  BOOLEAN columns only.
// Complex-type columns (ARRAY/MAP/STRUCT) occupy their field but get no
// stats, as Impala's COMPUTE STATS skips them.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "CatalogObjects_types.h"
#include "Types_types.h"
#include "common/hive/scalar_text.h"
#include "common/util/result.h"

namespace ics::coord {

struct ScanColumn {
  std::string name;
  impala::TColumnType type;
};

// The slot size of a fixed-width scalar type; nullopt for variable-width
// (STRING, VARCHAR, BINARY) and complex types.
std::optional<int32_t> FixedWidthOf(const impala::TColumnType& type);

// Reads every file (text, fields in `data_columns` order separated by
// `field_delim`) and returns the partition's stats: stats.num_rows = rows,
// stats.total_file_bytes = bytes read, and intermediate_col_stats as above.
// IO_ERROR if a file cannot be read; INVALID_ARGUMENT for a bad delimiter.
Result<impala::TPartitionStats> ComputePartitionScan(const std::vector<std::string>& file_paths,
                                                     const std::vector<ScanColumn>& data_columns,
                                                     char field_delim);

// Merges per-partition stats into column stats for every scalar column of
// `cols` (complex columns are left out):
//   num_distinct_values  estimate of the union of the partitions' HLLs
//                        (Impala's run-length encoded registers accepted),
//                        capped at the number of non-NULL rows; BOOLEAN: the
//                        number of distinct values seen (from trues/falses;
//                        without those, the HLL estimate capped at 2);
//   num_nulls            the sum;
//   max_size             the maximum of max_width;
//   avg_size             mean of avg_width weighted by each partition's
//                        non-NULL rows (num_rows - num_nulls), i.e. the exact
//                        mean width of all non-NULL values; fixed-width: the
//                        slot size;
//   num_trues/num_falses sums for BOOLEAN; -1 (unknown) otherwise.
// Partitions without stats for a column contribute nothing to it; an
// unreadable intermediate_ndv is ignored. No partitions => all zero.
std::map<std::string, impala::TColumnStats> MergeColumnStats(
    const std::vector<impala::TPartitionStats>& parts, const std::vector<ScanColumn>& cols);

}  // namespace ics::coord
