// PartitionState's HMS parts: the shape shared between partitions, the
// directory derived from the table's when it is the default one, and the
// HMS object put back together.
#include <gtest/gtest.h>

#include "catalogd/catalog/partition_strings.h"
#include "catalogd/catalog/compact_string_map.h"
#include "catalogd/catalog/table_state.h"

namespace ics::catalog {
namespace {

hive::Partition HmsPartition(const std::string& location) {
  hive::Partition p;
  p.dbName = "db";
  p.tableName = "t";
  p.values = {"2024"};
  p.sd.location = location;
  p.sd.inputFormat = "parquet";
  p.parameters["transient_lastDdlTime"] = "1700000000";
  p.createTime = 17;
  return p;
}

MutablePartitionPtr MakeState(const std::string& hms_location,
                                          const std::string& dir, const std::string& table_dir,
                                          PartitionShapes* shapes) {
  auto p = NewPartition();
  p->set_name("year=2024");
  p->set_values({"2024"});
  p->SetHms(HmsPartition(hms_location), dir, table_dir, shapes);
  return p;
}

TEST(PartitionStateTest, DefaultDirectoryIsDerivedAndCostsNothing) {
  PartitionShapes shapes;
  auto derived = MakeState("/warehouse/db.db/t/year=2024", "/warehouse/db.db/t/year=2024", "/warehouse/db.db/t", &shapes);
  auto custom = MakeState("/elsewhere/x", "/elsewhere/x", "/w/t", &shapes);
  EXPECT_EQ(derived->location(), "/warehouse/db.db/t/year=2024");
  EXPECT_EQ(custom->location(), "/elsewhere/x");
  // The derived one holds no directory of its own.
  auto stored =
      MakeState("/warehouse/db.db/t/year=2024", "/warehouse/db.db/t/year=2024", "", &shapes);
  EXPECT_EQ(stored->location(), "/warehouse/db.db/t/year=2024");
  EXPECT_LT(derived->EstimateBytes(), stored->EstimateBytes());
  // Same content whichever way the directory is kept.
  EXPECT_TRUE(SameContent(*derived, *stored));
  EXPECT_FALSE(SameContent(*derived, *custom));
  // A table directory with a trailing slash derives the same path.
  auto slash = MakeState("/w/t/year=2024", "/w/t/year=2024", "/w/t/", &shapes);
  EXPECT_EQ(slash->location(), "/w/t/year=2024");
}

TEST(PartitionStateTest, HmsObjectIsRebuiltWithItsOwnLocation) {
  PartitionShapes shapes;
  auto with = MakeState("/w/t/year=2024", "/w/t/year=2024", "/w/t", &shapes);
  // No location in the metastore: the directory is the default one, and
  // the HMS object says nothing about it.
  auto without = MakeState("", "/w/t/year=2024", "/w/t", &shapes);
  EXPECT_EQ(with->Hms().sd.location, "/w/t/year=2024");
  EXPECT_EQ(without->Hms().sd.location, "");
  EXPECT_EQ(without->location(), "/w/t/year=2024");
  EXPECT_EQ(with->Hms().values, std::vector<std::string>{"2024"});
  EXPECT_EQ(with->Hms().createTime, 17);
  EXPECT_EQ(with->Hms().parameters.at("transient_lastDdlTime"), "1700000000");
  // Partitions of one table share one shape.
  auto other = NewPartition();
  other->set_name("year=2025");
  other->set_values({"2025"});
  hive::Partition hms = HmsPartition("/w/t/year=2025");
  hms.values = {"2025"};
  other->SetHms(std::move(hms), "/w/t/year=2025", "/w/t", &shapes);
  EXPECT_EQ(other->hms_shape, with->hms_shape);
  EXPECT_EQ(other->location(), "/w/t/year=2025");
}

TEST(PartitionStateTest, SetLocationKeepsTheGivenDirectory) {
  PartitionState p;
  p.set_name("k=1");
  p.set_location("/data/k=1");
  EXPECT_EQ(p.location(), "/data/k=1");
  EXPECT_EQ(p.Hms().sd.location, "");  // no HMS location recorded
}

TEST(PartitionStringsTest, HoldsOneBlockAndCopiesDeeply) {
  PartitionStrings none;
  for (size_t i = 0; i < PartitionStrings::kNumParts; ++i) {
    EXPECT_EQ(none.Get(static_cast<PartitionStrings::Part>(i)), "");
  }
  EXPECT_EQ(none.HeapBytes(), 0u);
  EXPECT_EQ(sizeof(PartitionStrings), sizeof(void*));
  const std::string dir = "/some/custom/partition/location=with/a/long/path";
  PartitionStrings s;
  s.Set(PartitionStrings::kLocation, dir);
  EXPECT_EQ(s.Get(PartitionStrings::kLocation), dir);
  EXPECT_EQ(s.Get(PartitionStrings::kName), "");
  // T, the mask, the one part (the last, so no length of its own).
  EXPECT_EQ(s.HeapBytes(), 1 + 1 + dir.size());
  PartitionStrings copy = s;
  EXPECT_EQ(copy, s);
  EXPECT_NE(copy.Get(PartitionStrings::kLocation).data(), s.Get(PartitionStrings::kLocation).data());
  PartitionStrings moved = std::move(copy);
  EXPECT_EQ(moved.Get(PartitionStrings::kLocation), dir);
  moved.Set(PartitionStrings::kLocation, "");
  EXPECT_EQ(moved.HeapBytes(), 0u);
  EXPECT_NE(moved, s);
}

// Every combination of present parts, of lengths around the varint steps,
// reads back; setting one part keeps the others (also when the new value
// views the block it replaces).
TEST(PartitionStringsTest, EveryPartReadsBackWhateverElseIsSet) {
  const std::string lengths[] = {"", "a", std::string(127, 'b'), std::string(128, 'c'),
                                 std::string(70000, 'd')};
  for (unsigned mask = 0; mask < (1u << PartitionStrings::kNumParts); ++mask) {
    for (const std::string& filler : lengths) {
      PartitionStrings s;
      std::string want[PartitionStrings::kNumParts];
      for (size_t i = 0; i < PartitionStrings::kNumParts; ++i) {
        if ((mask & (1u << i)) == 0) continue;
        want[i] = std::to_string(i) + filler;
        s.Set(static_cast<PartitionStrings::Part>(i), want[i]);
      }
      for (size_t i = 0; i < PartitionStrings::kNumParts; ++i) {
        ASSERT_EQ(s.Get(static_cast<PartitionStrings::Part>(i)), want[i]) << mask << " " << i;
      }
      // Replace each part with a view of another part of the same block.
      for (size_t i = 0; i + 1 < PartitionStrings::kNumParts; ++i) {
        const auto from = static_cast<PartitionStrings::Part>(i + 1);
        const auto to = static_cast<PartitionStrings::Part>(i);
        s.Set(to, s.Get(from));
        want[i] = want[i + 1];
        for (size_t j = 0; j < PartitionStrings::kNumParts; ++j) {
          ASSERT_EQ(s.Get(static_cast<PartitionStrings::Part>(j)), want[j]) << mask << " " << j;
        }
      }
    }
  }
}

// A partition with a name and two common parameters keeps both in one
// block of 3 bytes more than they are.
TEST(PartitionStringsTest, NameAndParametersShareABlock) {
  PartitionState p;
  p.set_name("year=2001/day=123");
  hive::Partition hms;
  hms.parameters = {{"numRows", "1000"}, {"transient_lastDdlTime", "1700000000"}};
  p.SetHms(hms, "/t/year=2001/day=123", "/t");
  EXPECT_EQ(p.name(), "year=2001/day=123");
  EXPECT_EQ(p.hms_parameters().ToMap(), hms.parameters);
  EXPECT_EQ(p.location(), "/t/year=2001/day=123");
  const size_t params = CompactStringMap::Encode(hms.parameters).size();
  EXPECT_EQ(p.EstimateBytes() - PartitionState().EstimateBytes(),
            ((3 + 17 + params + 8 + 15) & ~size_t{15}));
}

// The flags live in the block's mask byte: they survive setting parts,
// copies, and hold a block of their own when every part is empty.
TEST(PartitionStringsTest, FlagsRideInTheMaskByte) {
  PartitionStrings s;
  s.set_flag(PartitionStrings::kHasIncrementalStats, true);
  EXPECT_TRUE(s.flag(PartitionStrings::kHasIncrementalStats));
  EXPECT_FALSE(s.flag(PartitionStrings::kHmsHasLocation));
  EXPECT_EQ(s.HeapBytes(), 2u);  // T and the mask
  s.Set({{PartitionStrings::kName, "k=1"}, {PartitionStrings::kStats, "zz"}},
        {{PartitionStrings::kHmsHasLocation, true}});
  const PartitionStrings copy = s;
  EXPECT_TRUE(copy.flag(PartitionStrings::kHasIncrementalStats));
  EXPECT_TRUE(copy.flag(PartitionStrings::kHmsHasLocation));
  EXPECT_EQ(copy.Get(PartitionStrings::kName), "k=1");
  EXPECT_EQ(copy.Get(PartitionStrings::kStats), "zz");
  s.set_flag(PartitionStrings::kHasIncrementalStats, false);
  EXPECT_NE(s, copy);
  EXPECT_EQ(s.Get(PartitionStrings::kStats), "zz");
  s.Set({{PartitionStrings::kName, ""}, {PartitionStrings::kStats, ""}},
        {{PartitionStrings::kHmsHasLocation, false}});
  EXPECT_EQ(s.HeapBytes(), 0u);
}

// A partition is one allocation of at most 72 bytes (an 80-byte malloc
// chunk): its reference count sits in its own padding, and a copy is a new
// object whose count starts at zero.
TEST(PartitionStateTest, IsOneSmallAllocationWithItsOwnCount) {
  EXPECT_LE(sizeof(PartitionState), 72u);
  EXPECT_EQ(sizeof(PartitionPtr), sizeof(void*));
  MutablePartitionPtr p = NewPartition();
  p->set_name("k=1");
  PartitionPtr a = p;
  PartitionPtr b = a;
  MutablePartitionPtr copy = NewPartition(*b);
  EXPECT_NE(copy.get(), p.get());
  EXPECT_TRUE(SameContent(*copy, *p));
  p.reset();
  a.reset();
  EXPECT_EQ(b->name(), "k=1");  // still held by b
  b.reset();
  EXPECT_EQ(copy->name(), "k=1");
}

TEST(CompactStringTest, MapKeepsPairsInKeyOrder) {
  const std::map<std::string, std::string> m = {
      {"numRows", "10"}, {"transient_lastDdlTime", "1700000000"}, {"", ""}, {std::string(200, 'k'), "v"}};
  const std::string enc = CompactStringMap::Encode(m);
  CompactStringMap c(enc);
  EXPECT_EQ(c.size(), m.size());
  EXPECT_EQ(c.ToMap(), m);
  EXPECT_EQ(c.Find("numRows").value_or("?"), "10");
  EXPECT_FALSE(c.Find("absent").has_value());
  EXPECT_EQ(CompactStringMap(CompactStringMap::Encode(m)), c);
  const std::string other = CompactStringMap::Encode({{"numRows", "11"}});
  EXPECT_NE(CompactStringMap(other), c);
  EXPECT_TRUE(CompactStringMap().empty());
  EXPECT_TRUE(CompactStringMap::Encode({}).empty());
  EXPECT_EQ(CompactStringMap().size(), 0u);
}

// Bytes that are not an encoding (cut short, a key index out of range, a
// length past the end) read as the pairs before the damage, never past the
// end.
TEST(CompactStringTest, MapReadsDamagedBytesSafely) {
  const std::string enc = CompactStringMap::Encode(
      {{"numRows", "10"}, {"zzz", "last"}, {"transient_lastDdlTime", "1700000000"}});
  for (size_t n = 0; n < enc.size(); ++n) {
    const std::string cut = enc.substr(0, n);
    const CompactStringMap c(cut);
    EXPECT_LT(c.ToMap().size(), 3u) << n;
  }
  const std::string bad_index = std::string("\x01\x7f\x00", 3);
  EXPECT_TRUE(CompactStringMap(bad_index).ToMap().empty());
  const std::string long_key = std::string("\x01\x40" "ab", 4);
  EXPECT_TRUE(CompactStringMap(long_key).ToMap().empty());
}

// Common parameter names are stored as an index, others as written; both
// come back the same, in key order.
TEST(CompactStringTest, MapStoresCommonKeysAsIndexes) {
  const std::map<std::string, std::string> common = {{"numRows", "1000"},
                                                     {"transient_lastDdlTime", "1700000000"}};
  const std::string common_enc = CompactStringMap::Encode(common);
  const CompactStringMap c(common_enc);
  EXPECT_EQ(c.ToMap(), common);
  // Count 1, then per pair a 1-byte key, a 1-byte value length, the value.
  EXPECT_EQ(c.encoded().size(), 1u + (1 + 1 + 4) + (1 + 1 + 10));
  const std::map<std::string, std::string> mixed = {
      {"COLUMN_STATS_ACCURATE", "{\"BASIC_STATS\":\"true\"}"},
      {"numRow", "near miss"},
      {"numRows", "1"},
      {"numRowsX", "near miss"},
      {"totalSize", ""},
      {"zzz", "last"}};
  const std::string mixed_enc = CompactStringMap::Encode(mixed);
  const CompactStringMap m(mixed_enc);
  EXPECT_EQ(m.ToMap(), mixed);
  EXPECT_EQ(m.size(), mixed.size());
  EXPECT_EQ(m.Find("numRows").value_or("?"), "1");
  EXPECT_EQ(m.Find("numRow").value_or("?"), "near miss");
  EXPECT_EQ(m.Find("totalSize").value_or("?"), "");
  EXPECT_FALSE(m.Find("numFiles").has_value());
  EXPECT_NE(m, c);
}

// Values the name spells come from the name; others (an empty value, named
// as the default partition; a count the name does not match) are kept.
TEST(PartitionStateTest, ValuesComeFromTheNameOrAreKept) {
  struct Case {
    std::string name;
    std::vector<std::string> values;
    bool derived;
  };
  const std::vector<Case> cases = {
      {"", {}, true},
      {"year=2024/month=01", {"2024", "01"}, true},
      {"k=a%2Fb%3Dc", {"a/b=c"}, true},
      {"k=__HIVE_DEFAULT_PARTITION__", {""}, false},
      {"k=__HIVE_DEFAULT_PARTITION__", {"__HIVE_DEFAULT_PARTITION__"}, true},
      {"k=x", {}, false},
      {"k=x", {"x", ""}, false},
      {"", {"", std::string(300, 'v')}, false},
  };
  for (const Case& c : cases) {
    PartitionState p;
    p.set_name(c.name);
    p.set_values(c.values);
    EXPECT_EQ(p.values(), c.values) << c.name;
    PartitionState name_only;  // nothing stored for the values
    name_only.set_name(c.name);
    // Stored values are content of their own; derived ones are not there.
    EXPECT_EQ(SameContent(p, name_only), c.derived) << c.name;
    PartitionState q = p;
    EXPECT_EQ(q.values(), c.values) << c.name;
    EXPECT_TRUE(SameContent(p, q)) << c.name;
  }
  PartitionState empty_value, default_value;
  empty_value.set_name("k=__HIVE_DEFAULT_PARTITION__");
  default_value.set_name("k=__HIVE_DEFAULT_PARTITION__");
  empty_value.set_values({""});
  default_value.set_values({"__HIVE_DEFAULT_PARTITION__"});
  EXPECT_FALSE(SameContent(empty_value, default_value));
  // Setting values again after a rename follows the new name.
  empty_value.set_name("k=y");
  empty_value.set_values({"y"});
  EXPECT_EQ(empty_value.values(), std::vector<std::string>{"y"});
  EXPECT_TRUE(SameContent(empty_value, [] {
    PartitionState y;
    y.set_name("k=y");
    y.set_values({"y"});
    return y;
  }()));
}

// The name index holds each partition under its own name; replacing a
// partition replaces its key too, so the index never views freed names.
TEST(PartitionStateTest, NameIndexFindsReplacesAndErases) {
  PartitionNameIndex index;
  auto make = [](int64_t id, const std::string& name) {
    auto p = NewPartition();
    p->id = id;
    p->set_name(name);
    return p;
  };
  index.Put(make(1, "year=2024/month=01/day=01"));
  index.Put(make(2, "year=2024/month=01/day=02"));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Find("year=2024/month=01/day=01")->id, 1);
  // The replaced partition is freed here: only the index held it.
  index.Put(make(3, "year=2024/month=01/day=01"));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Find(std::string("year=2024/month=01/day=01"))->id, 3);
  EXPECT_EQ((*index.map().begin())->name(), "year=2024/month=01/day=01");
  EXPECT_EQ(sizeof(PartitionNameIndex::Map::value_type), sizeof(void*));  // the pointer alone
  EXPECT_EQ(index.Get("year=2024/month=01/day=02")->id, 2);
  EXPECT_EQ(index.Find("year=2024/month=01/day=03"), nullptr);
  EXPECT_EQ(index.Get("year=2024/month=01/day=03"), nullptr);
  PartitionNameIndex copy = index;
  index.Erase("year=2024/month=01/day=02");
  EXPECT_FALSE(index.Contains("year=2024/month=01/day=02"));
  EXPECT_TRUE(copy.Contains("year=2024/month=01/day=02"));
  index.Clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(copy.size(), 2u);
}

}  // namespace
}  // namespace ics::catalog
