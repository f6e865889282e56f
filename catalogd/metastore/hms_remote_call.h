// HmsCaller: runs ThriftHiveMetastore calls on pooled connections, with the
// retry policy and error mapping of the remote metastore backend. Private to
// that backend.
//
// Errors the server declares become Status codes:
//   NoSuchObject/UnknownDB/UnknownTable/UnknownPartition -> NOT_FOUND
//   AlreadyExists                                         -> ALREADY_EXISTS
//   InvalidObject/InvalidOperation/InvalidInput/
//   InvalidPartition/ConfigValSecurity                    -> INVALID_ARGUMENT
//   except that an InvalidObject/InvalidOperation whose message says "does
//   not exist" / "already exists" is NOT_FOUND / ALREADY_EXISTS: calls like
//   alter_table and add_partition declare no other way to report those
//   MetaException: a message that starts with a status code name
//   ("IO_ERROR: ...", as catalogd's HMS endpoint writes them) keeps that
//   code; otherwise "does not exist"/"not found" -> NOT_FOUND, "already
//   exists" -> ALREADY_EXISTS, anything else -> INTERNAL
//   TApplicationException: unknown method -> NOT_IMPLEMENTED, else INTERNAL
// Messages keep the server's text, prefixed with the metastore's address.
//
// Transport failures:
//  - Read(): the call is idempotent; a connect failure, a broken connection
//    or a timeout is retried up to `retries` times with exponential backoff
//    (retry_backoff_ms, doubling, at most 2 s, plus jitter) on a fresh
//    connection. When attempts run out: NETWORK_ERROR (server unreachable or
//    connection lost) or TIMED_OUT (no reply within rpc_timeout_ms).
//  - Write(): the request is sent and the reply read as two steps. A failure
//    to connect or to send proves the server did not get a whole request, so
//    the call is retried like a read (NETWORK_ERROR / TIMED_OUT when attempts
//    run out; nothing was applied). A failure after the request was sent
//    (no reply, timeout, malformed reply) leaves the outcome unknown: the
//    call is NOT retried and the result is IO_ERROR with a message saying
//    the outcome is unknown.
// A malformed reply to a read is CORRUPTION and is not retried.
//
// Thread-safety: thread-safe (each call leases its own connection).
#pragma once

#include <functional>
#include <string>

#include "catalogd/metastore/hms_remote_pool.h"
#include "common/util/status.h"

namespace apache::thrift {
class TException;
}

namespace ics::catalog {

using HmsStub = hive::ThriftHiveMetastoreClient;
using HmsStep = std::function<void(HmsStub&)>;

// Maps an exception thrown by a ThriftHiveMetastore call (other than a
// transport or protocol error) to a Status; `where` prefixes the message.
Status MapHmsException(const apache::thrift::TException& e, const std::string& where);

class HmsCaller {
 public:
  explicit HmsCaller(HmsClientPool* pool) : pool_(pool) {}

  // `call` performs one complete RPC, e.g. [&](HmsStub& c) { c.get_table(t, db, n); }.
  [[nodiscard]] Status Read(const char* rpc, const HmsStep& call) const;
  // `send` and `recv` are the two halves of one RPC, e.g.
  // [&](HmsStub& c) { c.send_create_table(t); } and [&](HmsStub& c) { c.recv_create_table(); }.
  [[nodiscard]] Status Write(const char* rpc, const HmsStep& send, const HmsStep& recv) const;

  HmsClientPool* pool() const { return pool_; }

 private:
  enum class Outcome { kOk, kServerError, kNotConnected, kTransport };
  struct Attempt {
    Status status;
    Outcome outcome;
  };
  Attempt RunStep(HmsClient& client, const char* rpc, const HmsStep& step) const;
  void Backoff(int attempt) const;

  HmsClientPool* const pool_;
};

}  // namespace ics::catalog
