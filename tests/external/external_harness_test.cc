// The harness itself (ExternalHarness): a cluster comes up, statements run
// through the CoordinatorService and through catalog-shell, every daemon
// stops cleanly on SIGTERM (exit status 0) and comes back on the ports it
// had, and Pause/Resume really stop and continue a process.
#include <signal.h>

#include <fstream>

#include "tests/external/external_test_util.h"

namespace ics::external {
namespace {

using ExternalHarness = ExternalTest;

TEST_F(ExternalHarness, StartExecShellStopRestart) {
  ExternalCluster* cl = StartCluster(ExternalClusterOptions{});
  ASSERT_NE(cl, nullptr);
  ASSERT_EQ(cl->num_coordinators(), 2);
  EXPECT_GT(cl->statestore_port(), 0);
  EXPECT_GT(cl->catalogd_port(), 0);
  EXPECT_GT(cl->catalogd_subscriber_port(), 0);
  EXPECT_NE(cl->coordinator_port(0), cl->coordinator_port(1));

  ExecResult r = MustExec(0, "CREATE DATABASE h", true);
  ASSERT_TRUE(r.ok());
  r = MustExec(1, "SHOW DATABASES");
  EXPECT_TRUE(Contains(r.Column(0), "h")) << r.ToString();
  // Errors come back as a status, not as a transport failure.
  r = cl->Exec(0, "DESCRIBE h.nope");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status.message().find("nope"), std::string::npos) << r.ToString();

  // catalog-shell: exit 0 and the rows on success, exit 1 on failure.
  CommandResult sh = cl->Shell(1, "CREATE TABLE h.t (id INT); SHOW TABLES IN h");
  EXPECT_TRUE(sh.ok()) << sh.output;
  EXPECT_NE(sh.output.find("| t "), std::string::npos) << sh.output;
  sh = cl->Shell(0, "DESCRIBE h.nope");
  EXPECT_EQ(sh.exit_code, 1) << sh.output;

  // SIGTERM: every daemon exits with status 0; then back on the same ports.
  const int ss_port = cl->statestore_port();
  const int cat_port = cl->catalogd_port();
  const int c0 = cl->coordinator_port(0);
  const int c1 = cl->coordinator_port(1);
  for (const std::string& role :
       {ExternalCluster::CoordinatorProcess(0), std::string(ExternalCluster::kCatalogd),
        std::string(ExternalCluster::kStatestored)}) {
    Status s = cl->Stop(role);
    EXPECT_TRUE(s.ok()) << role << ": " << s.ToString();
    EXPECT_FALSE(cl->IsRunning(role));
  }
  for (const std::string& role :
       {std::string(ExternalCluster::kStatestored), std::string(ExternalCluster::kCatalogd),
        ExternalCluster::CoordinatorProcess(0)}) {
    Status s = cl->Restart(role);
    ASSERT_TRUE(s.ok()) << role << ": " << s.ToString();
  }
  EXPECT_EQ(cl->statestore_port(), ss_port);
  EXPECT_EQ(cl->catalogd_port(), cat_port);
  if (c1 == c0 + 1) {  // contiguous ports are kept
    EXPECT_EQ(cl->coordinator_port(0), c0);
    EXPECT_EQ(cl->coordinator_port(1), c1);
  }
  ASSERT_TRUE(cl->WaitForCoordinatorsReady(Millis(15000)).ok());
  // The metastore survived the restart.
  ASSERT_EVENTUALLY(Millis(10000), { ASSERT_EQ(Tables(1, "h"), std::vector<std::string>{"t"}); });

  // Pause really stops the process; Resume continues it.
  ASSERT_TRUE(cl->Pause(ExternalCluster::CoordinatorProcess(0)).ok());
  ExecOptions quick;
  quick.timeout_ms = 500;
  r = cl->Exec(0, "SHOW DATABASES", quick);
  EXPECT_FALSE(r.ok()) << "a stopped coordinator answered: " << r.ToString();
  cl->Resume(ExternalCluster::CoordinatorProcess(0));
  ASSERT_EVENTUALLY(Millis(10000), { ASSERT_TRUE(cl->Exec(0, "SHOW DATABASES").ok()); });

  // Every start is in the role's log.
  EXPECT_TRUE(cl->LogContains(ExternalCluster::kCatalogd, "starting catalogd: "));
}

// A role that cannot start fails Start() with the reason from its log, and
// what did start is killed with the cluster.
TEST(ExternalHarnessStart, RoleThatCannotStartIsReported) {
  ExternalClusterOptions o;
  o.coordinator_bin = "/nonexistent/coordinator-sim";
  o.name = "ics-ext-RoleThatCannotStart";
  pid_t statestored = -1;
  {
    ExternalCluster cl(o);
    Status s = cl.Start();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("coordinators-0 did not come up (exit status 127)"),
              std::string::npos)
        << s.ToString();
    EXPECT_NE(s.message().find("exec of /nonexistent/coordinator-sim failed: no such file"),
              std::string::npos)
        << s.ToString();
    ASSERT_TRUE(cl.IsRunning(ExternalCluster::kStatestored));
    statestored = cl.process(ExternalCluster::kStatestored)->pid();
  }
  // Reaped by the cluster's destructor: the pid is no child of ours now.
  EXPECT_NE(kill(statestored, 0), 0);
}

}  // namespace
}  // namespace ics::external
