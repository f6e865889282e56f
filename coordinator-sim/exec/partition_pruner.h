// Partition pruning for EXPLAIN/SELECT scans: which partitions of a table a
// WHERE clause can touch, decided from partition key values alone.
//
// The WHERE clause is split into its top-level AND conjuncts. Each conjunct
// is classified:
//   * partition conjunct: references only partition columns and literals
//     (a constant conjunct such as 1 = 0 counts too) and uses only
//     = != <> < <= > >=, [NOT] IN, [NOT] BETWEEN, IS [NOT] NULL, [NOT] LIKE,
//     AND, OR, NOT and unary minus. It is type-checked and evaluated for
//     each partition with SQL three-valued logic; a partition is kept only if
//     every partition conjunct is TRUE.
//   * other conjunct: anything else (a data column, a function call, CAST,
//     arithmetic, or a partition column of a type not listed below). It is
//     returned for the scan and does not prune.
// Every column reference must resolve, in either case: by its last path
// element (t.col, alias.col and db.t.col match col, the qualifier is not
// checked); a path whose earlier element names a data column (s.field of a
// struct) counts as a reference to that data column. Otherwise the error is
// ANALYSIS_ERROR "Column 'x' not found" (x as written).
//
// Typing (partition values are text; "__HIVE_DEFAULT_PARTITION__" is NULL):
//   TINYINT..BIGINT, DECIMAL, FLOAT, DOUBLE  compared numerically and exactly
//       with each other and with integer/decimal literals;
//   STRING, VARCHAR, CHAR   byte-wise lexicographic, with string literals;
//   DATE  as yyyy-mm-dd; TIMESTAMP canonical; a string literal compared with
//       either is converted (ANALYSIS_ERROR if it is not a valid value), a
//       DATE compared with a TIMESTAMP is midnight of that day;
//   BOOLEAN  with TRUE/FALSE (false < true).
// Any other pairing is ANALYSIS_ERROR "operands of type INT and STRING are
// not comparable: year = 'x'", as Impala says; NULL compares with anything
// (giving NULL). AND/OR/NOT operands and the conjunct itself must be
// BOOLEAN. A partition value that is not a valid value of its column's type
// is INVALID_ARGUMENT, naming the partition.
//
// Thread-safety: stateless; safe from any thread. The result's expression
// pointers point into `where`, which must outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/sql/ast.h"
#include "common/util/result.h"
#include "coordinator-sim/catalog/local_catalog.h"

namespace ics::coord {

struct PruneResult {
  // Ids of the kept partitions, in the order of `partitions`.
  std::vector<int64_t> selected_ids;
  // Conjuncts of the WHERE clause, in written order, split by kind.
  std::vector<const sql::Expr*> partition_conjuncts;
  std::vector<const sql::Expr*> other_conjuncts;
};

// Prunes `partitions` (of `table`; their values in clustering-column order)
// by `where`; a null `where` keeps every partition.
Result<PruneResult> PrunePartitions(const LocalTable& table,
                                    const std::vector<std::shared_ptr<const LocalPartition>>& partitions,
                                    const sql::Expr* where);

// The top-level AND conjuncts of `where` in written order (empty for null).
std::vector<const sql::Expr*> SplitConjuncts(const sql::Expr* where);

}  // namespace ics::coord
