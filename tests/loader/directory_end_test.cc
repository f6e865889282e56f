#include "catalogd/loader/directory_end.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catalogd/loader/file_system.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using ::ics::testing::TempDir;

// Directories to try: the test's temporary directory and, where it exists,
// a tmpfs (/dev/shm). Both are on file systems the proof knows on Linux.
std::vector<std::string> Parents() {
  std::vector<std::string> parents{""};
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec)) parents.push_back("/dev/shm");
  return parents;
}

void MakeFiles(const std::string& dir, int n) {
  std::filesystem::create_directories(dir);
  for (int i = 0; i < n; ++i) {
    char name[96];
    std::snprintf(name, sizeof name, "part-%05d-3c2b1a09-8f7e-6d5c-4b3a-29180f7e6d5c-c000.snappy.parquet", i);
    std::ofstream(dir + "/" + name) << "x";
  }
}

struct Batch {
  ssize_t bytes = 0;
  int64_t last_off = 0;
};

// Reads `fd` to its end in batches of `capacity` bytes.
std::vector<Batch> ReadAll(int fd, size_t capacity) {
  std::vector<char> buf(capacity + alignof(struct dirent64));
  char* aligned = buf.data();
  std::vector<Batch> batches;
  for (;;) {
    const ssize_t n = ::getdents64(fd, aligned, capacity);
    if (n <= 0) break;
    Batch b;
    b.bytes = n;
    for (ssize_t off = 0; off < n;) {
      const auto* e = reinterpret_cast<const struct dirent64*>(aligned + off);
      b.last_off = static_cast<int64_t>(e->d_off);
      off += e->d_reclen;
    }
    batches.push_back(b);
  }
  return batches;
}

// Soundness: a batch taken as the end is the last one the directory gives,
// whatever the directory's size and the buffer's; a batch that filled its
// buffer is never taken as the end; neither is one from another device.
TEST(DirectoryEndTest, OnlyTheLastBatchIsEverTakenAsTheEnd) {
  for (const std::string& parent : Parents()) {
    TempDir tmp("ics_dirend", parent);
    const int base = ::open(tmp.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(base, 0);
    const DirectoryEnd end = DirectoryEnd::For(base);
    struct stat st;
    ASSERT_EQ(::fstat(base, &st), 0);
    int proven = 0;
    for (int files : {0, 1, 3, 150, 1200}) {
      const std::string dir = tmp.path() + "/d" + std::to_string(files);
      MakeFiles(dir, files);
      for (size_t capacity : {size_t{512}, size_t{4096}, size_t{16384}, size_t{262144}}) {
        const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ASSERT_GE(fd, 0);
        const std::vector<Batch> batches = ReadAll(fd, capacity);
        ::close(fd);
        ASSERT_FALSE(batches.empty()) << dir;  // "." and ".." at least
        for (size_t i = 0; i < batches.size(); ++i) {
          const Batch& b = batches[i];
          const bool ended =
              end.Ended(st.st_dev, b.last_off, static_cast<size_t>(b.bytes), capacity);
          if (i + 1 < batches.size()) {
            EXPECT_FALSE(ended) << dir << " batch " << i << " of " << batches.size()
                                << ", buffer " << capacity;
          }
          if (capacity - static_cast<size_t>(b.bytes) < 280) EXPECT_FALSE(ended);
          EXPECT_FALSE(end.Ended(st.st_dev + 1, b.last_off, static_cast<size_t>(b.bytes),
                                 capacity));
          if (ended) ++proven;
        }
      }
    }
    ::close(base);
    std::printf("%s: file system %s, %d listings proven read after their last batch\n",
                tmp.path().c_str(), end.known() ? "known" : "not known", proven);
  }
}

TEST(DirectoryEndTest, UnknownFileSystemsAndDefaultProveNothing) {
  EXPECT_FALSE(DirectoryEnd().known());
  EXPECT_FALSE(DirectoryEnd().Ended(0, 0, 0, 16384));
  const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(proc, 0);
  EXPECT_FALSE(DirectoryEnd::For(proc).known());
  ::close(proc);
  EXPECT_FALSE(DirectoryEnd::For(-1).known());
}

// Listings through a held base are complete for directories of every size
// and hold the same as listings by full path.
TEST(DirectoryEndTest, ListingsBelowABaseAreComplete) {
  LocalFileSystem fs;
  for (const std::string& parent : Parents()) {
    TempDir tmp("ics_dirend", parent);
    std::unique_ptr<FileSystem::Base> base = fs.OpenBase(tmp.path());
    for (int files : {0, 1, 2, 140, 1500}) {
      const std::string rel = "k=" + std::to_string(files);
      MakeFiles(tmp.path() + "/" + rel, files);
      std::filesystem::create_directories(tmp.path() + "/" + rel + "/sub");
      auto below = base->ListFiles(rel);
      auto full = fs.ListFiles(tmp.path() + "/" + rel);
      ASSERT_TRUE(below.ok() && full.ok()) << rel;
      EXPECT_EQ(below->size(), static_cast<size_t>(files)) << tmp.path() << "/" << rel;
      EXPECT_EQ(*below, *full) << rel;
    }
  }
}

}  // namespace
}  // namespace ics::catalog
