// What only the PostgreSQL metastore has: its URI, several processes
// writing through one database (event ids in commit order), a server that
// goes away and comes back, lock waits bounded by the statement timeout,
// and its schema checks. The operations themselves are in
// metastore_suite_test.cc, run against both backends.
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/pg_metastore.h"
#include "tests/external/metastore_backends.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)

// A fresh database on the test process's server; its URI.
std::string FreshDatabase() {
  auto server = external::SharedPostgresServer();
  EXPECT_TRUE(server.ok()) << server.status().ToString();
  if (!server.ok()) return "";
  static int next = 0;
  auto uri =
      (*server)->CreateDatabase("pgt_" + std::to_string(::getpid()) + "_" + std::to_string(next++));
  EXPECT_TRUE(uri.ok()) << uri.status().ToString();
  return uri.ok() ? *uri : "";
}

std::unique_ptr<Metastore> OpenOrDie(const std::string& uri) {
  auto ms = OpenPostgresMetastore(uri);
  EXPECT_TRUE(ms.ok()) << ms.status().ToString();
  return ms.ok() ? std::move(ms).value() : nullptr;
}

// Runs SQL on its own libpq session (an "external writer").
class RawSession {
 public:
  explicit RawSession(const std::string& uri) : conn_(PQconnectdb(uri.c_str())) {}
  ~RawSession() { PQfinish(conn_); }
  bool ok() const { return PQstatus(conn_) == CONNECTION_OK; }
  std::string Exec(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    std::string out = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0
                          ? PQgetvalue(r, 0, 0)
                          : std::string(PQresultErrorMessage(r));
    PQclear(r);
    return out;
  }

 private:
  PGconn* conn_;
};

TEST(PostgresUriTest, OwnParametersDefaultsAndErrors) {
  auto o = ParsePostgresUri(
      "postgresql://cat:secret@127.0.0.1:5999/meta?pool_size=3&statement_timeout_ms=1500");
  ASSERT_OK(o);
  EXPECT_EQ(o->pool_size, 3);
  EXPECT_EQ(o->statement_timeout_ms, 1500);
  EXPECT_EQ(o->display, "cat@127.0.0.1:5999/meta");             // never the password
  EXPECT_EQ(o->conninfo.find("pool_size"), std::string::npos);  // ours, not libpq's
  EXPECT_NE(o->conninfo.find("connect_timeout=10"), std::string::npos);
  EXPECT_NE(o->conninfo.find("tcp_user_timeout=1500"), std::string::npos);
  EXPECT_EQ(o->conninfo.find("sslmode"), std::string::npos);  // loopback: libpq's default

  // A '?' in the user info is not the query (libpq reads it so too).
  auto q = ParsePostgresUri("postgresql://cat:pa?ss@127.0.0.1/meta?pool_size=2");
  ASSERT_OK(q);
  EXPECT_EQ(q->pool_size, 2);
  EXPECT_EQ(q->display, "cat@127.0.0.1:5432/meta");

  // Nor is one in a bracketed host: what follows it is not parameters
  // (found by metastore_uri_fuzz; libpq takes the brackets' text as the host).
  auto bracketed = ParsePostgresUri("postgresql://[db?x]/meta?pool_size=4");
  ASSERT_OK(bracketed);
  EXPECT_EQ(bracketed->pool_size, 4);
  EXPECT_EQ(bracketed->display, "db?x:5432/meta");
  auto ipv6 = ParsePostgresUri("postgresql://cat@[::1]:5999/meta?pool_size=5");
  ASSERT_OK(ipv6);
  EXPECT_EQ(ipv6->pool_size, 5);
  EXPECT_EQ(ipv6->display, "cat@::1:5999/meta");

  // Another host: TLS with certificate checks unless said otherwise.
  auto remote = ParsePostgresUri("postgresql://cat@db.example.com/meta");
  ASSERT_OK(remote);
  EXPECT_NE(remote->conninfo.find("sslmode=verify-full"), std::string::npos);
  auto chosen = ParsePostgresUri("postgresql://cat@db.example.com/meta?sslmode=require");
  ASSERT_OK(chosen);
  EXPECT_EQ(chosen->conninfo.find("verify-full"), std::string::npos);

  auto err = [](const std::string& uri) {
    auto r = ParsePostgresUri(uri);
    EXPECT_FALSE(r.ok()) << uri;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_NE(err("postgresql://cat@127.0.0.1/").find("names no database"), std::string::npos);
  EXPECT_NE(err("postgresql://cat@127.0.0.1/m?pool_size=0").find("pool_size must be"),
            std::string::npos);
  EXPECT_NE(err("postgresql://cat@127.0.0.1/m?pool_size=x").find("pool_size must be"),
            std::string::npos);
  EXPECT_NE(err("postgresql://cat@127.0.0.1/m?no_such_option=1").find("not a valid PostgreSQL URI"),
            std::string::npos);
  EXPECT_NE(err("postgresql://" + std::string(5000, 'a')).find("longer than"), std::string::npos);
}

TEST(PostgresMetastoreTest, UnreachableServerIsAClearError) {
  const auto t0 = std::chrono::steady_clock::now();
  auto ms = OpenPostgresMetastore("postgresql://ics@127.0.0.1:1/none?connect_timeout=2");
  ASSERT_FALSE(ms.ok());
  EXPECT_EQ(ms.status().code(), ErrorCode::kIoError);
  EXPECT_NE(ms.status().message().find("cannot connect to the PostgreSQL metastore "
                                       "ics@127.0.0.1:1/none"),
            std::string::npos)
      << ms.status().ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

// Two metastores (as two catalogd processes) on one database, writing at
// once, and a poller following the log: ids are strictly increasing,
// contiguous, and never appear behind what the poller has already read.
TEST(PostgresMetastoreTest, ConcurrentWritersLogInCommitOrder) {
  const std::string uri = FreshDatabase();
  auto a = OpenOrDie(uri);
  auto b = OpenOrDie(uri);
  ASSERT_TRUE(a && b);
  constexpr int kWriters = 4, kTxns = 40;
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      Metastore* ms = (w % 2 == 0 ? a : b).get();
      for (int i = 0; i < kTxns; ++i) {
        const std::string db = "w" + std::to_string(w) + "_" + std::to_string(i);
        auto r = ms->Commit(Txn({CreateDbOp(MakeDb(db)), CreateTableOp(MakeTable(db, "t"))}));
        if (!r.ok()) ++failures;
      }
    });
  }
  int64_t seen = 0;
  std::string violation;
  auto poll = [&] {
    auto events = a->GetNextNotifications(seen, 1000);
    if (!events.ok()) {
      violation = events.status().ToString();
      return;
    }
    for (const NotificationEvent& e : *events) {
      if (e.eventId != seen + 1 && violation.empty()) {
        violation = "after event " + std::to_string(seen) + " came " + std::to_string(e.eventId);
      }
      seen = e.eventId;
    }
  };
  std::thread poller([&] {
    while (!done) poll();
  });
  for (auto& t : writers) t.join();
  done = true;
  poller.join();
  poll();  // whatever the last commits added
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(violation, "");
  EXPECT_EQ(seen, int64_t{kWriters} * kTxns * 2);
  EXPECT_EQ(*b->CurrentNotificationEventId(), seen);
  EXPECT_EQ(a->GetAllDatabases()->size(), static_cast<size_t>(kWriters * kTxns));
}

// The server stops under a metastore: calls fail with a clear error while
// it is down and work again once it is back, without reopening the
// metastore; nothing acknowledged before the stop is lost.
TEST(PostgresMetastoreTest, SurvivesServerRestart) {
  // This process's own server: the test stops it.
  auto server = external::SharedPostgresServer();
  ASSERT_OK(server);
  auto created = (*server)->CreateDatabase("restart_" + std::to_string(::getpid()));
  ASSERT_OK(created);
  auto ms = OpenOrDie(*created + "?connect_timeout=2");
  ASSERT_NE(ms, nullptr);
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("before"))})));
  ASSERT_OK((*server)->Stop());
  auto down = ms->Commit(Txn({CreateDbOp(MakeDb("during"))}));
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), ErrorCode::kIoError) << down.status().ToString();
  EXPECT_NE(down.status().message().find("PostgreSQL metastore"), std::string::npos)
      << down.status().ToString();
  ASSERT_FALSE(ms->GetAllDatabases().ok());
  ASSERT_OK((*server)->Start());
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("after"))})));
  EXPECT_EQ(*ms->GetAllDatabases(), (std::vector<std::string>{"after", "before"}));
  EXPECT_EQ(*ms->CurrentNotificationEventId(), 2);  // the failed commit took no id
}

TEST(PostgresMetastoreTest, LockWaitIsBoundedByTheStatementTimeout) {
  const std::string uri = FreshDatabase();
  auto ms = OpenOrDie(uri + "?statement_timeout_ms=300");
  ASSERT_NE(ms, nullptr);
  RawSession other(uri);
  ASSERT_TRUE(other.ok());
  // Another writer holds the writers' lock and does not finish.
  other.Exec("BEGIN");
  other.Exec("SELECT last_id FROM notification_sequence FOR UPDATE");
  const auto t0 = std::chrono::steady_clock::now();
  auto r = ms->Commit(Txn({CreateDbOp(MakeDb("d"))}));
  const auto waited = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kTimedOut) << r.status().ToString();
  EXPECT_LT(waited, std::chrono::seconds(5));
  other.Exec("ROLLBACK");
  ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d"))})));
}

TEST(PostgresMetastoreTest, SchemaChecks) {
  const std::string uri = FreshDatabase();
  ASSERT_NE(OpenOrDie(uri), nullptr);
  ASSERT_NE(OpenOrDie(uri), nullptr);  // a second open accepts the schema
  RawSession raw(uri);
  ASSERT_TRUE(raw.ok());
  raw.Exec("UPDATE schema_version SET version = 99");
  auto newer = OpenPostgresMetastore(uri);
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(newer.status().message().find("newer than the version"), std::string::npos);

  const std::string other = FreshDatabase();
  RawSession foreign(other);
  foreign.Exec("CREATE TABLE databases (x int)");
  auto not_ours = OpenPostgresMetastore(other);
  ASSERT_FALSE(not_ours.ok());
  EXPECT_NE(not_ours.status().message().find("not a metastore"), std::string::npos)
      << not_ours.status().ToString();
}

// TLS to the server (sslmode passed through to libpq): a verified
// connection works; asking for verification without the CA, or TLS from a
// server that has none, is a clear error.
TEST(PostgresMetastoreTest, TlsConnections) {
  ::ics::testing::TempDir certs("ics-pg-certs");
  ASSERT_TRUE(certs.ok());
  auto made = external::RunCommand({ICS_MAKE_CERTS, certs.path()});
  ASSERT_TRUE(made.ok()) << made.output;
  external::PostgresServer tls_server;
  ASSERT_OK(tls_server.EnableTls(certs.File("server.pem"), certs.File("server.key")));
  ASSERT_OK(tls_server.Start());
  auto db = tls_server.CreateDatabase("tls");
  ASSERT_OK(db);
  auto verified =
      OpenPostgresMetastore(*db + "?sslmode=verify-full&sslrootcert=" + certs.File("ca.pem"));
  ASSERT_OK(verified);
  ASSERT_OK((*verified)->Commit(Txn({CreateDbOp(MakeDb("secure"))})));
  RawSession check(*db + "?sslmode=verify-full&sslrootcert=" + certs.File("ca.pem"));
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check.Exec("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()"), "true");

  auto no_ca =
      OpenPostgresMetastore(*db + "?sslmode=verify-full&sslrootcert=" + certs.File("missing.pem"));
  ASSERT_FALSE(no_ca.ok());
  EXPECT_EQ(no_ca.status().code(), ErrorCode::kIoError);
  EXPECT_NE(no_ca.status().message().find("cannot connect"), std::string::npos);

  // The run's server speaks no TLS.
  auto plain = OpenPostgresMetastore(FreshDatabase() + "?sslmode=require");
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.status().message().find("SSL"), std::string::npos) << plain.status().ToString();
}

}  // namespace
}  // namespace ics::catalog
