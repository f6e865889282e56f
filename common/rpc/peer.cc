#include "common/rpc/peer.h"

namespace ics {

namespace {
thread_local const PeerInfo* current_peer = nullptr;
}  // namespace

const PeerInfo& CurrentPeer() {
  static const PeerInfo kInProcess;
  return current_peer != nullptr ? *current_peer : kInProcess;
}

OperationOrigin CurrentOrigin() {
  const PeerInfo& p = CurrentPeer();
  return OperationOrigin{p.address, p.identity, p.tls};
}

PeerScope::PeerScope(const PeerInfo* peer) : previous_(current_peer) { current_peer = peer; }

PeerScope::~PeerScope() { current_peer = previous_; }

}  // namespace ics
