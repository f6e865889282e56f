// EndpointOptions: where and how one server port listens. Every server of
// the tree takes its port's settings in this one shape:
// ThriftServerOptions (thrift_server.h) and each server's own options
// (HMS endpoint, metastore services, statestore, subscriber callbacks,
// statestore HA, CatalogService, CoordinatorService) extend it, so a daemon
// fills one per port and hands it down whole instead of copying fields.
//
// Thread-safety: a value type.
#pragma once

#include <cstdint>
#include <string>

#include "common/rpc/tls.h"

namespace ics {

struct EndpointOptions {
  // What to bind; anything but loopback needs TLS or an explicit flag
  // (bind_policy.h).
  std::string bind_host = "127.0.0.1";
  int port = 0;  // 0 = pick a free port
  // TLS (security.tls non-null): every connection handshakes first; with
  // mTLS the client certificate's subject is the peer's identity (peer.h).
  RpcSecurity security;
  // Connections served at once (see thrift_server.h for who makes room).
  int max_connections = 256;
  // The largest message decoded, and the memory its decoding may take.
  int64_t max_message_bytes = 256ll << 20;
  int64_t max_message_memory_bytes = 1ll << 30;
  // Deadlines: waiting for the next request; from a request's first byte
  // to its last; sending a reply. A connection idle this long may be
  // evicted to make room.
  int idle_timeout_ms = 10 * 60 * 1000;
  int message_timeout_ms = 30 * 1000;
  int send_timeout_ms = 60 * 1000;
  int min_idle_ms_to_evict = 1000;
};

// `e` on another port: how a daemon's further servers listen as its first.
inline EndpointOptions OnPort(EndpointOptions e, int port) {
  e.port = port;
  return e;
}

}  // namespace ics
