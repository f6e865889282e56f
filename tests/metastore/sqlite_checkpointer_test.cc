// The SQLite metastore's WAL checkpoints run on a thread of their own: a
// commit never copies the WAL back into the database file itself.
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "catalogd/metastore/sqlite_db.h"
#include "catalogd/metastore/sqlite_schema.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
namespace fs = std::filesystem;

constexpr int kPage = 4096;  // SQLite's default page size

std::unique_ptr<sqlite::Connection> OpenWal(const std::string& path, int threshold_pages) {
  auto c = sqlite::Connection::Open(path, 10000);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  if (!c.ok()) return nullptr;
  for (const Status& s : {sqlite::ConfigureConnection(c->get()),
                          (*c)->Exec("CREATE TABLE IF NOT EXISTS t (b BLOB)"),
                          (*c)->CheckpointInBackground(threshold_pages)}) {
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return nullptr;
  }
  return std::move(c).value();
}

// `n` commits of one page-sized row each.
void CommitPages(sqlite::Connection* c, int n) {
  const std::string row(kPage - 200, 'x');
  for (int i = 0; i < n; ++i) {
    ASSERT_OK(c->Begin(sqldb::TxnKind::kWrite));
    auto ins = c->Prepare("INSERT INTO t VALUES (?1)");
    ASSERT_TRUE(ins.ok()) << ins.status().ToString();
    ASSERT_OK(ins->BindBlob(1, row).Run());
    ASSERT_OK(c->Commit());
  }
}

int64_t FileSize(const std::string& path) {
  std::error_code ec;
  const auto n = fs::file_size(path, ec);
  return ec ? -1 : static_cast<int64_t>(n);
}

TEST(SqliteCheckpointerTest, CommitsNeverCheckpointThemselves) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  auto c = OpenWal(path, /*threshold_pages=*/1 << 30);  // the thread is never asked
  ASSERT_NE(c, nullptr);
  const int64_t db_before = FileSize(path);
  // Past SQLite's own autocheckpoint size (1000 pages): a commit would have
  // checkpointed and the WAL restarted from its beginning.
  CommitPages(c.get(), 1300);
  EXPECT_GT(FileSize(path + "-wal"), int64_t{1200} * kPage);
  EXPECT_EQ(FileSize(path), db_before);  // nothing copied back yet
  c.reset();  // the last connection to close checkpoints
  EXPECT_GT(FileSize(path), int64_t{1200} * kPage);
}

TEST(SqliteCheckpointerTest, TheThreadCheckpointsOnceTheWalIsBig) {
  TempDir dir;
  const std::string path = dir.File("ms.db");
  auto c = OpenWal(path, /*threshold_pages=*/50);
  ASSERT_NE(c, nullptr);
  const int64_t db_before = FileSize(path);
  CommitPages(c.get(), 400);
  // The pages reach the database file without any commit copying them:
  // the checkpoint thread did (it runs within milliseconds of a request).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (FileSize(path) < db_before + int64_t{300} * kPage &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    // A commit after a complete checkpoint restarts the WAL.
    CommitPages(c.get(), 1);
  }
  EXPECT_GE(FileSize(path), db_before + int64_t{300} * kPage);
}

}  // namespace
}  // namespace ics::catalog
