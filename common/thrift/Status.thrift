// Status and error codes returned in RPC responses. Field ids and the numeric error
// codes match Apache Impala (Status.thrift / ErrorCodes.thrift) for wire compatibility.

namespace cpp impala

// Subset of Impala's error codes that this project produces or checks. The numbers
// are fixed by the peer; unlisted codes may still arrive as plain integers.
enum TErrorCode {
  OK = 0
  UNUSED = 1
  GENERAL = 2
  CANCELLED = 3
  ANALYSIS_ERROR = 4
  NOT_IMPLEMENTED_ERROR = 5
  RUNTIME_ERROR = 6
  MEM_LIMIT_EXCEEDED = 7
  INTERNAL_ERROR = 8
  RECOVERABLE_ERROR = 9
  RPC_RECV_TIMEOUT = 31
  LZ4_COMPRESSION_INPUT_TOO_LARGE = 113
  CATALOG_INCOMPATIBLE_PROTOCOL = 157
  STATESTORE_INCOMPATIBLE_PROTOCOL = 158
  CATALOG_IN_STANDBY_MODE = 165
}

// Outcome of an operation: a code plus human-readable messages (empty when OK).
struct TStatus {
  1: required TErrorCode status_code
  2: list<string> error_msgs
}
