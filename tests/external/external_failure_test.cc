// Coordinator failures with real processes: a coordinator-sim process
// killed (-9) (ExternalCoordinatorKill), one hung with SIGSTOP
// (ExternalPausedCoordinator), and a slow (stopped) subscriber that must not
// delay the topic for the others (ExternalSlowSubscriber).
//
// Layout: coordinator-sim process 0 runs coordinators 0 and 1, process 1
// runs coordinator 2; process 1 is the victim, 0 and 1 the survivors.
// The full-replica mode is used where a test checks that a change reached a
// coordinator through the topic (an on-demand coordinator could fetch it
// from catalogd on a miss).
#include "tests/external/external_test_util.h"

namespace ics::external {
namespace {

const std::string kVictim = ExternalCluster::CoordinatorProcess(1);
constexpr int kVictimCoordinator = 2;

ExternalClusterOptions TwoProcesses(bool use_local_catalog) {
  ExternalClusterOptions o;
  o.use_local_catalog = use_local_catalog;
  o.coordinator_processes = {{2, {}, {}}, {1, {}, {}}};
  return o;
}

// Bound for "the statestore declared the victim failed and SYNC_DDL moved
// on": max missed heartbeats x (interval + heartbeat RPC timeout) — 5 x
// (200 + 300) ms = 2.5 s with the test timings — plus 3 s of slack for the
// DDL itself, the push of the new minimum version and a loaded machine.
Millis SyncDdlBound(const ExternalClusterOptions& o) {
  return o.FailureDetectionTime() + Millis(3000);
}

// ---------------------------------------------------------------------------

using ExternalCoordinatorKill = ExternalTest;

// kill -9 of a coordinator process: the statestore removes it after the
// heartbeat timeout, which a SYNC_DDL issued right after the kill on a
// survivor shows by completing (it waits for every registered coordinator);
// SYNC_DDL keeps working afterwards, and a restarted process takes part
// again.
TEST_F(ExternalCoordinatorKill, RemovedAfterHeartbeatTimeoutSyncDdlKeepsWorking) {
  ExternalCluster* cl = StartCluster(TwoProcesses(/*use_local_catalog=*/true));
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE ck", true).ok());
  ASSERT_TRUE(MustExec(0, "CREATE TABLE ck.t0 (id INT)", true).ok());
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Tables(i, "ck"), std::vector<std::string>{"t0"});

  const auto killed_at = Clock::now();
  cl->Kill(kVictim);
  ExecResult r = MustExec(0, "CREATE TABLE ck.after_kill (id INT)", true);
  const double secs = SecondsSince(killed_at);
  ASSERT_TRUE(r.ok());
  const Millis bound = SyncDdlBound(cl->options());
  EXPECT_LT(secs * 1000, bound.count())
      << "SYNC_DDL took " << secs << " s after the kill; the bound is " << bound.count() << " ms";
  std::cout << "SYNC_DDL completed " << secs << " s after the kill\n";
  // SYNC_DDL contract: on the other survivor when it returned.
  EXPECT_EQ(Tables(1, "ck"), (std::vector<std::string>{"after_kill", "t0"}));

  // SYNC_DDL goes on working, now without waiting for anyone dead.
  for (int k = 0; k < 3; ++k) {
    const std::string t = "more_" + std::to_string(k);
    r = MustExec(k % 2, "CREATE TABLE ck." + t + " (id INT)", true);
    ASSERT_TRUE(r.ok());
    EXPECT_LT(r.elapsed.count(), 5000) << "SYNC_DDL slow after the failure was detected";
    EXPECT_TRUE(Contains(Tables(1 - k % 2, "ck"), t));
  }

  // The killed process comes back (fresh catalog) and is counted again.
  ASSERT_TRUE(cl->Restart(kVictim).ok());
  ASSERT_TRUE(cl->WaitForCoordinatorsReady(Millis(15000)).ok());
  // Let it cache the table list before the next change.
  ASSERT_EVENTUALLY(Millis(10000),
                    { ASSERT_EQ(Tables(kVictimCoordinator, "ck"), Tables(0, "ck")); });
  ASSERT_TRUE(MustExec(0, "CREATE TABLE ck.rejoined (id INT)", true).ok());
  EXPECT_TRUE(Contains(Tables(kVictimCoordinator, "ck"), "rejoined"));
}

// ---------------------------------------------------------------------------

using ExternalPausedCoordinator = ExternalTest;

// A coordinator process hung with SIGSTOP: the others are unaffected (DDL
// without SYNC_DDL stays fast), a SYNC_DDL issued while it hangs completes
// once the statestore declares it failed — after at least (max missed - 1)
// heartbeat intervals (it really waited for the hung one) and within
// SyncDdlBound() of the pause — and after SIGCONT it re-registers and
// catches up.
// A SYNC_DDL whose wait for every coordinator times out (a hung coordinator
// that is not declared failed yet) answers success with a WARNING: catalogd
// committed the change, and a client must never be told "failed" for a
// change that happened.
TEST_F(ExternalPausedCoordinator, SyncDdlTimeoutAnswersSuccessWithAWarning) {
  ExternalClusterOptions o = TwoProcesses(/*use_local_catalog=*/true);
  o.sync_ddl_timeout_ms = 1500;
  o.max_missed_heartbeats = 1000;  // never declared failed during the test
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE pw", true).ok());
  ASSERT_TRUE(cl->Pause(kVictim).ok());
  ExecResult r = cl->Exec(0, "CREATE TABLE pw.t (id INT)", /*sync_ddl=*/true);
  ASSERT_TRUE(r.ok()) << r.ToString();
  bool warned = false;
  for (const std::string& m : r.messages) {
    warned = warned || (m.rfind("WARNING", 0) == 0 && m.find("committed") != std::string::npos);
  }
  EXPECT_TRUE(warned) << r.ToString();
  EXPECT_TRUE(Contains(Tables(1, "pw"), "t"));
  cl->Resume(kVictim);
}

TEST_F(ExternalPausedCoordinator, DeclaredFailedSyncDdlCompletesWithinBound) {
  ExternalCluster* cl = StartCluster(TwoProcesses(/*use_local_catalog=*/false));
  ASSERT_NE(cl, nullptr);
  const ExternalClusterOptions& o = cl->options();
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE pz", true).ok());
  ASSERT_TRUE(MustExec(0, "CREATE TABLE pz.t0 (id INT)", true).ok());
  ASSERT_EQ(Tables(kVictimCoordinator, "pz"), std::vector<std::string>{"t0"});

  ASSERT_TRUE(cl->Pause(kVictim).ok());
  const auto paused_at = Clock::now();

  // Unaffected: plain DDL does not wait for anyone.
  ExecResult r = MustExec(0, "CREATE TABLE pz.fast (id INT)");
  ASSERT_TRUE(r.ok());
  EXPECT_LT(r.elapsed.count(), 2000) << "DDL without SYNC_DDL slowed down by a hung coordinator";

  r = MustExec(1, "CREATE TABLE pz.synced (id INT)", true);
  const double secs = SecondsSince(paused_at);
  ASSERT_TRUE(r.ok());
  std::cout << "SYNC_DDL completed " << secs << " s after the pause (statement took "
            << r.elapsed.count() << " ms)\n";
  const Millis bound = SyncDdlBound(o);
  EXPECT_LT(secs * 1000, bound.count())
      << "SYNC_DDL took " << secs << " s after the pause; bound " << bound.count() << " ms";
  const int64_t at_least = int64_t{o.max_missed_heartbeats - 1} * o.heartbeat_frequency_ms;
  EXPECT_GE(secs * 1000, at_least)
      << "SYNC_DDL returned before the hung coordinator could have been declared failed";
  EXPECT_EQ(Tables(0, "pz"), (std::vector<std::string>{"fast", "synced", "t0"}));

  cl->Resume(kVictim);
  const auto resumed_at = Clock::now();
  // It re-registers after its subscriber timeout (3 s) and gets the full
  // topic; 15 s is generous.
  ASSERT_EVENTUALLY(Millis(15000), {
    ASSERT_EQ(Tables(kVictimCoordinator, "pz"), (std::vector<std::string>{"fast", "synced", "t0"}));
  });
  std::cout << "the resumed coordinator caught up " << SecondsSince(resumed_at) << " s later\n";
  ASSERT_TRUE(MustExec(0, "CREATE TABLE pz.after_resume (id INT)", true).ok());
  EXPECT_TRUE(Contains(Tables(kVictimCoordinator, "pz"), "after_resume"));
}

// ---------------------------------------------------------------------------

using ExternalSlowSubscriber = ExternalTest;

// A subscriber that does not answer (SIGSTOP, with failure detection slowed
// to 20 missed heartbeats = 10 s) must not delay topic updates to the
// others: each DDL on coordinator 0 reaches coordinator 1 (full replica:
// only through the topic) within 2 s, far below the 10 s the statestore
// would need to give up on the stopped one.
TEST_F(ExternalSlowSubscriber, DoesNotDelayUpdatesToFastOnes) {
  ExternalClusterOptions o = TwoProcesses(/*use_local_catalog=*/false);
  o.max_missed_heartbeats = 20;  // detection: 20 x (200 + 300) ms = 10 s
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE slow", true).ok());

  ASSERT_TRUE(cl->Pause(kVictim).ok());
  const auto paused_at = Clock::now();
  constexpr int kRounds = 5;
  const Millis visible_within(2000);
  std::vector<std::string> expected;
  for (int k = 0; k < kRounds; ++k) {
    const std::string t = "t_" + std::to_string(k);
    ASSERT_TRUE(MustExec(0, "CREATE TABLE slow." + t + " (id INT)").ok());
    const auto created_at = Clock::now();
    expected.push_back(t);
    EXPECT_TRUE(WaitFor([&] { return Tables(1, "slow") == expected; }, visible_within))
        << t << " not on coordinator 1 within " << visible_within.count() << " ms";
    std::cout << t << " visible on coordinator 1 after " << SecondsSince(created_at) * 1000
              << " ms\n";
  }
  EXPECT_LT(SecondsSince(paused_at) * 1000, o.FailureDetectionTime().count())
      << "the rounds outlasted failure detection; the test proves less than intended";

  cl->Resume(kVictim);
  ASSERT_EVENTUALLY(Millis(15000), { ASSERT_EQ(Tables(kVictimCoordinator, "slow"), expected); });
}

}  // namespace
}  // namespace ics::external
