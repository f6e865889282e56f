// The status every response of catalogd's own metastore services
// (PartitionService, TableService) starts with: one error vocabulary for
// both. Not part of Impala's IDL.

namespace cpp ics.thrift

enum TMetastoreServiceErrorCode {
  OK = 0
  // Malformed request, a limit exceeded, a filter or pattern that does not
  // parse, a bad page token.
  INVALID_ARGUMENT = 1
  // The database, table, version, partition, statistics, stream or index
  // does not exist.
  NOT_FOUND = 2
  // An object that is being created exists already.
  ALREADY_EXISTS = 3
  // The request is valid but the object is not in a state for it: the table
  // changed since the version the request named (re-read and retry), or an
  // index is still being created or already being deleted (retry later).
  FAILED_PRECONDITION = 4
  // A batch or list is over its size limit (see batch_size_too_large), or a
  // write stream's staging limit or the table's index limit is reached.
  RESOURCE_EXHAUSTED = 5
  // The write stream expired or was aborted.
  ABORTED = 6
  // The metastore backend cannot do this (e.g. keeps no versions).
  NOT_IMPLEMENTED = 7
  // The service is shutting down.
  UNAVAILABLE = 8
  INTERNAL = 9
}

// Attached to RESOURCE_EXHAUSTED when a batch or list holds more items than
// one call accepts: resend in batches of at most max_batch_size.
struct TBatchSizeTooLargeError {
  1: required i64 max_batch_size
  2: optional string error_message
}

struct TMetastoreServiceStatus {
  1: required TMetastoreServiceErrorCode code
  2: optional string message
  3: optional TBatchSizeTooLargeError batch_size_too_large
}
