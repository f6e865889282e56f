// catalogd serves the HMS endpoint on its own port over its own metastore:
// what a Hive client writes there is in catalogd's metastore and its
// notification log.
#include <filesystem>

#include "catalogd/service/catalog_server.h"
#include "tests/hms/hms_test_util.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::hms::testing {
namespace {

TEST(HmsCatalogdTest, CatalogdServesTheEndpointOverItsMetastore) {
  ::ics::testing::TempDir tmp("ics_hms_cd");
  ASSERT_TRUE(tmp.ok()) << tmp.error();
  const std::string dir = tmp.path();
  {
    CatalogServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.statestore_port = -1;
    o.metastore_service_port = -1;
    o.hms_port = 0;
    o.data_dir = dir;
    CatalogServer server(o);
    Status s = server.Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_GT(server.hms_port(), 0);
    ASSERT_NE(server.hms_port(), server.port());

    HmsClient hms(server.hms_port());
    std::string wh;
    hms->getMetaConf(wh, "hive.metastore.warehouse.dir");
    EXPECT_EQ(wh, dir + "/warehouse");
    std::vector<std::string> dbs;
    hms->get_all_databases(dbs);
    EXPECT_EQ(dbs, (std::vector<std::string>{"default"}));  // catalogd's own database
    hive::CurrentNotificationEventId before;
    hms->get_current_notificationEventId(before);

    hive::Database db;
    db.name = "from_hive";
    hms->create_database(db);
    hms->get_all_databases(dbs);
    EXPECT_EQ(dbs, (std::vector<std::string>{"default", "from_hive"}));
    EXPECT_TRUE(std::filesystem::is_directory(dir + "/warehouse/from_hive.db"));
    hive::NotificationEventRequest req;
    req.lastEvent = before.eventId;
    hive::NotificationEventResponse resp;
    hms->get_next_notification(resp, req);
    ASSERT_EQ(resp.events.size(), 1u);
    EXPECT_EQ(resp.events[0].eventType, "CREATE_DATABASE");
    EXPECT_EQ(resp.events[0].dbName, "from_hive");

    server.Stop();
    server.Stop();  // idempotent
  }
  // A disabled endpoint reports port 0.
  {
    CatalogServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.statestore_port = -1;
    o.metastore_service_port = -1;
    o.hms_port = -1;
    o.data_dir = dir;
    CatalogServer server(o);
    Status s = server.Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(server.hms_port(), 0);
  }
}

}  // namespace
}  // namespace ics::catalog::hms::testing
