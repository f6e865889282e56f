// BuildPartialTableInfo on its own: selection bookkeeping and the cap.
#include "catalogd/fetch/table_fetch.h"

#include <gtest/gtest.h>

#include "tests/fetch/fetch_test_util.h"

namespace ics::catalog {
namespace {

using impala::CatalogLookupStatus;

TEST(TableFetchTest, CapBookkeeping) {
  testing::TableSpec spec;
  spec.num_partitions = 5;
  spec.files_per_partition = 4;  // 20 descriptors
  auto t = testing::MakeTable(spec);
  impala::TTableInfoSelector sel;
  sel.want_partition_files = true;

  auto all = BuildPartialTableInfo(*t, sel, 0);  // cap disabled
  EXPECT_EQ(all.lookup_status, CatalogLookupStatus::OK);
  EXPECT_EQ(all.num_partitions_selected, 5);
  EXPECT_EQ(all.num_file_descs, 20);
  EXPECT_FALSE(all.truncated);
  EXPECT_EQ(all.selected.size(), 5u);

  auto exact = BuildPartialTableInfo(*t, sel, 20);  // total == cap: not truncated
  EXPECT_FALSE(exact.truncated);
  EXPECT_EQ(exact.selected.size(), 5u);

  auto capped = BuildPartialTableInfo(*t, sel, 9);
  EXPECT_TRUE(capped.truncated);
  EXPECT_EQ(capped.num_partitions_selected, 5);
  EXPECT_EQ(capped.num_file_descs, 8);
  EXPECT_EQ(capped.selected.size(), 2u);
  // Table-wide fields come with every capped answer too.
  EXPECT_EQ(capped.info.network_addresses.size(), 1u);

  auto tiny = BuildPartialTableInfo(*t, sel, 1);  // first partition alone exceeds
  EXPECT_TRUE(tiny.truncated);
  EXPECT_EQ(tiny.selected.size(), 1u);
  EXPECT_EQ(tiny.num_file_descs, 4);
}

TEST(TableFetchTest, DuplicateIdsAreAnsweredOnceInFirstSeenOrder) {
  auto t = testing::MakeTable(testing::TableSpec{});
  impala::TTableInfoSelector sel;
  sel.want_partition_names = true;
  sel.__set_partition_ids({101, 101});
  auto r = BuildPartialTableInfo(*t, sel, 0);
  ASSERT_EQ(r.selected.size(), 1u);
  EXPECT_EQ(r.selected[0]->name(), "day=1");

  sel.__set_partition_ids({102, 101, 102, 100, 101, 102});
  r = BuildPartialTableInfo(*t, sel, 0);
  ASSERT_EQ(r.selected.size(), 3u);
  EXPECT_EQ(r.selected[0]->id, 102);
  EXPECT_EQ(r.selected[1]->id, 101);
  EXPECT_EQ(r.selected[2]->id, 100);
  EXPECT_EQ(r.num_partitions_selected, 3);
}

TEST(TableFetchTest, AMillionCopiesOfOneIdGiveOnePartition) {
  auto t = testing::MakeTable(testing::TableSpec{});
  impala::TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.__set_partition_ids(std::vector<int64_t>(1'000'000, 101));
  auto r = BuildPartialTableInfo(*t, sel, 0);
  ASSERT_EQ(r.lookup_status, CatalogLookupStatus::OK);
  ASSERT_EQ(r.selected.size(), 1u);
  EXPECT_EQ(r.selected[0]->id, 101);
  EXPECT_EQ(r.num_file_descs, 3);
  EXPECT_FALSE(r.truncated);

  // A repeated id after an unknown one still fails the whole request.
  sel.__set_partition_ids({101, 101, 999, 101});
  EXPECT_EQ(BuildPartialTableInfo(*t, sel, 0).lookup_status,
            CatalogLookupStatus::PARTITION_NOT_FOUND);
}

TEST(TableFetchTest, DuplicateColumnNamesAreAnsweredOnce) {
  auto t = testing::MakeTable(testing::TableSpec{});
  impala::TTableInfoSelector sel;
  std::vector<std::string> names(100'000, "id");
  names.push_back("DAY");
  names.push_back("Id");
  names.push_back("day");
  sel.__set_want_stats_for_column_names(names);
  auto r = BuildPartialTableInfo(*t, sel, 0);
  ASSERT_EQ(r.info.column_stats.size(), 2u);
  EXPECT_EQ(r.info.column_stats[0].colName, "id");
  EXPECT_EQ(r.info.column_stats[1].colName, "day");
}

TEST(TableFetchTest, UnpartitionedAndEmptyTables) {
  testing::TableSpec spec;
  spec.num_partitions = 0;
  auto t = testing::MakeTable(spec);
  impala::TTableInfoSelector sel;
  sel.want_partition_files = true;
  auto r = BuildPartialTableInfo(*t, sel, 10);
  EXPECT_TRUE(r.has_partitions);
  EXPECT_TRUE(r.selected.empty());
  EXPECT_FALSE(r.info.__isset.partitions);  // rendered only by the answer's writer
  EXPECT_FALSE(r.truncated);

  sel.__set_partition_ids({1});
  EXPECT_EQ(BuildPartialTableInfo(*t, sel, 10).lookup_status,
            CatalogLookupStatus::PARTITION_NOT_FOUND);
}

}  // namespace
}  // namespace ics::catalog
