// catalogd high availability with the real daemons: statestored, two
// catalogds (HA candidates sharing one SQLite metastore file) and a
// coordinator-sim process with two coordinators that follow the designation.
//  * kill -9 of the active catalogd during a DDL storm: the standby takes
//    over, the coordinators follow, no acknowledged DDL is lost and both
//    coordinators converge; the failover time is printed.
//  * SIGSTOP of the active catalogd: the other one takes over; once
//    resumed, the old one is fenced: it answers CATALOG_IN_STANDBY_MODE and
//    commits nothing.
//  * the old active restarts: it stays standby (no flip-flop), and refuses
//    changes through CatalogService and through its HMS endpoint.
//  * the active catalogd cut off by a network partition (it runs alone in a
//    network namespace whose veth link the test takes down, as root): the
//    other takes over; the cut-off one still believes it is active, and its
//    commits are refused by the metastore's writer epoch.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "CatalogService.h"
#include "ThriftHiveMetastore.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "tests/external/ddl_storm.h"
#include "tests/external/external_test_util.h"
#include "tests/external/netns.h"

namespace ics::external {
namespace {

class ExternalCatalogdHa : public ExternalTest {
 protected:
  ExternalCluster* StartHaCluster() {
    ExternalClusterOptions o;
    o.catalogd_ha = true;
    o.coordinator_processes = {CoordinatorProcessSpec{2, {}, {}}};
    // The first designation waits for the second catalogd (it registers
    // within this), and a failing active is probed every 100 ms.
    o.statestored_flags = {"--catalogd_ha_preemption_wait_period_ms=3000",
                           "--active_catalogd_designation_monitoring_interval_ms=100",
                           "--active_catalogd_max_missed_heartbeats=3"};
    return StartCluster(o);
  }

  static int Takeovers(ExternalCluster* cl, const std::string& role) {
    return cl->CatalogdTakeovers(role);
  }
  // StartHaCluster, once the catalogd that started first took the role
  // (nullptr, with a test failure, if it did not within 10 s).
  ExternalCluster* StartWithFirstActive() {
    ExternalCluster* cl = StartHaCluster();
    if (cl == nullptr) return nullptr;
    if (!WaitFor([&] { return Takeovers(cl, ExternalCluster::kCatalogd) == 1; }, Millis(10000))) {
      ADD_FAILURE() << "the catalogd that started first did not become active";
      return nullptr;
    }
    return cl;
  }

  // An ExecDdl CREATE DATABASE sent straight to catalogd i (at `host`).
  static impala::TDdlExecResponse CreateDatabaseOn(ExternalCluster* cl, int i,
                                                   const std::string& db, Status* transport,
                                                   const std::string& host = "127.0.0.1") {
    impala::TDdlExecRequest req;
    req.protocol_version = impala::CatalogServiceVersion::V2;
    req.ddl_type = impala::TDdlType::CREATE_DATABASE;
    req.__isset.create_db_params = true;
    req.create_db_params.db = db;
    req.query_options.sync_ddl = false;
    ThriftClientOptions co;
    co.connect_timeout_ms = 2000;
    co.recv_timeout_ms = co.send_timeout_ms = 10000;
    ThriftClient<impala::CatalogServiceClient> client(host, cl->catalogd_port(i), co);
    impala::TDdlExecResponse resp;
    *transport =
        client.Call("ExecDdl", [&](impala::CatalogServiceClient& c) { c.ExecDdl(resp, req); });
    return resp;
  }
};

TEST_F(ExternalCatalogdHa, KillActiveDuringDdlStormLosesNothing) {
  // catalogd started first, so it is the one designated.
  ExternalCluster* cl = StartWithFirstActive();
  ASSERT_NE(cl, nullptr);
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd2), 0);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE storm", true).ok());
  // Coordinator 1 caches the table list before the failover.
  ASSERT_EVENTUALLY(Millis(5000), { ASSERT_EQ(Tables(1, "storm"), std::vector<std::string>{}); });

  DdlStorm storm(cl);
  storm.Start();
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= 20; }, Millis(20000)))
      << "storm made no progress: " << storm.acked() << " acked, " << storm.failed() << " failed";
  const int acked_at_kill = storm.acked();
  const auto killed_at = Clock::now();
  cl->Kill(ExternalCluster::kCatalogd);
  // The first statement acknowledged after the kill, by the new active.
  ASSERT_TRUE(WaitFor([&] { return storm.acked() > acked_at_kill + 1; }, Millis(30000)))
      << "no DDL acknowledged after the kill: " << storm.failed() << " failed";
  const double failover_s = SecondsSince(killed_at);
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= acked_at_kill + 20; }, Millis(30000)));
  storm.Finish();
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd2), 1);

  const std::vector<StormStatement> log = storm.statements();
  int failed = 0;
  for (const StormStatement& s : log) failed += s.ok ? 0 : 1;
  std::cout << "catalogd failover: kill -9 of the active -> the next DDL acknowledged after "
            << static_cast<int>(failover_s * 1000) << " ms (upper bound: includes the DDL "
            << "itself); storm " << storm.acked() << " acknowledged, " << failed << " failed\n";

  // Both coordinators converge on the metastore's state, and it holds every
  // acknowledged statement.
  bool ok = false;
  const std::vector<std::string> tables = Tables(0, "storm", &ok);
  ASSERT_TRUE(ok);
  ExpectStormDurable(log, tables,
                     [&](const std::string& t) { return Partitions(0, "storm." + t); });
  ASSERT_EVENTUALLY(Millis(10000), { ASSERT_EQ(Tables(1, "storm"), tables); });
  // Exactly once: a statement whose reply was lost with the killed active
  // is repeated on the new one, which answers it from the record if it had
  // been carried out; so no statement fails, and none hangs.
  EXPECT_EQ(failed, 0);
  for (const StormStatement& s : log) {
    if (!s.ok) EXPECT_LT(s.elapsed_ms, 31000) << s.error;
  }
}

TEST_F(ExternalCatalogdHa, PausedActiveIsFencedWhenItResumes) {
  ExternalCluster* cl = StartWithFirstActive();
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE before_pause").ok());
  ASSERT_TRUE(cl->Pause(ExternalCluster::kCatalogd).ok());
  ASSERT_TRUE(
      WaitFor([&] { return Takeovers(cl, ExternalCluster::kCatalogd2) == 1; }, Millis(15000)))
      << "the standby did not take over from the paused active";
  // DDL goes on through the coordinators, now served by catalogd2.
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE during_pause").ok());

  cl->Resume(ExternalCluster::kCatalogd);
  // Straight away, before or after it heard of the new designation: the old
  // active refuses (its role or its fenced epoch), and commits nothing.
  Status transport;
  impala::TDdlExecResponse resp = CreateDatabaseOn(cl, 0, "from_old_active", &transport);
  ASSERT_TRUE(transport.ok()) << transport.ToString();
  EXPECT_EQ(resp.result.status.status_code, impala::TErrorCode::CATALOG_IN_STANDBY_MODE)
      << FromTStatus(resp.result.status).ToString();
  // Once it has heard of the new designation, it answers naming the active.
  const std::string active2 = "127.0.0.1:" + std::to_string(cl->catalogd_port(1));
  ASSERT_TRUE(WaitFor(
      [&] { return cl->LogContains(ExternalCluster::kCatalogd, "active catalogd is " + active2); },
      Millis(10000)));
  resp = CreateDatabaseOn(cl, 0, "from_old_active", &transport);
  ASSERT_TRUE(transport.ok());
  EXPECT_EQ(resp.result.status.status_code, impala::TErrorCode::CATALOG_IN_STANDBY_MODE);
  const std::string msg =
      resp.result.status.error_msgs.empty() ? "" : resp.result.status.error_msgs[0];
  EXPECT_NE(msg.find("the active catalogd is " + active2), std::string::npos) << msg;

  ExecResult dbs = MustExec(1, "SHOW DATABASES");
  EXPECT_TRUE(Contains(dbs.Column(0), "before_pause"));
  EXPECT_TRUE(Contains(dbs.Column(0), "during_pause"));
  EXPECT_FALSE(Contains(dbs.Column(0), "from_old_active"));
  // It never took the role back.
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd), 1);
}

// A statement in flight to the active when it is paused does not wait for
// the pause to end: once the coordinator hears that the other catalogd is
// active it abandons the call and repeats it there (exactly once: the
// paused catalogd committed nothing, or the repeat finds its record).
TEST_F(ExternalCatalogdHa, StatementInFlightToAPausedActiveMovesToTheNewOne) {
  ExternalCluster* cl = StartWithFirstActive();
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE before_pause").ok());
  ASSERT_TRUE(cl->Pause(ExternalCluster::kCatalogd).ok());
  const auto paused_at = Clock::now();
  ExecOptions patient;
  patient.timeout_ms = 60000;
  ExecResult r = cl->Exec(0, "CREATE DATABASE sent_during_pause", patient);
  const double secs = SecondsSince(paused_at);
  std::cout << "a DDL sent to the paused active was answered after " << secs << " s\n";
  EXPECT_TRUE(r.ok()) << r.ToString();
  // Failure detection (3 probes at 100 ms after a missed heartbeat) and the
  // takeover take about a second; the pause lasts until the test resumes it.
  EXPECT_LT(secs, 15.0);
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd2), 1);
  cl->Resume(ExternalCluster::kCatalogd);
  ASSERT_EVENTUALLY(Millis(10000), {
    ASSERT_TRUE(Contains(MustExec(1, "SHOW DATABASES").Column(0), "sent_during_pause"));
  });
}

TEST_F(ExternalCatalogdHa, RestartedOldActiveStaysStandby) {
  ExternalCluster* cl = StartWithFirstActive();
  ASSERT_NE(cl, nullptr);
  cl->Kill(ExternalCluster::kCatalogd);
  ASSERT_TRUE(
      WaitFor([&] { return Takeovers(cl, ExternalCluster::kCatalogd2) == 1; }, Millis(15000)));
  ASSERT_TRUE(cl->Restart(ExternalCluster::kCatalogd).ok());
  ASSERT_EVENTUALLY(Millis(15000), {
    ASSERT_TRUE(cl->Exec(0, "CREATE DATABASE IF NOT EXISTS after_restart").ok());
  });
  // Give the statestore time to have flipped back, if it were going to.
  std::this_thread::sleep_for(Millis(2000));
  ASSERT_TRUE(MustExec(1, "CREATE DATABASE later").ok());
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd), 1) << "the restarted catalogd took over";
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd2), 1);
  Status transport;
  impala::TDdlExecResponse resp = CreateDatabaseOn(cl, 0, "on_standby", &transport);
  ASSERT_TRUE(transport.ok());
  EXPECT_EQ(resp.result.status.status_code, impala::TErrorCode::CATALOG_IN_STANDBY_MODE);
  // Its HMS endpoint refuses changes alike (the command core admits only
  // the active catalogd), and nothing is written.
  ThriftClientOptions co;
  co.connect_timeout_ms = 2000;
  co.recv_timeout_ms = co.send_timeout_ms = 10000;
  ThriftClient<hive::ThriftHiveMetastoreClient> hms("127.0.0.1", cl->catalogd_named_port("hms"),
                                                    co);
  hive::Database db;
  db.name = "hms_on_standby";
  Status refused = hms.Call("create_database", [&](auto& c) { c.create_database(db); });
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("standby"), std::string::npos) << refused.ToString();
  hive::Database got;
  Status lookup = hms.Call("get_database", [&](auto& c) { c.get_database(got, db.name); });
  EXPECT_FALSE(lookup.ok()) << "the standby's HMS endpoint wrote " << db.name;
}

class ExternalCatalogdHaPartition : public ExternalCatalogdHa {
 protected:
  void TearDown() override {
    StopCluster();  // the processes first, then their namespaces
    netns_.Destroy();
  }
  NetnsPair netns_;
};

TEST_F(ExternalCatalogdHaPartition, CutOffActiveIsFenced) {
  const std::string why = NetnsPair::Unavailable();
  if (!why.empty()) GTEST_SKIP() << "network namespaces unavailable: " << why;
  ASSERT_TRUE(netns_.Create().ok());
  // Namespace A: statestored, catalogd2 and the coordinators; namespace B:
  // catalogd, the first to start and so the active one. Both catalogds
  // share the metastore file (one host, one file system).
  const std::string plaintext_ok = "--insecure_allow_plaintext_remote";
  ExternalClusterOptions o;
  o.catalogd_ha = true;
  Placement a;
  a.netns = netns_.ns_a();
  o.statestored_placement = a;
  o.statestored_placement.hostname = "0.0.0.0";
  Placement b;
  b.netns = netns_.ns_b();
  b.hostname = netns_.addr_b();
  b.listen_host = "0.0.0.0";
  b.statestore_host = netns_.addr_a();
  o.catalogd_placement = b;
  o.catalogd2_placement = a;
  Placement coords = a;
  coords.catalogd_host = netns_.addr_b();
  o.coordinator_processes = {{2, coords, {plaintext_ok}}};
  o.statestored_flags = {plaintext_ok, "--catalogd_ha_preemption_wait_period_ms=3000",
                         "--active_catalogd_designation_monitoring_interval_ms=100",
                         "--active_catalogd_max_missed_heartbeats=3"};
  o.catalogd_flags = {plaintext_ok};
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(
      WaitFor([&] { return Takeovers(cl, ExternalCluster::kCatalogd) == 1; }, Millis(10000)));
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE before_cut").ok());

  // B's end down: packets to and from catalogd vanish (heartbeats time out).
  ASSERT_TRUE(netns_.Cut(NetnsPair::Side::kB).ok());
  const auto cut_at = Clock::now();
  ASSERT_TRUE(
      WaitFor([&] { return Takeovers(cl, ExternalCluster::kCatalogd2) == 1; }, Millis(15000)))
      << "catalogd2 did not take over from the cut-off catalogd";
  std::cout << "partition: catalogd2 active " << static_cast<int>(SecondsSince(cut_at) * 1000)
            << " ms after the cut\n";
  ASSERT_EVENTUALLY(Millis(15000),
                    { ASSERT_TRUE(cl->Exec(0, "CREATE DATABASE IF NOT EXISTS during_cut").ok()); });

  // The cut-off catalogd has heard nothing and still serves; reached from
  // inside its namespace, its DDL is refused by the writer epoch.
  Status transport;
  impala::TDdlExecResponse resp;
  ASSERT_TRUE(RunInNetns(netns_.ns_b(), [&] {
                resp = CreateDatabaseOn(cl, 0, "from_cut_off", &transport);
              }).ok());
  ASSERT_TRUE(transport.ok()) << transport.ToString();
  EXPECT_EQ(resp.result.status.status_code, impala::TErrorCode::CATALOG_IN_STANDBY_MODE)
      << FromTStatus(resp.result.status).ToString();
  EXPECT_TRUE(cl->LogContains(ExternalCluster::kCatalogd, "fenced"));

  ASSERT_TRUE(netns_.Heal(NetnsPair::Side::kB).ok());
  ExecResult dbs = MustExec(1, "SHOW DATABASES");
  EXPECT_TRUE(Contains(dbs.Column(0), "before_cut"));
  EXPECT_TRUE(Contains(dbs.Column(0), "during_cut"));
  EXPECT_FALSE(Contains(dbs.Column(0), "from_cut_off"));
  EXPECT_EQ(Takeovers(cl, ExternalCluster::kCatalogd), 1);
}

}  // namespace
}  // namespace ics::external
