// Analyzer-lite: checks on a parsed statement that need no catalog.
//
// Reports, as kAnalysisError:
//   - CREATE TABLE: no columns, duplicate column names (also between the
//     table and PARTITIONED BY columns), a partition column of a complex type (ARRAY/MAP/STRUCT);
//   - CREATE VIEW with an empty or duplicated column list;
//   - ALTER TABLE ADD/REPLACE COLUMNS with no or duplicated columns;
//   - a PARTITION clause naming a key twice; ADD/DROP PARTITION listing the
//     same partition twice;
//   - INSERT: VALUES rows of different lengths; a duplicated column in the
//     column list or in it and the PARTITION clause; with a column list, rows
//     whose length differs from the listed columns plus dynamic partition keys;
//   - SELECT/EXPLAIN: a negative LIMIT or OFFSET, OFFSET without ORDER BY;
//   - COMPUTE STATS: PARTITION or a column list misused with (non-)INCREMENTAL;
//     DROP STATS: INCREMENTAL without PARTITION or PARTITION without INCREMENTAL.
// Everything that needs the catalog (does the table exist, do the partition
// keys match, are the values convertible) is the executor's job.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include "common/sql/ast.h"
#include "common/util/status.h"

namespace ics::sql {

[[nodiscard]] Status AnalyzeStatement(const Statement& stmt);

}  // namespace ics::sql
