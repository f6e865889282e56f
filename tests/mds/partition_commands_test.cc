// The partition commands (catalogd/ops/partition_commands.h) driven with
// their domain values only — no Thrift struct — as a new door (Glue,
// BigQuery) calls them: a batch create with skip_existing and a filtered
// listing.
#include <gtest/gtest.h>

#include "catalogd/ops/partition_commands.h"
#include "tests/mds/partition_test_util.h"

namespace ics::catalog::mds::testing {
namespace {

ops::Caller TestCaller() {
  ops::Caller c;
  c.door = "DomainTest";
  c.user = "alice";
  return c;
}

ops::PartitionInput Input(std::vector<std::string> values) {
  ops::PartitionInput p;
  p.values = std::move(values);
  return p;
}

std::vector<std::vector<std::string>> ValuesOf(const std::vector<hive::Partition>& parts) {
  std::vector<std::vector<std::string>> out;
  for (const hive::Partition& p : parts) out.push_back(p.values);
  return out;
}

TEST_F(PartitionServiceTest, DomainBatchCreateSkipsExistingAndListFilters) {
  MakeSalesTable();
  const ops::Caller caller = TestCaller();

  ops::CreatePartitionsRequest create;
  create.table = {"Sales", "T"};  // names are normalized by the commands
  create.partitions = {Input({"2023", "eu", "2023-06-01"}), Input({"2024", "us", "2024-01-01"})};
  ops::PartitionInput with_params = Input({"2024", "eu", "2024-02-01"});
  with_params.parameters = std::map<std::string, std::string>{{"source", "domain"}};
  create.partitions.push_back(with_params);
  Result<ops::ChangedPartitions> first = partitions_->Create(caller, create);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->partitions.size(), 3u);
  EXPECT_EQ(first->catalog_version, catalog_->version());

  // Again, with one new partition: without skip_existing the whole batch
  // fails and changes nothing; with it only the new one is created.
  create.partitions.push_back(Input({"2025", "us", "2025-01-01"}));
  EXPECT_MDS_FAILS(partitions_->Create(caller, create), ErrorCode::kAlreadyExists);
  create.skip_existing = true;
  Result<ops::ChangedPartitions> second = partitions_->Create(caller, create);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(ValuesOf(second->partitions),
            (std::vector<std::vector<std::string>>{{"2025", "us", "2025-01-01"}}));
  EXPECT_EQ(MetastorePartitionCount("sales", "t"), 4u);

  ops::ListPartitionsRequest list;
  list.table = {"sales", "t"};
  list.filter = "year >= 2024 AND region = 'eu'";
  Result<ops::PartitionPage> page = partitions_->List(caller, list);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(ValuesOf(page->partitions),
            (std::vector<std::vector<std::string>>{{"2024", "eu", "2024-02-01"}}));
  EXPECT_EQ(page->partitions[0].parameters.at("source"), "domain");
  EXPECT_TRUE(page->next_page_token.empty());
  EXPECT_EQ(page->catalog_version, second->catalog_version);

  // Paging: one partition per page, in name order.
  list.filter = "region = 'us'";
  list.page_size = 1;
  page = partitions_->List(caller, list);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(ValuesOf(page->partitions),
            (std::vector<std::vector<std::string>>{{"2024", "us", "2024-01-01"}}));
  ASSERT_FALSE(page->next_page_token.empty());
  list.page_token = page->next_page_token;
  page = partitions_->List(caller, list);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(ValuesOf(page->partitions),
            (std::vector<std::vector<std::string>>{{"2025", "us", "2025-01-01"}}));
  EXPECT_TRUE(page->next_page_token.empty());

  // The commands' Status vocabulary: a filter that does not parse.
  list.filter = "year >=";
  list.page_token.clear();
  EXPECT_MDS_FAILS(partitions_->List(caller, list), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace ics::catalog::mds::testing
