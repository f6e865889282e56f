// FileDescList: a partition's descriptors in one block (appends with
// amortized growth, exact copies, views, equality, heap accounting).
#include "catalogd/catalog/file_desc_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ics::catalog {
namespace {

std::string Desc(int i) { return "descriptor-" + std::to_string(i) + std::string(i % 7, 'x'); }

TEST(FileDescListTest, AppendsAndHandsOutViews) {
  FileDescList l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.HeapBytes(), 0u);
  std::vector<std::string> want;
  for (int i = 0; i < 1000; ++i) {
    want.push_back(Desc(i));
    l.push_back(want.back());
  }
  ASSERT_EQ(l.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(l[i], want[i]) << i;
  size_t n = 0;
  for (std::string_view d : l) EXPECT_EQ(d, want[n++]);
  EXPECT_EQ(n, want.size());
  EXPECT_EQ(l.end() - l.begin(), static_cast<std::ptrdiff_t>(want.size()));
  EXPECT_THROW((void)l.at(want.size()), std::out_of_range);
  l.push_back("");  // an empty descriptor is kept as one
  EXPECT_EQ(l.size(), want.size() + 1);
  EXPECT_EQ(l.at(want.size()), "");
}

TEST(FileDescListTest, ShrinkLeavesExactlyTheContents) {
  FileDescList l;
  l.reserve(8);
  l.push_back("abc");
  l.push_back("defgh");
  const size_t before = l.HeapBytes();
  l.shrink_to_fit();
  // A 16-byte header, two offsets, eight bytes.
  EXPECT_EQ(l.HeapBytes(), 16u + 2 * 4u + 8u);
  EXPECT_LE(l.HeapBytes(), before);
  EXPECT_EQ(l[0], "abc");
  EXPECT_EQ(l[1], "defgh");
  l.push_back("i");  // still appendable after shrinking
  EXPECT_EQ(l[2], "i");
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
  EXPECT_NE(a[0].data(), b[0].data());
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
  // Same offsets, different bytes.
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
