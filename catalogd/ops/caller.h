// Caller: who asks the command core (command_core.h) for a command, as the
// door that received the request knows it. Every door builds one per
// request; the core records it with the command (operation log, audit
// line) and, with authorization, decides on it.
//
// Thread-safety: a value type.
#pragma once

#include <string>

#include "common/util/operation_log.h"

namespace ics::catalog::ops {

struct Caller {
  // The door the request came through: "CatalogService", "HMS",
  // "PartitionService", ...
  std::string door;
  // The user the command runs as, as the request names it (Impala's
  // requesting_user); "" when the door knows none.
  std::string user;
  // What a relaying peer reports about the end client: its address and the
  // coordinator it used. "" when not relayed.
  std::string client;
  std::string via;
  // The statement the command comes from (redacted), for the record.
  std::string statement;
  // The connection: peer address, verified identity, TLS (common/rpc/peer.h).
  OperationOrigin origin;
  // Exactly-once (catalogd/metastore/request_recording_metastore.h): a
  // request id, and whether this is a repeat of a request whose reply was
  // lost. "" = no id.
  std::string request_id;
  bool request_repeated = false;

  // "[door] user@client via coordinator: statement", leaving out what is unknown.
  std::string Detail() const;
};

// A Caller for the RPC the current thread serves (its origin from
// common/rpc/peer.h's CurrentOrigin()), through `door`.
Caller CallerOfCurrentRpc(std::string door);

}  // namespace ics::catalog::ops
