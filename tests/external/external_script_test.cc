// The launcher, scripts/cluster.sh (ExternalClusterScript): start, status,
// restart of one role, stop, and a clear non-zero failure when a role does
// not come up. The script runs roles on fixed ports, so the test picks free
// ones first and passes them through the script's flag options.
//
// The daemons the script starts are not the test's children (the script
// backgrounds them and exits), so the test stops the cluster with the
// script and, as a fallback, kills the pids in the run directory's pid
// files at teardown.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/external/external_test_util.h"
#include "tests/util/temp_dir.h"

#ifndef ICS_CLUSTER_SCRIPT
#error "ICS_CLUSTER_SCRIPT must name scripts/cluster.sh"
#endif

namespace ics::external {
namespace {

namespace fs = std::filesystem;

// A port that was free a moment ago (bound to 127.0.0.1:0 and released),
// or with `pair` one whose successor is free too.
int FreePort(bool pair = false) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof(addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      close(fd);
      continue;
    }
    const int port = ntohs(addr.sin_port);
    bool ok = true;
    int fd2 = -1;
    if (pair) {
      fd2 = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in next = addr;
      next.sin_port = htons(static_cast<uint16_t>(port + 1));
      ok = port < 65535 && bind(fd2, reinterpret_cast<sockaddr*>(&next), sizeof(next)) == 0;
      close(fd2);
    }
    close(fd);
    if (ok) return port;
  }
  return 0;
}

class ExternalClusterScript : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = tmp_.path();
    ASSERT_FALSE(run_dir_.empty()) << tmp_.error();
    bin_dir_ = fs::path(ICS_STATESTORED_BIN).parent_path().string();
  }

  void TearDown() override {
    CommandResult r = Script({"stop"});
    // Fallback: whatever is still alive by its pid file.
    for (const char* role : {"coordinators", "catalogd", "statestored"}) {
      std::ifstream in(run_dir_ + "/" + role + ".pid");
      pid_t pid = 0;
      if (in >> pid && pid > 0 && kill(pid, 0) == 0) {
        ADD_FAILURE() << role << " (pid " << pid << ") still running after 'stop': " << r.output;
        kill(pid, SIGKILL);
      }
    }
    if (HasFailure()) {
      for (const char* role : {"statestored", "catalogd", "coordinators"}) {
        const std::string log = run_dir_ + "/" + role + ".log";
        std::cout << "---- " << log << "\n" << TailOfFile(log, 30);
      }
      std::cout << "---- run dir kept: " << run_dir_ << "\n";
      tmp_.Keep();
    }
  }

  CommandResult Script(std::vector<std::string> args) {
    args.insert(args.begin(), {"/usr/bin/env", "ICS_BIN=" + bin_dir_, "ICS_RUN_DIR=" + run_dir_,
                               "bash", ICS_CLUSTER_SCRIPT});
    return RunCommand(args);
  }

  CommandResult Shell(int port, const std::string& sql) {
    return RunCommand(
        {ICS_CATALOG_SHELL_BIN, "-i", "127.0.0.1:" + std::to_string(port), "-q", sql});
  }

  ::ics::testing::TempDir tmp_{"ics-ext-script"};
  std::string run_dir_;
  std::string bin_dir_;
};

TEST_F(ExternalClusterScript, StartStatusRestartStop) {
  const int ss = FreePort();
  const int cat = FreePort();
  const int cat_sub = FreePort();
  const int coord = FreePort(/*pair=*/true);
  const int coord_sub = FreePort(/*pair=*/true);
  ASSERT_TRUE(ss && cat && cat_sub && coord && coord_sub);
  const std::string timings =
      " --statestore_subscriber_timeout_seconds=3 --state_store_port=" + std::to_string(ss);
  CommandResult r = Script(
      {"start", "-n", "2", "--statestored-flags",
       "--hostname=127.0.0.1 --state_store_port=" + std::to_string(ss) +
           " --statestore_heartbeat_frequency_ms=200 --statestore_heartbeat_tcp_timeout_ms=300",
       "--catalogd-flags",
       "--catalog_service_port=" + std::to_string(cat) +
           " --state_store_subscriber_port=" + std::to_string(cat_sub) + timings,
       "--coordinator-flags",
       "--coordinator_port=" + std::to_string(coord) + " --state_store_subscriber_port=" +
           std::to_string(coord_sub) + " --catalog_service_port=" + std::to_string(cat) + timings});
  ASSERT_TRUE(r.ok()) << r.output;
  r = Script({"status"});
  EXPECT_TRUE(r.ok()) << r.output;
  for (const char* role : {"statestored", "catalogd", "coordinators"}) {
    EXPECT_NE(r.output.find(std::string(role)), std::string::npos) << r.output;
  }
  EXPECT_EQ(r.output.find("stopped"), std::string::npos) << r.output;

  // Both coordinators serve; SYNC_DDL on one is visible on the other.
  ASSERT_EVENTUALLY(Millis(15000), {
    CommandResult q = Shell(coord, "SET SYNC_DDL=1; CREATE DATABASE IF NOT EXISTS scripted");
    ASSERT_TRUE(q.ok()) << q.output;
  });
  r = Shell(coord + 1, "DESCRIBE DATABASE scripted");
  EXPECT_TRUE(r.ok()) << r.output;

  // Restart one role; the cluster keeps its data.
  r = Script({"restart", "catalogd"});
  ASSERT_TRUE(r.ok()) << r.output;
  ASSERT_EVENTUALLY(Millis(15000), {
    CommandResult q = Shell(coord + 1, "DESCRIBE DATABASE scripted");
    ASSERT_TRUE(q.ok()) << q.output;
  });

  r = Script({"stop"});
  EXPECT_TRUE(r.ok()) << r.output;
  r = Script({"status"});
  EXPECT_FALSE(r.ok()) << "status of a stopped cluster should fail: " << r.output;
  EXPECT_NE(r.output.find("stopped"), std::string::npos) << r.output;
}

// --mtls: every port speaks mutual TLS; the walkthrough's statements work
// through the script's shell, a plaintext shell and a shell without a client
// certificate are refused.
TEST_F(ExternalClusterScript, MutualTlsClusterServesTheShell) {
  const int ss = FreePort();
  const int cat = FreePort();
  const int cat_sub = FreePort();
  const int coord = FreePort();
  const int coord_sub = FreePort();
  ASSERT_TRUE(ss && cat && cat_sub && coord && coord_sub);
  const std::string timings =
      " --statestore_subscriber_timeout_seconds=3 --state_store_port=" + std::to_string(ss);
  CommandResult r = Script(
      {"start", "-n", "1", "--mtls", "--statestored-flags",
       "--state_store_port=" + std::to_string(ss) + " --statestore_heartbeat_frequency_ms=200",
       "--catalogd-flags",
       "--catalog_service_port=" + std::to_string(cat) + " --hms_port=0 --metastore_service_port=0" +
           " --state_store_subscriber_port=" + std::to_string(cat_sub) + timings,
       "--coordinator-flags",
       "--coordinator_port=" + std::to_string(coord) + " --state_store_subscriber_port=" +
           std::to_string(coord_sub) + " --catalog_service_port=" + std::to_string(cat) + timings});
  ASSERT_TRUE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("mutual TLS"), std::string::npos) << r.output;
  ASSERT_EVENTUALLY(Millis(20000), {
    CommandResult q = Script({"shell", "-q",
                              "SET SYNC_DDL=1; CREATE DATABASE IF NOT EXISTS tls_db; "
                              "CREATE TABLE tls_db.t (a INT) PARTITIONED BY (k INT)"});
    ASSERT_TRUE(q.ok()) << q.output;
  });
  r = Script({"shell", "-q",
              "ALTER TABLE tls_db.t ADD PARTITION (k=1); INSERT INTO tls_db.t PARTITION (k=1) "
              "VALUES (7); SHOW PARTITIONS tls_db.t"});
  ASSERT_TRUE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("k=1"), std::string::npos) << r.output;

  CommandResult plain = Shell(coord, "SHOW DATABASES");
  EXPECT_FALSE(plain.ok()) << plain.output;
  CommandResult no_cert = RunCommand({ICS_CATALOG_SHELL_BIN, "-i",
                                      "127.0.0.1:" + std::to_string(coord), "--ssl",
                                      "--ca_cert=" + run_dir_ + "/certs/ca.pem", "-q",
                                      "SHOW DATABASES"});
  EXPECT_FALSE(no_cert.ok()) << no_cert.output;
  r = Script({"stop"});
  EXPECT_TRUE(r.ok()) << r.output;
}

TEST_F(ExternalClusterScript, FailingRoleGivesClearErrorAndStopsTheRest) {
  const int ss = FreePort();
  ASSERT_GT(ss, 0);
  CommandResult r = Script({"start", "-n", "1", "--statestored-flags",
                            "--hostname=127.0.0.1 --state_store_port=" + std::to_string(ss),
                            "--catalogd-flags", "--no_such_flag_for_the_test=1"});
  EXPECT_FALSE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("catalogd failed to start"), std::string::npos) << r.output;
  // What did come up was stopped again.
  r = Script({"status"});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.output.find("running"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ics::external
