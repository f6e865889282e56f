// PartialFetcher with a real TableLoadManager + TableLoader over an
// in-memory fake Metastore and the SyntheticFileSystem: tables are loaded
// on demand, load failures surface as TABLE_NOT_LOADED with the error.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "catalogd/fetch/partial_fetcher.h"
#include "tests/fetch/fetch_test_util.h"

namespace ics::catalog {
namespace {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;
using impala::TErrorCode;

// Serves a fixed set of tables; everything else is NOT_FOUND, and tables
// listed in `failing` fail with an I/O error.
class FakeMetastore final : public Metastore {
 public:
  std::map<std::pair<std::string, std::string>, hive::Table> tables;
  std::map<std::pair<std::string, std::string>, std::string> failing;

  Result<std::vector<std::string>> GetAllDatabases() override {
    return std::vector<std::string>{"sales"};
  }
  Result<hive::Database> GetDatabase(const std::string& db) override {
    if (db != "sales") return Status::NotFound("no database " + db);
    hive::Database d;
    d.name = db;
    return d;
  }
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override {
    std::vector<std::string> out;
    for (const auto& [k, t] : tables) {
      if (k.first == db) out.push_back(k.second);
    }
    return out;
  }
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override {
    auto f = failing.find({db, table});
    if (f != failing.end()) return Status::IoError(f->second);
    auto it = tables.find({db, table});
    if (it == tables.end()) return Status::NotFound("no table " + db + "." + table);
    return it->second;
  }
  Result<std::vector<hive::Partition>> GetPartitions(const std::string&,
                                                     const std::string&) override {
    return std::vector<hive::Partition>{};
  }
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string&, const std::string&, const std::vector<std::string>&) override {
    return std::vector<hive::Partition>{};
  }
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string&) override {
    return std::vector<impala::TFunction>{};
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(const std::string&,
                                                                     const std::string&) override {
    return std::vector<hive::ColumnStatisticsObj>{};
  }
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string&, const std::string&, const std::string&) override {
    return std::vector<hive::ColumnStatisticsObj>{};
  }
  Result<int64_t> Commit(const MetastoreTxn&) override {
    return Status::NotImplemented("read-only fake");
  }
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t, int) override {
    return std::vector<NotificationEvent>{};
  }
  Result<int64_t> CurrentNotificationEventId() override { return int64_t{0}; }
};

hive::Table HmsTable(const std::string& db, const std::string& name) {
  hive::Table t;
  t.dbName = db;
  t.tableName = name;
  t.tableType = "MANAGED_TABLE";
  t.sd.location = "/wh/" + db + ".db/" + name;
  hive::FieldSchema col;
  col.name = "id";
  col.type = "bigint";
  t.sd.cols.push_back(col);
  return t;
}

class FetchLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ms_.tables[{"sales", "lazy"}] = HmsTable("sales", "lazy");
    ms_.failing[{"sales", "broken"}] = "disk on fire";
    SyntheticFileSystemOptions fs_opts;
    fs_opts.files_per_dir = 7;
    fs_ = std::make_unique<SyntheticFileSystem>(fs_opts);
    LoaderOptions lo;
    lo.num_threads = 2;
    loader_ = std::make_unique<TableLoader>(&ms_, fs_.get(), lo, catalog_.partition_id_allocator());
    loads_ = std::make_unique<TableLoadManager>(&catalog_, loader_.get(), 0);
    ChangeSet cs;
    cs.put_databases.push_back(testing::MakeDb("sales"));
    cs.put_tables.push_back(MakeUnloadedTable("sales", "lazy"));
    cs.put_tables.push_back(MakeUnloadedTable("sales", "broken"));
    cs.put_tables.push_back(MakeUnloadedTable("sales", "gone"));  // not in the metastore
    initial_version_ = catalog_.Install(std::move(cs));
    ctx_.catalog = &catalog_;
    ctx_.metastore = &ms_;
    ctx_.fs = fs_.get();
    ctx_.loader = loader_.get();
    ctx_.loads = loads_.get();
    fetcher_ = std::make_unique<PartialFetcher>(&ctx_, PartialFetchOptions{});
  }

  impala::TGetPartialCatalogObjectResponse Fetch(const std::string& table) {
    impala::TGetPartialCatalogObjectRequest req;
    req.object_desc.type = TCatalogObjectType::TABLE;
    req.object_desc.table.db_name = "sales";
    req.object_desc.table.tbl_name = table;
    impala::TTableInfoSelector sel;
    sel.want_hms_table = true;
    sel.want_partition_names = true;
    sel.want_partition_files = true;
    req.__set_table_info_selector(sel);
    return fetcher_->GetPartialCatalogObject(req);
  }

  FakeMetastore ms_;
  std::unique_ptr<SyntheticFileSystem> fs_;
  Catalog catalog_;
  std::unique_ptr<TableLoader> loader_;
  std::unique_ptr<TableLoadManager> loads_;
  CatalogContext ctx_;
  std::unique_ptr<PartialFetcher> fetcher_;
  int64_t initial_version_ = 0;
};

TEST_F(FetchLoadTest, LoadsOnDemand) {
  ASSERT_FALSE(catalog_.GetTable("sales", "lazy")->loaded);
  auto r = Fetch("lazy");
  ASSERT_EQ(r.status.status_code, TErrorCode::OK) << ::testing::PrintToString(r.status.error_msgs);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::OK);
  TablePtr t = catalog_.GetTable("sales", "lazy");
  ASSERT_TRUE(t->loaded);
  EXPECT_GT(r.object_version_number, initial_version_);
  EXPECT_EQ(r.object_version_number, t->version);
  EXPECT_EQ(r.table_info.hms_table.tableName, "lazy");
  ASSERT_EQ(r.table_info.partitions.size(), 1u);  // unpartitioned: one partition ""
  EXPECT_EQ(r.table_info.partitions[0].name, "");
  EXPECT_EQ(r.table_info.partitions[0].file_descriptors.size(), 7u);

  // The second fetch uses the loaded state: same version.
  auto again = Fetch("lazy");
  EXPECT_EQ(again.object_version_number, r.object_version_number);
}

TEST_F(FetchLoadTest, LoadFailureIsTableNotLoadedWithTheError) {
  auto r = Fetch("broken");
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_LOADED);
  EXPECT_NE(r.status.status_code, TErrorCode::OK);
  ASSERT_FALSE(r.status.error_msgs.empty());
  EXPECT_NE(r.status.error_msgs[0].find("disk on fire"), std::string::npos);
  EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
  EXPECT_FALSE(r.__isset.table_info);
  EXPECT_FALSE(catalog_.GetTable("sales", "broken")->load_status.ok());

  // A table the metastore no longer has: still listed in the catalog, so
  // it is a load failure, not TABLE_NOT_FOUND.
  r = Fetch("gone");
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_LOADED);
  EXPECT_NE(r.status.status_code, TErrorCode::OK);
  r = Fetch("never");
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_FOUND);
  EXPECT_EQ(r.status.status_code, TErrorCode::OK);
}

TEST_F(FetchLoadTest, WholeObjectReadsLoadToo) {
  impala::TCatalogObject desc;
  desc.type = TCatalogObjectType::TABLE;
  desc.table.db_name = "sales";
  desc.table.tbl_name = "lazy";
  auto obj = fetcher_->GetCatalogObject(desc);
  ASSERT_TRUE(obj.ok()) << obj.status().ToString();
  EXPECT_EQ(obj->table.hdfs_table.partitions.size(), 1u);

  impala::TTableName name;
  name.db_name = "sales";
  name.table_name = "lazy";
  auto stats = fetcher_->GetPartitionStats(name);
  ASSERT_TRUE(stats.ok());
  EXPECT_TRUE(stats->empty());

  name.table_name = "broken";
  auto bad = fetcher_->GetPartitionStats(name);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("disk on fire"), std::string::npos);
}

}  // namespace
}  // namespace ics::catalog
