// StatementExecutor: runs one SQL statement for a session on a coordinator:
// parses it (common/sql), analyzes it against the local catalog,
// and executes it — DDL through catalogd, INSERT by writing text data files
// and UpdateCatalog, COMPUTE STATS by scanning data files, SHOW/DESCRIBE and
// EXPLAIN (partition pruning) from the local catalog.
//
// Every statement is recorded (first keyword, text, session database,
// duration, outcome) in the OperationLog given at construction, if any
// (the coordinator's recent-statements page).
//
// Thread-safety: thread-safe; sessions are owned by callers.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/operation_log.h"
#include "common/util/result.h"
#include "coordinator-sim/exec/backend.h"

namespace ics::coord {

struct SessionState {
  std::string db = "default";
  std::map<std::string, std::string> options;  // upper-case keys, e.g. SYNC_DDL
  bool sync_ddl() const;
};

struct StatementResult {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> messages;
};

class StatementExecutor {
 public:
  // `statements` (may be null; not owned) must outlive the executor.
  explicit StatementExecutor(CoordinatorBackend* backend, OperationLog* statements = nullptr)
      : backend_(backend), statements_(statements) {}

  Result<StatementResult> Execute(std::string_view sql, SessionState* session);

 private:
  Result<StatementResult> Run(std::string_view sql, SessionState* session);

  CoordinatorBackend* const backend_;
  OperationLog* const statements_;
};

}  // namespace ics::coord
