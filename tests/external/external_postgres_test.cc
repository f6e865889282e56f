// The PostgreSQL metastore under a real cluster: the server stops in the
// middle of a DDL storm. While it is down DDL fails with an error naming the
// metastore (never hangs); once it is back catalogd serves again by itself
// (no restart of catalogd); nothing acknowledged is lost and nothing is
// half-applied. The catalogd crash on PostgreSQL is ExternalCatalogdCrash
// (external_restart_test.cc).
#include "tests/external/ddl_storm.h"
#include "tests/external/external_test_util.h"
#include "tests/external/metastore_backends.h"

namespace ics::external {
namespace {

class ExternalPostgresOutage : public ExternalTest {};

TEST_F(ExternalPostgresOutage, DdlFailsClearlyWhileDownAndRecoversByItself) {
  // This process's own server: the test stops it.
  auto server = SharedPostgresServer();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto uri = (*server)->CreateDatabase("outage_" + std::to_string(::getpid()));
  ASSERT_TRUE(uri.ok()) << uri.status().ToString();
  ExternalClusterOptions o;
  o.coordinator_processes = {{1, {}, {}}};
  o.catalogd_flags = {"--metastore=" + *uri + "?connect_timeout=2&statement_timeout_ms=5000"};
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);
  ASSERT_TRUE(MustExec(0, "CREATE DATABASE storm").ok());

  DdlStorm storm(cl);
  storm.Start();
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= 10; }, Millis(20000)))
      << "storm made no progress: " << storm.acked() << " acked, " << storm.failed() << " failed";
  ASSERT_TRUE((*server)->Stop().ok());
  const int acked_at_stop = storm.acked();
  const int failed_at_stop = storm.failed();
  ASSERT_TRUE(WaitFor([&] { return storm.failed() >= failed_at_stop + 5; }, Millis(30000)))
      << "DDL did not fail while the metastore was down";
  ASSERT_TRUE((*server)->Start().ok());
  ASSERT_TRUE(WaitFor([&] { return storm.acked() >= acked_at_stop + 10; }, Millis(30000)))
      << "catalogd did not recover: " << storm.acked() << " acked, " << storm.failed() << " failed";
  storm.Finish();

  const std::vector<StormStatement> log = storm.statements();
  int64_t slowest_failure_ms = 0;
  int named = 0, failures = 0;
  for (const StormStatement& s : log) {
    if (s.ok) continue;
    ++failures;
    slowest_failure_ms = std::max(slowest_failure_ms, s.elapsed_ms);
    if (s.error.find("PostgreSQL metastore") != std::string::npos) ++named;
  }
  std::cout << "storm: " << storm.acked() << " acknowledged, " << failures
            << " failed while the server was down (slowest failure " << slowest_failure_ms
            << " ms)\n";
  EXPECT_GT(named, 0) << "no failure named the metastore; first: "
                      << (log.empty() ? "" : log.back().error);
  EXPECT_LT(slowest_failure_ms, 15000) << "a DDL waited too long for a dead metastore";

  // Every acknowledged statement is there, and nothing is half-applied.
  bool ok = false;
  const std::vector<std::string> tables = Tables(0, "storm", &ok);
  ASSERT_TRUE(ok);
  ExpectStormDurable(log, tables,
                     [&](const std::string& t) { return Partitions(0, "storm." + t); });
}

}  // namespace
}  // namespace ics::external
