// What every statement of StatementExecutor runs with, shared by the
// per-area files: exec_ddl.cc (databases, tables, DROP/TRUNCATE/COMMENT),
// exec_alter.cc (ALTER TABLE), exec_view.cc (CREATE/ALTER VIEW),
// exec_show.cc (SHOW ...), exec_describe.cc (DESCRIBE, SHOW CREATE),
// exec_insert.cc (INSERT), exec_compute_stats.cc (COMPUTE STATS),
// exec_explain.cc (EXPLAIN), exec_session.cc (USE, SET, INVALIDATE,
// REFRESH); their helpers are declared in exec_tables.h, exec_format.h,
// exec_values.h, exec_select.h and exec_statements.h.
//
// Every Exec* function analyzes its statement against the local catalog
// first and calls catalogd (or writes files) only when that succeeded, so a
// rejected statement changes nothing. Analysis errors are kAnalysisError
// statuses with Impala's wording where Impala has one ("Database does not
// exist: x", "Table does not exist: db.t", ...).
//
// Thread-safety: stateless functions; the ExecContext belongs to one
// statement.
#pragma once

#include <memory>
#include <string>

#include "common/util/result.h"
#include "coordinator-sim/exec/statement_executor.h"

namespace ics::coord::exec {

using TablePtr = std::shared_ptr<const LocalTable>;
using PartitionPtr = std::shared_ptr<const LocalPartition>;

// What one statement runs with.
struct ExecContext {
  CoordinatorBackend* backend = nullptr;
  SessionState* session = nullptr;
  LocalCatalog* catalog() const { return backend->catalog(); }
  bool sync_ddl() const { return session->sync_ddl(); }
  // Set once the statement changed something (a catalogd call, a file
  // written): from then on a RECOVERABLE_ERROR is not retried.
  mutable bool side_effects = false;
};

// ---- errors ----
Status AnalysisError(std::string msg);

}  // namespace ics::coord::exec
