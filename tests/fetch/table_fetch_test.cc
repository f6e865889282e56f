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
  EXPECT_EQ(all.info.partitions.size(), 5u);

  auto exact = BuildPartialTableInfo(*t, sel, 20);  // total == cap: not truncated
  EXPECT_FALSE(exact.truncated);
  EXPECT_EQ(exact.info.partitions.size(), 5u);

  auto capped = BuildPartialTableInfo(*t, sel, 9);
  EXPECT_TRUE(capped.truncated);
  EXPECT_EQ(capped.num_partitions_selected, 5);
  EXPECT_EQ(capped.num_file_descs, 8);
  EXPECT_EQ(capped.info.partitions.size(), 2u);
  // Table-wide fields come with every capped answer too.
  EXPECT_EQ(capped.info.network_addresses.size(), 1u);

  auto tiny = BuildPartialTableInfo(*t, sel, 1);  // first partition alone exceeds
  EXPECT_TRUE(tiny.truncated);
  EXPECT_EQ(tiny.info.partitions.size(), 1u);
  EXPECT_EQ(tiny.num_file_descs, 4);
}

TEST(TableFetchTest, DuplicateIdsAreKept) {
  auto t = testing::MakeTable(testing::TableSpec{});
  impala::TTableInfoSelector sel;
  sel.want_partition_names = true;
  sel.__set_partition_ids({101, 101});
  auto r = BuildPartialTableInfo(*t, sel, 0);
  ASSERT_EQ(r.info.partitions.size(), 2u);
  EXPECT_EQ(r.info.partitions[0].name, "day=1");
  EXPECT_EQ(r.info.partitions[1].name, "day=1");
}

TEST(TableFetchTest, UnpartitionedAndEmptyTables) {
  testing::TableSpec spec;
  spec.num_partitions = 0;
  auto t = testing::MakeTable(spec);
  impala::TTableInfoSelector sel;
  sel.want_partition_files = true;
  auto r = BuildPartialTableInfo(*t, sel, 10);
  EXPECT_TRUE(r.info.__isset.partitions);
  EXPECT_TRUE(r.info.partitions.empty());
  EXPECT_FALSE(r.truncated);

  sel.__set_partition_ids({1});
  EXPECT_EQ(BuildPartialTableInfo(*t, sel, 10).lookup_status,
            CatalogLookupStatus::PARTITION_NOT_FOUND);
}

}  // namespace
}  // namespace ics::catalog
