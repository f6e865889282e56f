#include "catalogd/loader/file_system.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using ::ics::testing::TempDir;

namespace fs = std::filesystem;

void WriteFile(const std::string& path, size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  out << std::string(bytes, 'x');
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class LocalFileSystemTest : public ::testing::Test {
 protected:
  TempDir tmp_;
  LocalFileSystem fs_;
};

TEST_F(LocalFileSystemTest, ListsVisibleRegularFilesSorted) {
  const std::string dir = tmp_.path() + "/t";
  ASSERT_TRUE(fs_.CreateDirectories(dir + "/k=1").ok());
  ASSERT_TRUE(fs_.CreateDirectories(dir + "/_tmp_dir").ok());
  ASSERT_TRUE(fs_.CreateDirectories(dir + "/.hive-staging").ok());
  WriteFile(dir + "/b.parq", 10);
  WriteFile(dir + "/a.gz", 3);
  WriteFile(dir + "/.a.gz.crc", 1);
  WriteFile(dir + "/_SUCCESS", 0);
  const int64_t before = NowMs();

  auto files = fs_.ListFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].name, "a.gz");
  EXPECT_EQ((*files)[0].length, 3);
  EXPECT_EQ((*files)[1].name, "b.parq");
  EXPECT_EQ((*files)[1].length, 10);
  EXPECT_GT((*files)[1].mtime_ms, before - 60'000);
  EXPECT_LE((*files)[1].mtime_ms, NowMs() + 1000);

  auto dirs = fs_.ListSubdirectories(dir);
  ASSERT_TRUE(dirs.ok());
  EXPECT_EQ(*dirs, std::vector<std::string>{"k=1"});
}

TEST_F(LocalFileSystemTest, SymlinkToFileCounts) {
  const std::string dir = tmp_.path() + "/t";
  ASSERT_TRUE(fs_.CreateDirectories(dir).ok());
  WriteFile(tmp_.path() + "/target", 7);
  fs::create_symlink(tmp_.path() + "/target", dir + "/link");
  fs::create_symlink(tmp_.path() + "/nowhere", dir + "/dangling");
  auto files = fs_.ListFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].name, "link");
  EXPECT_EQ((*files)[0].length, 7);
}

// A directory whose entries take many reads of the directory (long
// Spark-style names) is listed whole, in order.
TEST_F(LocalFileSystemTest, ListsDirectoriesLargerThanOneRead) {
  const std::string dir = tmp_.path() + "/big";
  ASSERT_TRUE(fs_.CreateDirectories(dir).ok());
  constexpr int kFiles = 1500;  // ~100 B an entry: several 16 KiB reads
  for (int i = 0; i < kFiles; ++i) {
    char name[96];
    std::snprintf(name, sizeof name, "part-%05d-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0-c000.snappy.parquet", i);
    WriteFile(dir + "/" + name, static_cast<size_t>(i % 7));
  }
  auto files = fs_.ListFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), static_cast<size_t>(kFiles));
  for (int i = 0; i < kFiles; ++i) {
    ASSERT_EQ((*files)[i].name.substr(0, 10), "part-" + std::string(5 - std::to_string(i).size(), '0') + std::to_string(i));
    ASSERT_EQ((*files)[i].length, i % 7);
  }
}

TEST_F(LocalFileSystemTest, MissingDirectoryIsEmpty) {
  auto files = fs_.ListFiles(tmp_.path() + "/does/not/exist");
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_TRUE(files->empty());
  auto dirs = fs_.ListSubdirectories(tmp_.path() + "/nope");
  ASSERT_TRUE(dirs.ok());
  EXPECT_TRUE(dirs->empty());
}

TEST_F(LocalFileSystemTest, ListingAFileIsAnIoError) {
  WriteFile(tmp_.path() + "/plain", 1);
  auto files = fs_.ListFiles(tmp_.path() + "/plain");
  ASSERT_FALSE(files.ok());
  EXPECT_EQ(files.status().code(), ErrorCode::kIoError);
  EXPECT_NE(files.status().message().find(tmp_.path() + "/plain"), std::string::npos);
}

// A held base lists below it as ListFiles lists the full paths, names full
// paths in errors, and a base that cannot be opened falls back to paths.
TEST_F(LocalFileSystemTest, BaseListsRelativePathsAsFullPaths) {
  const std::string dir = tmp_.path() + "/t";
  ASSERT_TRUE(fs_.CreateDirectories(dir + "/k=1/j=2").ok());
  WriteFile(dir + "/k=1/j=2/part-0.parq", 4);
  WriteFile(dir + "/k=1/j=2/_SUCCESS", 0);
  WriteFile(dir + "/k=1/x", 2);
  WriteFile(dir + "/plain", 1);
  std::unique_ptr<FileSystem::Base> base = fs_.OpenBase(dir);
  ASSERT_NE(base, nullptr);
  for (const std::string rel : {"k=1/j=2", "k=1", "k=9"}) {
    auto by_base = base->ListFiles(rel);
    auto by_path = fs_.ListFiles(dir + "/" + rel);
    ASSERT_TRUE(by_base.ok() && by_path.ok()) << rel;
    EXPECT_EQ(*by_base, *by_path) << rel;
  }
  EXPECT_EQ(base->ListFiles("k=1/j=2")->size(), 1u);
  auto err = base->ListFiles("plain");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.status().message().find(dir + "/plain"), std::string::npos)
      << err.status().ToString();

  // Missing base directory: listings by full path (all empty here).
  std::unique_ptr<FileSystem::Base> missing = fs_.OpenBase(tmp_.path() + "/nope");
  ASSERT_NE(missing, nullptr);
  auto none = missing->ListFiles("k=1");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  ASSERT_TRUE(fs_.CreateDirectories(tmp_.path() + "/nope/k=1").ok());
  WriteFile(tmp_.path() + "/nope/k=1/f", 3);
  EXPECT_EQ(missing->ListFiles("k=1")->size(), 1u);
}

TEST_F(LocalFileSystemTest, Mutations) {
  const std::string a = tmp_.path() + "/a/b/c";
  ASSERT_TRUE(fs_.CreateDirectories(a).ok());
  ASSERT_TRUE(fs_.CreateDirectories(a).ok());  // idempotent
  EXPECT_TRUE(*fs_.Exists(a));
  WriteFile(a + "/f", 5);

  ASSERT_TRUE(fs_.Rename(tmp_.path() + "/a", tmp_.path() + "/z").ok());
  EXPECT_FALSE(*fs_.Exists(tmp_.path() + "/a"));
  EXPECT_TRUE(*fs_.Exists(tmp_.path() + "/z/b/c/f"));

  Status s = fs_.Rename(tmp_.path() + "/missing", tmp_.path() + "/other");
  EXPECT_EQ(s.code(), ErrorCode::kIoError);
  EXPECT_NE(s.message().find("/missing"), std::string::npos);

  ASSERT_TRUE(fs_.RemoveAll(tmp_.path() + "/z").ok());
  EXPECT_FALSE(*fs_.Exists(tmp_.path() + "/z"));
  EXPECT_TRUE(fs_.RemoveAll(tmp_.path() + "/z").ok());  // already gone

  WriteFile(tmp_.path() + "/file", 1);
  Status mk = fs_.CreateDirectories(tmp_.path() + "/file");
  EXPECT_EQ(mk.code(), ErrorCode::kIoError);
}

TEST(SyntheticFileSystemTest, DeterministicListings) {
  SyntheticFileSystemOptions opts;
  opts.files_per_dir = 7;
  opts.min_file_bytes = 100;
  opts.max_file_bytes = 1000;
  opts.file_extension = ".gz";
  SyntheticFileSystem fs(opts);
  SyntheticFileSystem same(opts);

  auto a = fs.ListFiles("/wh/db.db/t/p=1");
  auto b = same.ListFiles("/wh/db.db/t/p=1");
  auto c = fs.ListFiles("/wh/db.db/t/p=2");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  ASSERT_EQ(a->size(), 7u);
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  for (size_t i = 0; i < a->size(); ++i) {
    const FileStatus& f = (*a)[i];
    EXPECT_GE(f.length, 100);
    EXPECT_LE(f.length, 1000);
    EXPECT_GE(f.mtime_ms, opts.base_mtime_ms);
    EXPECT_LT(f.mtime_ms, opts.base_mtime_ms + opts.mtime_spread_ms);
    EXPECT_EQ(f.name.substr(f.name.size() - 3), ".gz");
    if (i > 0) EXPECT_LT((*a)[i - 1].name, f.name);
  }

  opts.seed = 1;
  SyntheticFileSystem reseeded(opts);
  EXPECT_NE(*reseeded.ListFiles("/wh/db.db/t/p=1"), *a);
}

TEST(SyntheticFileSystemTest, MutationsAreNoOps) {
  SyntheticFileSystem fs;
  EXPECT_TRUE(fs.CreateDirectories("/x/y").ok());
  EXPECT_TRUE(fs.RemoveAll("/x").ok());
  EXPECT_TRUE(fs.Rename("/x", "/y").ok());
  EXPECT_TRUE(*fs.Exists("/anything"));
  EXPECT_TRUE(fs.ListSubdirectories("/x")->empty());
  EXPECT_EQ(fs.ListFiles("/x")->size(), 10u);
}

}  // namespace
}  // namespace ics::catalog
