#include "catalogd/loader/partition_location.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "catalogd/catalog/table_state.h"

namespace ics::catalog {
namespace {

// A partition named `name` whose metastore location is `location`, of a
// table at `table_location`.
MutablePartitionPtr Partition(const std::string& name, const std::string& location,
                              const std::string& table_location, PartitionShapes* shapes) {
  MutablePartitionPtr p = NewPartition();
  p->set_name(name);
  hive::Partition hms;
  hms.sd.location = location;
  p->SetHms(std::move(hms), location, table_location, shapes);
  return p;
}

// The collector gives what splitting every location gives: the distinct
// prefixes in the order first seen, after those already held, whether a
// location is derived from the table's (the shortcut) or stored.
TEST(PrefixCollectorTest, SameAsSplittingEveryLocation) {
  TableState table;
  table.hms.sd.location = "/w/t";
  PartitionShapes shapes(table);
  std::vector<MutablePartitionPtr> parts;
  parts.push_back(Partition("a=1/b=1", "/w/t/a=1/b=1", "/w/t", &shapes));
  parts.push_back(Partition("a=1/b=2", "/w/t/a=1/b=2", "/w/t", &shapes));
  parts.push_back(Partition("a=1/b=3", "/else/a=1/b=3", "/w/t", &shapes));
  parts.push_back(Partition("a=2/b=1", "/w/t/a=2/b=1", "/w/t", &shapes));
  parts.push_back(Partition("a=3/b=3", "/w/t/a=3/b=3", "/w/t/", nullptr));  // base "/w/t/"
  parts.push_back(Partition("a=9/b=x/y", "/w/t/a=9/b=x/y", "/w/t", &shapes));  // 3 parts
  parts.push_back(Partition("a=4/b=4", "/w/t/a=4/b=4", "/w/t", &shapes));
  parts.push_back(Partition("a=5/b=5", "/w/u/a=5/b=5", "/w/u", nullptr));  // another base
  parts.push_back(Partition("a=6/b=6", "/w/t/a=6/b=6", "/w/t", &shapes));
  ASSERT_EQ(parts[0]->location_base(), "/w/t");
  ASSERT_TRUE(parts[2]->location_base().empty());  // stored
  for (const std::vector<std::string>& held :
       {std::vector<std::string>{}, std::vector<std::string>{"/else", "/old"}}) {
    std::vector<std::string> expected = held;
    std::vector<std::string> got = held;
    PrefixCollector collector(2, &got);
    for (const MutablePartitionPtr& p : parts) {
      EXPECT_EQ(p->location(), p->location_base().empty()
                                   ? p->location()
                                   : std::string(p->location_base()) +
                                         (p->location_base().back() == '/' ? "" : "/") +
                                         std::string(p->name()));
      const std::string prefix = SplitPartitionLocation(p->location(), 2).prefix;
      if (std::find(expected.begin(), expected.end(), prefix) == expected.end()) {
        expected.push_back(prefix);
      }
      collector.Add(*p);
    }
    EXPECT_EQ(got, expected);
  }
  std::vector<std::string> first;
  PrefixCollector collector(2, &first);
  for (const MutablePartitionPtr& p : parts) collector.Add(*p);
  EXPECT_EQ(first, (std::vector<std::string>{"/w/t", "/else", "/w/t/a=9", "/w/u"}));
}

}  // namespace
}  // namespace ics::catalog
