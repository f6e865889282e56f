// The remote metastore's transport behaviour against servers that fail:
// nobody listening, a server that drops the connection after reading a
// request (the reply is lost), one that never answers, and a pool whose
// connections are all busy. Reads are retried; a write whose request was
// sent is never retried and reports an unknown outcome; nothing hangs.
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/hms_remote_writes.h"
#include "tests/hms/remote_fault_server.h"
#include "tests/util/eventually.h"

namespace ics::catalog {
namespace {

using testing::FaultServer;
using testing::UnusedPort;

RemoteMetastoreOptions Options(int port) {
  RemoteMetastoreOptions o;
  o.host = "127.0.0.1";
  o.port = port;
  o.retries = 2;
  o.retry_backoff_ms = 1;
  o.connect_timeout_ms = 2000;
  o.rpc_timeout_ms = 2000;
  return o;
}

bool Has(const Status& s, const std::string& text) {
  return s.message().find(text) != std::string::npos;
}

hive::Database Db(const std::string& name) {
  hive::Database db;
  db.name = name;
  db.locationUri = "/warehouse/" + name + ".db";
  return db;
}

TEST(RemoteTransportTest, NobodyListeningFailsWithAClearError) {
  const int port = UnusedPort();
  auto opened = OpenRemoteMetastore(Options(port));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), ErrorCode::kNetworkError) << opened.status().ToString();
  EXPECT_TRUE(Has(opened.status(), "127.0.0.1:" + std::to_string(port)))
      << opened.status().ToString();
  EXPECT_TRUE(Has(opened.status(), "3 attempt(s)")) << opened.status().ToString();

  HmsRemoteMetastore ms(Options(port));
  auto table = ms.GetTable("db", "t");
  EXPECT_EQ(table.status().code(), ErrorCode::kNetworkError) << table.status().ToString();
  MetastoreOp op;
  op.kind = MetastoreOp::Kind::kCreateDatabase;
  op.database = Db("db");
  auto committed = ms.Commit(MetastoreTxn{{op}});
  EXPECT_EQ(committed.status().code(), ErrorCode::kNetworkError) << committed.status().ToString();
  EXPECT_TRUE(Has(committed.status(), "nothing applied")) << committed.status().ToString();
}

TEST(RemoteTransportTest, LostReplyReadIsRetriedWriteIsNot) {
  FaultServer server(FaultServer::Mode::kCloseAfterRequest);
  ASSERT_TRUE(server.Start());
  HmsRemoteMetastore ms(Options(server.port()));

  auto db = ms.GetDatabase("x");
  EXPECT_EQ(db.status().code(), ErrorCode::kNetworkError) << db.status().ToString();
  EXPECT_EQ(server.requests(), 3) << "a read is tried 1 + retries times";

  HmsWriter writer(&ms.caller());
  Status s = writer.CreateDatabase(Db("x"));
  EXPECT_EQ(s.code(), ErrorCode::kIoError) << s.ToString();
  EXPECT_TRUE(Has(s, "outcome is unknown")) << s.ToString();
  EXPECT_TRUE(Has(s, "create_database")) << s.ToString();
  EXPECT_EQ(server.requests(), 4) << "a sent write is never retried";
}

TEST(RemoteTransportTest, SilentServerTimesOut) {
  FaultServer server(FaultServer::Mode::kSilent);
  ASSERT_TRUE(server.Start());
  RemoteMetastoreOptions o = Options(server.port());
  o.rpc_timeout_ms = 200;
  o.retries = 1;
  HmsRemoteMetastore ms(o);

  auto dbs = ms.GetAllDatabases();
  EXPECT_EQ(dbs.status().code(), ErrorCode::kTimedOut) << dbs.status().ToString();
  EXPECT_EQ(server.requests(), 2);

  HmsWriter writer(&ms.caller());
  Status s = writer.DropDatabase("x");
  EXPECT_EQ(s.code(), ErrorCode::kIoError) << s.ToString();
  EXPECT_TRUE(Has(s, "outcome is unknown")) << s.ToString();
  EXPECT_EQ(server.requests(), 3);
}

TEST(RemoteTransportTest, PoolIsBoundedAndShutdownInterruptsCalls) {
  FaultServer server(FaultServer::Mode::kSilent);
  ASSERT_TRUE(server.Start());
  RemoteMetastoreOptions o = Options(server.port());
  o.pool_size = 2;
  o.pool_wait_ms = 50;
  o.rpc_timeout_ms = 60000;  // only Shutdown() ends the blocked calls
  HmsRemoteMetastore ms(o);

  std::vector<std::future<Status>> blocked;
  for (int i = 0; i < 2; ++i) {
    blocked.push_back(
        std::async(std::launch::async, [&ms] { return ms.GetDatabase("db").status(); }));
  }
  ASSERT_EVENTUALLY(std::chrono::milliseconds(10000), { ASSERT_EQ(server.requests(), 2); });
  EXPECT_EQ(ms.pool_stats().in_use, 2);

  auto waited = ms.GetDatabase("db");
  EXPECT_EQ(waited.status().code(), ErrorCode::kTimedOut) << waited.status().ToString();
  EXPECT_TRUE(Has(waited.status(), "no free connection")) << waited.status().ToString();
  EXPECT_EQ(ms.pool_stats().connections_made, 2);
  EXPECT_EQ(server.requests(), 2) << "the third call never got a connection";

  ms.Shutdown();
  for (auto& f : blocked) {
    ASSERT_EQ(f.wait_for(std::chrono::seconds(30)), std::future_status::ready)
        << "Shutdown() did not interrupt a call in progress";
    Status s = f.get();
    EXPECT_FALSE(s.ok());
  }
  auto after = ms.GetAllDatabases();
  EXPECT_EQ(after.status().code(), ErrorCode::kShutdown) << after.status().ToString();
  ms.Shutdown();  // idempotent
}

}  // namespace
}  // namespace ics::catalog
