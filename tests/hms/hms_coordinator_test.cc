// An HMS write reaches the coordinators as any other command does: the
// command core installs it in catalogd's catalog and the catalog topic
// carries it, so after the call returns a SYNC_DDL statement on one
// coordinator leaves it on every coordinator, with no event-processor round
// (the processor polls once a minute here). The coordinators keep full
// replicas of the catalog, so what they know came from the topic.
#include <gtest/gtest.h>

#include <string>

#include "tests/hms/hms_test_util.h"
#include "tests/util/mini_cluster.h"

namespace ics::catalog::hms::testing {
namespace {

TEST(HmsCoordinatorTest, AnHmsCreateTableIsOnEveryCoordinatorAfterASyncDdl) {
  ::ics::testing::MiniClusterOptions o;
  o.num_coordinators = 3;
  o.full_replica = true;
  o.tune_catalogd = [](CatalogServerOptions* c) {
    c->hms_port = 0;
    c->hms_event_polling_interval_ms = 60000;
  };
  ::ics::testing::MiniCluster cluster(o);
  ASSERT_TRUE(cluster.Start().ok());
  HmsClient hms(cluster.catalogd()->hms_port());

  hive::Database db;
  db.name = "from_hive";
  hms->create_database(db);
  hive::Table t;
  t.dbName = "from_hive";
  t.tableName = "events";
  hive::FieldSchema id;
  id.name = "id";
  id.type = "bigint";
  t.sd.cols = {id};
  hms->create_table(t);
  const int64_t installed = cluster.catalogd()->catalog()->GetTable("from_hive", "events")->version;

  // A SYNC_DDL statement on coordinator 0, issued after the HMS call returned.
  ASSERT_TRUE(cluster.Exec(0, "SET SYNC_DDL=1").ok());
  auto marker = cluster.Exec(0, "CREATE TABLE default.after_hms (x INT)");
  ASSERT_TRUE(marker.ok()) << marker.status().ToString();
  for (int c = 0; c < cluster.num_coordinators(); ++c) {
    EXPECT_GE(cluster.coordinator(c)->topic_catalog_version(), installed) << c;
    auto described = cluster.Exec(c, "DESCRIBE from_hive.events");
    ASSERT_TRUE(described.ok()) << "coordinator " << c << ": " << described.status().ToString();
    ASSERT_EQ(described->rows.size(), 1u) << c;
    EXPECT_EQ(described->rows[0][0], "id") << c;
  }
  // And an HMS drop leaves every coordinator the same way.
  hms->drop_table("from_hive", "events", true);
  ASSERT_TRUE(cluster.Exec(0, "DROP TABLE IF EXISTS default.after_hms").ok());
  for (int c = 0; c < cluster.num_coordinators(); ++c) {
    EXPECT_FALSE(cluster.Exec(c, "DESCRIBE from_hive.events").ok()) << c;
  }
}

}  // namespace
}  // namespace ics::catalog::hms::testing
