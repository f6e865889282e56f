// A confined warehouse: catalogd creates, deletes and moves data only under
// its data roots, whatever path a DDL names, and symlinks do not lead out.
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "catalogd/loader/confined_file_system.h"
#include "catalogd/metastore/data_ownership.h"
#include "tests/util/mini_cluster.h"
#include "tests/util/temp_dir.h"

namespace ics {
namespace {

using ::ics::testing::TempDir;

namespace fs = std::filesystem;
using catalog::ConfinedFileSystem;
using catalog::LocalFileSystem;
using catalog::PlanDataRemoval;

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

// Whether the library's walk (a stat and a readlink per component) puts
// `path` strictly inside `root`: what MayModify decided before it asked the
// kernel for the real path of the existing prefix instead.
bool InsideByLibraryWalk(const std::string& root, const std::string& path) {
  std::error_code ec;
  std::string r = fs::canonical(root, ec).string();
  std::string p = fs::weakly_canonical(fs::absolute(path), ec).lexically_normal().string();
  if (ec) return false;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p.size() > r.size() + 1 && p.compare(0, r.size(), r) == 0 && p[r.size()] == '/';
}

TEST_F(ConfinedFileSystemTest, DecidesAsTheLibraryWalkForEveryKindOfPath) {
  ASSERT_TRUE(fs_->CreateDirectories(root_ + "/db.db/t/k=1").ok());
  WriteFile(root_ + "/db.db/t/file.txt");
  fs::create_directory_symlink(outside_, root_ + "/db.db/escape");
  fs::create_directory_symlink(root_ + "/db.db/t", root_ + "/db.db/inner");
  fs::create_directory_symlink(root_ + "/missing_target", root_ + "/db.db/dangling");
  fs::create_directory_symlink(root_, tmp_.path() + "/alias");
  const std::string alias = tmp_.path() + "/alias";
  const std::vector<std::pair<std::string, bool>> cases = {
      {root_ + "/db.db/t/k=1", true},
      {root_ + "/db.db/t/k=2", true},  // the usual new partition directory
      {root_ + "/db.db/t/k=2/a/b/c", true},
      {root_ + "/db.db/t/k=2/", true},
      {root_ + "//db.db///t/k=2", true},
      {root_ + "/db.db/t/./k=2/.", true},
      {root_ + "/db.db/t/missing/../k=3", true},
      {root_ + "/db.db/t/missing/../../../outside", true},  // root/outside
      {root_ + "/db.db/t/missing/../../../../outside", false},
      {root_ + "/db.db/t/missing/../../..", false},
      {root_ + "/missing/..", false},  // the root itself
      {root_ + "/db.db/escape", false},
      {root_ + "/db.db/escape/new/dir", false},
      {root_ + "/db.db/escape/..", false},  // the target's parent
      {root_ + "/db.db/inner/k=9", true},
      {root_ + "/db.db/inner/../../..", false},
      {root_ + "/db.db/dangling/x", true},
      {root_ + "/db.db/t/file.txt/x", true},  // a file in the way (ENOTDIR)
      {alias + "/db.db/t/k=5", true},          // the root named through a symlink
      {alias + "/../outside/x", false},
      {outside_ + "/x", false},
      {root_, false},
      {"/", false},
  };
  for (const auto& [path, inside] : cases) {
    EXPECT_EQ(fs_->MayModify(path), inside) << path;
    EXPECT_EQ(InsideByLibraryWalk(root_, path), inside) << path << " (library walk)";
  }
}

// The reported case, end to end through a coordinator: a partition placed
// outside the warehouse survives DROP TABLE, TRUNCATE and INSERT OVERWRITE.
TEST(ConfinementClusterTest, DdlNeverTouchesDataOutsideTheRoots) {
  testing::MiniClusterOptions one;
  one.num_coordinators = 1;
  testing::MiniCluster cluster(one);
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


// ---- data ownership (catalogd/metastore/data_ownership.h) ----

TEST(DataOwnershipTest, OnlyDirectoriesNothingElseUsesAreDeletable) {
  // Partitions of /wh/t: their own directories are deletable; the table
  // directory, the warehouse, a directory another partition shares or lies
  // in, and one another table lives in are not.
  const std::vector<std::string> candidates = {
      "/wh/t/k=1", "file:///wh/t/k=2/", "/wh/t", "/wh", "/wh/t/shared", "/wh/t/outer",
      "/wh/t/k=1", "/", "relative/path"};
  const std::vector<std::string> remaining = {"/wh/t/shared", "/wh/t/outer/k=9", "/wh/other",
                                              "/wh/t/k=1/../k=3"};
  catalog::DataRemovalPlan plan = PlanDataRemoval(candidates, {"/wh/t"}, remaining);
  EXPECT_EQ(plan.deletable, (std::vector<std::string>{"/wh/t/k=1", "/wh/t/k=2"}));
  EXPECT_EQ(plan.kept, (std::vector<std::string>{"/wh/t", "/wh", "/wh/t/shared", "/wh/t/outer",
                                                 "/", "relative/path"}));
  // A candidate inside a remaining location is kept too (part of its data).
  plan = PlanDataRemoval({"/wh/big/k=1"}, {}, {"/wh/big"});
  EXPECT_TRUE(plan.deletable.empty());
  EXPECT_EQ(catalog::ComparableLocation("file:/a//b/./c/"), "/a/b/c");
  EXPECT_TRUE(catalog::PathWithin("/a/b", "/a"));
  EXPECT_FALSE(catalog::PathWithin("/ab", "/a"));
}

// Through a coordinator: dropping a partition (or a table) keeps data that
// another partition or table still points to.
TEST(ConfinementClusterTest, DropKeepsDataOthersStillUse) {
  testing::MiniClusterOptions one;
  one.num_coordinators = 1;
  testing::MiniCluster cluster(one);
  ASSERT_TRUE(cluster.Start().ok());
  auto run = [&](const std::string& sql) {
    auto r = cluster.Exec(0, sql);
    return r.ok() ? Status::OK() : r.status();
  };
  const std::string wh = cluster.dir() + "/catalogd/warehouse";
  ASSERT_TRUE(run("CREATE TABLE t (a INT) PARTITIONED BY (k INT)").ok());
  ASSERT_TRUE(run("INSERT INTO t PARTITION (k=1) VALUES (1)").ok());
  // k=2 points at the table directory itself, k=3 and k=4 share one.
  ASSERT_TRUE(run("ALTER TABLE t ADD PARTITION (k=2) LOCATION '" + wh + "/t'").ok());
  ASSERT_TRUE(run("ALTER TABLE t ADD PARTITION (k=3) LOCATION '" + wh + "/t/shared'").ok());
  ASSERT_TRUE(run("ALTER TABLE t ADD PARTITION (k=4) LOCATION '" + wh + "/t/shared'").ok());
  WriteFile(wh + "/t/shared/data.txt");
  // Another table lives inside a partition directory of t.
  ASSERT_TRUE(run("ALTER TABLE t ADD PARTITION (k=5)").ok());
  ASSERT_TRUE(run("CREATE TABLE inner_t (a INT) LOCATION '" + wh + "/t/k=5/inner'").ok());
  ASSERT_TRUE(run("INSERT INTO inner_t VALUES (5)").ok());

  ASSERT_TRUE(run("ALTER TABLE t DROP PARTITION (k=2)").ok());
  EXPECT_TRUE(fs::exists(wh + "/t/k=1"));
  ASSERT_TRUE(run("ALTER TABLE t DROP PARTITION (k=3)").ok());
  EXPECT_TRUE(fs::exists(wh + "/t/shared/data.txt"));
  ASSERT_TRUE(run("ALTER TABLE t DROP PARTITION (k=5)").ok());
  EXPECT_TRUE(fs::exists(wh + "/t/k=5/inner"));
  ASSERT_TRUE(run("ALTER TABLE t DROP PARTITION (k=1)").ok());
  EXPECT_FALSE(fs::exists(wh + "/t/k=1"));  // nothing else used it
  // The last user of the shared directory goes: now it may.
  ASSERT_TRUE(run("ALTER TABLE t DROP PARTITION (k=4)").ok());
  EXPECT_FALSE(fs::exists(wh + "/t/shared"));
  // DROP TABLE t keeps inner_t's directory inside it.
  ASSERT_TRUE(run("DROP TABLE t").ok());
  EXPECT_TRUE(fs::exists(wh + "/t/k=5/inner"));
  auto rows = cluster.Exec(0, "SHOW FILES IN inner_t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->rows.size(), 1u);
}

}  // namespace
}  // namespace ics
