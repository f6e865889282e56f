// PartitionList: the coordinator's id -> name list with its index by value.
#include "coordinator-sim/catalog/partition_list.h"

#include <gtest/gtest.h>

#include <random>

#include "common/hive/partition_name.h"
#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"

namespace ics::coord {
namespace {

impala::TColumn Key(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = ParseHiveType(type).value();
  return c;
}

TEST(PartitionListTest, FindsByValueAsPartitionValuesEqualDoes) {
  PartitionList l({Key("year", "int"), Key("region", "string")});
  l.Add(1, "year=2020/region=eu");
  l.Add(2, "year=02020/region=eu");  // the same value, written another way (via HMS)
  l.Add(3, "year=2021/region=EU");
  l.Add(4, "year=__HIVE_DEFAULT_PARTITION__/region=a%2Fb");
  l.Add(5, "broken");  // not two values: listed, never found
  EXPECT_EQ(l.size(), 5u);
  EXPECT_EQ(l.FindByValues({"2020", "eu"}), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(l.FindByValues({"+2020.0", "eu"}), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(l.FindByValues({"2021", "eu"}).empty());  // strings compare byte for byte
  EXPECT_EQ(l.FindByValues({"2021", "EU"}), (std::vector<int64_t>{3}));
  EXPECT_EQ(l.FindByValues({kDefaultPartitionName, "a/b"}), (std::vector<int64_t>{4}));
  EXPECT_TRUE(l.FindByValues({"2020"}).empty());
  ASSERT_NE(l.Name(5), nullptr);
  EXPECT_EQ(*l.Name(5), "broken");

  EXPECT_TRUE(l.Erase(1));
  EXPECT_FALSE(l.Erase(1));
  EXPECT_EQ(l.FindByValues({"2020", "eu"}), (std::vector<int64_t>{2}));
  l.Add(2, "year=2022/region=eu");  // renamed: the old value is no longer indexed
  EXPECT_TRUE(l.FindByValues({"2020", "eu"}).empty());
  EXPECT_EQ(l.FindByValues({"2022", "eu"}), (std::vector<int64_t>{2}));
}

TEST(PartitionListTest, CopiesAreIndependentAndAgreeWithAScan) {
  const std::vector<impala::TColumn> keys = {Key("d", "int"), Key("h", "int")};
  PartitionList a(keys);
  for (int64_t i = 0; i < 5000; ++i) {
    a.Add(i, "d=" + std::to_string(i / 24) + "/h=" + std::to_string(i % 24));
  }
  const int64_t bytes = a.EstimateBytes();
  PartitionList b = a;
  b.Erase(100);
  b.Add(9000, "d=9000/h=0");
  EXPECT_EQ(a.size(), 5000u);
  EXPECT_EQ(b.size(), 5000u);
  EXPECT_EQ(a.FindByValues({"4", "4"}), (std::vector<int64_t>{100}));
  EXPECT_TRUE(b.FindByValues({"4", "4"}).empty());
  EXPECT_TRUE(a.FindByValues({"9000", "0"}).empty());
  EXPECT_EQ(b.FindByValues({"9000", "00"}), (std::vector<int64_t>{9000}));
  EXPECT_EQ(a.EstimateBytes(), bytes);
  b.Erase(9000);
  b.Add(100, "d=4/h=4");
  EXPECT_EQ(b.EstimateBytes(), bytes);
  EXPECT_EQ(b.ToMap(), a.ToMap());

  // Random lookups agree with a scan using PartitionValuesEqual.
  std::mt19937 rng(3);
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::string> want = {std::to_string(rng() % 250), std::to_string(rng() % 30)};
    std::vector<int64_t> scan;
    for (const auto& [id, name] : a) {
      const std::vector<std::string> v = PartitionValuesFromName(name);
      if (PartitionValuesEqual(keys[0].columnType, v[0], want[0]) &&
          PartitionValuesEqual(keys[1].columnType, v[1], want[1])) {
        scan.push_back(id);
      }
    }
    EXPECT_EQ(a.FindByValues(want), scan) << want[0] << "/" << want[1];
  }
}

TEST(PartitionListTest, BuiltAtOnceEqualsBuiltOneByOne) {
  const std::vector<impala::TColumn> keys = {Key("d", "int"), Key("s", "string")};
  std::mt19937 rng(5);
  std::vector<std::pair<int64_t, std::string>> names;
  for (int i = 0; i < 3000; ++i) {
    // Ids out of order and repeated (a later name renames), values out of
    // id order, some names that match no key count.
    const int64_t id = static_cast<int64_t>(rng() % 2500);
    std::string name = "d=" + std::to_string(rng() % 200) + "/s=v" + std::to_string(rng() % 7);
    if (rng() % 50 == 0) name = "d=" + std::to_string(rng() % 200);
    names.emplace_back(id, std::move(name));
  }
  PartitionList one(keys);
  for (const auto& [id, name] : names) one.Add(id, name);
  const PartitionList all(keys, names);
  EXPECT_EQ(all.ToMap(), one.ToMap());
  EXPECT_EQ(all.size(), one.size());
  EXPECT_EQ(all.EstimateBytes(), one.EstimateBytes());
  for (int i = 0; i < 400; ++i) {
    const std::vector<std::string> want = {std::to_string(rng() % 210), "v" + std::to_string(rng() % 8)};
    EXPECT_EQ(all.FindByValues(want), one.FindByValues(want)) << want[0] << "/" << want[1];
  }
  // It goes on like any list.
  PartitionList next = all;
  next.Add(9000, "d=1/s=v1");
  next.Erase(names.front().first);
  one.Add(9000, "d=1/s=v1");
  one.Erase(names.front().first);
  EXPECT_EQ(next.ToMap(), one.ToMap());
  EXPECT_EQ(next.FindByValues({"1", "v1"}), one.FindByValues({"1", "v1"}));
  EXPECT_EQ(next.EstimateBytes(), one.EstimateBytes());
  EXPECT_EQ(PartitionList(keys, {}).size(), 0u);
}

TEST(PartitionListTest, UnpartitionedTableAndNoKeys) {
  PartitionList unpartitioned(std::vector<impala::TColumn>{});
  unpartitioned.Add(7, "");
  EXPECT_EQ(unpartitioned.FindByValues({}), (std::vector<int64_t>{7}));
  PartitionList no_keys;  // key types unknown: nothing is found by value
  no_keys.Add(1, "a=1");
  EXPECT_TRUE(no_keys.FindByValues({"1"}).empty());
  no_keys.Clear();
  EXPECT_TRUE(no_keys.empty());
  EXPECT_EQ(no_keys.EstimateBytes(), 0);
}

}  // namespace
}  // namespace ics::coord
