// ForEachTopicEntry: entries decoded one at a time into a reused object are
// each equal to the same entry decoded on its own (nothing of one entry
// leaks into the next), corrupt entries are skipped, and the key filters
// pick the CATALOG entry or everything else.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/codec/catalog_topic.h"
#include "coordinator-sim/catalog/catalog_util.h"

namespace ics::coord {
namespace {

using impala::TCatalogObject;
using impala::TCatalogObjectType;

TCatalogObject Table(const std::string& name) {
  TCatalogObject o;
  o.type = TCatalogObjectType::TABLE;
  o.catalog_version = 10;
  o.__set_last_modified_time_ms(1234);
  o.table.db_name = "db";
  o.table.tbl_name = name;
  o.table.__isset.hdfs_table = true;
  o.table.hdfs_table.hdfsBaseDir = "/warehouse/" + name;
  o.table.hdfs_table.colNames = {"a", "b"};
  o.__isset.table = true;
  return o;
}

TCatalogObject Partition(int64_t id) {
  TCatalogObject o;
  o.type = TCatalogObjectType::HDFS_PARTITION;
  o.catalog_version = 11;
  o.hdfs_partition.db_name = "db";
  o.hdfs_partition.tbl_name = "t";
  o.hdfs_partition.__set_id(id);
  o.__isset.hdfs_partition = true;
  return o;
}

TCatalogObject Catalog() {
  TCatalogObject o;
  o.type = TCatalogObjectType::CATALOG;
  o.catalog_version = 12;
  o.catalog.catalog_service_id.hi = 7;
  o.__isset.catalog = true;
  return o;
}

impala::TTopicItem Item(const std::string& key, const std::string& value, bool deleted = false) {
  impala::TTopicItem item;
  item.key = key;
  item.value = value;
  item.deleted = deleted;
  return item;
}

impala::TTopicItem Entry(const TCatalogObject& o, bool deleted = false) {
  const CatalogTopicFormat format;
  return Item(kInvalidationPrefix + CatalogTopicKey(o), EncodeCatalogTopicValue(o, format).value(),
              deleted);
}

struct Seen {
  TCatalogObject obj;
  bool deleted;
};

std::vector<Seen> Visit(const impala::TTopicDelta& delta, TopicEntries which) {
  std::vector<Seen> seen;
  ForEachTopicEntry(delta, kInvalidationPrefix, CatalogTopicFormat(), which,
                    [&](const TCatalogObject& o, bool deleted) { seen.push_back({o, deleted}); });
  return seen;
}

TEST(ForEachTopicEntryTest, EachEntryAsIfDecodedAlone) {
  impala::TTopicDelta delta;
  const std::vector<TCatalogObject> objs = {Table("t"), Partition(1), Partition(2), Table("u")};
  delta.topic_entries.push_back(Entry(objs[0]));
  delta.topic_entries.push_back(Entry(objs[1], /*deleted=*/true));
  delta.topic_entries.push_back(Item("2:TABLE:db.broken", "not a catalog object"));
  delta.topic_entries.push_back(Entry(objs[2]));
  delta.topic_entries.push_back(Item("1:TABLE:db.other", "full-object entry, other prefix"));
  delta.topic_entries.push_back(Entry(objs[3]));
  delta.topic_entries.push_back(Entry(Catalog()));

  const std::vector<Seen> rest = Visit(delta, TopicEntries::kAllButCatalogService);
  ASSERT_EQ(rest.size(), objs.size());
  for (size_t i = 0; i < objs.size(); ++i) {
    TCatalogObject alone;
    ASSERT_TRUE(
        DecodeCatalogTopicValue(EncodeCatalogTopicValue(objs[i], CatalogTopicFormat()).value(),
                                CatalogTopicFormat(), &alone)
            .ok());
    EXPECT_EQ(rest[i].obj, alone) << i;
    EXPECT_EQ(rest[i].obj, objs[i]) << i;
    EXPECT_EQ(rest[i].deleted, i == 1) << i;
  }
  // What the table before set does not reach the partition after it.
  EXPECT_FALSE(rest[1].obj.__isset.table);
  EXPECT_FALSE(rest[1].obj.__isset.last_modified_time_ms);
  EXPECT_TRUE(rest[1].obj.table.tbl_name.empty());

  const std::vector<Seen> catalog = Visit(delta, TopicEntries::kCatalogService);
  ASSERT_EQ(catalog.size(), 1u);
  EXPECT_EQ(catalog[0].obj, Catalog());
}

}  // namespace
}  // namespace ics::coord
