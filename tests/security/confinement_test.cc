// A confined warehouse: catalogd creates, deletes and moves data only under
// its data roots, whatever path a DDL names, and symlinks do not lead out.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "catalogd/loader/confined_file_system.h"
#include "tests/cluster/mini_cluster.h"
#include "tests/loader/temp_dir.h"

namespace ics {
namespace {

namespace fs = std::filesystem;
using catalog::ConfinedFileSystem;
using catalog::LocalFileSystem;

void WriteFile(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << "data\n";
}

class ConfinedFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_.path() + "/warehouse";
    outside_ = tmp_.path() + "/outside";
    auto c = ConfinedFileSystem::Create(std::make_unique<LocalFileSystem>(), {root_});
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    fs_ = std::move(*c);
    WriteFile(outside_ + "/keep.txt");
  }
  TempDir tmp_;
  std::string root_, outside_;
  std::unique_ptr<ConfinedFileSystem> fs_;
};

TEST_F(ConfinedFileSystemTest, ChangesInsideTheRootWork) {
  ASSERT_TRUE(fs_->CreateDirectories(root_ + "/db.db/t/k=1").ok());
  WriteFile(root_ + "/db.db/t/k=1/f");
  ASSERT_TRUE(fs_->Rename(root_ + "/db.db/t", root_ + "/db.db/u").ok());
  EXPECT_TRUE(fs::exists(root_ + "/db.db/u/k=1/f"));
  ASSERT_TRUE(fs_->RemoveAll(root_ + "/db.db/u").ok());
  EXPECT_FALSE(fs::exists(root_ + "/db.db/u"));
  EXPECT_EQ(fs_->refused_removals(), 0);
}

TEST_F(ConfinedFileSystemTest, OutsideTheRootNothingIsDeletedMovedOrCreated) {
  EXPECT_TRUE(fs_->RemoveAll(outside_).ok());
  EXPECT_TRUE(fs_->RemoveAll(root_).ok());  // the root itself
  EXPECT_TRUE(fs_->RemoveAll(root_ + "/../outside").ok());
  EXPECT_TRUE(fs_->RemoveAll("/").ok());
  EXPECT_EQ(fs_->refused_removals(), 4);
  EXPECT_TRUE(fs::exists(outside_ + "/keep.txt"));
  EXPECT_TRUE(fs::exists(root_));
  EXPECT_FALSE(fs_->Rename(outside_, root_ + "/moved").ok());
  EXPECT_FALSE(fs_->Rename(root_, outside_ + "/moved").ok());
  EXPECT_TRUE(fs::exists(outside_ + "/keep.txt"));
  // An existing directory outside is fine (an external LOCATION); a new one is not made.
  EXPECT_TRUE(fs_->CreateDirectories(outside_).ok());
  const Status s = fs_->CreateDirectories(outside_ + "/new");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("data roots"), std::string::npos);
  EXPECT_FALSE(fs::exists(outside_ + "/new"));
  // Reads are not confined.
  auto files = fs_->ListFiles(outside_);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->size(), 1u);
}

TEST_F(ConfinedFileSystemTest, SymlinksDoNotLeadOutOfTheRoot) {
  ASSERT_TRUE(fs_->CreateDirectories(root_ + "/db.db").ok());
  fs::create_directory_symlink(outside_, root_ + "/db.db/escape");
  EXPECT_FALSE(fs_->MayModify(root_ + "/db.db/escape"));
  EXPECT_FALSE(fs_->MayModify(root_ + "/db.db/escape/keep.txt"));
  EXPECT_TRUE(fs_->RemoveAll(root_ + "/db.db/escape/keep.txt").ok());
  EXPECT_TRUE(fs::exists(outside_ + "/keep.txt"));
  // Removing a directory that contains the link removes the link, not its target.
  ASSERT_TRUE(fs_->RemoveAll(root_ + "/db.db").ok());
  EXPECT_FALSE(fs::exists(root_ + "/db.db"));
  EXPECT_TRUE(fs::exists(outside_ + "/keep.txt"));
}

// The reported case, end to end through a coordinator: a partition placed
// outside the warehouse survives DROP TABLE, TRUNCATE and INSERT OVERWRITE.
TEST(ConfinementClusterTest, DdlNeverTouchesDataOutsideTheRoots) {
  testing::MiniCluster cluster(testing::MiniClusterOptions{1});
  ASSERT_TRUE(cluster.Start().ok());
  TempDir tmp;
  const std::string outside = tmp.path() + "/some/dir";
  WriteFile(outside + "/precious.txt");
  auto run = [&](const std::string& sql) {
    auto r = cluster.Exec(0, sql);
    return r.ok() ? Status::OK() : r.status();
  };
  ASSERT_TRUE(run("CREATE TABLE t (a INT) PARTITIONED BY (k INT)").ok());
  ASSERT_TRUE(run("ALTER TABLE t ADD PARTITION (k=1) LOCATION '" + outside + "'").ok());
  ASSERT_TRUE(run("TRUNCATE TABLE t").ok());
  EXPECT_TRUE(fs::exists(outside + "/precious.txt"));
  const Status overwrite = run("INSERT OVERWRITE t PARTITION (k=1) VALUES (1)");
  EXPECT_FALSE(overwrite.ok());
  if (!overwrite.ok()) EXPECT_NE(overwrite.message().find("data roots"), std::string::npos);
  EXPECT_TRUE(fs::exists(outside + "/precious.txt"));
  ASSERT_TRUE(run("DROP TABLE t").ok());
  EXPECT_TRUE(fs::exists(outside + "/precious.txt"));
  // A new directory outside the roots is refused at DDL time.
  const Status create =
      run("CREATE EXTERNAL TABLE e (a INT) LOCATION '" + tmp.path() + "/not/yet'");
  EXPECT_FALSE(create.ok());
  EXPECT_FALSE(fs::exists(tmp.path() + "/not/yet"));
  // Inside the warehouse everything still works.
  ASSERT_TRUE(run("CREATE TABLE inside (a INT)").ok());
  ASSERT_TRUE(run("INSERT INTO inside VALUES (1)").ok());
  ASSERT_TRUE(run("DROP TABLE inside").ok());
}

}  // namespace
}  // namespace ics
