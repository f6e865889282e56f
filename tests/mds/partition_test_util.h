// Fixture for the PartitionService tests: a real catalogd stack in a temp
// directory — the SQLite metastore, the local filesystem (wrapped for fault
// injection), a Catalog, a TableLoader, a TableLoadManager, a DdlExecutor —
// the partition commands (catalogd/ops/partition_commands.h) on top, and
// the PartitionService door over them (svc_: Thrift requests in, Thrift
// responses or the commands' Status out), plus request builders.
//
// Thread-safety: used by one test thread; FaultyFileSystem is thread-safe.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "PartitionService_types.h"
#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/mds/partition_service_door.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/partition_commands.h"
#include "catalogd/service/impala_caller.h"
#include "catalogd/service/impala_commands.h"
#include "common/types/column_type.h"
#include "tests/mds/catalog_stack_test.h"

namespace ics::catalog::mds::testing {

// The partition commands' names (options, limits, the pieces they own).
using namespace ::ics::catalog::ops;  // NOLINT(build/namespaces)

// LocalFileSystem whose CreateDirectories fails for paths containing a
// chosen substring.
class FaultyFileSystem final : public FileSystem {
 public:
  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override {
    return local_.ListFiles(dir);
  }
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override {
    return local_.ListSubdirectories(dir);
  }
  Status CreateDirectories(const std::string& path) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!fail_create_.empty() && path.find(fail_create_) != std::string::npos) {
        return Status::IoError("injected failure creating " + path);
      }
    }
    return local_.CreateDirectories(path);
  }
  Status RemoveAll(const std::string& path) override { return local_.RemoveAll(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return local_.Rename(from, to);
  }
  Result<bool> Exists(const std::string& path) override { return local_.Exists(path); }

  void FailCreate(std::string substr) {
    std::lock_guard<std::mutex> l(mu_);
    fail_create_ = std::move(substr);
  }

 private:
  LocalFileSystem local_;
  std::mutex mu_;
  std::string fail_create_;
};

inline impala::TColumn Col(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  Result<impala::TColumnType> t = ParseHiveType(type);
  EXPECT_TRUE(t.ok()) << type;
  if (t.ok()) c.columnType = *t;
  return c;
}

inline thrift::TPartitionTableName TableName(const std::string& db, const std::string& table) {
  thrift::TPartitionTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

inline thrift::TMetastorePartition Part(std::vector<std::string> values) {
  thrift::TMetastorePartition p;
  p.values = std::move(values);
  return p;
}

class PartitionServiceTest : public ics::catalog::testing::CatalogStackTest {
 protected:
  void SetUp() override {
    MakeRoot("ics_mds_test");
    OpenStack();
  }

  void TearDown() override {
    CloseStack();
    RemoveRoot();
  }

  // (Re)creates everything above the metastore file, as a restart would.
  void OpenStack() {
    OpenCatalogStack(&fs_);
    PartitionCommandsOptions po;
    po.streams = stream_options_;
    po.max_staged_bytes_total = max_staged_bytes_total_;
    partitions_ = std::make_shared<PartitionCommands>(&ctx_, core_.get(), po);
    svc_ = std::make_unique<PartitionServiceDoor>(partitions_);
  }

  void CloseStack() {
    if (partitions_) partitions_->Shutdown();
    svc_.reset();
    partitions_.reset();
    CloseCatalogStack();
  }

  void CreateDb(const std::string& db) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_DATABASE;
    r.__isset.create_db_params = true;
    r.create_db_params.db = db;
    auto out = ExecImpalaDdl(core_.get(), ImpalaCaller(r), r);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
  }

  // db.table with data column (id int) and the given partition keys.
  void CreateTable(const std::string& db, const std::string& table,
                   const std::vector<impala::TColumn>& keys, bool external = false) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_TABLE;
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = db;
    p.table_name.table_name = table;
    p.columns = {Col("id", "int")};
    if (!keys.empty()) p.__set_partition_columns(keys);
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.is_external = external;
    p.owner = "alice";
    auto out = ExecImpalaDdl(core_.get(), ImpalaCaller(r), r);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
  }

  // sales.t partitioned by (year int, region string, dt date).
  void MakeSalesTable() {
    CreateDb("sales");
    CreateTable("sales", "t", {Col("year", "int"), Col("region", "string"), Col("dt", "date")});
  }

  thrift::TBatchCreatePartitionsRequest CreateReq(const std::string& db, const std::string& table,
                                                  std::vector<thrift::TMetastorePartition> parts,
                                                  bool skip_existing = false) {
    thrift::TBatchCreatePartitionsRequest r;
    r.table = TableName(db, table);
    r.partitions = std::move(parts);
    r.__set_skip_existing_partitions(skip_existing);
    return r;
  }

  Result<thrift::TListPartitionsResponse> List(const std::string& db, const std::string& table,
                                               const std::string& filter, int page_size = 0,
                                               const std::string& token = "") {
    thrift::TListPartitionsRequest r;
    r.table = TableName(db, table);
    if (!filter.empty()) r.__set_filter(filter);
    if (page_size != 0) r.__set_page_size(page_size);
    if (!token.empty()) r.__set_page_token(token);
    return svc_->List(r);
  }

  // Values of every partition that matches `filter`, following pages.
  std::vector<std::vector<std::string>> ListAll(const std::string& db, const std::string& table,
                                                const std::string& filter, int page_size = 0) {
    std::vector<std::vector<std::string>> out;
    std::string token;
    do {
      auto r = List(db, table, filter, page_size, token);
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) break;
      for (const auto& p : r->partitions) out.push_back(p.values);
      token = r->next_page_token;
    } while (!token.empty());
    return out;
  }

  size_t MetastorePartitionCount(const std::string& db, const std::string& table) {
    auto parts = metastore_->GetPartitions(db, table);
    EXPECT_TRUE(parts.ok()) << parts.status().ToString();
    return parts.ok() ? parts->size() : 0;
  }

  FaultyFileSystem fs_;
  WriteStreamOptions stream_options_;
  int64_t max_staged_bytes_total_ = 1ll << 30;  // PartitionCommandsOptions default
  std::shared_ptr<PartitionCommands> partitions_;
  std::unique_ptr<PartitionServiceDoor> svc_;
};

inline Status StatusOf(const Status& s) { return s; }
template <typename T>
Status StatusOf(const Result<T>& r) {
  return r.ok() ? Status::OK() : r.status();
}

// Expects `expr` (a Status or a Result) to fail with `expected` and the
// catalog version to stay as it was.
#define EXPECT_MDS_FAILS(expr, expected)                                              \
  do {                                                                                \
    const int64_t _v_before = catalog_->version();                                    \
    const Status _s = StatusOf(expr);                                                 \
    EXPECT_FALSE(_s.ok()) << "expected " #expected;                                   \
    if (!_s.ok()) EXPECT_EQ(_s.code(), expected) << _s.ToString();                    \
    EXPECT_EQ(catalog_->version(), _v_before) << "a failed call changed the catalog"; \
  } while (false)

}  // namespace ics::catalog::mds::testing
