// GetPartialCatalogObject for tables: every table_info_selector field,
// partition_ids semantics (unset / empty / listed / unknown), versions,
// lookup statuses, and the file-descriptor cap with continuation.
#include <gtest/gtest.h>

#include <optional>

#include "catalogd/fetch/partial_fetcher.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "tests/fetch/fetcher_fixture.h"

namespace ics::catalog {
namespace {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;
using impala::TErrorCode;
using impala::TGetPartialCatalogObjectRequest;
using impala::TGetPartialCatalogObjectResponse;
using impala::TTableInfoSelector;
using testing::DbReq;
using testing::FnReq;
using testing::IdsOf;
using testing::MakeDb;
using testing::MakeFunction;
using testing::MakeTable;
using testing::MakeUnloaded;
using testing::MakeView;
using testing::TableReq;
using testing::TableSpec;

class TableFetchSelectorTest : public testing::FetcherTestBase {};

// --- TABLE ------------------------------------------------------------------

TEST_F(TableFetchSelectorTest, TableHmsAndVersion) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_hms_table = true;
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::OK);
  EXPECT_EQ(r.object_version_number, install_version_);
  EXPECT_EQ(r.object_version_number, catalog_.GetTable("sales", "orders")->version);
  EXPECT_EQ(r.object_loaded_time_ms, 1234);
  ASSERT_TRUE(r.table_info.__isset.hms_table);
  EXPECT_EQ(r.table_info.hms_table.tableName, "orders");
  EXPECT_EQ(r.table_info.storage_metadata_load_time_ns, 5678);
  EXPECT_FALSE(r.table_info.__isset.partitions);  // no want_partition_*: no partitions
  EXPECT_FALSE(r.table_info.__isset.network_addresses);
  EXPECT_FALSE(r.table_info.__isset.column_stats);

  sel.want_hms_table = false;
  r = f->GetPartialCatalogObject(TableReq("Sales", "ORDERS", sel));
  ExpectOk(r);
  EXPECT_FALSE(r.table_info.__isset.hms_table);
}

TEST_F(TableFetchSelectorTest, VersionFollowsTheCurrentState) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  auto before = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ChangeSet cs;
  TableSpec spec;
  spec.num_partitions = 2;
  cs.put_tables.push_back(MakeTable(spec));
  const int64_t v = catalog_.Install(std::move(cs));
  auto after = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  EXPECT_GT(after.object_version_number, before.object_version_number);
  EXPECT_EQ(after.object_version_number, v);

  ChangeSet dbcs;
  dbcs.put_databases.push_back(MakeDb("sales"));
  const int64_t dv = catalog_.Install(std::move(dbcs));
  auto db = f->GetPartialCatalogObject(DbReq("sales", impala::TDbInfoSelector()));
  EXPECT_EQ(db.object_version_number, dv);
}

TEST_F(TableFetchSelectorTest, PartitionIdsUnsetMeansAll) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_names = true;
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  EXPECT_EQ(IdsOf(r), (std::vector<int64_t>{100, 101, 102, 103}));
  for (size_t i = 0; i < 4; ++i) {
    const auto& p = r.table_info.partitions[i];
    EXPECT_EQ(p.name, "day=" + std::to_string(i));
    EXPECT_FALSE(p.__isset.file_descriptors);
    EXPECT_FALSE(p.__isset.hms_partition);
    EXPECT_FALSE(p.__isset.hms_parameters);
    EXPECT_FALSE(p.__isset.partition_stats);
  }
  EXPECT_FALSE(r.table_info.__isset.network_addresses);  // files not requested
}

TEST_F(TableFetchSelectorTest, PartitionIdsEmptyMeansNone) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_names = true;
  sel.want_partition_files = true;
  sel.want_partition_metadata = true;
  sel.__set_partition_ids({});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  EXPECT_TRUE(r.table_info.__isset.partitions);
  EXPECT_TRUE(r.table_info.partitions.empty());
}

TEST_F(TableFetchSelectorTest, SpecificPartitionIdsInRequestOrder) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.__set_partition_ids({102, 100});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  // Listed ids come back even with no want_partition_* flag (id only).
  EXPECT_EQ(IdsOf(r), (std::vector<int64_t>{102, 100}));
  EXPECT_FALSE(r.table_info.partitions[0].__isset.name);
}

TEST_F(TableFetchSelectorTest, RepeatedPartitionIdsAreAnsweredOnce) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  std::vector<int64_t> ids(1'000'000, 101);
  ids.push_back(100);
  ids.push_back(101);
  sel.__set_partition_ids(ids);
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  EXPECT_EQ(IdsOf(r), (std::vector<int64_t>{101, 100}));
  EXPECT_EQ(r.table_info.partitions[0].file_descriptors.size(), 3u);
}

TEST_F(TableFetchSelectorTest, UnknownPartitionId) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.__set_partition_ids({100, 999});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::PARTITION_NOT_FOUND);
  EXPECT_FALSE(r.__isset.table_info);
}

TEST_F(TableFetchSelectorTest, PartitionMetadata) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_metadata = true;
  sel.__set_partition_ids({100, 101});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  ASSERT_EQ(r.table_info.partitions.size(), 2u);
  const auto& p0 = r.table_info.partitions[0];
  EXPECT_FALSE(p0.__isset.hms_partition);  // needs want_hms_partition
  EXPECT_EQ(p0.hms_parameters.at("numRows"), "0");
  EXPECT_TRUE(p0.has_incremental_stats);
  EXPECT_FALSE(r.table_info.partitions[1].has_incremental_stats);
  EXPECT_TRUE(p0.__isset.hdfs_storage_descriptor);
  EXPECT_EQ(p0.location.prefix_index, -1);
  EXPECT_EQ(p0.location.suffix, "/wh/sales.db/orders/day=0");
  EXPECT_FALSE(p0.__isset.file_descriptors);
  EXPECT_FALSE(p0.__isset.partition_stats);

  sel.want_hms_partition = true;
  r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ASSERT_TRUE(r.table_info.partitions[0].__isset.hms_partition);
  ASSERT_NE(r.table_info.partitions[0].hms_partition, nullptr);
  EXPECT_EQ(r.table_info.partitions[0].hms_partition->values, std::vector<std::string>{"0"});
}

TEST_F(TableFetchSelectorTest, PartitionFiles) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  TablePtr t = catalog_.GetTable("sales", "orders");
  ASSERT_EQ(r.table_info.partitions.size(), 4u);
  for (const auto& p : r.table_info.partitions) {
    const auto& stored = t->partitions.at(p.id)->file_descs;
    ASSERT_EQ(p.file_descriptors.size(), stored.size());
    for (size_t i = 0; i < stored.size(); ++i) {
      EXPECT_EQ(p.file_descriptors[i].file_desc_data, stored.Copy(i));
      auto fd = ReadFileDesc(p.file_descriptors[i].file_desc_data);
      ASSERT_TRUE(fd.ok());
      EXPECT_EQ(ToFileDescInfo(**fd).relative_path,
                "p" + std::to_string(p.id) + "-f" + std::to_string(i) + ".parq");
    }
    EXPECT_FALSE(p.__isset.name);
  }
  ASSERT_EQ(r.table_info.network_addresses.size(), 1u);
  EXPECT_EQ(r.table_info.network_addresses[0].hostname, "localhost");
  EXPECT_EQ(r.table_info.partition_prefixes, std::vector<std::string>{"/wh/sales.db/orders"});
}

TEST_F(TableFetchSelectorTest, PartitionStats) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_stats = true;
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  TablePtr t = catalog_.GetTable("sales", "orders");
  ASSERT_EQ(r.table_info.partitions.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto& p = r.table_info.partitions[i];
    if (i % 2 == 0) {
      ASSERT_TRUE(p.__isset.partition_stats);
      EXPECT_EQ(p.partition_stats, t->partitions.at(p.id)->partition_stats());
      auto decoded = DecodePartitionStats(p.partition_stats);
      ASSERT_TRUE(decoded.ok());
      EXPECT_EQ(decoded->stats.num_rows, static_cast<int64_t>(10 * i));
      EXPECT_TRUE(p.has_incremental_stats);
    } else {
      EXPECT_FALSE(p.__isset.partition_stats);
      EXPECT_FALSE(p.has_incremental_stats);
    }
  }
}

TEST_F(TableFetchSelectorTest, ColumnStats) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.__set_want_stats_for_column_names({"ID", "amount", "nope", "day"});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "orders", sel));
  ExpectOk(r);
  ASSERT_EQ(r.table_info.column_stats.size(), 2u);  // amount has none; nope unknown
  EXPECT_EQ(r.table_info.column_stats[0].colName, "id");
  EXPECT_EQ(r.table_info.column_stats[0].statsData.longStats.numDVs, 12345);
  EXPECT_EQ(r.table_info.column_stats[1].colName, "day");

  TTableInfoSelector all;
  all.__set_want_stats_for_all_columns(true);
  r = f->GetPartialCatalogObject(TableReq("sales", "orders", all));
  ASSERT_EQ(r.table_info.column_stats.size(), 2u);
  EXPECT_EQ(r.table_info.column_stats[0].colName, "day");  // schema order
  EXPECT_EQ(r.table_info.column_stats[1].colName, "id");

  TTableInfoSelector none;
  none.__set_want_stats_for_column_names({});
  r = f->GetPartialCatalogObject(TableReq("sales", "orders", none));
  EXPECT_TRUE(r.table_info.__isset.column_stats);
  EXPECT_TRUE(r.table_info.column_stats.empty());
}

TEST_F(TableFetchSelectorTest, View) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_hms_table = true;
  sel.want_partition_names = true;
  auto req = TableReq("sales", "v", sel);
  req.object_desc.type = TCatalogObjectType::VIEW;
  auto r = f->GetPartialCatalogObject(req);
  ExpectOk(r);
  EXPECT_EQ(r.table_info.hms_table.tableType, "VIRTUAL_VIEW");
  EXPECT_TRUE(r.table_info.partitions.empty());
}

TEST_F(TableFetchSelectorTest, TableLookupStatuses) {
  auto f = NewFetcher();  // ctx_.loads is null: unloaded tables stay unloaded
  TTableInfoSelector sel;
  sel.want_hms_table = true;
  auto r = f->GetPartialCatalogObject(TableReq("nodb", "orders", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
  r = f->GetPartialCatalogObject(TableReq("sales", "nope", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_FOUND);
  r = f->GetPartialCatalogObject(TableReq("sales", "lazy", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_LOADED);
  EXPECT_FALSE(r.__isset.table_info);

  // A recorded load failure travels as the error status.
  auto failed = MakeUnloaded("sales", "broken");
  failed->load_status = Status::IoError("cannot list /wh/sales.db/broken");
  ChangeSet cs;
  cs.put_tables.push_back(failed);
  catalog_.Install(std::move(cs));
  r = f->GetPartialCatalogObject(TableReq("sales", "broken", sel));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_LOADED);
  EXPECT_EQ(r.status.status_code, TErrorCode::GENERAL);
  ASSERT_EQ(r.status.error_msgs.size(), 1u);
  EXPECT_NE(r.status.error_msgs[0].find("cannot list"), std::string::npos);
  EXPECT_NE(r.status.error_msgs[0].find("sales.broken"), std::string::npos);
  EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
}

// --- file-descriptor cap ------------------------------------------------------

class FetchCapTest : public testing::FetcherTestBase {
 protected:
  void SetUp() override {
    FetcherTestBase::SetUp();
    TableSpec spec;
    spec.name = "big";
    spec.num_partitions = 10;
    spec.files_per_partition = 1;
    spec.extra_files_step = 1;  // partition i has i+1 files: 55 in all
    spec.first_partition_id = 1000;
    ChangeSet cs;
    cs.put_tables.push_back(MakeTable(spec));
    catalog_.Install(std::move(cs));
  }

  // Fetches `ids` (or all, when unset) with files, continuing until every
  // selected partition arrived. Returns the ids in arrival order.
  std::vector<int64_t> FetchAll(PartialFetcher* f, std::optional<std::vector<int64_t>> ids,
                                int64_t cap, int* rounds) {
    std::vector<int64_t> got;
    TTableInfoSelector sel;
    sel.want_partition_files = true;
    sel.want_partition_names = true;
    std::vector<int64_t> remaining;
    if (ids) {
      remaining = *ids;
    } else {
      // All partitions: the first answer is capped, and the caller learns the
      // ids to continue with from a names-only fetch (never capped).
      TTableInfoSelector names;
      names.want_partition_names = true;
      auto r = f->GetPartialCatalogObject(TableReq("sales", "big", names));
      remaining = IdsOf(r);
      EXPECT_EQ(remaining.size(), 10u);
    }
    *rounds = 0;
    bool first = true;
    while (!remaining.empty()) {
      if (!first || ids) sel.__set_partition_ids(remaining);
      first = false;
      auto r = f->GetPartialCatalogObject(TableReq("sales", "big", sel));
      EXPECT_EQ(r.status.status_code, TErrorCode::OK);
      ++*rounds;
      const auto& parts = r.table_info.partitions;
      EXPECT_FALSE(parts.empty());
      if (parts.empty()) break;
      int64_t files = 0;
      for (size_t i = 0; i < parts.size(); ++i) {
        EXPECT_EQ(parts[i].id, remaining[i]) << "answer is not a prefix of the selection";
        EXPECT_EQ(parts[i].file_descriptors.size(), static_cast<size_t>(parts[i].id - 1000 + 1));
        files += static_cast<int64_t>(parts[i].file_descriptors.size());
        got.push_back(parts[i].id);
      }
      if (parts.size() > 1) EXPECT_LE(files, cap);
      remaining.erase(remaining.begin(), remaining.begin() + static_cast<long>(parts.size()));
    }
    return got;
  }
};

TEST_F(FetchCapTest, PrefixThenContinuationGetsEverythingOnce) {
  PartialFetchOptions opts;
  opts.max_file_descs_per_response = 12;
  auto f = NewFetcher(opts);
  int rounds = 0;
  auto got = FetchAll(f.get(), std::nullopt, 12, &rounds);
  std::vector<int64_t> want;
  for (int i = 0; i < 10; ++i) want.push_back(1000 + i);
  EXPECT_EQ(got, want);  // nothing lost, nothing duplicated, in order
  // 1+2+3+4 | 5+6 | 7 | 8 | 9 | 10  (partition sizes 1..10, cap 12)
  EXPECT_EQ(rounds, 6);
}

TEST_F(FetchCapTest, ExplicitIdsInAnyOrder) {
  PartialFetchOptions opts;
  opts.max_file_descs_per_response = 10;
  auto f = NewFetcher(opts);
  std::vector<int64_t> ids = {1009, 1000, 1004, 1001, 1008, 1002};
  int rounds = 0;
  auto got = FetchAll(f.get(), ids, 10, &rounds);
  EXPECT_EQ(got, ids);
  EXPECT_GE(rounds, 3);
}

TEST_F(FetchCapTest, OversizedPartitionStillComesAlone) {
  PartialFetchOptions opts;
  opts.max_file_descs_per_response = 3;
  auto f = NewFetcher(opts);
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.__set_partition_ids({1009, 1000});  // 10 files, then 1
  auto r = f->GetPartialCatalogObject(TableReq("sales", "big", sel));
  ExpectOk(r);
  ASSERT_EQ(r.table_info.partitions.size(), 1u);
  EXPECT_EQ(r.table_info.partitions[0].id, 1009);
  EXPECT_EQ(r.table_info.partitions[0].file_descriptors.size(), 10u);
}

TEST_F(FetchCapTest, CapOnlyCountsWhenFilesAreRequested) {
  PartialFetchOptions opts;
  opts.max_file_descs_per_response = 1;
  auto f = NewFetcher(opts);
  TTableInfoSelector sel;
  sel.want_partition_metadata = true;
  sel.want_partition_stats = true;
  auto r = f->GetPartialCatalogObject(TableReq("sales", "big", sel));
  EXPECT_EQ(r.table_info.partitions.size(), 10u);
}

TEST_F(FetchCapTest, UnknownIdBeyondTheCapIsStillReported) {
  PartialFetchOptions opts;
  opts.max_file_descs_per_response = 1;
  auto f = NewFetcher(opts);
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.__set_partition_ids({1000, 1001, 424242});
  auto r = f->GetPartialCatalogObject(TableReq("sales", "big", sel));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::PARTITION_NOT_FOUND);
}

}  // namespace
}  // namespace ics::catalog
