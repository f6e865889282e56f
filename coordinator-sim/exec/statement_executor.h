// StatementExecutor: runs one SQL statement for a session on a coordinator:
// parses it (coordinator-sim/sql), analyzes it against the local catalog,
// and executes it — DDL through catalogd, INSERT by writing text data files
// and UpdateCatalog, COMPUTE STATS by scanning data files, SHOW/DESCRIBE and
// EXPLAIN (partition pruning) from the local catalog.
//
// Thread-safety: thread-safe; sessions are owned by callers.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

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
  explicit StatementExecutor(CoordinatorBackend* backend) : backend_(backend) {}

  Result<StatementResult> Execute(std::string_view sql, SessionState* session);

 private:
  CoordinatorBackend* const backend_;
};

}  // namespace ics::coord
