// statestored high availability with the real daemons: two statestoreds in
// an HA pair, catalogd and two coordinators registered with both.
//  * kill -9 of the active statestored: the standby takes over, updates
//    keep flowing through it (a DDL on one coordinator reaches the other)
//    and SYNC_DDL keeps working.
//  * the old active restarts: it stays the standby (no flip-flop).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "tests/external/external_test_util.h"

namespace ics::external {
namespace {

class ExternalStatestoredHa : public ExternalTest {
 protected:
  ExternalCluster* StartPair() {
    ExternalClusterOptions o;
    o.statestored_ha = true;
    o.coordinator_processes = {CoordinatorProcessSpec{2, {}, {}}};
    return StartCluster(o);
  }

  static int Activations(ExternalCluster* cl, const std::string& role) {
    return cl->StatestoredActivations(role);
  }

  // Index (0/1) of the active statestored, -1 if neither logged it.
  static int ActiveIndex(ExternalCluster* cl) {
    const int a = Activations(cl, ExternalCluster::kStatestored);
    const int b = Activations(cl, ExternalCluster::kStatestored2);
    if (a > 0 && b == 0) return 0;
    if (b > 0 && a == 0) return 1;
    return -1;
  }
};

TEST_F(ExternalStatestoredHa, KillActiveUpdatesAndSyncDdlContinue) {
  ExternalCluster* cl = StartPair();
  ASSERT_NE(cl, nullptr);
  int active = -1;
  ASSERT_TRUE(WaitFor([&] { return (active = ActiveIndex(cl)) >= 0; }, Millis(10000)));
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE before_kill", true).ok());
  EXPECT_TRUE(Contains(MustExec(1, "SHOW DATABASES").Column(0), "before_kill"));

  const std::string active_role = ExternalCluster::StatestoredRole(active);
  const std::string standby_role = ExternalCluster::StatestoredRole(1 - active);
  const auto killed = Clock::now();
  cl->Kill(active_role);
  ASSERT_TRUE(WaitFor([&] { return Activations(cl, standby_role) == 1; }, Millis(10000)))
      << "the standby statestored did not take over";
  // Topic updates flow through the new active: a DDL on coordinator 0
  // reaches coordinator 1, and SYNC_DDL (every coordinator processed it)
  // completes.
  ExecResult r;
  ASSERT_EVENTUALLY(Millis(20000), {
    r = cl->Exec(0, "CREATE DATABASE IF NOT EXISTS after_kill", true);
    ASSERT_TRUE(r.ok()) << r.ToString();
  });
  std::cout << "statestored failover: kill -9 of the active -> a SYNC_DDL acknowledged after "
            << static_cast<int>(SecondsSince(killed) * 1000) << " ms\n";
  ASSERT_EVENTUALLY(Millis(10000), {
    ASSERT_TRUE(Contains(cl->Exec(1, "SHOW DATABASES").Column(0), "after_kill"));
  });
  ASSERT_TRUE(MustExec(1, "CREATE DATABASE later", true).ok());
  EXPECT_TRUE(Contains(MustExec(0, "SHOW DATABASES").Column(0), "later"));

  // The old active comes back as the standby.
  ASSERT_TRUE(cl->Restart(active_role).ok());
  std::this_thread::sleep_for(Millis(2500));
  EXPECT_EQ(Activations(cl, active_role), 1) << "the restarted statestored took the role back";
  EXPECT_EQ(Activations(cl, standby_role), 1);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE after_restart", true).ok());
  EXPECT_TRUE(Contains(MustExec(1, "SHOW DATABASES").Column(0), "after_restart"));
}

}  // namespace
}  // namespace ics::external
