// Restart tests with real processes: the statestore killed and restarted on
// its port (ExternalStatestoreRestart), catalogd killed in the middle of a
// DDL storm and restarted on its port and data dir (ExternalCatalogdCrash,
// also on the PostgreSQL metastore).
// Both run with on-demand coordinators (the peer default: minimal topic,
// 2: invalidations) and with full-replica coordinators (full topic, 1:
// entries), where a coordinator can only learn of a change from the topic.
#include <atomic>
#include <mutex>
#include <thread>

#include "tests/external/ddl_storm.h"
#include "tests/external/external_test_util.h"
#include "tests/external/metastore_backends.h"

namespace ics::external {
namespace {

struct Mode {
  bool use_local_catalog;
  const char* name;
  bool postgres = false;  // catalogd on the PostgreSQL metastore, not its SQLite file
};

std::string ModeName(const ::testing::TestParamInfo<Mode>& info) { return info.param.name; }

const Mode kModes[] = {{true, "OnDemand"}, {false, "FullReplica"}};

void PrintTo(const Mode& m, std::ostream* os) { *os << m.name; }

// ---------------------------------------------------------------------------
// Statestore restart

class ExternalStatestoreRestart : public ExternalTest,
                                  public ::testing::WithParamInterface<Mode> {};

// The statestore is killed (-9) and restarted on the same port. Every
// coordinator re-registers (after --statestore_subscriber_timeout_seconds
// without heartbeats), catalogd re-registers and republishes its whole
// catalog into the new, empty topic, and every coordinator converges: the
// same SHOW TABLES everywhere, including a table created while the
// statestore was down. A SYNC_DDL after the restart is visible everywhere
// the moment it returns, and a coordinator started from scratch after the
// restart learns the tables created before it (in full-replica mode only the
// republished topic can tell it).
TEST_P(ExternalStatestoreRestart, CoordinatorsConvergeAndCatalogdRepublishes) {
  ExternalClusterOptions o;
  o.use_local_catalog = GetParam().use_local_catalog;
  o.coordinator_processes = {{2, {}, {}}, {1, {}, {}}};  // coordinators 0,1 | 2
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);
  const int n = cl->num_coordinators();

  ASSERT_TRUE(MustExec(0, "CREATE DATABASE ssr", true).ok());
  ASSERT_TRUE(MustExec(0, "CREATE TABLE ssr.before_1 (id INT)", true).ok());
  ASSERT_TRUE(MustExec(1, "CREATE TABLE ssr.before_2 (id INT, s STRING)", true).ok());
  const std::vector<std::string> before = {"before_1", "before_2"};
  for (int i = 0; i < n; ++i) {
    // SYNC_DDL: visible everywhere once the statements returned. This also
    // puts the table list into on-demand caches.
    EXPECT_EQ(Tables(i, "ssr"), before) << "coordinator " << i;
  }

  const int port = cl->statestore_port();
  cl->Kill(ExternalCluster::kStatestored);
  // catalogd keeps executing DDL without a statestore; only the issuing
  // coordinator knows of it until the topic flows again.
  ASSERT_TRUE(MustExec(0, "CREATE TABLE ssr.during_outage (id INT)").ok());
  const auto restarted_at = Clock::now();
  ASSERT_TRUE(cl->Restart(ExternalCluster::kStatestored).ok());
  ASSERT_EQ(cl->statestore_port(), port);

  // Convergence bound: subscribers notice the silence after the subscriber
  // timeout (3 s), re-register, and catalogd republishes; 20 s is generous.
  // Coordinators 1 and 2 cached the table list before the outage, so seeing
  // during_outage means the topic reached them again (coordinator 0 issued
  // it and knows it either way).
  const std::vector<std::string> all3 = {"before_1", "before_2", "during_outage"};
  ASSERT_EVENTUALLY(Millis(20000), {
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(Tables(i, "ssr"), all3) << "coordinator " << i;
    }
  });
  // Coordinator 0 has the list cached now; a change made elsewhere reaches
  // it only through the new statestore.
  ASSERT_TRUE(MustExec(1, "CREATE TABLE ssr.probe (id INT)").ok());
  const std::vector<std::string> all4 = {"before_1", "before_2", "during_outage", "probe"};
  ASSERT_EVENTUALLY(Millis(20000), {
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(Tables(i, "ssr"), all4) << "coordinator " << i;
    }
  });
  std::cout << "converged " << SecondsSince(restarted_at) << " s after the restart\n";

  // SYNC_DDL accounting works against the new statestore: the DDL is on
  // every coordinator when it returns (no waiting here).
  ExecResult r = MustExec(1, "CREATE TABLE ssr.after_restart (id INT)", true);
  ASSERT_TRUE(r.ok());
  const std::vector<std::string> all5 = {"after_restart", "before_1", "before_2", "during_outage",
                                         "probe"};
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(Tables(i, "ssr"), all5) << "coordinator " << i << " right after a SYNC_DDL";
  }

  // A coordinator process started from nothing after the restart gets the
  // whole catalog from the republished topic.
  ASSERT_TRUE(cl->Restart(ExternalCluster::CoordinatorProcess(1)).ok());
  ASSERT_TRUE(cl->WaitForCoordinatorsReady(Millis(15000)).ok());
  ASSERT_EVENTUALLY(Millis(10000), { ASSERT_EQ(Tables(2, "ssr"), all5); });
  // And it takes part in SYNC_DDL.
  ASSERT_TRUE(MustExec(0, "DROP TABLE ssr.before_1", true).ok());
  const std::vector<std::string> final_tables = {"after_restart", "before_2", "during_outage",
                                                 "probe"};
  for (int i = 0; i < n; ++i) EXPECT_EQ(Tables(i, "ssr"), final_tables) << "coordinator " << i;
}

INSTANTIATE_TEST_SUITE_P(, ExternalStatestoreRestart, ::testing::ValuesIn(kModes), ModeName);

// ---------------------------------------------------------------------------
// catalogd crash during a DDL storm

class ExternalCatalogdCrash : public ExternalTest, public ::testing::WithParamInterface<Mode> {};

// catalogd is killed (-9) while a thread issues DDL through a coordinator,
// and restarted on the same port with the same data dir. Afterwards every
// acknowledged CREATE TABLE / ADD PARTITION is there, no table or partition
// set is half-applied (a statement that failed is either wholly there or
// not at all), and the coordinators switched to the new catalog service id
// and dropped what they had cached from the old one.
TEST_P(ExternalCatalogdCrash, AcknowledgedDdlSurvivesKillAndCoordinatorsReset) {
  ExternalClusterOptions o;
  o.use_local_catalog = GetParam().use_local_catalog;
  if (GetParam().postgres) {
    auto uri = FreshPostgresDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status().ToString();
    o.catalogd_flags.push_back("--metastore=" + *uri);
  }
  o.coordinator_processes = {{2, {}, {}}};
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);

  ASSERT_TRUE(MustExec(0, "CREATE DATABASE storm", true).ok());
  ASSERT_TRUE(
      MustExec(0, "CREATE TABLE storm.t_seed (id INT, s STRING) PARTITIONED BY (p INT)", true)
          .ok());
  // Raise the first catalogd's version well above what the restarted one
  // will reach in this test (it loads everything under one version and
  // then counts the DDL after the restart, ~30), then let coordinator 1
  // cache the seed table (and, on demand, the table list) at that high
  // version. A coordinator that kept its cache across the restart would
  // ignore the new catalogd's lower-versioned invalidations.
  constexpr int kBumps = 80;
  for (int k = 0; k < kBumps; ++k) {
    ASSERT_TRUE(MustExec(0, "ALTER TABLE storm.t_seed SET TBLPROPERTIES ('bump'='" +
                                std::to_string(k) + "')")
                    .ok());
  }
  ASSERT_EVENTUALLY(Millis(5000), {
    ASSERT_EQ(Tables(1, "storm"), std::vector<std::string>{"t_seed"});
    ExecResult d = cl->Exec(1, "DESCRIBE storm.t_seed");
    ASSERT_EQ(d.Column(0), (std::vector<std::string>{"id", "s", "p"})) << d.ToString();
  });

  DdlStorm storm(cl);
  storm.Start();
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= 20; }, Millis(20000)))
      << "storm made no progress: " << storm.acked() << " acked, " << storm.failed() << " failed";
  const int port = cl->catalogd_port();
  cl->Kill(ExternalCluster::kCatalogd);
  const int acked_at_kill = storm.acked();
  const int failed_at_kill = storm.failed();
  // Let some statements fail against the dead catalogd before restarting.
  ASSERT_TRUE(WaitFor([&] { return storm.failed() >= failed_at_kill + 3; }, Millis(10000)));
  ASSERT_TRUE(cl->Restart(ExternalCluster::kCatalogd).ok());
  ASSERT_EQ(cl->catalogd_port(), port);
  // Only the statements the restarted catalogd serves raise its version.
  const int tried_at_restart = storm.acked() + storm.failed();
  // The coordinator reconnects on its own and the storm goes on.
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= acked_at_kill + 20; }, Millis(30000)))
      << "no DDL acknowledged after the restart: " << storm.acked() << " acked, " << storm.failed()
      << " failed";
  storm.Finish();
  const std::vector<StormStatement> log = storm.statements();
  int64_t slowest_failure_ms = 0;
  for (const StormStatement& s : log) {
    if (!s.ok) slowest_failure_ms = std::max(slowest_failure_ms, s.elapsed_ms);
  }
  std::cout << "storm: " << storm.acked() << " acknowledged, " << storm.failed()
            << " failed (slowest failure " << slowest_failure_ms << " ms)\n";
  const int tried_since_restart = storm.acked() + storm.failed() - tried_at_restart;
  ASSERT_LT(tried_since_restart, kBumps - 10) << "raise kBumps: the version check below needs it";

  // Every acknowledged statement is there.
  bool ok = false;
  const std::vector<std::string> tables = Tables(0, "storm", &ok);
  ASSERT_TRUE(ok);
  std::set<int> acked_create, acked_parts;
  for (const StormStatement& s : log) {
    if (s.ok) (s.create ? acked_create : acked_parts).insert(s.table);
  }
  ExpectStormDurable(log, tables,
                     [&](const std::string& t) { return Partitions(0, "storm." + t); });
  // Each table is complete; a table whose CREATE failed may exist
  // (committed, reply lost) but only complete.
  for (const std::string& t : tables) {
    ExecResult desc = MustExec(0, "DESCRIBE storm." + t);
    EXPECT_EQ(desc.Column(0), (std::vector<std::string>{"id", "s", "p"})) << t;
  }
  // Statements that failed but were committed (the reply was lost with
  // catalogd) are allowed; count them for the record.
  int failed_but_applied = 0;
  for (const StormStatement& s : log) {
    if (s.ok) continue;
    const std::string name = "t_" + std::to_string(s.table);
    if (s.create ? Contains(tables, name) && !acked_create.count(s.table)
                 : !Partitions(0, "storm." + name).empty() && !acked_parts.count(s.table)) {
      ++failed_but_applied;
      std::cout << "failed but applied: " << (s.create ? "CREATE " : "ADD PARTITION ") << name
                << " (" << s.error << ")\n";
    }
  }
  std::cout << failed_but_applied << " failed statement(s) turned out applied\n";
  // No table appears that no statement tried to create.
  for (const std::string& t : tables) {
    if (t == "t_seed") continue;
    const int i = std::atoi(t.substr(2).c_str());
    bool tried = false;
    for (const StormStatement& s : log) tried |= (s.create && s.table == i);
    EXPECT_TRUE(tried) << "unexpected table storm." << t;
  }

  // The coordinators follow the new catalogd: coordinator 1 converges on
  // the same table list, and a change made through the new catalogd (whose
  // versions start afresh, possibly below the old ones) replaces what it
  // cached from the old catalogd.
  ASSERT_TRUE(MustExec(0, "ALTER TABLE storm.t_seed ADD COLUMNS (extra STRING)").ok());
  ASSERT_EVENTUALLY(Millis(10000), {
    EXPECT_EQ(Tables(1, "storm"), Tables(0, "storm"));
    ExecResult r = cl->Exec(1, "DESCRIBE storm.t_seed");
    ASSERT_TRUE(r.ok()) << r.ToString();
    EXPECT_EQ(r.Column(0), (std::vector<std::string>{"id", "s", "extra", "p"}));
  });
  // The coordinators log the service id change (both local catalog kinds
  // say "catalog service id changed").
  EXPECT_TRUE(cl->LogContains(cl->ProcessOf(1), "catalog service id changed"));
  // And SYNC_DDL works with the new catalogd.
  ASSERT_TRUE(MustExec(1, "CREATE TABLE storm.after (id INT)", true).ok());
  EXPECT_TRUE(Contains(Tables(0, "storm"), "after"));
}

// The crash also on the PostgreSQL metastore (the run's shared server).
const Mode kCrashModes[] = {
    {true, "OnDemand"}, {false, "FullReplica"}, {true, "OnDemandPostgres", true}};
INSTANTIATE_TEST_SUITE_P(, ExternalCatalogdCrash, ::testing::ValuesIn(kCrashModes), ModeName);

}  // namespace
}  // namespace ics::external
