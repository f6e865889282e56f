// ForEachTopicEntry: entries decoded one at a time into a reused object are
// each equal to the same entry decoded on its own (nothing of one entry
// leaks into the next), corrupt entries are skipped, and the key filters
// pick the CATALOG entry or everything else.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/codec/catalog_topic.h"
#include "common/codec/thrift_serde.h"
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

// Every member of `o` on the wire, marked as set or not: two objects with
// the same bytes here hold the same values in every member, also in those
// a reader ignores because they are not marked.
std::string EveryMember(TCatalogObject o) {
  std::memset(static_cast<void*>(&o.__isset), 0xff, sizeof(o.__isset));
  std::memset(static_cast<void*>(&o.table.__isset), 0xff, sizeof(o.table.__isset));
  return SerializeThrift(o).value();
}

// A table entry with every optional table member set to a value other
// than its default, as a full (not minimal) topic entry has.
TCatalogObject FullTable() {
  TCatalogObject o = Table("full");
  impala::TTable& t = o.table;
  t.__set_load_status(impala::TStatus());
  t.load_status.status_code = impala::TErrorCode::GENERAL;
  t.__set_access_level(impala::TAccessLevel::READ_ONLY);
  t.__set_columns({impala::TColumn()});
  t.columns[0].columnName = "c";
  t.__set_clustering_columns({impala::TColumn()});
  t.__set_virtual_columns({impala::TColumn()});
  t.__set_table_stats(impala::TTableStats());
  t.table_stats.num_rows = 5;
  t.__set_table_type(impala::TTableType::VIEW);
  t.metastore_table.tableName = "full";
  t.__isset.metastore_table = true;
  t.data_source_table.init_string = "init";
  t.__isset.data_source_table = true;
  t.__set_storage_metadata_load_time_ns(9);
  t.__set_tbl_comment("comment");
  t.__isset.system_table = true;
  o.__set_db(impala::TDatabase());
  o.db.db_name = "db";
  o.__set_fn(impala::TFunction());
  o.fn.name.function_name = "f";
  o.__set_hdfs_partition(impala::THdfsPartition());
  o.hdfs_partition.partition_name = "p=1";
  o.__set_base_catalog_version(3);
  return o;
}

TEST(ResetDecodedTest, EveryMemberBackToDefault) {
  TCatalogObject full = FullTable();
  // The fixture sets every optional table member: one the IDL adds must be
  // set here too (and reset by ResetDecoded), or this fails.
  TCatalogObject marked = full;
  std::memset(static_cast<void*>(&marked.table.__isset), 0xff, sizeof(marked.table.__isset));
  ASSERT_EQ(SerializeThrift(full).value(), SerializeThrift(marked).value());

  TCatalogObject decoded;
  ASSERT_TRUE(DecodeCatalogTopicValue(EncodeCatalogTopicValue(full, CatalogTopicFormat()).value(),
                                      CatalogTopicFormat(), &decoded)
                  .ok());
  ASSERT_EQ(decoded, full);
  ResetDecoded(&decoded, /*decoded=*/true);
  EXPECT_EQ(EveryMember(decoded), EveryMember(TCatalogObject()));

  // A failed decode may fill members it never marks: all of them go.
  TCatalogObject partial = full;
  partial.__isset = impala::_TCatalogObject__isset();
  partial.table.__isset = impala::_TTable__isset();
  ResetDecoded(&partial, /*decoded=*/false);
  EXPECT_EQ(EveryMember(partial), EveryMember(TCatalogObject()));
}

TEST(ForEachTopicEntryTest, ACallbackThatThrowsLeavesNothingBehind) {
  impala::TTopicDelta first;
  first.topic_entries.push_back(Entry(Table("t")));
  EXPECT_THROW(ForEachTopicEntry(first, kInvalidationPrefix, CatalogTopicFormat(),
                                 TopicEntries::kAllButCatalogService,
                                 [](const TCatalogObject&, bool) { throw std::runtime_error("x"); }),
               std::runtime_error);
  // The next iteration on this thread sees only its own entry.
  impala::TTopicDelta second;
  second.topic_entries.push_back(Entry(Partition(3)));
  const std::vector<Seen> seen = Visit(second, TopicEntries::kAllButCatalogService);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].obj, Partition(3));
  EXPECT_FALSE(seen[0].obj.__isset.table);
  EXPECT_TRUE(seen[0].obj.table.tbl_name.empty());
}

TEST(ForEachTopicEntryTest, NestedIterationGetsItsOwnObject) {
  impala::TTopicDelta outer;
  outer.topic_entries.push_back(Entry(Table("t")));
  outer.topic_entries.push_back(Entry(Table("u")));
  impala::TTopicDelta inner;
  inner.topic_entries.push_back(Entry(Partition(5)));
  std::vector<std::string> seen;
  ForEachTopicEntry(outer, kInvalidationPrefix, CatalogTopicFormat(),
                    TopicEntries::kAllButCatalogService, [&](const TCatalogObject& o, bool) {
                      const std::string before = o.table.tbl_name;
                      for (const Seen& s : Visit(inner, TopicEntries::kAllButCatalogService)) {
                        EXPECT_EQ(s.obj, Partition(5));
                      }
                      // The outer entry is untouched by the inner iteration.
                      EXPECT_EQ(o.table.tbl_name, before);
                      seen.push_back(o.table.tbl_name);
                    });
  EXPECT_EQ(seen, (std::vector<std::string>{"t", "u"}));
}

}  // namespace
}  // namespace ics::coord
