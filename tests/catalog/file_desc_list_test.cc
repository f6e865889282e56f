// FileDescList: a partition's descriptors delta-encoded in one block
// (every descriptor decoded byte for byte, by iteration and by index;
// similar descriptors cost their differences; exact copies, equality, heap
// accounting).
#include "catalogd/catalog/file_desc_list.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/codec/file_desc.h"

namespace ics::catalog {
namespace {

std::string Desc(int i) { return "descriptor-" + std::to_string(i) + std::string(i % 7, 'x'); }

void ExpectHolds(const FileDescList& l, const std::vector<std::string>& want) {
  ASSERT_EQ(l.size(), want.size());
  size_t n = 0;
  for (std::string_view d : l) {
    ASSERT_LT(n, want.size());
    EXPECT_EQ(d, want[n]) << n;
    ++n;
  }
  EXPECT_EQ(n, want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(l.Copy(i), want[i]) << i;
  EXPECT_THROW((void)l.Copy(want.size()), std::out_of_range);
}

// Spark's name for task `task` of one job, as the loader would describe it.
std::string SparkDesc(int task) {
  FileDescInfo info;
  char num[8];
  std::snprintf(num, sizeof(num), "%05d", task);
  info.relative_path =
      std::string("part-") + num + "-3f2a9c1e-5b7d-4e21-9a0c-6d8e4f1b2c3a-c000.snappy.parquet";
  info.length = 1000 + 37 * task;
  info.mtime_ms = 1764700000000 + 13 * task;
  info.compression = fb::FbCompression::SNAPPY;
  return BuildFileDesc(info);
}

TEST(FileDescListTest, DecodesEveryDescriptor) {
  FileDescList l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.HeapBytes(), 0u);
  EXPECT_EQ(l.begin(), l.end());
  std::vector<std::string> want;
  for (int i = 0; i < 1000; ++i) {
    want.push_back(Desc(i));
    l.push_back(want.back());
  }
  want.push_back("");  // an empty descriptor is kept as one
  l.push_back("");
  want.push_back(want[5]);  // and a repeat
  l.push_back(want[5]);
  want.push_back(want[5]);
  l.push_back(want[5]);
  ExpectHolds(l, want);
}

TEST(FileDescListTest, RandomEditsRoundTrip) {
  std::mt19937 rng(20261202);
  for (int round = 0; round < 50; ++round) {
    FileDescList l;
    std::vector<std::string> want;
    std::string cur(rng() % 200, 'a');
    for (char& c : cur) c = static_cast<char>(rng());
    const int n = 1 + static_cast<int>(rng() % 70);
    for (int i = 0; i < n; ++i) {
      switch (rng() % 4) {
        case 0:  // a new length: stored whole
          cur.resize(rng() % 200);
          for (char& c : cur) c = static_cast<char>(rng());
          break;
        default:  // a few bytes changed, anywhere (first and last included)
          for (int k = static_cast<int>(rng() % 6); k > 0 && !cur.empty(); --k) {
            cur[rng() % cur.size()] = static_cast<char>(rng());
          }
          if (!cur.empty() && rng() % 5 == 0) cur.back() ^= 1;
          if (!cur.empty() && rng() % 5 == 0) cur.front() ^= 1;
      }
      want.push_back(cur);
      l.push_back(cur);
    }
    ExpectHolds(l, want);
    FileDescList shrunk = l;
    shrunk.shrink_to_fit();
    ExpectHolds(shrunk, want);
  }
}

TEST(FileDescListTest, SimilarDescriptorsCostTheirDifferences) {
  FileDescList l;
  std::vector<std::string> want;
  for (int task = 0; task < 100; ++task) {
    want.push_back(SparkDesc(task));
    l.push_back(want.back());
  }
  l.shrink_to_fit();
  ExpectHolds(l, want);
  // Keys (every 16th) are whole; the rest carry the task number, length
  // and mtime bytes that changed, well under a fifth of a descriptor.
  const size_t whole = want[0].size();
  const size_t keys = (want.size() + FileDescList::kKeyEvery - 1) / FileDescList::kKeyEvery;
  const size_t others = l.HeapBytes() - 16 - keys * (4 + whole + 2);
  EXPECT_LT(others, (want.size() - keys) * whole / 5) << l.HeapBytes();
}

TEST(FileDescListTest, BuilderMatchesAppending) {
  FileDescList::Builder b;
  EXPECT_TRUE(b.Finish().empty());
  FileDescList appended;
  std::vector<std::string> want;
  for (int task = 0; task < 40; ++task) {
    want.push_back(task % 9 == 4 ? Desc(task) : SparkDesc(task));
    b.Add(want.back());
    appended.push_back(want.back());
  }
  const FileDescList built = b.Finish();
  ExpectHolds(built, want);
  EXPECT_EQ(built, appended);
  appended.shrink_to_fit();
  EXPECT_EQ(built.HeapBytes(), appended.HeapBytes());
  b.Add("after finish");  // the builder starts over
  EXPECT_EQ(b.Finish().Copy(0), "after finish");
}

TEST(FileDescListTest, ShrinkLeavesExactlyTheContents) {
  FileDescList l;
  l.reserve(8);
  l.push_back("abc");
  l.push_back("defgh");
  const size_t before = l.HeapBytes();
  l.shrink_to_fit();
  // A 16-byte header, one key offset, two whole entries with 1-byte headers.
  EXPECT_EQ(l.HeapBytes(), 16u + 4u + 4u + 6u);
  EXPECT_LE(l.HeapBytes(), before);
  EXPECT_EQ(l.Copy(0), "abc");
  EXPECT_EQ(l.Copy(1), "defgh");
  l.push_back("defgX");  // still appendable after shrinking
  EXPECT_EQ(l.Copy(2), "defgX");
  l.clear();
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.HeapBytes(), 0u);
  FileDescList none;
  none.shrink_to_fit();
  EXPECT_EQ(none.HeapBytes(), 0u);
}

TEST(FileDescListTest, CopiesAreDeepAndCompareByContent) {
  FileDescList a;
  for (int i = 0; i < 20; ++i) a.push_back(Desc(i));
  FileDescList b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(b.Copy(19), Desc(19));
  b.push_back("one more");
  EXPECT_NE(a, b);
  EXPECT_EQ(a.size(), 20u);
  FileDescList c;
  c = a;
  EXPECT_EQ(c, a);
  const FileDescList& same = c;
  c = same;  // self-assignment keeps the contents
  EXPECT_EQ(c, a);
  FileDescList moved = std::move(c);
  EXPECT_EQ(moved, a);
  // Built apart from the same descriptors: equal.
  FileDescList again;
  for (int i = 0; i < 20; ++i) again.push_back(Desc(i));
  EXPECT_EQ(again, a);
  FileDescList x, y;
  x.push_back("aaa");
  y.push_back("aab");
  EXPECT_NE(x, y);
  EXPECT_EQ(FileDescList(), FileDescList());
  FileDescList emptied;
  emptied.push_back("z");
  emptied.clear();
  EXPECT_EQ(emptied, FileDescList());
}

}  // namespace
}  // namespace ics::catalog
