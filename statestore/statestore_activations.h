// StatestoreActivations: the latest statestored activation version a daemon
// has heard of, shared by its subscribers (one per statestore of an HA
// pair). A statestore announces its activation when it becomes active
// (UpdateStatestoredRole, its registration replies) and with every update
// (TUpdateStateRequest field 100). An update from an older activation comes
// from a statestore that was stopped or cut off while the other took over
// and has not stepped down yet: its subscriber skips it (subscriber.h), so a
// daemon never mixes the two statestores' topics, and a publisher never
// hands a change to the statestore that is no longer the active one.
//
// `on_newer` (optional) runs, on the thread that observed it, each time a
// later activation than any before is observed (the active statestore
// changed): catalogd then publishes its whole topic again, since the new
// active statestore's topic may lack what went to the other one. It must
// not block for long.
//
// Thread-safety: thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>

namespace ics::statestore {

class StatestoreActivations {
 public:
  explicit StatestoreActivations(std::function<void(int64_t)> on_newer = nullptr)
      : on_newer_(std::move(on_newer)) {}

  // Takes in an announced activation; returns false if a later one was
  // heard of before (`version` is stale). 0 or less: unknown, never stale.
  bool Observe(int64_t version) {
    if (version <= 0) return true;
    int64_t seen = newest_.load();
    while (version > seen) {
      if (newest_.compare_exchange_weak(seen, version)) {
        if (on_newer_) on_newer_(version);
        return true;
      }
    }
    return version >= seen;
  }
  int64_t newest() const { return newest_.load(); }

 private:
  const std::function<void(int64_t)> on_newer_;
  std::atomic<int64_t> newest_{0};
};

}  // namespace ics::statestore
