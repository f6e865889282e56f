// NetnsPair: two network namespaces joined by a veth pair on a private test
// subnet (10.231.<n>.0/24: side A is .1, side B is .2), each with loopback
// up. Created by Create(), deleted by the destructor (deleting a namespace
// also deletes its end of the veth pair). For multi-process tests that cut
// and heal the link between daemons.
//
// Needs root and a working `ip netns`; Available() says whether this
// process can create namespaces, and why not.
//
// Thread-safety: not thread-safe.
#pragma once

#include <functional>

#include <string>

#include "common/util/status.h"

namespace ics::external {

// Runs fn() on a thread that joined network namespace `ns` (namespaces are
// per thread), waiting for it; IO_ERROR if the namespace cannot be entered.
[[nodiscard]] Status RunInNetns(const std::string& ns, const std::function<void()>& fn);

class NetnsPair {
 public:
  NetnsPair();
  ~NetnsPair();  // Destroy()
  NetnsPair(const NetnsPair&) = delete;
  NetnsPair& operator=(const NetnsPair&) = delete;

  // Empty when namespaces can be used here; otherwise the reason.
  static std::string Unavailable();

  [[nodiscard]] Status Create();
  void Destroy();

  // Takes one end of the link down / up. Either way both directions are
  // cut, but they look different from side A: with its own end down, A's
  // route is gone and connects fail at once ("network is unreachable");
  // with B's end down, A's end only loses carrier and A's packets are
  // silently dropped (connects and RPCs time out), like a real partition.
  enum class Side { kA, kB };
  [[nodiscard]] Status Cut(Side side);
  [[nodiscard]] Status Heal(Side side);

  const std::string& ns_a() const { return ns_a_; }
  const std::string& ns_b() const { return ns_b_; }
  const std::string& addr_a() const { return addr_a_; }
  const std::string& addr_b() const { return addr_b_; }

 private:
  std::string ns_a_, ns_b_, veth_a_, veth_b_, addr_a_, addr_b_;
  bool created_ = false;
};

}  // namespace ics::external
