// Who sent the request being handled: the peer of the server connection
// whose thread runs the handler.
//
// ThriftServer installs a PeerScope around each connection's requests;
// handlers (topic ownership, the audit log) read CurrentPeer(). Outside a
// server connection (in-process calls, tests) CurrentPeer() is an empty
// peer: no address, no identity, not TLS.
//
// Thread-safety: thread-local; each thread sees its own connection's peer.
#pragma once

#include <string>

#include "common/util/operation_log.h"

namespace ics {

struct PeerInfo {
  std::string address;   // "host:port" as the socket reports it; empty in-process
  std::string identity;  // verified client-certificate subject; empty without mTLS
  bool tls = false;      // the connection is encrypted
};

const PeerInfo& CurrentPeer();

// The current peer as the origin of an operation (operation_log.h).
OperationOrigin CurrentOrigin();

// Makes `peer` the current peer of this thread until destroyed (scopes nest).
class PeerScope {
 public:
  explicit PeerScope(const PeerInfo* peer);
  ~PeerScope();
  PeerScope(const PeerScope&) = delete;
  PeerScope& operator=(const PeerScope&) = delete;

 private:
  const PeerInfo* previous_;
};

}  // namespace ics
