// Partition filters of ListPartitions: a SQL boolean expression over
// partition keys, the ListPartitions dialect of the one partition filter
// language (common/sql/filter_parser.h for the grammar, filter_dialects.h
// for what this dialect takes). This header gives the partition commands their names; the
// parsed tree is bound to a table's keys by partition_predicate.h.
//
// Errors are INVALID_ARGUMENT naming the 0-based byte position, e.g.
//   "filter: expected ')', found 'AND' at position 17". Limits: the text is
// at most kMaxFilterBytes; parentheses plus NOT chains nest at most
// kMaxFilterDepth levels, and so do CASTs inside CASTs ("filter: nested
// deeper than 200 levels at position N").
//
// Thread-safety: stateless functions; the tree is a plain value.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "common/sql/filter_dialects.h"
#include "common/sql/filter_parser.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

inline constexpr size_t kMaxFilterBytes = sql::kListPartitionsFilterMaxBytes;
inline constexpr int kMaxFilterDepth = sql::kListPartitionsFilterMaxDepth;

using sql::BinaryOp;
using FilterOperand = sql::FilterOperand;
using FilterNode = sql::FilterExpr;

// Parses `text`; an empty (or all-blank) text yields nullptr (no filter).
[[nodiscard]] inline Result<std::unique_ptr<FilterNode>> ParsePartitionFilter(
    std::string_view text) {
  return sql::ParseFilter(text, sql::ListPartitionsFilterDialect());
}

}  // namespace ics::catalog::ops
