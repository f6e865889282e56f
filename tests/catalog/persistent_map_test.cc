#include "common/util/persistent_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "catalogd/catalog/compact_string_map.h"

namespace ics::catalog {
namespace {

using IntMap = PersistentMap<int64_t, int64_t>;

std::map<int64_t, int64_t> AsStd(const IntMap& m) {
  std::map<int64_t, int64_t> out;
  for (const auto& [k, v] : m) out.emplace(k, v);
  return out;
}

TEST(PersistentMapTest, BehavesLikeStdMapUnderRandomWrites) {
  std::mt19937_64 rng(7);
  IntMap m;
  std::map<int64_t, int64_t> ref;
  for (int i = 0; i < 20000; ++i) {
    const int64_t k = static_cast<int64_t>(rng() % 3000);
    switch (rng() % 4) {
      case 0: {
        const bool ins = m.emplace(k, i).second;
        EXPECT_EQ(ins, ref.emplace(k, i).second);
        break;
      }
      case 1:
        m.insert_or_assign(k, i);
        ref.insert_or_assign(k, i);
        break;
      case 2:
        EXPECT_EQ(m.erase(k), ref.erase(k));
        break;
      default:
        m[k] += 1;
        ref[k] += 1;
    }
    ASSERT_EQ(m.size(), ref.size());
  }
  EXPECT_EQ(AsStd(m), ref);
  for (int64_t k = -1; k <= 3000; ++k) {
    auto it = m.find(k);
    ASSERT_EQ(it == m.end(), ref.count(k) == 0) << k;
    if (it != m.end()) EXPECT_EQ(it->second, ref.at(k));
    EXPECT_EQ(m.count(k), ref.count(k));
    auto lb = m.lower_bound(k);
    auto ref_lb = ref.lower_bound(k);
    ASSERT_EQ(lb == m.end(), ref_lb == ref.end()) << k;
    if (lb != m.end()) EXPECT_EQ(lb->first, ref_lb->first) << k;
  }
  EXPECT_EQ(m.front().first, ref.begin()->first);
  EXPECT_EQ(m.back().first, ref.rbegin()->first);
  EXPECT_GT(m.num_chunks(), 1u);
  EXPECT_THROW(m.at(-5), std::out_of_range);
}

TEST(PersistentMapTest, FromEntriesKeepsTheLastOfEachKeyAndStaysWritable) {
  std::mt19937_64 rng(11);
  for (const size_t n : {size_t{0}, size_t{1}, IntMap::kMaxChunk, IntMap::kMaxChunk + 1, size_t{5000}}) {
    for (const bool sorted : {true, false}) {
      std::vector<std::pair<int64_t, int64_t>> entries;
      std::map<int64_t, int64_t> ref;  // insert_or_assign in turn
      for (size_t i = 0; i < n; ++i) {
        // Sorted: ascending keys, some repeated; otherwise random with repeats.
        const int64_t k = sorted ? static_cast<int64_t>(i / 2) : static_cast<int64_t>(rng() % (n + 1));
        entries.emplace_back(k, static_cast<int64_t>(i));
        ref.insert_or_assign(k, static_cast<int64_t>(i));
      }
      IntMap m = IntMap::FromEntries(entries);
      ASSERT_EQ(AsStd(m), ref) << n << (sorted ? " sorted" : " random");
      ASSERT_EQ(m.size(), ref.size());
      for (const auto& [k, v] : ref) ASSERT_EQ(m.at(k), v);
      // Writes go on as in a map built one insert at a time: in full chunks,
      // in the middle and at both ends.
      for (int i = 0; i < 2000; ++i) {
        const int64_t k = static_cast<int64_t>(rng() % (n + 100)) - 50;
        if (rng() % 3 == 0) {
          ASSERT_EQ(m.erase(k), ref.erase(k));
        } else {
          m.insert_or_assign(k, i);
          ref.insert_or_assign(k, i);
        }
      }
      ASSERT_EQ(AsStd(m), ref) << n << (sorted ? " sorted" : " random");
      if (!m.empty()) {
        EXPECT_EQ(m.front().first, ref.begin()->first);
        EXPECT_EQ(m.back().first, ref.rbegin()->first);
      }
    }
  }
}

TEST(PersistentMapTest, CopiesAreIndependentAndShareUntouchedChunks) {
  IntMap a;
  for (int64_t i = 0; i < 10000; ++i) a.emplace(i, i);
  IntMap b = a;
  b.erase(5000);
  b.emplace(20000, 1);
  b.insert_or_assign(7, -7);
  EXPECT_EQ(a.size(), 10000u);
  EXPECT_EQ(a.at(7), 7);
  EXPECT_EQ(a.count(5000), 1u);
  EXPECT_EQ(a.count(20000), 0u);
  EXPECT_EQ(b.size(), 10000u);
  EXPECT_EQ(b.at(7), -7);

  std::vector<std::tuple<int64_t, bool, bool>> diffs;
  IntMap::ForEachDifference(a, b, [&](int64_t k, const int64_t* before, const int64_t* after) {
    diffs.emplace_back(k, before != nullptr, after != nullptr);
  });
  const std::vector<std::tuple<int64_t, bool, bool>> want = {
      {7, true, true}, {5000, true, false}, {20000, false, true}};
  EXPECT_EQ(diffs, want);
  IntMap::ForEachDifference(a, a, [&](int64_t k, const int64_t*, const int64_t*) {
    ADD_FAILURE() << "a map differs from itself at " << k;
  });
}

TEST(PersistentMapTest, DifferenceOfUnrelatedMapsComparesEntries) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 20; ++round) {
    IntMap a, b;
    std::map<int64_t, int64_t> ra, rb;
    for (int i = 0; i < 2000; ++i) {
      const int64_t k = static_cast<int64_t>(rng() % 1500);
      const int64_t v = static_cast<int64_t>(rng() % 3);
      if (rng() % 2) {
        a.insert_or_assign(k, v);
        ra[k] = v;
      } else {
        b.insert_or_assign(k, v);
        rb[k] = v;
      }
    }
    std::map<int64_t, std::pair<int, int>> got, want;
    IntMap::ForEachDifference(a, b, [&](int64_t k, const int64_t* x, const int64_t* y) {
      got[k] = {x ? static_cast<int>(*x) : -1, y ? static_cast<int>(*y) : -1};
    });
    for (int64_t k = 0; k < 1500; ++k) {
      const int x = ra.count(k) ? static_cast<int>(ra[k]) : -1;
      const int y = rb.count(k) ? static_cast<int>(rb[k]) : -1;
      if (x != y) want[k] = {x, y};
    }
    ASSERT_EQ(got, want) << "round " << round;
  }
}

TEST(PersistentMapTest, StringKeysAndConcurrentCopies) {
  PersistentMap<std::string, int64_t> base;
  for (int i = 0; i < 3000; ++i) base.emplace("p=" + std::to_string(i), i);
  // Copies written on several threads never disturb the base or each other.
  std::vector<std::thread> threads;
  // One element per thread: not std::vector<bool>, whose elements share
  // words (concurrent writes to two of them race).
  std::vector<char> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      PersistentMap<std::string, int64_t> mine = base;
      for (int i = 0; i < 3000; i += 4) mine.insert_or_assign("p=" + std::to_string(i + t), -t);
      bool good = true;
      for (int i = 0; i < 3000; ++i) {
        const int64_t want = (i % 4 == t) ? -t : i;
        good = good && mine.at("p=" + std::to_string(i)) == want;
      }
      ok[t] = good;
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_TRUE(ok[t]) << t;
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(base.at("p=" + std::to_string(i)), i);
}

// A value that carries its own key, stored as the entry alone.
struct Keyed {
  int64_t key;
  int64_t payload;
  bool operator==(const Keyed& o) const { return key == o.key && payload == o.payload; }
};
struct KeyedEntries {
  using Entry = Keyed;
  static int64_t Key(const Entry& e) { return e.key; }
  static const Entry& Value(const Entry& e) { return e; }
  static Entry& Value(Entry& e) { return e; }
  static Entry Make(int64_t /*key*/, Entry e) { return e; }
};
using KeyedMap = PersistentMap<int64_t, Keyed, KeyedEntries>;

// Entries that are their values keep the map's order, lookups, copy on
// write and differences, at the size of the value alone.
TEST(PersistentMapTest, ValuesThatCarryTheirKeys) {
  static_assert(sizeof(KeyedMap::value_type) == sizeof(Keyed));
  std::mt19937_64 rng(11);
  KeyedMap m;
  std::map<int64_t, int64_t> ref;
  for (int i = 0; i < 5000; ++i) {
    const int64_t k = static_cast<int64_t>(rng() % 1500);
    if (rng() % 3 == 0) {
      EXPECT_EQ(m.erase(k), ref.erase(k));
    } else {
      m.insert_or_assign(k, Keyed{k, i});
      ref.insert_or_assign(k, i);
    }
  }
  ASSERT_EQ(m.size(), ref.size());
  auto it = m.begin();
  for (const auto& [k, v] : ref) {
    ASSERT_EQ(it->key, k);
    EXPECT_EQ(it->payload, v);
    EXPECT_EQ(m.at(k).payload, v);
    ++it;
  }
  EXPECT_EQ(m.find(-1), m.end());
  KeyedMap next = m;
  const int64_t changed = ref.begin()->first;
  next.insert_or_assign(changed, Keyed{changed, -5});
  next.insert_or_assign(5000, Keyed{5000, 1});
  std::vector<int64_t> diffs;
  KeyedMap::ForEachDifference(m, next, [&](int64_t k, const Keyed* before, const Keyed* after) {
    diffs.push_back(k);
    if (k == 5000) EXPECT_EQ(before, nullptr);
    if (k == changed) EXPECT_EQ(after->payload, -5);
  });
  EXPECT_EQ(diffs, (std::vector<int64_t>{changed, 5000}));
  EXPECT_EQ(m.at(changed).payload, ref.at(changed));  // the original is unchanged
}

TEST(CompactStringMapTest, RoundTripsAndFinds) {
  std::map<std::string, std::string> m = {{"numRows", "1000"},
                                          {"transient_lastDdlTime", "1700000000"},
                                          {"", ""},
                                          {std::string(300, 'k'), std::string(70000, 'v')}};
  const std::string enc = CompactStringMap::Encode(m);
  CompactStringMap c(enc);
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.ToMap(), m);
  EXPECT_EQ(c.Find("numRows").value(), "1000");
  EXPECT_EQ(c.Find("").value(), "");
  EXPECT_EQ(c.Find(std::string(300, 'k'))->size(), 70000u);
  EXPECT_FALSE(c.Find("absent").has_value());
  const std::string same = CompactStringMap::Encode(m);
  EXPECT_EQ(c, CompactStringMap(same));
  m["numRows"] = "1001";
  const std::string changed = CompactStringMap::Encode(m);
  EXPECT_NE(c, CompactStringMap(changed));
  EXPECT_TRUE(CompactStringMap().empty());
  EXPECT_TRUE(CompactStringMap().ToMap().empty());
}

}  // namespace
}  // namespace ics::catalog
