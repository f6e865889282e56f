// The SQLite metastore on disk: reopening, schema versions, damaged files
// and blobs, and acknowledged commits surviving kill -9.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "catalogd/metastore/metastore.h"
#include "tests/metastore/metastore_test_util.h"
#include "tests/metastore/sqlite_raw.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using Kind = MetastoreOp::Kind;

std::unique_ptr<Metastore> OpenOrDie(const std::string& path) {
  auto ms = OpenSqliteMetastore(path);
  EXPECT_TRUE(ms.ok()) << ms.status().ToString();
  return ms.ok() ? std::move(ms).value() : nullptr;
}

TEST(SqliteMetastoreDurabilityTest, ReopenKeepsData) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  {
    auto ms = OpenOrDie(path);
    ASSERT_NE(ms, nullptr);
    ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(MakeTable("d", "t", {"p"})),
                              AddPartitionOp(MakePartition("d", "t", {"v"}))})));
  }
  auto ms = OpenOrDie(path);
  ASSERT_NE(ms, nullptr);
  EXPECT_EQ(*ms->GetTable("d", "t"), MakeTable("d", "t", {"p"}));
  EXPECT_EQ(*ms->GetPartitions("d", "t"),
            std::vector<hive::Partition>{MakePartition("d", "t", {"v"})});
  EXPECT_EQ(*ms->CurrentNotificationEventId(), 3);
  // Event ids continue after a reopen.
  EXPECT_EQ(*ms->Commit(Txn({CreateDbOp(MakeDb("e"))})), 4);
  ms.reset();
  EXPECT_EQ(RawSql(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(RawSql(path, "SELECT version FROM schema_version"), "6");
}

TEST(SqliteMetastoreDurabilityTest, VersionTwoFileKeepsItsEventIds) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  {
    auto ms = OpenOrDie(path);
    ASSERT_NE(ms, nullptr);
    ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d")), CreateDbOp(MakeDb("e"))})));
  }
  // What a version 2 build wrote: no counter row; AUTOINCREMENT's sequence
  // holds the last id.
  RawSql(path,
         "DROP TABLE catalogd_writer_epoch; DROP TABLE notification_sequence; "
         "DROP TABLE request_log; UPDATE schema_version SET version = 2");
  auto ms = OpenOrDie(path);
  ASSERT_NE(ms, nullptr);
  EXPECT_EQ(RawSql(path, "SELECT version FROM schema_version"), "6");
  EXPECT_EQ(*ms->CurrentNotificationEventId(), 2);
  EXPECT_EQ(*ms->Commit(Txn({CreateDbOp(MakeDb("f"))})), 3);
  auto events = ms->GetNextNotifications(0, 10);
  ASSERT_OK(events);
  ASSERT_EQ(events->size(), 3u);
  EXPECT_EQ(events->back().eventId, 3);
}

TEST(SqliteMetastoreDurabilityTest, RefusesNewerSchemaVersion) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  ASSERT_NE(OpenOrDie(path), nullptr);
  RawSql(path, "UPDATE schema_version SET version = 99");
  auto ms = OpenSqliteMetastore(path);
  ASSERT_ERROR(ms, ErrorCode::kInvalidArgument);
  EXPECT_NE(ms.status().message().find("schema version 99, newer than"), std::string::npos)
      << ms.status().ToString();
}

TEST(SqliteMetastoreDurabilityTest, DamagedSchemaVersionIsCorruption) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  ASSERT_NE(OpenOrDie(path), nullptr);
  RawSql(path, "DELETE FROM schema_version");
  ASSERT_ERROR(OpenSqliteMetastore(path), ErrorCode::kCorruption);
  RawSql(path, "INSERT INTO schema_version VALUES (1), (1)");
  ASSERT_ERROR(OpenSqliteMetastore(path), ErrorCode::kCorruption);
}

TEST(SqliteMetastoreDurabilityTest, RefusesOtherFiles) {
  TempDir dir;
  // An SQLite database that is not a metastore.
  const std::string other = dir.File("other.db");
  RawSql(other, "CREATE TABLE stuff (x)");
  auto r = OpenSqliteMetastore(other);
  ASSERT_ERROR(r, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("not a metastore"), std::string::npos);
  // A file that is not an SQLite database at all.
  const std::string junk = dir.File("junk.db");
  std::ofstream(junk) << std::string(8192, 'x');
  ASSERT_ERROR(OpenSqliteMetastore(junk), ErrorCode::kCorruption);
  // A path that cannot be opened.
  ASSERT_ERROR(OpenSqliteMetastore(dir.File("no/such/dir/ms.db")), ErrorCode::kIoError);
  ASSERT_ERROR(OpenSqliteMetastore(dir.path()), ErrorCode::kIoError);
}

TEST(SqliteMetastoreDurabilityTest, CorruptBlobIsCorruption) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  {
    auto ms = OpenOrDie(path);
    ASSERT_NE(ms, nullptr);
    ASSERT_OK(ms->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(MakeTable("d", "t", {"p"})),
                              CreateTableOp(MakeTable("d", "u", {"p"})),
                              AddPartitionOp(MakePartition("d", "u", {"1"}))})));
  }
  RawSql(path, "UPDATE tables SET obj = x'ff00ff' WHERE name = 't'");
  RawSql(path, "UPDATE partitions SET obj = x'19' WHERE tbl = 'u'");
  auto ms = OpenOrDie(path);
  ASSERT_NE(ms, nullptr);
  auto t = ms->GetTable("d", "t");
  ASSERT_ERROR(t, ErrorCode::kCorruption);
  EXPECT_NE(t.status().message().find("table d.t"), std::string::npos) << t.status().ToString();
  auto parts = ms->GetPartitions("d", "u");
  ASSERT_ERROR(parts, ErrorCode::kCorruption);
  EXPECT_NE(parts.status().message().find("partition of d.u: p=1"), std::string::npos)
      << parts.status().ToString();
  // An op that needs the corrupt table fails, and the txn leaves nothing.
  const int64_t before = *ms->CurrentNotificationEventId();
  ASSERT_ERROR(ms->Commit(Txn({CreateDbOp(MakeDb("e")),
                               AddPartitionOp(MakePartition("d", "t", {"1"}))})),
               ErrorCode::kCorruption);
  ASSERT_ERROR(ms->GetDatabase("e"), ErrorCode::kNotFound);
  EXPECT_EQ(*ms->CurrentNotificationEventId(), before);
  // Other objects are still readable.
  EXPECT_EQ(*ms->GetTable("d", "u"), MakeTable("d", "u", {"p"}));
}

// ---- crash safety ----

bool ReadInt(int fd, int* out) {
  char* p = reinterpret_cast<char*>(out);
  size_t got = 0;
  while (got < sizeof(int)) {
    const ssize_t n = read(fd, p + got, sizeof(int) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

// Child: commits txn i = (create table t<i>, add 2 partitions, set stats)
// for i = first, first+1, ... and writes i to `fd` after each commit
// returns OK. Never returns.
[[noreturn]] void CommitForever(const std::string& path, int fd) {
  auto ms = OpenSqliteMetastore(path);
  if (!ms.ok()) _exit(2);
  auto tables = (*ms)->GetAllTables("crash");
  if (!tables.ok()) {
    if (!(*ms)->Commit(Txn({CreateDbOp(MakeDb("crash"))})).ok()) _exit(3);
    tables = std::vector<std::string>{};
  }
  for (int i = static_cast<int>(tables->size());; ++i) {
    const std::string name = "t" + std::to_string(i);
    MetastoreOp stats = TableOp(Kind::kSetTableColumnStats, "crash", name);
    stats.column_stats = {MakeLongStats("id", i)};
    auto r = (*ms)->Commit(Txn({CreateTableOp(MakeTable("crash", name, {"p"})),
                                AddPartitionOp(MakePartition("crash", name, {"a"})),
                                AddPartitionOp(MakePartition("crash", name, {"b"})), stats}));
    if (!r.ok()) _exit(4);
    if (write(fd, &i, sizeof i) != static_cast<ssize_t>(sizeof i)) _exit(5);
  }
}

// Checks that table t<i> is there with everything its txn wrote.
void ExpectTxnComplete(Metastore* ms, int i) {
  const std::string name = "t" + std::to_string(i);
  SCOPED_TRACE(name);
  ASSERT_OK(ms->GetTable("crash", name));
  auto parts = ms->GetPartitions("crash", name);
  ASSERT_OK(parts);
  EXPECT_EQ(parts->size(), 2u);
  auto stats = ms->GetTableColumnStats("crash", name);
  ASSERT_OK(stats);
  EXPECT_EQ(*stats, std::vector<hive::ColumnStatisticsObj>{MakeLongStats("id", i)});
}

TEST(SqliteMetastoreDurabilityTest, AcknowledgedCommitsSurviveKill9) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  int acked_total = 0;  // txns 0 .. acked_total-1 were acknowledged
  // Several rounds: each kills a writer mid-stream, then the next recovers
  // the file and carries on from where the store says it is.
  for (int acks_before_kill : {5, 20, 40}) {
    SCOPED_TRACE("round killing after " + std::to_string(acks_before_kill) + " acks");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      CommitForever(path, fds[1]);
    }
    close(fds[1]);
    int acked = -1;
    int n = 0;
    int i = 0;
    while (n < acks_before_kill && ReadInt(fds[0], &i)) {
      acked = i;
      ++n;
    }
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    while (ReadInt(fds[0], &i)) acked = i;  // acks written before it died
    close(fds[0]);
    int wstatus = 0;
    ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
        << "writer ended on its own, exit code "
        << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    ASSERT_GE(acked, acked_total) << "no progress this round";
    acked_total = acked + 1;

    // The file is intact and opens cleanly.
    EXPECT_EQ(RawSql(path, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(RawSql(path, "PRAGMA foreign_key_check"), "");
    auto ms = OpenOrDie(path);
    ASSERT_NE(ms, nullptr);
    for (int t = 0; t < acked_total; ++t) ExpectTxnComplete(ms.get(), t);
    // At most one txn past the last ack committed (not yet acknowledged),
    // and if so, completely.
    auto tables = ms->GetAllTables("crash");
    ASSERT_OK(tables);
    const int present = static_cast<int>(tables->size());
    ASSERT_GE(present, acked_total);
    ASSERT_LE(present, acked_total + 1);
    if (present > acked_total) ExpectTxnComplete(ms.get(), acked_total);
    acked_total = present;
    // One event per op: CREATE_DATABASE + 4 per txn, ids dense from 1.
    auto events = ms->GetNextNotifications(0, 100000);
    ASSERT_OK(events);
    ASSERT_EQ(events->size(), static_cast<size_t>(1 + 4 * present));
    for (size_t e = 0; e < events->size(); ++e) {
      ASSERT_EQ((*events)[e].eventId, static_cast<int64_t>(e + 1));
    }
  }
}

}  // namespace
}  // namespace ics::catalog
