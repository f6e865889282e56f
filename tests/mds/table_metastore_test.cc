// Table versions in the SQLite metastore: the version ops, their atomicity
// with the table change, reopening, rename/drop, no events, the upgrade of a
// schema version 1 file, and the NOT_IMPLEMENTED default of other backends.
#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "tests/loader/fake_metastore.h"
#include "tests/metastore/metastore_test_util.h"
#include "tests/metastore/sqlite_raw.h"

namespace ics::catalog::testing {
namespace {

using Kind = MetastoreOp::Kind;

MetastoreOp NewVersion(const std::string& db, const std::string& t, bool archive = true) {
  MetastoreOp op = TableOp(Kind::kNewTableVersion, db, t);
  op.archive = archive;
  return op;
}

MetastoreOp Alter(const hive::Table& t) {
  MetastoreOp op = TableOp(Kind::kAlterTable, t.dbName, t.tableName);
  op.table = t;
  return op;
}

class VersionStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("ms.db");
    Open();
    table_ = MakeTable("d", "t", {"p"});
    table_.createTime = 1000;
    ASSERT_OK(ms_->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(table_)})));
  }
  void Open() {
    ms_.reset();
    auto ms = OpenSqliteMetastore(path_);
    ASSERT_OK(ms);
    ms_ = std::move(ms).value();
  }
  // Sets parameter k=v as a new version.
  void Bump(const std::string& v, bool archive = true) {
    table_.parameters["k"] = v;
    ASSERT_OK(ms_->Commit(Txn({NewVersion("d", "t", archive), Alter(table_)})));
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<Metastore> ms_;
  hive::Table table_;
};

TEST_F(VersionStoreTest, ArchiveAndReadBack) {
  auto cur = ms_->GetCurrentTableVersion("d", "t");
  ASSERT_OK(cur);
  EXPECT_EQ(cur->version_id, 1);
  EXPECT_EQ(cur->valid_from_ms, 1000 * 1000);  // createTime when never versioned
  const int64_t events = *ms_->CurrentNotificationEventId();
  Bump("a");
  std::this_thread::sleep_for(std::chrono::milliseconds(3));  // distinct ms stamps
  Bump("b");
  // Only the two ALTER_TABLE events: version ops write none.
  EXPECT_EQ(*ms_->CurrentNotificationEventId(), events + 2);
  cur = ms_->GetCurrentTableVersion("d", "t");
  ASSERT_OK(cur);
  EXPECT_EQ(cur->version_id, 3);
  EXPECT_EQ(cur->table.parameters.at("k"), "b");
  auto v2 = ms_->GetArchivedTableVersion("d", "t", 2);
  ASSERT_OK(v2);
  EXPECT_EQ(v2->table.parameters.at("k"), "a");
  EXPECT_EQ(v2->archived_ms, cur->valid_from_ms);
  auto list = ms_->ListArchivedTableVersions("d", "t", 0, 10);
  ASSERT_OK(list);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].version_id, 2);
  EXPECT_EQ((*list)[1].version_id, 1);
  list = ms_->ListArchivedTableVersions("d", "t", 2, 10);
  ASSERT_OK(list);
  ASSERT_EQ(list->size(), 1u);
  ASSERT_ERROR(ms_->ListArchivedTableVersions("d", "t", 0, 0), ErrorCode::kInvalidArgument);
  ASSERT_ERROR(ms_->GetArchivedTableVersion("d", "t", 3), ErrorCode::kNotFound);  // current
  ASSERT_ERROR(ms_->GetCurrentTableVersion("d", "x"), ErrorCode::kNotFound);
  // As of a time.
  auto at = ms_->GetTableVersionAsOf("d", "t", v2->valid_from_ms);
  ASSERT_OK(at);
  EXPECT_EQ(at->version_id, 2);
  ASSERT_ERROR(ms_->GetTableVersionAsOf("d", "t", 999 * 1000), ErrorCode::kNotFound);
}

TEST_F(VersionStoreTest, ArchiveIsAtomicWithTheTxn) {
  Bump("a");
  table_.parameters["k"] = "never";
  // The second op fails (no such database): neither the archive nor the
  // version bump nor the alter may remain.
  ASSERT_ERROR(ms_->Commit(Txn({NewVersion("d", "t"), Alter(table_), CreateDbOp(MakeDb("d"))})),
               ErrorCode::kAlreadyExists);
  auto cur = ms_->GetCurrentTableVersion("d", "t");
  ASSERT_OK(cur);
  EXPECT_EQ(cur->version_id, 2);
  EXPECT_EQ(cur->table.parameters.at("k"), "a");
  EXPECT_EQ(ms_->ListArchivedTableVersions("d", "t", 0, 10)->size(), 1u);
  ASSERT_ERROR(ms_->Commit(Txn({NewVersion("d", "nope")})), ErrorCode::kNotFound);
}

TEST_F(VersionStoreTest, SkipArchiveAndDelete) {
  Bump("a", /*archive=*/false);
  Bump("b");
  EXPECT_EQ(ms_->GetCurrentTableVersion("d", "t")->version_id, 3);
  ASSERT_ERROR(ms_->GetArchivedTableVersion("d", "t", 1), ErrorCode::kNotFound);
  MetastoreOp del = TableOp(Kind::kDeleteTableVersion, "d", "t");
  del.version_id = 2;
  ASSERT_OK(ms_->Commit(Txn({del})));
  ASSERT_ERROR(ms_->Commit(Txn({del})), ErrorCode::kNotFound);
  del.version_id = 3;
  ASSERT_ERROR(ms_->Commit(Txn({del})), ErrorCode::kInvalidArgument);
}

TEST_F(VersionStoreTest, ReopenRenameAndDrop) {
  Bump("a");
  Open();
  EXPECT_EQ(ms_->GetCurrentTableVersion("d", "t")->version_id, 2);
  hive::Table renamed = table_;
  renamed.tableName = "u";
  MetastoreOp rename = TableOp(Kind::kAlterTable, "d", "t");
  rename.table = renamed;
  ASSERT_OK(ms_->Commit(Txn({rename})));
  EXPECT_EQ(ms_->GetCurrentTableVersion("d", "u")->version_id, 2);
  ASSERT_OK(ms_->GetArchivedTableVersion("d", "u", 1));
  ASSERT_OK(ms_->Commit(Txn({TableOp(Kind::kDropTable, "d", "u")})));
  EXPECT_EQ(RawSql(path_, "SELECT count(*) FROM table_versions"), "0");
  EXPECT_EQ(RawSql(path_, "SELECT count(*) FROM table_version_heads"), "0");
}

TEST_F(VersionStoreTest, DeleteOneColumnStat) {
  MetastoreOp set = TableOp(Kind::kSetTableColumnStats, "d", "t");
  set.column_stats = {MakeLongStats("id", 5)};
  ASSERT_OK(ms_->Commit(Txn({set})));
  MetastoreOp del = TableOp(Kind::kDeleteColumnStat, "d", "t");
  del.column_name = "id";
  ASSERT_OK(ms_->Commit(Txn({del})));
  EXPECT_TRUE(ms_->GetTableColumnStats("d", "t")->empty());
  ASSERT_ERROR(ms_->Commit(Txn({del})), ErrorCode::kNotFound);
  auto events = ms_->GetNextNotifications(0, 100);
  ASSERT_OK(events);
  EXPECT_EQ(events->back().eventType, "DELETE_TABLE_COLUMN_STAT");
}

TEST(TableVersionSchemaTest, UpgradesVersionOneFile) {
  TempDir dir;
  const std::string path = dir.File("old.db");
  {
    auto ms = OpenSqliteMetastore(path);
    ASSERT_OK(ms);
    ASSERT_OK((*ms)->Commit(Txn({CreateDbOp(MakeDb("d")), CreateTableOp(MakeTable("d", "t"))})));
  }
  // Turn the file into what a version 1 build wrote.
  RawSql(path,
         "DROP TABLE table_versions; DROP TABLE table_version_heads; "
         "DROP TABLE notification_sequence; DROP TABLE catalogd_writer_epoch; "
         "DROP TABLE request_log; UPDATE schema_version SET version = 1");
  EXPECT_EQ(RawSql(path, "SELECT count(*) FROM sqlite_master WHERE name = 'table_versions'"),
            "0");
  auto ms = OpenSqliteMetastore(path);
  ASSERT_OK(ms);
  EXPECT_EQ(RawSql(path, "SELECT version FROM schema_version"), "6");
  ASSERT_OK((*ms)->GetTable("d", "t"));
  EXPECT_EQ((*ms)->GetCurrentTableVersion("d", "t")->version_id, 1);
  hive::Table t = MakeTable("d", "t");
  t.parameters["x"] = "y";
  ASSERT_OK((*ms)->Commit(Txn({NewVersion("d", "t"), Alter(t)})));
  EXPECT_EQ((*ms)->GetCurrentTableVersion("d", "t")->version_id, 2);
}

TEST(TableVersionSchemaTest, OtherBackendsSayNotImplemented) {
  FakeMetastore fake;
  ASSERT_ERROR(fake.GetCurrentTableVersion("d", "t"), ErrorCode::kNotImplemented);
  ASSERT_ERROR(fake.GetArchivedTableVersion("d", "t", 1), ErrorCode::kNotImplemented);
  ASSERT_ERROR(fake.ListArchivedTableVersions("d", "t", 0, 1), ErrorCode::kNotImplemented);
  ASSERT_ERROR(fake.GetTableVersionAsOf("d", "t", 0), ErrorCode::kNotImplemented);
}

}  // namespace
}  // namespace ics::catalog::testing
