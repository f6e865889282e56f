// SELECT analysis shared by CREATE VIEW and EXPLAIN (exec_view.cc).
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "common/sql/ast.h"
#include "coordinator-sim/exec/exec_context.h"

namespace ics::coord::exec {

// ---- SELECT analysis shared by CREATE VIEW and EXPLAIN (exec_view.cc) ----
// The table a SELECT reads, resolved, with the names its columns may be
// qualified with.
struct SelectSource {
  TablePtr table;     // null for SELECT without FROM
  std::string alias;  // empty when none
};
// Checks every column reference of `expr` against the source:
// "Column 'c' not found in db.t".
[[nodiscard]] Status CheckColumnRefs(const sql::Expr& expr, const SelectSource& src);
// The SELECT's column references all resolve (items, WHERE, GROUP BY, HAVING, ORDER BY).
[[nodiscard]] Status CheckSelectColumns(const sql::SelectStmt& q, const SelectSource& src);
// The SELECT re-printed with its table fully qualified (a view's expanded text).
std::string SelectToSql(const sql::SelectStmt& q, const SelectSource& src);

}  // namespace ics::coord::exec
