// FileDescList: a partition's descriptors delta-encoded in one block
// (every descriptor decoded byte for byte, by iteration and by index;
// similar descriptors cost their differences; exact copies, equality, heap
// accounting).
#include "catalogd/catalog/file_desc_list.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/codec/file_desc.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ICS_TEST_HAS_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ICS_TEST_HAS_LSAN 1
#endif
#ifdef ICS_TEST_HAS_LSAN
#include <sanitizer/lsan_interface.h>
#endif

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

FileDescList Build(const std::vector<std::string>& descs) {
  FileDescList::Builder b;
  for (const std::string& d : descs) b.Add(d, 0, 0);
  return b.Finish();
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
  for (int i = 0; i < 1000; ++i) want.push_back(Desc(i));
  want.push_back("");       // an empty descriptor is kept as one
  want.push_back(want[5]);  // and a repeat
  want.push_back(want[5]);
  ExpectHolds(Build(want), want);
}

// A copy (or an assigned iterator) views its own descriptor, which stays
// valid when the original advances or is gone.
TEST(FileDescListTest, CopiedIteratorsViewTheirOwnDescriptor) {
  std::vector<std::string> want;
  for (int i = 0; i < 40; ++i) want.push_back(SparkDesc(i));  // edits of each other
  want.push_back("a whole entry, unlike the others");
  want.push_back(SparkDesc(99));
  const FileDescList l = Build(want);
  for (size_t at = 0; at < want.size(); ++at) {
    auto it = l.begin();
    for (size_t i = 0; i < at; ++i) ++it;
    FileDescList::const_iterator copy(it);
    FileDescList::const_iterator assigned;
    assigned = it;
    ++it;
    EXPECT_EQ(*copy, want[at]) << at;
    EXPECT_EQ(*assigned, want[at]) << at;
    ++copy;
    if (at + 1 < want.size()) EXPECT_EQ(*copy, want[at + 1]) << at;
  }
}

// Descriptors are FlatBuffers read in place: every one the iterator gives,
// whole entries and edited ones, is at an 8-byte aligned address and reads
// back as the descriptor it was built from.
TEST(FileDescListTest, IteratedDescriptorsAreAlignedFlatBuffers) {
  std::vector<std::string> want;
  for (int i = 0; i < 40; ++i) want.push_back(SparkDesc(i * 7919 % 1000));
  const FileDescList l = Build(want);
  size_t n = 0;
  for (std::string_view d : l) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(d.data()) % 8, 0u) << n;
    Result<const fb::FbFileDesc*> fd = ReadFileDesc(d);
    ASSERT_TRUE(fd.ok()) << n << ": " << fd.status().ToString();
    EXPECT_EQ(d, want[n]) << n;
    ++n;
  }
  EXPECT_EQ(n, want.size());
}

TEST(FileDescListTest, RandomEditsRoundTrip) {
  std::mt19937 rng(20261202);
  for (int round = 0; round < 50; ++round) {
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
    }
    const FileDescList l = Build(want);
    ExpectHolds(l, want);
    ExpectHolds(FileDescList(l), want);
  }
}

TEST(FileDescListTest, SimilarDescriptorsCostTheirDifferences) {
  std::vector<std::string> want;
  for (int task = 0; task < 100; ++task) want.push_back(SparkDesc(task));
  const FileDescList l = Build(want);
  ExpectHolds(l, want);
  // Keys (every 16th) are whole; the rest carry the task number, length
  // and mtime bytes that changed, well under a fifth of a descriptor.
  const size_t whole = want[0].size();
  const size_t keys = (want.size() + FileDescList::kKeyEvery - 1) / FileDescList::kKeyEvery;
  const size_t others = l.HeapBytes() - 3 - keys * (4 + whole + 2);
  EXPECT_LT(others, (want.size() - keys) * whole / 5) << l.HeapBytes();
}

// The block is the two counts and the two totals, the keys after the first,
// and the entries: no slack, and one file costs its descriptor and six bytes
// (its totals' varints included, here zeros).
TEST(FileDescListTest, BlocksHoldExactlyTheContents) {
  FileDescList::Builder b;
  EXPECT_TRUE(b.Finish().empty());
  const FileDescList one = Build({SparkDesc(0)});
  EXPECT_EQ(one.HeapBytes(), SparkDesc(0).size() + 6);  // counts 1 + 1, totals 1 + 1, entry 2
  const FileDescList two = Build({"abc", "defgh"});
  EXPECT_EQ(two.HeapBytes(), 4u + 4u + 6u);
  EXPECT_EQ(two.Copy(0), "abc");
  EXPECT_EQ(two.Copy(1), "defgh");
  std::vector<std::string> many;
  for (int i = 0; i < 40; ++i) many.push_back(Desc(i));
  const FileDescList l = Build(many);
  size_t entries = 0;
  for (const std::string& d : many) entries += 1 + d.size();  // all whole: lengths differ
  EXPECT_EQ(l.HeapBytes(), 5u + 2 * 4u + entries);  // keys at 16 and 32
  ExpectHolds(l, many);
  b.Add("after finish", 0, 0);  // the builder starts over
  EXPECT_EQ(b.Finish().Copy(0), "after finish");
  FileDescList cleared = l;
  cleared.clear();
  EXPECT_TRUE(cleared.empty());
  EXPECT_EQ(cleared.HeapBytes(), 0u);
}

TEST(FileDescListTest, KeepsTheFilesTotals) {
  EXPECT_EQ(FileDescList().total_bytes(), 0);
  EXPECT_EQ(FileDescList().num_blocks(), 0);
  FileDescList::Builder b;
  b.Add("a", 100, 1);
  b.Add("b", 200, 2);
  b.Add("c", -5, -1);  // counts as nothing
  const FileDescList l = b.Finish();
  EXPECT_EQ(l.total_bytes(), 300);
  EXPECT_EQ(l.num_blocks(), 3);
  const FileDescList copy = l;
  EXPECT_EQ(copy.total_bytes(), 300);
  EXPECT_EQ(copy.num_blocks(), 3);
  ExpectHolds(copy, {"a", "b", "c"});
  b.Add("big", INT64_MAX, INT64_MAX);
  b.Add("more", 10, 10);  // saturates instead of wrapping
  const FileDescList big = b.Finish();
  EXPECT_EQ(big.total_bytes(), INT64_MAX);
  EXPECT_EQ(big.num_blocks(), INT64_MAX);
  ExpectHolds(big, {"big", "more"});
}

TEST(FileDescListTest, CopiesAreDeepAndCompareByContent) {
  std::vector<std::string> descs;
  for (int i = 0; i < 20; ++i) descs.push_back(Desc(i));
  const FileDescList a = Build(descs);
  FileDescList b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(b.Copy(19), Desc(19));
  descs.push_back("one more");
  b = Build(descs);
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
  descs.pop_back();
  EXPECT_EQ(Build(descs), a);  // built apart from the same descriptors: equal
  EXPECT_NE(Build({"aaa"}), Build({"aab"}));
  EXPECT_EQ(FileDescList(), FileDescList());
  FileDescList emptied = Build({"z"});
  emptied.clear();
  EXPECT_EQ(emptied, FileDescList());
}

// Keys (the first entry, every 16th) are edits of the reference when it
// has their length: a partition's one file costs the bytes where it differs
// from the table's reference descriptor.
TEST(FileDescListTest, KeysAreEditsOfTheReference) {
  std::string other = SparkDesc(3);
  for (size_t i = 20; i < 56 && i < other.size(); ++i) other[i] ^= 0x5a;  // another job
  const FileDescList::Reference ref(other);
  FileDescList::Builder b(ref);
  b.Add(SparkDesc(0), 0, 0);
  const FileDescList one = b.Finish();
  ExpectHolds(one, {SparkDesc(0)});
  EXPECT_LT(one.HeapBytes(), SparkDesc(0).size() / 2 + 8 + 4) << one.HeapBytes();
  EXPECT_EQ(one, Build({SparkDesc(0)}));  // equal to the list without a reference
  EXPECT_EQ(one.reference().bytes(), other);

  std::vector<std::string> many;
  for (int task = 0; task < 40; ++task) many.push_back(SparkDesc(task));
  FileDescList::Builder mb(ref);
  for (const std::string& d : many) mb.Add(d, 0, 0);
  const FileDescList l = mb.Finish();
  ExpectHolds(l, many);  // keys at 16 and 32 decode from the reference
  EXPECT_LT(l.HeapBytes(), Build(many).HeapBytes());
  EXPECT_EQ(l, Build(many));

  // A reference of another length changes nothing but the header.
  FileDescList::Builder ob{FileDescList::Reference("short")};
  ob.Add(SparkDesc(0), 0, 0);
  const FileDescList whole = ob.Finish();
  ExpectHolds(whole, {SparkDesc(0)});
  EXPECT_EQ(whole.HeapBytes(), Build({SparkDesc(0)}).HeapBytes() + 8);
}

TEST(FileDescListTest, ListsHoldTheirReference) {
  FileDescList::Reference ref(SparkDesc(1));
  EXPECT_EQ(ref.use_count(), 1u);
  EXPECT_EQ(FileDescList::Reference().use_count(), 0u);
  FileDescList::Builder b(ref);
  EXPECT_EQ(ref.use_count(), 2u);
  b.Add(SparkDesc(2), 0, 0);
  FileDescList a = b.Finish();  // the builder let go, the list holds one
  EXPECT_EQ(ref.use_count(), 2u);
  {
    FileDescList copy = a;
    EXPECT_EQ(ref.use_count(), 3u);
    FileDescList moved = std::move(copy);
    EXPECT_EQ(ref.use_count(), 3u);
    moved = Build({"plain"});  // assigning over a list lets its reference go
    EXPECT_EQ(ref.use_count(), 2u);
    moved = a;
    EXPECT_EQ(ref.use_count(), 3u);
    moved = std::move(a);
    EXPECT_EQ(ref.use_count(), 2u);
    ExpectHolds(moved, {SparkDesc(2)});
    a = moved;
    EXPECT_EQ(ref.use_count(), 3u);
  }
  EXPECT_EQ(ref.use_count(), 2u);
  a.clear();
  EXPECT_EQ(ref.use_count(), 1u);
  // The reference outlives its first holder through the lists.
  FileDescList kept;
  {
    FileDescList::Reference temp(SparkDesc(7));
    FileDescList::Builder tb(temp);
    tb.Add(SparkDesc(8), 0, 0);
    kept = tb.Finish();
  }
  EXPECT_EQ(kept.reference().use_count(), 2u);  // the list and the returned handle
  ExpectHolds(kept, {SparkDesc(8)});
}

#ifdef ICS_TEST_HAS_LSAN
// The leak checker scans the stacks of live threads, dead slots included:
// what a test builds on its own stack may stay "reachable" from a stale
// slot. So these run on a thread of their own that has ended (its stack is
// no longer scanned) by the time the checker runs.
template <typename Fn>
auto OnFinishedThread(Fn fn) {
  decltype(fn()) out{};
  std::thread([&] { out = fn(); }).join();
  return out;
}

// Lists built against references whose every other holder is gone: the
// lists then hold the only pointers to them.
std::unique_ptr<std::vector<FileDescList>> ListsHoldingTheOnlyPointers() {
  auto lists = std::make_unique<std::vector<FileDescList>>();
  for (int t = 0; t < 8; ++t) {
    // A descriptor longer than any short-string buffer, so the reference
    // owns a second heap block too.
    FileDescList::Builder b{FileDescList::Reference(SparkDesc(t) + std::string(64, 'r'))};
    for (int task = 0; task < 20; ++task) b.Add(SparkDesc(task), 1, 1);
    lists->push_back(b.Finish());
    lists->push_back(lists->back());  // a copy: a second holder of the same reference
  }
  return lists;
}

// The address of a reference that nothing points to any more (kept only
// scrambled, so that the leak checker cannot take it for a pointer).
constexpr uintptr_t kScramble = 0x5a5a5a5a5a5a5a5a;
uintptr_t LeakOneReference() {
  auto* leaked = new FileDescList::Reference(SparkDesc(99) + std::string(64, 'l'));
  return reinterpret_cast<uintptr_t>(leaked) ^ kScramble;
}

// The leak checker sees everything a list keeps alive: a reference whose
// only pointers are inside list blocks is not reported (before its address
// moved to the block's first word it sat at an odd offset, and LeakSanitizer
// reported it as a direct leak while the lists held it), and a reference
// that nothing holds is.
TEST(FileDescListTest, LeakCheckerSeesTheReferencesListsHold) {
  const uintptr_t scrambled = OnFinishedThread(LeakOneReference);
  ASSERT_NE(__lsan_do_recoverable_leak_check(), 0)
      << "a deliberately leaked reference was not reported: is leak checking on "
         "(ASAN_OPTIONS=detect_leaks=1)?";
  delete reinterpret_cast<FileDescList::Reference*>(scrambled ^ kScramble);

  auto lists = OnFinishedThread(ListsHoldingTheOnlyPointers);
  EXPECT_EQ(__lsan_do_recoverable_leak_check(), 0)
      << "a reference held only by lists was reported as leaked (see the report above)";
  for (const FileDescList& l : *lists) {
    EXPECT_EQ(l.reference().use_count(), 3u);  // two lists and the returned handle
    EXPECT_EQ(l.size(), 20u);
  }
  lists.reset();  // every holder gone: the references are freed
  EXPECT_EQ(__lsan_do_recoverable_leak_check(), 0);
}
#endif

}  // namespace
}  // namespace ics::catalog
