#include "catalogd/ops/caller.h"

#include <utility>

#include "common/rpc/peer.h"

namespace ics::catalog::ops {

std::string Caller::Detail() const {
  std::string out = "[" + door + "]";
  std::string who = user;
  if (!client.empty()) who += "@" + client;
  if (!who.empty()) out += " " + who;
  if (!via.empty()) out += " via " + via;
  if (!statement.empty()) out += ": " + statement;
  return out;
}

Caller CallerOfCurrentRpc(std::string door) {
  Caller c;
  c.door = std::move(door);
  c.origin = CurrentOrigin();
  return c;
}

}  // namespace ics::catalog::ops
