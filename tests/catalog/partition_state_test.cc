// PartitionState's HMS parts: the shape shared between partitions, the
// directory derived from the table's when it is the default one, and the
// HMS object put back together.
#include <gtest/gtest.h>

#include "catalogd/catalog/compact_string.h"
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

std::shared_ptr<PartitionState> MakeState(const std::string& hms_location,
                                          const std::string& dir, const std::string& table_dir,
                                          PartitionShapes* shapes) {
  auto p = std::make_shared<PartitionState>();
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
  auto other = std::make_shared<PartitionState>();
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

TEST(CompactStringTest, HoldsOneBlockAndCopiesDeeply) {
  CompactString none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.view(), "");
  EXPECT_EQ(none.HeapBytes(), 0u);
  EXPECT_EQ(sizeof(CompactString), sizeof(void*));
  const std::string text = "/some/custom/partition/location=with/a/long/path";
  CompactString s(text);
  EXPECT_EQ(s.view(), text);
  EXPECT_EQ(s.size(), text.size());
  EXPECT_EQ(s.HeapBytes(), 4 + text.size());
  CompactString copy = s;
  EXPECT_EQ(copy, s);
  EXPECT_NE(copy.view().data(), s.view().data());
  CompactString moved = std::move(copy);
  EXPECT_EQ(moved.view(), text);
  EXPECT_TRUE(CompactString("").empty());
  EXPECT_NE(CompactString("a"), CompactString("b"));
}

TEST(CompactStringTest, MapKeepsPairsInKeyOrder) {
  const std::map<std::string, std::string> m = {
      {"numRows", "10"}, {"transient_lastDdlTime", "1700000000"}, {"", ""}, {std::string(200, 'k'), "v"}};
  CompactStringMap c(m);
  EXPECT_EQ(c.size(), m.size());
  EXPECT_EQ(c.ToMap(), m);
  EXPECT_EQ(c.Find("numRows").value_or("?"), "10");
  EXPECT_FALSE(c.Find("absent").has_value());
  EXPECT_EQ(CompactStringMap(m), c);
  EXPECT_NE(CompactStringMap({{"numRows", "11"}}), c);
  EXPECT_TRUE(CompactStringMap().empty());
  EXPECT_EQ(CompactStringMap().HeapBytes(), 0u);
  EXPECT_EQ(CompactStringMap().size(), 0u);
}

// Common parameter names are stored as an index, others as written; both
// come back the same, in key order.
TEST(CompactStringTest, MapStoresCommonKeysAsIndexes) {
  const std::map<std::string, std::string> common = {{"numRows", "1000"},
                                                     {"transient_lastDdlTime", "1700000000"}};
  const CompactStringMap c(common);
  EXPECT_EQ(c.ToMap(), common);
  // Length prefix 4, count 1, then per pair a 1-byte key, a 1-byte value length, the value.
  EXPECT_EQ(c.HeapBytes(), 4u + 1u + (1 + 1 + 4) + (1 + 1 + 10));
  const std::map<std::string, std::string> mixed = {
      {"COLUMN_STATS_ACCURATE", "{\"BASIC_STATS\":\"true\"}"},
      {"numRow", "near miss"},
      {"numRows", "1"},
      {"numRowsX", "near miss"},
      {"totalSize", ""},
      {"zzz", "last"}};
  const CompactStringMap m(mixed);
  EXPECT_EQ(m.ToMap(), mixed);
  EXPECT_EQ(m.size(), mixed.size());
  EXPECT_EQ(m.Find("numRows").value_or("?"), "1");
  EXPECT_EQ(m.Find("numRow").value_or("?"), "near miss");
  EXPECT_EQ(m.Find("totalSize").value_or("?"), "");
  EXPECT_FALSE(m.Find("numFiles").has_value());
  EXPECT_NE(m, CompactStringMap(common));
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
    EXPECT_EQ(p.EstimateBytes() == name_only.EstimateBytes(), c.derived) << c.name;
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
    auto p = std::make_shared<PartitionState>();
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
  EXPECT_EQ(index.map().begin()->first, "year=2024/month=01/day=01");
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
