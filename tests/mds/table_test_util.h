// Fixture and builders for the TableService tests: a real catalogd stack in
// a temp dir (SQLite metastore, local filesystem, loader, catalog, DDL
// executor) plus the table commands (catalogd/ops/table_commands.h) over
// it and the TableService door over them (service_: Thrift requests in,
// Thrift payloads or the commands' Status out), and Restart() to reopen
// everything on the same files.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <cstdlib>
#include <filesystem>

#include "catalogd/catalog/catalog.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/mds/table_service_door.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/table_commands.h"
#include "catalogd/service/impala_caller.h"
#include "catalogd/service/impala_commands.h"
#include "common/types/column_type.h"
#include "tests/mds/catalog_stack_test.h"

namespace ics::catalog::testing {

using TTS = thrift::TMetastoreServiceErrorCode;

#define ASSERT_RESULT_OK(expr)                                       \
  do {                                                               \
    const auto& _r = (expr);                                         \
    ASSERT_TRUE(_r.ok()) << _r.status().ToString();                  \
  } while (false)

#define EXPECT_CODE(expr, want)                                                  \
  do {                                                                           \
    const auto& _r = (expr);                                                     \
    EXPECT_FALSE(_r.ok()) << "expected " #want;                                  \
    if (!_r.ok()) EXPECT_EQ(_r.status().code(), want) << _r.status().ToString(); \
  } while (false)

#define EXPECT_STATUS_CODE(expr, want)                               \
  do {                                                               \
    const Status _s = (expr);                                        \
    EXPECT_EQ(_s.code(), want) << _s.ToString();                     \
  } while (false)

inline impala::TColumn Col(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  Result<impala::TColumnType> t = ParseHiveType(type);
  EXPECT_TRUE(t.ok()) << type;
  if (t.ok()) c.columnType = *t;
  return c;
}

inline impala::TTableName Name(const std::string& db, const std::string& table) {
  impala::TTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

inline impala::TDdlExecRequest Req(impala::TDdlType::type type) {
  impala::TDdlExecRequest r;
  r.protocol_version = impala::CatalogServiceVersion::V2;
  r.ddl_type = type;
  return r;
}

// Asserts that `expr` (a Result<DdlOutcome>) succeeded.
#define ASSERT_DDL_OK(var, expr)                                      \
  auto var##_result = (expr);                                         \
  ASSERT_TRUE(var##_result.ok()) << var##_result.status().ToString(); \
  (void)var##_result

// The real stack in a temp dir: SQLite metastore, local filesystem,
// loader, catalog, load manager, DDL executor; and the TableService.
class TableServiceTest : public CatalogStackTest {
 protected:
  void SetUp() override {
    MakeRoot("ics_table_test");
    warehouse_ = root_ + "/warehouse";
    Open();
  }

  void TearDown() override {
    Close();
    RemoveRoot();
  }

  void Open() {
    OpenCatalogStack(&fs_);
    tables_ = std::make_shared<ops::TableCommands>(&ctx_, core_.get(), queries_.get());
    service_ = std::make_unique<mds::TableServiceDoor>(tables_);
  }

  void Close() {
    service_.reset();
    tables_.reset();
    CloseCatalogStack();
  }

  // Closes and reopens the metastore file and rebuilds the catalog from it.
  void Restart() {
    Close();
    Open();
  }

  // An Impala DDL request as the CatalogService door runs it.
  Result<DdlOutcome> Exec(const impala::TDdlExecRequest& r) {
    return ExecImpalaDdl(core_.get(), ImpalaCaller(r), r);
  }

  Result<DdlOutcome> CreateDb(const std::string& db) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_DATABASE);
    r.__isset.create_db_params = true;
    r.create_db_params.db = db;
    r.create_db_params.owner = "alice";
    return Exec(r);
  }

  Result<DdlOutcome> CreateTable(const std::string& db, const std::string& table,
                                 std::vector<impala::TColumn> partition_columns = {}) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_TABLE);
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name = Name(db, table);
    p.columns = {Col("id", "int"), Col("name", "string")};
    if (!partition_columns.empty()) p.__set_partition_columns(partition_columns);
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.is_external = false;
    p.if_not_exists = false;
    p.owner = "alice";
    return Exec(r);
  }

  // db.t partitioned by (year int, month string) with one partition.
  void MakePartitionedTable(const std::string& db, const std::string& table,
                            const std::string& year, const std::string& month) {
    auto r = CreateTable(db, table, {Col("year", "int"), Col("month", "string")});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    impala::TDdlExecRequest a = Req(impala::TDdlType::ALTER_TABLE);
    a.__isset.alter_table_params = true;
    a.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
    a.alter_table_params.table_name = Name(db, table);
    a.alter_table_params.__isset.add_partition_params = true;
    impala::TPartitionDef def;
    impala::TPartitionKeyValue y, m;
    y.name = "year";
    y.value = year;
    m.name = "month";
    m.value = month;
    def.partition_spec = {y, m};
    a.alter_table_params.add_partition_params.partitions.push_back(def);
    auto added = Exec(a);
    ASSERT_TRUE(added.ok()) << added.status().ToString();
  }

  impala::TDdlExecRequest DropTableReq(const std::string& db, const std::string& table) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::DROP_TABLE);
    r.__isset.drop_table_or_view_params = true;
    r.drop_table_or_view_params.table_name = Name(db, table);
    r.drop_table_or_view_params.if_exists = false;
    r.drop_table_or_view_params.purge = false;
    return r;
  }

  TablePtr Loaded(const std::string& db, const std::string& table) {
    auto r = loads_->GetLoaded(db, table);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  thrift::TTableInput InputFrom(const thrift::TTableInfo& info) {
    thrift::TTableInput in;
    const hive::Table& t = info.table;
    in.name = t.tableName;
    in.__set_owner(t.owner);
    in.__set_sd(t.sd);
    in.__set_partition_keys(t.partitionKeys);
    in.__set_table_type(t.tableType);
    in.__set_parameters(t.parameters);
    in.view_original_text = t.viewOriginalText;
    in.view_expanded_text = t.viewExpandedText;
    return in;
  }

  thrift::TTableInfo Get(const std::string& db, const std::string& table) {
    thrift::TGetTableRequest r;
    r.db_name = db;
    r.table_name = table;
    auto res = service_->GetTable(r);
    EXPECT_TRUE(res.ok()) << res.status().ToString();
    return res.ok() ? *res : thrift::TTableInfo();
  }

  // Sets parameter k=v (and optionally the description) through UpdateTable.
  Result<thrift::TUpdateTableResponse> Update(const std::string& db, const std::string& table,
                                              const std::string& k, const std::string& v,
                                              bool skip_archive = false) {
    thrift::TTableInput in = InputFrom(Get(db, table));
    in.parameters[k] = v;
    thrift::TUpdateTableRequest r;
    r.db_name = db;
    r.table_input = in;
    if (skip_archive) r.__set_skip_archive(true);
    return service_->UpdateTable(r);
  }

  void MakeDbAndTables(const std::string& db, const std::vector<std::string>& tables) {
    auto c = CreateDb(db);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    for (const std::string& t : tables) {
      auto r = CreateTable(db, t);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
  }

  std::string warehouse_;
  LocalFileSystem fs_;
  std::shared_ptr<ops::TableCommands> tables_;
  std::unique_ptr<mds::TableServiceDoor> service_;
};

}  // namespace ics::catalog::testing
