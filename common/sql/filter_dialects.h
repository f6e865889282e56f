// The filter dialects the metastore doors speak, as FilterDialect values
// (filter_parser.h) for the one filter parser and binder.
//
//   ListPartitions (PartitionService): a SQL boolean expression — NOT, IN,
//     BETWEEN, IS NULL, DATE/TIMESTAMP literals, CAST, '==', back-quoted
//     identifiers, SQL string escapes; typed comparisons (a literal takes its
//     key's type) and SQL's three-valued logic.
//   Hive Metastore (get_partitions_by_filter): comparisons of one key with
//     one string or integer literal (either way round), AND, OR, parentheses
//     and LIKE as a whole-value regular-expression subset; Hive's text
//     semantics (FilterTyping::kHiveText); errors in text order.
//
// The AWS Glue partition Expression and BigQuery's ListMetastorePartitions
// filter are meant to be further values here.
//
// Thread-safety: the values are immutable after their first use.
#pragma once

#include <cstddef>

#include "common/sql/filter_parser.h"

namespace ics::sql {

inline constexpr size_t kListPartitionsFilterMaxBytes = 1 << 20;
// Deepest nesting of parentheses/NOT (and, separately, of CAST).
inline constexpr int kListPartitionsFilterMaxDepth = 200;

inline constexpr size_t kHmsFilterMaxBytes = 64 << 10;
inline constexpr int kHmsFilterMaxDepth = 100;

const FilterDialect& ListPartitionsFilterDialect();
const FilterDialect& HmsFilterDialect();

}  // namespace ics::sql
