// HaMonitor: samples, every few milliseconds, which daemons of the HA pairs
// (statestored, statestored2, catalogd, catalogd2) report the active role on
// their /metrics page (statestore_is_active, catalogd_ha_active), for the
// fault-injection run (chaos_main.cc) to measure how long each fault left a
// pair without an active member and whether two ever claimed it at once.
//
// A role is polled only while the run says it is up (SetPort with its web
// port; 0 while it is down or paused, so a stopped process does not stall
// the sampler).
//
// Thread-safety: SetPort, samples() and Finish may be called from any thread
// while the sampler runs.
#pragma once

#include <array>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "common/util/mutex.h"
#include "tests/external/external_process.h"

namespace ics::external {

class HaMonitor {
 public:
  enum Role { kStatestored = 0, kStatestored2, kCatalogd, kCatalogd2, kNumRoles };
  // What one poll of one role found.
  enum State : int8_t { kUnpolled = -2, kUnreachable = -1, kStandby = 0, kActive = 1 };
  struct Sample {
    Clock::time_point at;
    std::array<State, kNumRoles> state;
  };

  explicit HaMonitor(Millis interval) : interval_(interval) {}
  ~HaMonitor() { Finish(); }
  HaMonitor(const HaMonitor&) = delete;
  HaMonitor& operator=(const HaMonitor&) = delete;

  // The role's web port (0: do not poll it).
  void SetPort(Role role, int web_port);
  void Start();
  void Finish();
  std::vector<Sample> samples() const;
  // The role's state in the newest sample (kUnpolled before the first).
  State Latest(Role role) const;

  static Role RoleOf(const std::string& role_name);
  static const char* Name(Role role);

 private:
  void Run();
  State Poll(Role role, int port) const;

  const Millis interval_;
  std::array<std::atomic<int>, kNumRoles> ports_{};
  std::atomic<bool> stop_{false};
  mutable Mutex mu_;
  std::vector<Sample> samples_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace ics::external
