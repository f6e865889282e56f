// CoordinatorService: this project's own interface between the SQL shell
// and a (simulated) coordinator. Not part of Impala's IDL.

namespace cpp ics.thrift

include "Status.thrift"

// One SQL statement with the session state the shell carries.
struct TExecuteStatementRequest {
  1: required string statement
  // Current database of the session (USE).
  2: optional string default_db
  // Session options set with SET (e.g. SYNC_DDL=1), upper-case keys.
  3: optional map<string, string> query_options
}

struct TExecuteStatementResponse {
  1: required Status.TStatus status
  // Result table, if the statement returns rows.
  2: optional list<string> column_names
  3: optional list<list<string>> rows
  // Informational lines (e.g. "Table has been created.", EXPLAIN text).
  4: optional list<string> messages
  // Session state after the statement (USE / SET change them).
  5: optional string default_db
  6: optional map<string, string> query_options
  7: optional i64 elapsed_us
}

service CoordinatorService {
  TExecuteStatementResponse ExecuteStatement(1: TExecuteStatementRequest req)
}
