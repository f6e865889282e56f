// Shared fixture of the PartialFetcher tests: a catalog with
//   sales        orders (loaded; partitions 100..103 "day=0".."day=3", 3 files
//                each, partition stats on day=0 and day=2, column stats on
//                day and id), v (view), lazy (unloaded, EXTERNAL_TABLE), bare
//                (unloaded, type unknown), functions f(INT), f(STRING), g()
//   empty        nothing
// installed in one change (install_version_), no load manager; plus request
// builders.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/fetch/partial_fetcher.h"
#include "tests/fetch/fetch_test_util.h"

namespace ics::catalog::testing {

using impala::TCatalogObjectType;
using impala::TErrorCode;
using impala::TGetPartialCatalogObjectRequest;
using impala::TGetPartialCatalogObjectResponse;
using impala::TTableInfoSelector;

inline TGetPartialCatalogObjectRequest TableReq(const std::string& db, const std::string& tbl,
                                                const TTableInfoSelector& sel) {
  TGetPartialCatalogObjectRequest req;
  req.object_desc.type = TCatalogObjectType::TABLE;
  req.object_desc.__isset.table = true;
  req.object_desc.table.db_name = db;
  req.object_desc.table.tbl_name = tbl;
  req.__set_table_info_selector(sel);
  return req;
}

inline TGetPartialCatalogObjectRequest DbReq(const std::string& db,
                                             const impala::TDbInfoSelector& sel) {
  TGetPartialCatalogObjectRequest req;
  req.object_desc.type = TCatalogObjectType::DATABASE;
  req.object_desc.__isset.db = true;
  req.object_desc.db.db_name = db;
  req.__set_db_info_selector(sel);
  return req;
}

inline TGetPartialCatalogObjectRequest FnReq(const std::string& db, const std::string& name) {
  TGetPartialCatalogObjectRequest req;
  req.object_desc.type = TCatalogObjectType::FUNCTION;
  req.object_desc.__isset.fn = true;
  req.object_desc.fn.name.__set_db_name(db);
  req.object_desc.fn.name.function_name = name;
  return req;
}

inline std::vector<int64_t> IdsOf(const TGetPartialCatalogObjectResponse& r) {
  std::vector<int64_t> ids;
  for (const auto& p : r.table_info.partitions) ids.push_back(p.id);
  return ids;
}

class FetcherTestBase : public ::testing::Test {
 protected:
  void SetUp() override {
    ChangeSet cs;
    cs.put_databases.push_back(MakeDb("sales"));
    cs.put_databases.push_back(MakeDb("empty"));
    cs.put_tables.push_back(MakeTable(TableSpec{}));  // ids 100..103, 3 files each
    cs.put_tables.push_back(MakeView("sales", "v"));
    cs.put_tables.push_back(MakeUnloaded("sales", "lazy", "EXTERNAL_TABLE"));
    cs.put_tables.push_back(MakeUnloaded("sales", "bare"));
    cs.put_functions.push_back(MakeFunction("sales", "f", "INT"));
    cs.put_functions.push_back(MakeFunction("sales", "f", "STRING"));
    cs.put_functions.push_back(MakeFunction("sales", "g", ""));
    install_version_ = catalog_.Install(std::move(cs));
    ctx_.catalog = &catalog_;
  }

  std::unique_ptr<PartialFetcher> NewFetcher(PartialFetchOptions opts = {}) {
    return std::make_unique<PartialFetcher>(&ctx_, std::move(opts));
  }

  void ExpectOk(const TGetPartialCatalogObjectResponse& r) {
    ASSERT_TRUE(r.__isset.status);
    EXPECT_EQ(r.status.status_code, TErrorCode::OK)
        << ::testing::PrintToString(r.status.error_msgs);
    ASSERT_TRUE(r.__isset.catalog_service_id);
    EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
  }

  Catalog catalog_;
  CatalogContext ctx_;
  int64_t install_version_ = 0;
};

}  // namespace ics::catalog::testing
